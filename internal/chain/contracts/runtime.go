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

// runtime is deployed code with the ranges that differ per deployment.
type runtime struct {
	Code       string `json:"code"`
	Immutables []struct {
		Start  int `json:"start"`
		Length int `json:"length"`
	} `json:"immutables"`
}

// settlementCode is the deployed code, and settlementMasked marks its bytes that differ per
// deployment; both are read once.
var settlementCode, settlementMasked = func() ([]byte, []bool) {
	var r runtime
	if err := json.Unmarshal(settlementRuntimeJSON, &r); err != nil || r.Code == "" {
		panic("contracts: settlement.runtime.json does not hold the settlement contract's code: run make contracts")
	}
	code := common.FromHex(r.Code)
	masked := make([]bool, len(code))
	for _, im := range r.Immutables {
		for i := im.Start; i < im.Start+im.Length && i < len(masked); i++ {
			masked[i] = true
		}
	}
	return code, masked
}()

// IsSettlementCode reports whether code (eth_getCode of an address) is this release's Settlement,
// byte for byte outside its immutables (the attester, the refund delay, the EIP-712 domain's
// cached values): the deployed contract's rules, not only its answers. A look-alike that answers
// attester() with the right address has other code.
func IsSettlementCode(code []byte) bool {
	if len(code) != len(settlementCode) {
		return false
	}
	for i, b := range settlementCode {
		if !settlementMasked[i] && code[i] != b {
			return false
		}
	}
	return true
}
