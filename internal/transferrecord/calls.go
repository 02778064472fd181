package transferrecord

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// callsOf is a pending transaction intent's tx as an EIP-5792 wallet_sendCalls request, for its
// user to send with one prompt: a swap's or bridge's ERC-20 order first approves the settlement
// contract for exactly the order's input (the record does not know the user's allowance, and the
// service never asks for more than the order takes), then opens it; a transfer is its one call.
// nil once the intent is no longer waiting for its transaction, and for gasless intents (the user
// signs; a filler sends).
func callsOf(obj *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) *intent.SendCalls {
	tx := obj.Spec.Tx
	if tx == nil || obj.Spec.Gasless != nil || phase != v1alpha1.IntentPhasePending {
		return nil
	}
	from, err := caip.ParseAccountID(obj.Spec.Request.From)
	if err != nil {
		return nil
	}
	open := &intent.Tx{To: tx.To, Data: tx.Data, Value: tx.Value, ChainID: uint64(tx.ChainID)}
	var approve *intent.Tx
	if order, ok := StoredOrder(obj); ok && order.TokenIn != settlement.Native {
		data, err := intent.ERC20ApproveData(common.HexToAddress(tx.To), order.AmountIn)
		if err != nil {
			return nil
		}
		approve = &intent.Tx{To: order.TokenIn.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: open.ChainID}
	}
	calls, err := intent.SendCallsOf(common.HexToAddress(from.Address), approve, open)
	if err != nil {
		return nil
	}
	return calls
}
