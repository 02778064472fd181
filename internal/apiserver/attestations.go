package apiserver

import (
	"math/big"
	"net/http"
	"regexp"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// fillAttestationJSON is the OpenAPI FillAttestation: the attester's signature of a final bridge
// fill and the settle transaction that releases the escrow to the filler.
type fillAttestationJSON struct {
	OrderID   string                      `json:"orderId"`
	Filler    string                      `json:"filler"`
	AmountOut string                      `json:"amountOut"`
	Signature string                      `json:"signature"`
	Tx        v1alpha1.TransactionPayload `json:"tx"`
}

var orderIDPattern = regexp.MustCompile(`^0x[0-9a-f]{64}$`)

// getAttestation is GET /v2/orders/{orderId}/attestation, for fillers: any key of the order's
// environment may read it, since it is public on chain once used and only pays the filler it
// names. An order without an attested fill is 404.
func (s *Server) getAttestation(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	orderID := r.PathValue("orderId")
	if !orderIDPattern.MatchString(orderID) {
		s.problems.Write(w, r, problem.BadRequest,
			"Path parameter orderId must be a bytes32 order id: 0x and 64 lower-case hex digits.", problem.Details{"parameter": "orderId"})
		return
	}
	obj, ok, err := s.deps.Intents.AttestedOrder(r.Context(), orderID)
	if err != nil {
		s.writeStoreUnavailable(w, r, err)
		return
	}
	if !ok || string(obj.Spec.Environment) != string(key.Environment) || obj.Status.Fill == nil || obj.Spec.Tx == nil {
		s.problems.Write(w, r, problem.NotFound, "Order "+orderID+" has no attested fill in this environment (yet).", nil)
		return
	}
	att, ok := attestationOf(obj)
	if !ok {
		s.problems.Write(w, r, problem.NotFound, "Order "+orderID+" has no usable attestation.", nil)
		return
	}
	s.writeJSON(w, r, http.StatusOK, att)
}

// attestationOf builds the answer from the stored intent: the order comes back out of its open
// transaction's calldata, so the settle call is exactly the order the contract escrowed.
func attestationOf(obj *v1alpha1.TransferIntent) (fillAttestationJSON, bool) {
	fill := obj.Status.Fill
	data, err := hexutil.Decode(obj.Spec.Tx.Data)
	if err != nil {
		return fillAttestationJSON{}, false
	}
	order, err := settlement.OrderOfOpenData(data)
	if err != nil {
		return fillAttestationJSON{}, false
	}
	amount, ok := new(big.Int).SetString(fill.AmountOut, 10)
	sig, err := hexutil.Decode(fill.Attestation)
	if !ok || err != nil || !common.IsHexAddress(fill.Filler) {
		return fillAttestationJSON{}, false
	}
	settle, err := settlement.SettleData(order, settlement.Attestation{
		OrderID: common.HexToHash(obj.Spec.OrderID), Filler: common.HexToAddress(fill.Filler), AmountOut: amount, Signature: sig,
	})
	if err != nil {
		return fillAttestationJSON{}, false
	}
	return fillAttestationJSON{
		OrderID: obj.Spec.OrderID, Filler: common.HexToAddress(fill.Filler).Hex(), AmountOut: fill.AmountOut, Signature: fill.Attestation,
		Tx: v1alpha1.TransactionPayload{To: obj.Spec.Tx.To, Data: hexutil.Encode(settle), Value: "0", ChainID: obj.Spec.Tx.ChainID},
	}, true
}
