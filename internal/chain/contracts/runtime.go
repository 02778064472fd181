package contracts

import (
	_ "embed"
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
)

// settlementRuntimeJSON is contracts/build/Settlement.runtime.json (hack/contracts.sh copies it):
// the code a deployment of Settlement holds, and where the constructor writes its immutables.
//
//go:embed settlement.runtime.json
var settlementRuntimeJSON []byte

// permit2RuntimeJSON is contracts/build/Permit2.runtime.json, likewise: Uniswap's Permit2 compiled
// as its canonical deployment was.
//
//go:embed permit2.runtime.json
var permit2RuntimeJSON []byte

// runtime is deployed code with the ranges that differ per deployment.
type runtime struct {
	Code       string `json:"code"`
	Immutables []struct {
		Start  int `json:"start"`
		Length int `json:"length"`
	} `json:"immutables"`
}

// deployedCode is a contract's deployed code, and which of its bytes differ per deployment.
type deployedCode struct {
	code   []byte
	masked []bool
}

func mustDeployedCode(name string, runtimeJSON []byte) deployedCode {
	var r runtime
	if err := json.Unmarshal(runtimeJSON, &r); err != nil || r.Code == "" {
		panic("contracts: " + name + " does not hold the contract's code: run make contracts")
	}
	code := common.FromHex(r.Code)
	masked := make([]bool, len(code))
	for _, im := range r.Immutables {
		for i := im.Start; i < im.Start+im.Length && i < len(masked); i++ {
			masked[i] = true
		}
	}
	return deployedCode{code: code, masked: masked}
}

// matches reports whether code equals the deployed code byte for byte outside its immutables.
func (d deployedCode) matches(code []byte) bool {
	if len(code) != len(d.code) {
		return false
	}
	for i, b := range d.code {
		if !d.masked[i] && code[i] != b {
			return false
		}
	}
	return true
}

// Both are read once.
var (
	settlementCode = mustDeployedCode("settlement.runtime.json", settlementRuntimeJSON)
	permit2Code    = mustDeployedCode("permit2.runtime.json", permit2RuntimeJSON)
)

// IsSettlementCode reports whether code (eth_getCode of an address) is this release's Settlement,
// byte for byte outside its immutables (the attester, the refund delay, Permit2's address, the
// EIP-712 domain's cached values): the deployed contract's rules, not only its answers. A
// look-alike that answers attester() with the right address has other code.
func IsSettlementCode(code []byte) bool { return settlementCode.matches(code) }

// IsPermit2Code reports whether code is Uniswap's Permit2 outside its immutables (the EIP-712
// domain it caches at deployment).
func IsPermit2Code(code []byte) bool { return permit2Code.matches(code) }

// CanonicalPermit2 is Permit2's address on every public chain (deployed there with the same
// CREATE2 salt), and on the development chains of internal/chain/devchain.
var CanonicalPermit2 = common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")

// Permit2GenesisCode is Permit2's deployed code with its immutables left zero, for a development
// chain's genesis: with no cached chain id, Permit2 computes its EIP-712 domain from the chain id
// and its own address on every call, so the same code is correct at any address on any chain (a
// few hundred gas dearer per signature check than a deployment, which caches them).
func Permit2GenesisCode() []byte { return append([]byte(nil), permit2Code.code...) }
