package watcher

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// An order's transaction opens it only with the Opened(orderId) event of the contract it calls
// (spec.tx.to) in its final receipt. The same event from another contract in the receipt (a
// look-alike the transaction reached, say) escrows nothing: the intent fails NotOpened, and no
// fill can be confirmed for it.
func TestAnOpenedEventOfAnotherContractDoesNotOpenTheOrder(t *testing.T) {
	user := orderUser
	lookalike := common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0")
	tx := common.HexToHash("0x0e")
	s := Submitted{
		Name: "swap", Hash: tx, Block: 7, BlockHash: common.HexToHash("0xb7"),
		Order: true, OrderID: bridgeOrderID, Settler: originSettler,
	}
	receipt := func(from ...common.Address) *jsonrpc.Receipt {
		ev := contracts.NewSettlement().GetABI().Events["Opened"]
		data, err := ev.Inputs.NonIndexed().Pack(settlement.Plain(contracts.Order{
			OriginSettler: originSettler, OriginChainId: big.NewInt(1337), User: user, DestinationChainId: big.NewInt(1337),
			AmountIn: big.NewInt(25_000_000), MinAmountOut: big.NewInt(24_000_000), DestinationSettler: originSettler,
		}))
		if err != nil {
			t.Fatal(err)
		}
		r := &jsonrpc.Receipt{Status: types.ReceiptStatusSuccessful, BlockNumber: s.Block, BlockHash: s.BlockHash, GasUsed: 90_000}
		for _, a := range from {
			r.Logs = append(r.Logs, types.Log{Address: a, Topics: []common.Hash{ev.ID, bridgeOrderID, common.BytesToHash(user.Bytes())},
				Data: data, BlockNumber: s.Block, BlockHash: s.BlockHash, TxHash: tx})
		}
		return r
	}
	if !opens(receipt(originSettler), s) {
		t.Fatal("the Opened event of the contract the transaction calls does not open the order")
	}
	for name, r := range map[string]*jsonrpc.Receipt{
		"a look-alike's":            receipt(lookalike),
		"the destination settler's": receipt(destSettler),
		"none":                      receipt(),
	} {
		if opens(r, s) {
			t.Errorf("the receipt with %s Opened event opens the order", name)
		}
	}

	// follow decides on the final receipt of the swap's transaction and returns the intent after.
	follow := func(t *testing.T, r *jsonrpc.Receipt) *v1alpha1.TransferIntent {
		t.Helper()
		f, kube := followerOf(t, 1337, "swap", v1alpha1.TransferIntentStatus{
			Phase: v1alpha1.IntentPhaseSubmitted, Hash: tx.Hex(), BlockNumber: int64(s.Block), BlockHash: s.BlockHash.Hex(), //nolint:gosec // a small block number
		})
		if err := f.follow(t.Context(), s, r, s.Block+5); err != nil {
			t.Fatal(err)
		}
		return intentNamed(t, kube, "swap")
	}
	t.Run("its own contract's event", func(t *testing.T) {
		ti := follow(t, receipt(lookalike, originSettler))
		if ti.Status.Phase != v1alpha1.IntentPhaseSubmitted || !meta.IsStatusConditionTrue(ti.Status.Conditions, v1alpha1.ConditionOrderOpened) {
			t.Errorf("phase %s, conditions %+v; want submitted with OrderOpened True", ti.Status.Phase, ti.Status.Conditions)
		}
	})
	t.Run("a look-alike's event", func(t *testing.T) {
		ti := follow(t, receipt(lookalike))
		if ti.Status.Phase != v1alpha1.IntentPhaseFailed || meta.IsStatusConditionTrue(ti.Status.Conditions, v1alpha1.ConditionOrderOpened) {
			t.Fatalf("phase %s, conditions %+v; want failed, the order not opened", ti.Status.Phase, ti.Status.Conditions)
		}
		c := meta.FindStatusCondition(ti.Status.Conditions, v1alpha1.ConditionTransaction)
		if c == nil || c.Reason != v1alpha1.ReasonNotOpened || !strings.Contains(c.Message, originSettler.Hex()) {
			t.Errorf("Transaction condition %+v; want NotOpened naming %s", c, originSettler.Hex())
		}
		if ti.Status.FailureCode != v1alpha1.FailureNotOpened {
			t.Errorf("failure code %q; want not_opened", ti.Status.FailureCode)
		}
	})
}
