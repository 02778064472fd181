package intent

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// SendCallsOf keeps the calls' order, skips absent ones, writes values as hex quantities and
// chain ids in hex, and refuses calls on two chains or a value that is not a decimal amount.
func TestSendCallsOf(t *testing.T) {
	from := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	approve := &Tx{To: "0x00000000000000000000000000000000000000bb", Data: "0x095ea7b3", Value: "0", ChainID: 8453}
	open := &Tx{To: "0x00000000000000000000000000000000000000cc", Data: "0xe917a962", Value: "1000000000000000000", ChainID: 8453}
	got, err := SendCallsOf(from, nil, approve, open)
	if err != nil || got.ChainID != "0x2105" || got.From != from.Hex() || got.Version != "2.0.0" || got.AtomicRequired ||
		len(got.Calls) != 2 || got.Calls[0].Data != "0x095ea7b3" || got.Calls[0].Value != "0x0" || got.Calls[1].Value != "0xde0b6b3a7640000" {
		t.Fatalf("SendCallsOf = %+v, %v", got, err)
	}
	if got, err := SendCallsOf(from); got != nil || err != nil {
		t.Errorf("no calls: %+v, %v", got, err)
	}
	other := *open
	other.ChainID = 1
	if _, err := SendCallsOf(from, approve, &other); err == nil {
		t.Error("calls on two chains were accepted")
	}
	bad := *open
	bad.Value = "-1"
	if _, err := SendCallsOf(from, &bad); err == nil {
		t.Error("a negative value was accepted")
	}
}
