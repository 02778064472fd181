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

var settlementRuntime = func() runtime {
	var r runtime
	if err := json.Unmarshal(settlementRuntimeJSON, &r); err != nil || r.Code == "" {
		panic("contracts: settlement.runtime.json does not hold the settlement contract's code: run make contracts")
	}
	return r
}()

// IsSettlementCode reports whether code (eth_getCode of an address) is this release's Settlement,
// byte for byte outside its immutables (the attester, the refund delay, the EIP-712 domain's
// cached values): the deployed contract's rules, not only its answers. A look-alike that answers
// attester() with the right address has other code.
func IsSettlementCode(code []byte) bool {
	want := common.FromHex(settlementRuntime.Code)
	if len(code) != len(want) {
		return false
	}
	masked := make([]bool, len(want))
	for _, im := range settlementRuntime.Immutables {
		for i := im.Start; i < im.Start+im.Length && i < len(masked); i++ {
			masked[i] = true
		}
	}
	for i := range want {
		if !masked[i] && code[i] != want[i] {
			return false
		}
	}
	return true
}
