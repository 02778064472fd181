package transferrecord

import (
	"bytes"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

var (
	refundContract = common.HexToAddress("0x5e77000000000000000000000000000000000001")
	refundUser     = common.HexToAddress("0x0000000000000000000000000000000000001234")
	refundDeadline = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	refundDelay    = time.Hour
)

// refundOrder is a bridge's order from chain 1337 opened on refundContract.
func refundOrder() settlement.Order {
	return settlement.Order{
		OriginSettler: refundContract, OriginChainId: big.NewInt(1337), User: refundUser, DestinationChainId: big.NewInt(1338),
		Recipient: refundUser, TokenIn: common.HexToAddress("0x70ce000000000000000000000000000000000001"),
		TokenOut: common.HexToAddress("0x70ce000000000000000000000000000000000002"),
		AmountIn: big.NewInt(25_000_000), MinAmountOut: big.NewInt(24_000_000), Deadline: uint64(refundDeadline.Unix()),
		Nonce: [32]byte{7}, DestinationSettler: common.HexToAddress("0x5e77000000000000000000000000000000000002"),
	}
}

// refundIntent is a submitted bridge whose tx opens order, with status changed by edit.
func refundIntent(t *testing.T, order settlement.Order, edit func(*v1alpha1.TransferIntentStatus)) *v1alpha1.TransferIntent {
	t.Helper()
	data, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	id, err := settlement.ID(order)
	if err != nil {
		t.Fatal(err)
	}
	ti := &v1alpha1.TransferIntent{
		Spec: v1alpha1.TransferIntentSpec{
			ID: intent.NewIntentID(refundDeadline.Add(-time.Hour)), Type: v1alpha1.IntentTypeBridge, FromChain: "eip155:1337", ToChain: "eip155:1338",
			OrderID: id.Hex(), Tx: &v1alpha1.TransactionPayload{To: refundContract.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: 1337},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, Hash: common.Hash{1}.Hex()},
	}
	if edit != nil {
		edit(&ti.Status)
	}
	return ti
}

// chainsWith is a chain table whose origin chain's contract has terms.
func chainsWith(terms *registry.RefundTerms) Chains {
	return func(id string) (registry.Chain, bool) {
		if id != "eip155:1337" {
			return registry.Chain{}, false
		}
		return registry.Chain{ID: id, SettlementAddress: refundContract.Hex(), Refund: terms}, true
	}
}

var delayTerms = &registry.RefundTerms{Contract: refundContract.Hex(), Delay: refundDelay}

// The record offers the refund exactly when the contract would take it: past deadline +
// refundDelay (block.timestamp > deadline + refundDelay), or earlier when the guardian allowed it;
// never for a filled order, and it reports a refund that was sent or is final.
func TestRefundAvailability(t *testing.T) {
	opensAt := refundDeadline.Add(refundDelay).Add(time.Second)
	refundTx := common.Hash{0xee}.Hex()
	for _, tc := range []struct {
		name   string
		status func(*v1alpha1.TransferIntentStatus)
		chains Chains
		now    time.Time
		want   RefundState // "" for no refund block
		at     string      // availableAt
	}{
		{"before the deadline: it may still be filled", nil, chainsWith(delayTerms), refundDeadline.Add(-time.Second), "", ""},
		{"at the deadline", nil, chainsWith(delayTerms), refundDeadline, "", ""},
		{"after the deadline, within the delay", nil, chainsWith(delayTerms), refundDeadline.Add(time.Second), RefundWaiting, formatRecordTime(opensAt)},
		{"at deadline + delay: the contract still refuses", nil, chainsWith(delayTerms), refundDeadline.Add(refundDelay), RefundWaiting, formatRecordTime(opensAt)},
		{"a second past deadline + delay", nil, chainsWith(delayTerms), opensAt, RefundAvailable, formatRecordTime(opensAt)},
		{"a day after", nil, chainsWith(delayTerms), opensAt.Add(24 * time.Hour), RefundAvailable, formatRecordTime(opensAt)},
		{"the guardian allowed this order, before the deadline", func(s *v1alpha1.TransferIntentStatus) { s.RefundAllowed = true },
			chainsWith(delayTerms), refundDeadline.Add(-time.Hour), RefundAvailable, ""},
		{"the guardian allowed every order", nil,
			chainsWith(&registry.RefundTerms{Contract: refundContract.Hex(), Delay: refundDelay, AllAllowed: true}), refundDeadline.Add(-time.Hour), RefundAvailable, ""},
		{"the guardian allowed every order on another contract", nil,
			chainsWith(&registry.RefundTerms{Contract: common.Address{9}.Hex(), Delay: time.Minute, AllAllowed: true}), refundDeadline.Add(-time.Hour), "", ""},
		{"the delay of this order's contract unknown, after the deadline", nil,
			chainsWith(&registry.RefundTerms{Contract: common.Address{9}.Hex(), Delay: time.Minute}), opensAt.Add(time.Hour), RefundWaiting, ""},
		{"an unknown origin chain, after the deadline", nil, nil, opensAt.Add(time.Hour), RefundWaiting, ""},
		{"filled", func(s *v1alpha1.TransferIntentStatus) { s.Fill = &v1alpha1.FillStatus{Hash: common.Hash{2}.Hex()} },
			chainsWith(delayTerms), opensAt.Add(time.Hour), "", ""},
		{"filled, the guardian allowing it", func(s *v1alpha1.TransferIntentStatus) {
			s.Fill, s.RefundAllowed = &v1alpha1.FillStatus{Hash: common.Hash{2}.Hex()}, true
		}, chainsWith(delayTerms), opensAt, "", ""},
		{"a refund sent", func(s *v1alpha1.TransferIntentStatus) { s.RefundHash = refundTx }, chainsWith(delayTerms), opensAt, RefundSent, ""},
		{"already refunded, final", func(s *v1alpha1.TransferIntentStatus) {
			s.Phase, s.RefundHash, s.FailureCode = v1alpha1.IntentPhaseFailed, refundTx, v1alpha1.FailureRefunded
		}, chainsWith(delayTerms), opensAt, RefundFinal, ""},
		{"refunded by an older release (no code kept)", func(s *v1alpha1.TransferIntentStatus) {
			s.Phase, s.RefundHash = v1alpha1.IntentPhaseFailed, refundTx
			meta.SetStatusCondition(&s.Conditions, metav1.Condition{Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionFalse, Reason: v1alpha1.ReasonRefunded})
		}, chainsWith(delayTerms), opensAt, RefundFinal, ""},
		{"reverted: nothing escrowed", func(s *v1alpha1.TransferIntentStatus) {
			s.Phase, s.FailureCode = v1alpha1.IntentPhaseFailed, v1alpha1.FailureReverted
		}, chainsWith(delayTerms), opensAt, "", ""},
		{"pending: not opened", func(s *v1alpha1.TransferIntentStatus) { s.Phase, s.Hash = v1alpha1.IntentPhasePending, "" },
			chainsWith(delayTerms), opensAt, "", ""},
		{"confirmed", func(s *v1alpha1.TransferIntentStatus) { s.Phase = v1alpha1.IntentPhaseConfirmed }, chainsWith(delayTerms), opensAt, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := Of(refundIntent(t, refundOrder(), tc.status), tc.chains, tc.now)
			if tc.want == "" {
				if rec.Refund != nil {
					t.Fatalf("refund %+v; want none", rec.Refund)
				}
				return
			}
			r := rec.Refund
			if r == nil || r.State != tc.want || r.AvailableAt != tc.at {
				t.Fatalf("refund %+v; want %s, availableAt %q", r, tc.want, tc.at)
			}
			if (r.Transaction != nil) != (tc.want == RefundAvailable) {
				t.Errorf("%s with transaction %+v", r.State, r.Transaction)
			}
			if (r.Hash != "") != (tc.want == RefundSent || tc.want == RefundFinal) || (r.Hash != "" && r.Hash != refundTx) {
				t.Errorf("%s with hash %q", r.State, r.Hash)
			}
		})
	}
}

