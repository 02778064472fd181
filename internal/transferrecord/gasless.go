package transferrecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// Gasless is the OpenAPI GaslessOrder of a gasless intent's record: the ERC-7683 order, the
// Permit2 typed data its user signs (while it waits for a signature), the signature once accepted,
// and the hard cancel, a transaction the user sends to make the order impossible to open.
type Gasless struct {
	Permit2      string                       `json:"permit2"`
	Nonce        string                       `json:"nonce"`
	OpenDeadline string                       `json:"openDeadline"`
	Order        OrderJSON                    `json:"order"`
	TypedData    json.RawMessage              `json:"typedData,omitempty"`
	Signature    string                       `json:"signature,omitempty"`
	Cancel       *v1alpha1.TransactionPayload `json:"cancel,omitempty"`
	// CancelledAt and CancelReason are the user's soft cancel, once made: when, and the reason
	// given with it, if any.
	CancelledAt  string `json:"cancelledAt,omitempty"`
	CancelReason string `json:"cancelReason,omitempty"`
}

// OrderJSON is ERC-7683's GaslessCrossChainOrder as JSON (OpenAPI GaslessCrossChainOrder):
// uint256 fields as decimal strings, the uint32 deadlines as numbers, bytes as 0x hex.
type OrderJSON struct {
	OriginSettler string `json:"originSettler"`
	User          string `json:"user"`
	Nonce         string `json:"nonce"`
	OriginChainID string `json:"originChainId"`
	OpenDeadline  uint32 `json:"openDeadline"`
	FillDeadline  uint32 `json:"fillDeadline"`
	OrderDataType string `json:"orderDataType"`
	OrderData     string `json:"orderData"`
}

// GaslessOrderOf rebuilds the gasless order an intent's user signs from what the intent stores:
// the order its tx opens and its Permit2 terms. It is the one reading of those, for the record,
// the signature check and the order book.
func GaslessOrderOf(obj *v1alpha1.TransferIntent) (settlement.GaslessOrder, common.Address, error) {
	g := obj.Spec.Gasless
	if g == nil || obj.Spec.Tx == nil {
		return settlement.GaslessOrder{}, common.Address{}, errors.New("the intent is not gasless")
	}
	order, err := settlement.OrderOfOpenData(common.FromHex(obj.Spec.Tx.Data))
	if err != nil {
		return settlement.GaslessOrder{}, common.Address{}, fmt.Errorf("the intent's order: %w", err)
	}
	nonce, ok := new(big.Int).SetString(g.Nonce, 10)
	if !ok || new(big.Int).SetBytes(order.Nonce[:]).Cmp(nonce) != 0 {
		return settlement.GaslessOrder{}, common.Address{}, fmt.Errorf("the intent's Permit2 nonce %q is not its order's", g.Nonce)
	}
	open := g.OpenDeadline.Unix()
	if open < 0 {
		return settlement.GaslessOrder{}, common.Address{}, errors.New("the intent's open deadline is before 1970")
	}
	gasless, err := settlement.Gasless(order, uint64(open))
	if err != nil {
		return settlement.GaslessOrder{}, common.Address{}, err
	}
	return gasless, common.HexToAddress(g.Permit2), nil
}

// OrderJSONOf is the JSON of a gasless order.
func OrderJSONOf(g settlement.GaslessOrder) OrderJSON {
	return OrderJSON{
		OriginSettler: g.OriginSettler.Hex(), User: g.User.Hex(), Nonce: g.Nonce.String(), OriginChainID: g.OriginChainId.String(),
		OpenDeadline: g.OpenDeadline, FillDeadline: g.FillDeadline,
		OrderDataType: hexutil.Encode(g.OrderDataType[:]), OrderData: hexutil.Encode(g.OrderData),
	}
}

// gaslessOf is the record's gasless block; nil for a transaction intent (or one whose stored
// order does not read back, which no create writes).
func gaslessOf(obj *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) *Gasless {
	order, permit2, err := GaslessOrderOf(obj)
	if err != nil {
		return nil
	}
	out := &Gasless{
		Permit2: permit2.Hex(), Nonce: order.Nonce.String(), OpenDeadline: formatRecordTime(obj.Spec.Gasless.OpenDeadline.Time),
		Order: OrderJSONOf(order), Signature: obj.Status.Signature, CancelReason: obj.Status.CancelReason,
	}
	if at := obj.Status.CancelledAt; at != nil {
		out.CancelledAt = formatRecordTime(at.Time)
	}
	if intent.Takes(phase, intent.EventSign) { // waiting for the signature

		if typed, err := settlement.PermitTypedData(order, permit2); err == nil {
			out.TypedData, _ = settlement.TypedDataJSON(typed)
		}
	}
	if intent.Takes(phase, intent.EventSubmit) { // still possible to open

		out.Cancel = &v1alpha1.TransactionPayload{To: permit2.Hex(), Data: hexutil.Encode(settlement.CancelData(order.Nonce)), Value: "0", ChainID: obj.Spec.Tx.ChainID}
	}
	return out
}