// The refund the record offers calls refund(order) on the contract that escrowed the order, on
// its chain, with exactly the order the intent's transaction opened (so it refunds that escrow,
// to that user, and nothing else).
func TestTheRefundTransactionIsTheOpenedOrders(t *testing.T) {
	order := refundOrder()
	rec := Of(refundIntent(t, order, func(s *v1alpha1.TransferIntentStatus) { s.RefundAllowed = true }), chainsWith(delayTerms), refundDeadline)
	if rec.Refund == nil || rec.Refund.Transaction == nil {
		t.Fatalf("refund %+v; want one available", rec.Refund)
	}
	tx := rec.Refund.Transaction
	if tx.To != refundContract.Hex() || tx.ChainID != 1337 || tx.Value != "0" || tx.Gas != RefundGas {
		t.Errorf("transaction %+v; want refund on %s, chain 1337, no value, gas %d", tx, refundContract.Hex(), RefundGas)
	}
	method := contracts.NewSettlement().GetABI().Methods["refund"]
	data := hexutil.MustDecode(tx.Data)
	if !bytes.Equal(data[:4], method.ID) {
		t.Fatalf("calldata %s is not a call of refund", tx.Data)
	}
	values, err := method.Inputs.Unpack(data[4:])
	if err != nil {
		t.Fatal(err)
	}
	got := *abi.ConvertType(values[0], new(settlement.Order)).(*settlement.Order)
	gotID, _ := settlement.ID(got)
	wantID, _ := settlement.ID(order)
	if gotID != wantID || got.User != refundUser {
		t.Errorf("the refund names order %s of %s; want the opened order %s of %s", gotID.Hex(), got.User.Hex(), wantID.Hex(), refundUser.Hex())
	}
}

// An intent whose stored transaction does not open its own orderId on the contract it calls (a
// record edited by hand, or a tampered one) gets no refund: the service builds a refund only of
// the order it verified, so it never hands out calldata for some other escrow.
func TestNoRefundOfAnOrderTheIntentDoesNotHold(t *testing.T) {
	allowed := func(s *v1alpha1.TransferIntentStatus) { s.RefundAllowed = true }
	for name, edit := range map[string]func(*v1alpha1.TransferIntent){
		"another orderId":      func(ti *v1alpha1.TransferIntent) { ti.Spec.OrderID = common.Hash{3}.Hex() },
		"another contract":     func(ti *v1alpha1.TransferIntent) { ti.Spec.Tx.To = common.Address{4}.Hex() },
		"another chain":        func(ti *v1alpha1.TransferIntent) { ti.Spec.Tx.ChainID = 1 },
		"not a call of open":   func(ti *v1alpha1.TransferIntent) { ti.Spec.Tx.Data = "0xa9059cbb" },
		"a transfer, no order": func(ti *v1alpha1.TransferIntent) { ti.Spec.Tx = nil },
	} {
		ti := refundIntent(t, refundOrder(), allowed)
		edit(ti)
		if r := Of(ti, chainsWith(delayTerms), refundDeadline).Refund; r != nil {
			t.Errorf("%s: refund %+v; want none", name, r)
		}
	}
}
