package watcher

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// A fill counts only through its own Filled event of the chain's settlement contract, for the
// order, by the recorded filler, for the recorded amount, in a successful receipt.
func TestAFillCountsOnlyThroughItsOwnFilledEvent(t *testing.T) {
	contract, orderID, filler := originSettler, bridgeOrderID, bridgeFiller // the package's bridge under test
	recipient := orderUser
	f := &follower{chain: registry.Chain{ID: "eip155:1338", SettlementAddress: contract.Hex()}}
	ref := OrderRef{OrderID: orderID, DestSettler: contract, Fill: &FillRef{Filler: filler, AmountOut: big.NewInt(24_825_250)}}

	filled := func(edit func(*types.Log)) *jsonrpc.Receipt {
		l := types.Log{
			Address: contract,
			Topics: []common.Hash{
				contracts.NewSettlement().GetABI().Events["Filled"].ID, orderID,
				common.BytesToHash(filler.Bytes()), common.BytesToHash(recipient.Bytes()),
			},
			Data: common.LeftPadBytes(big.NewInt(24_825_250).Bytes(), 32),
		}
		if edit != nil {
			edit(&l)
		}
		return &jsonrpc.Receipt{Status: types.ReceiptStatusSuccessful, Logs: []types.Log{l}}
	}
	if !f.fills(filled(nil), ref) {
		t.Fatal("the order's own Filled event does not count")
	}
	// The chain's settlement contract today is not the order's destinationSettler: a look-alike
	// (or a contract the Chain moved to since) fills nothing.
	lookalike := ref
	lookalike.DestSettler = common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	if f.fills(filled(nil), lookalike) {
		t.Error("a Filled event of another contract than the order's destinationSettler counts")
	}
	for name, r := range map[string]*jsonrpc.Receipt{
		"no logs":            {Status: types.ReceiptStatusSuccessful},
		"a reverted receipt": func() *jsonrpc.Receipt { r := filled(nil); r.Status = types.ReceiptStatusFailed; return r }(),
		"another contract":   filled(func(l *types.Log) { l.Address = common.HexToAddress("0x01") }),
		"a removed log":      filled(func(l *types.Log) { l.Removed = true }),
		"another order":      filled(func(l *types.Log) { l.Topics[1] = common.HexToHash("0x02") }),
		"another filler":     filled(func(l *types.Log) { l.Topics[2] = common.BytesToHash(recipient.Bytes()) }),
		"another amount":     filled(func(l *types.Log) { l.Data = common.LeftPadBytes(big.NewInt(1).Bytes(), 32) }),
		"another event":      filled(func(l *types.Log) { l.Topics[0] = common.HexToHash("0x03") }),
	} {
		if f.fills(r, ref) {
			t.Errorf("%s counts as the fill", name)
		}
	}
}

// A final bridge fill that the service cannot attest, for want of a key, is counted in
// tis_chain_watch_unattested_fills_total, which the FinalFillNotAttested alert watches; a swap
// (no attestation needed) is not.
func TestAnUnattestedBridgeFillIsCounted(t *testing.T) {
	m, err := newMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	origin, dest := common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"), common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	chains := registry.NewChainTable()
	chains.Upsert("local-dev", registry.Chain{ID: "eip155:1337", SettlementAddress: origin.Hex(), SettlementVerified: true})
	chains.Upsert("local-dev-2", registry.Chain{ID: "eip155:1338", SettlementAddress: dest.Hex(), SettlementVerified: true})
	f := &follower{
		chain: registry.Chain{ID: "eip155:1338"}, namespace: "default", log: logr.Discard(), metrics: m, chains: chains,
		writer: &intentstatus.Writer{Client: fake.NewClientBuilder().WithScheme(s).Build()}, reported: map[common.Hash]string{},
		opts: Options{SingleSourceAttestation: true},
	}
	domain := settlement.Domain{ChainID: big.NewInt(1337), Contract: origin}
	fill := &FillRef{Filler: common.HexToAddress("0x364d50F3542dE1252aC9af1a286c76eb81dbA15e"), AmountOut: big.NewInt(1)}
	receipt := &jsonrpc.Receipt{BlockNumber: 7}
	unattested := m.unattested.WithLabelValues("eip155:1338", unattestedNoKey)
	// The intents are gone (the fake client has none), which the writer ignores.
	if err := f.confirmFill(t.Context(), OrderRef{Name: "swap", Origin: 1338, Dest: 1338, Fill: fill}, receipt); err != nil {
		t.Fatal(err)
	}
	if n := testutil.ToFloat64(unattested); n != 0 {
		t.Errorf("a swap's fill counts as unattested (%v)", n)
	}
	if err := f.confirmFill(t.Context(), OrderRef{Name: "bridge", Origin: 1337, Dest: 1338, Fill: fill, Domain: domain, DestSettler: dest}, receipt); err != nil {
		t.Fatal(err)
	}
	if n := testutil.ToFloat64(unattested); n != 1 {
		t.Errorf("tis_chain_watch_unattested_fills_total{reason=%q} = %v, want 1", unattestedNoKey, n)
	}
}

// The settlement events of a block move an order only from its own contracts: Filled from its
// destinationSettler, Opened and Refunded from the contract its transaction calls (spec.tx.to). A
// look-alike contract emitting the same events for the orderId records nothing, not even for a
// step: the node's address filter is not trusted.
func TestOrderEventsCountOnlyFromTheOrdersOwnContracts(t *testing.T) {
	lookalike := common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0")
	user := orderUser
	block := jsonrpc.Block{Number: 9, Hash: common.HexToHash("0xb9")}
	events := contracts.NewSettlement().GetABI().Events
	opened := func(from common.Address) types.Log {
		data, err := events["Opened"].Inputs.NonIndexed().Pack(settlement.Plain(contracts.Order{
			OriginSettler: originSettler, OriginChainId: big.NewInt(1337), User: user, DestinationChainId: big.NewInt(1338),
			AmountIn: big.NewInt(25_000_000), MinAmountOut: big.NewInt(24_000_000), DestinationSettler: destSettler,
		}))
		if err != nil {
			t.Fatal(err)
		}
		return types.Log{Address: from, Topics: []common.Hash{events["Opened"].ID, bridgeOrderID, common.BytesToHash(user.Bytes())},
			Data: data, BlockNumber: block.Number, BlockHash: block.Hash, TxHash: common.HexToHash("0x0e")}
	}
	filled := func(from common.Address) types.Log {
		l := theFill().Logs[0]
		l.Address, l.BlockNumber, l.BlockHash, l.TxHash = from, block.Number, block.Hash, common.HexToHash("0xf2")
		return l
	}
	refunded := func(from common.Address) types.Log {
		return types.Log{Address: from, Topics: []common.Hash{events["Refunded"].ID, bridgeOrderID, common.BytesToHash(user.Bytes())},
			Data: common.LeftPadBytes(big.NewInt(25_000_000).Bytes(), 32), BlockNumber: block.Number, BlockHash: block.Hash, TxHash: common.HexToHash("0x4e")}
	}
	refundAllowed := func(from common.Address) types.Log {
		return types.Log{Address: from, Topics: []common.Hash{events["RefundAllowed"].ID, bridgeOrderID},
			BlockNumber: block.Number, BlockHash: block.Hash, TxHash: common.HexToHash("0xa1")}
	}
	// run applies the log to the bridge intent in phase, on the follower of chainID, and returns
	// the intent's status after it.
	run := func(t *testing.T, chainID uint64, phase v1alpha1.IntentPhase, l types.Log) v1alpha1.TransferIntentStatus {
		t.Helper()
		f, kube := followerOf(t, chainID, "bridge", v1alpha1.TransferIntentStatus{Phase: phase})
		x := NewIndex()
		x.orders[bridgeOrderID] = &OrderRef{
			Name: "bridge", OrderID: bridgeOrderID, Origin: 1337, Dest: 1338, Phase: phase,
			Domain: settlement.Domain{ChainID: big.NewInt(1337), Contract: originSettler}, DestSettler: destSettler,
		}
		x.orderOf["bridge"] = bridgeOrderID
		f.index = x
		if err := f.orderEvents(t.Context(), block, []types.Log{l}); err != nil {
			t.Fatal(err)
		}
		return intentNamed(t, kube, "bridge").Status
	}

	t.Run("Filled", func(t *testing.T) {
		if s := run(t, 1338, v1alpha1.IntentPhaseSubmitted, filled(destSettler)); s.Fill == nil || s.Fill.Hash != common.HexToHash("0xf2").Hex() {
			t.Fatalf("the destinationSettler's Filled event recorded fill %+v", s.Fill)
		}
		for name, from := range map[string]common.Address{"a look-alike": lookalike, "the origin settler": originSettler} {
			if s := run(t, 1338, v1alpha1.IntentPhaseSubmitted, filled(from)); s.Fill != nil {
				t.Errorf("a Filled event of %s recorded fill %+v", name, s.Fill)
			}
		}
	})
	t.Run("Opened", func(t *testing.T) {
		if s := run(t, 1337, v1alpha1.IntentPhasePending, opened(originSettler)); s.Phase != v1alpha1.IntentPhaseSubmitted {
			t.Fatalf("the origin settler's Opened event left the intent %s", s.Phase)
		}
		for name, from := range map[string]common.Address{"a look-alike": lookalike, "the destinationSettler": destSettler} {
			if s := run(t, 1337, v1alpha1.IntentPhasePending, opened(from)); s.Phase != v1alpha1.IntentPhasePending || s.Hash != "" {
				t.Errorf("an Opened event of %s moved the intent to %s (hash %q)", name, s.Phase, s.Hash)
			}
		}
	})
	t.Run("Refunded", func(t *testing.T) {
		// Recorded, not ended: the intent fails once the refund is final (followRefund).
		if s := run(t, 1337, v1alpha1.IntentPhaseSubmitted, refunded(originSettler)); s.Phase != v1alpha1.IntentPhaseSubmitted || s.RefundHash != common.HexToHash("0x4e").Hex() {
			t.Fatalf("the origin settler's Refunded event left the intent %s with refund %q; want submitted with the refund recorded", s.Phase, s.RefundHash)
		}
		// A pending order (its opening not seen) cannot fail: the refund would wait for ever.
		if s := run(t, 1337, v1alpha1.IntentPhasePending, refunded(originSettler)); s.RefundHash != "" {
			t.Errorf("a Refunded event of a pending order recorded refund %q", s.RefundHash)
		}
		for name, from := range map[string]common.Address{"a look-alike": lookalike, "the destinationSettler": destSettler} {
			if s := run(t, 1337, v1alpha1.IntentPhaseSubmitted, refunded(from)); s.Phase != v1alpha1.IntentPhaseSubmitted || s.RefundHash != "" {
				t.Errorf("a Refunded event of %s moved the intent to %s (refund %q)", name, s.Phase, s.RefundHash)
			}
		}
	})
	t.Run("RefundAllowed", func(t *testing.T) {
		// The guardian's allowance is recorded: the record offers the refund now.
		if s := run(t, 1337, v1alpha1.IntentPhaseSubmitted, refundAllowed(originSettler)); s.Phase != v1alpha1.IntentPhaseSubmitted || !s.RefundAllowed {
			t.Fatalf("the origin settler's RefundAllowed event left the intent %s, allowed %v; want submitted, allowed", s.Phase, s.RefundAllowed)
		}
		for name, from := range map[string]common.Address{"a look-alike": lookalike, "the destinationSettler": destSettler} {
			if s := run(t, 1337, v1alpha1.IntentPhaseSubmitted, refundAllowed(from)); s.RefundAllowed {
				t.Errorf("a RefundAllowed event of %s allowed the refund", name)
			}
		}
		if s := run(t, 1338, v1alpha1.IntentPhaseSubmitted, refundAllowed(originSettler)); s.RefundAllowed {
			t.Error("a RefundAllowed event on the destination chain allowed the refund")
		}
	})
}

// A recorded fill without a receipt is forgotten only when another block holds its height. A node
// that answers no block there, although its head is past it (a backend behind a load balancer
// that lags the one that answered the head), proves nothing: forgetting the fill then would be for
// good, since the cursor is past its block and an order is filled once, and the filler would never
// be repaid.
func TestAFillIsForgottenOnlyWhenAnotherBlockHoldsItsHeight(t *testing.T) {
	b := newBridgeUnderTest(t, false)
	recordFill(t, b)
	fill := func() *v1alpha1.FillStatus { return currentFill(t, b) }

	node := agreeing()
	node.missing = map[uint64]bool{fillBlock: true}
	b.f.node = node.serve(t)
	if err := b.f.fillWithoutReceipt(t.Context(), b.ref, fillBlock+10); err != nil {
		t.Fatal(err)
	}
	if fill() == nil {
		t.Fatal("a node that knows no block at the fill's height made the watcher forget the fill")
	}

	node.missing, node.blocks[fillBlock] = nil, otherHash
	if err := b.f.fillWithoutReceipt(t.Context(), b.ref, fillBlock+10); err != nil {
		t.Fatal(err)
	}
	if got := fill(); got != nil {
		t.Fatalf("fill %+v kept, although another block holds its height (a reorg)", got)
	}
}

// The node alone does not make the watcher forget a recorded fill that a witness still holds (a
// successful receipt in the recorded block, with the order's Filled event): neither by naming
// another block at its height nor by answering a receipt without the event. A node that hides a
// real fill would otherwise leave its filler unpaid for good. Without such a witness, the fill is
// forgotten as before.
func TestAWitnessThatStillHoldsTheFillKeepsIt(t *testing.T) {
	hidden := theFill()
	hidden.Logs = nil // the node's receipt of the fill, without its Filled event
	for name, forget := range map[string]func(b *bridgeUnderTest) error{
		"another block at its height": func(b *bridgeUnderTest) error {
			return b.f.fillWithoutReceipt(t.Context(), b.ref, fillBlock+10)
		},
		"a receipt without the event": func(b *bridgeUnderTest) error {
			return b.f.followFill(t.Context(), b.ref, hidden, fillBlock+10)
		},
	} {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				witness string
				serve   *fakeWitness
				kept    bool
			}{
				{"holding the fill", agreeing(), true},
				{"of another chain, holding the fill", func() *fakeWitness { w := agreeing(); w.chainID = 1; return w }(), false},
				{"without its receipt", &fakeWitness{head: fillBlock + 10, blocks: map[uint64]common.Hash{fillBlock: otherHash}}, false},
				{"that errs", erring(), false},
			} {
				b := newBridgeUnderTest(t, false, tc.serve)
				node := agreeing()
				node.blocks[fillBlock] = otherHash
				b.f.node = node.serve(t)
				recordFill(t, b)
				if err := forget(b); err != nil {
					t.Fatal(err)
				}
				if kept := currentFill(t, b) != nil; kept != tc.kept {
					t.Errorf("a witness %s: fill kept = %v, want %v", tc.witness, kept, tc.kept)
				}
			}
		})
	}
}

// recordFill writes the fill under test into the bridge intent's status, as the watcher records it.
func recordFill(t *testing.T, b *bridgeUnderTest) {
	t.Helper()
	ti := intentNamed(t, b.kube, "bridge")
	ti.Status.Fill = &v1alpha1.FillStatus{Hash: fillTx.Hex(), BlockNumber: fillBlock, BlockHash: fillBlockHash.Hex()}
	if err := b.kube.Status().Update(t.Context(), ti); err != nil {
		t.Fatal(err)
	}
}

// currentFill is the bridge intent's recorded fill (nil: none).
func currentFill(t *testing.T, b *bridgeUnderTest) *v1alpha1.FillStatus {
	t.Helper()
	return intentNamed(t, b.kube, "bridge").Status.Fill
}

// A Refunded event records the refund; the intent fails only once the refund is final, with the
// order's Refunded event of its origin contract in the final receipt. A refund whose final
// receipt does not refund the order (reverted, or the event of a look-alike) is forgotten: the
// escrow is still held. A refund without a receipt (its block left the chain) waits.
func TestAnOrderFailsOnlyOnceItsRefundIsFinal(t *testing.T) {
	refundTx, block, blockHash := common.HexToHash("0x4e"), uint64(9), common.HexToHash("0xb9")
	user := orderUser
	ref := OrderRef{
		Name: "swap", OrderID: bridgeOrderID, Origin: 1337, Dest: 1337, Phase: v1alpha1.IntentPhaseSubmitted, OpenFinal: true,
		Domain: settlement.Domain{ChainID: big.NewInt(1337), Contract: originSettler}, DestSettler: originSettler, Refund: refundTx,
	}
	receipt := func(status uint64, from common.Address) *jsonrpc.Receipt {
		ev := contracts.NewSettlement().GetABI().Events["Refunded"]
		return &jsonrpc.Receipt{Status: status, BlockNumber: block, BlockHash: blockHash, Logs: []types.Log{{
			Address: from, Topics: []common.Hash{ev.ID, bridgeOrderID, common.BytesToHash(user.Bytes())},
			Data: common.LeftPadBytes(big.NewInt(25_000_000).Bytes(), 32), BlockNumber: block, BlockHash: blockHash, TxHash: refundTx,
		}}}
	}
	// follow runs followRefund on the swap with its refund recorded, at head, and returns its status.
	follow := func(t *testing.T, r *jsonrpc.Receipt, head uint64) v1alpha1.TransferIntentStatus {
		t.Helper()
		f, kube := followerOf(t, 1337, "swap", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, RefundHash: refundTx.Hex()})
		f.chain.FinalitySeconds = 3 // three confirmations
		if err := f.followRefund(t.Context(), ref, r, head); err != nil {
			t.Fatal(err)
		}
		return intentNamed(t, kube, "swap").Status
	}

	if s := follow(t, receipt(types.ReceiptStatusSuccessful, originSettler), block+1); s.Phase != v1alpha1.IntentPhaseSubmitted || s.RefundHash != refundTx.Hex() {
		t.Errorf("a refund two blocks deep of three: %s, refund %q; want submitted, the refund recorded", s.Phase, s.RefundHash)
	}
	if s := follow(t, nil, block+10); s.Phase != v1alpha1.IntentPhaseSubmitted || s.RefundHash != refundTx.Hex() {
		t.Errorf("a refund without a receipt: %s, refund %q; want submitted, the refund recorded", s.Phase, s.RefundHash)
	}
	s := follow(t, receipt(types.ReceiptStatusSuccessful, originSettler), block+2)
	c := meta.FindStatusCondition(s.Conditions, v1alpha1.ConditionTransaction)
	if s.Phase != v1alpha1.IntentPhaseFailed || s.RefundHash != refundTx.Hex() || c == nil || c.Reason != v1alpha1.ReasonRefunded || !strings.Contains(c.Message, user.Hex()) {
		t.Errorf("a final refund: %s, refund %q, condition %+v; want failed, Refunded to %s", s.Phase, s.RefundHash, c, user.Hex())
	}
	if s.FailureCode != v1alpha1.FailureRefunded {
		t.Errorf("a final refund failed the intent with code %q; want refunded", s.FailureCode)
	}
	for name, r := range map[string]*jsonrpc.Receipt{
		"reverted":             receipt(types.ReceiptStatusFailed, originSettler),
		"a look-alike's event": receipt(types.ReceiptStatusSuccessful, destSettler),
	} {
		if s := follow(t, r, block+2); s.Phase != v1alpha1.IntentPhaseSubmitted || s.RefundHash != "" {
			t.Errorf("a final refund receipt, %s: %s, refund %q; want submitted, the refund forgotten", name, s.Phase, s.RefundHash)
		}
	}

	// Without a receipt: forgotten only when another block holds the refund's height.
	for _, c := range []struct {
		name   string
		seen   bool        // the follower saw the refund's block
		node   common.Hash // the node's block at the refund's height
		forget bool
	}{
		{"its block left the chain", true, common.HexToHash("0x0bad"), true},
		{"its block is still canonical (the node has not indexed the receipt)", true, blockHash, false},
		{"its block was never seen by this follower (a restart)", false, common.HexToHash("0x0bad"), false},
	} {
		f, kube := followerOf(t, 1337, "swap", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, RefundHash: refundTx.Hex()})
		f.node = (&fakeWitness{head: block + 5, blocks: map[uint64]common.Hash{block: c.node}}).serve(t)
		if c.seen {
			f.refundBlocks[refundTx] = blockRef{number: block, hash: blockHash}
		}
		if err := f.followRefund(t.Context(), ref, nil, block+5); err != nil {
			t.Fatal(err)
		}
		if s := intentNamed(t, kube, "swap").Status; (s.RefundHash == "") != c.forget || s.Phase != v1alpha1.IntentPhaseSubmitted {
			t.Errorf("a refund without a receipt, %s: %s, refund %q; want forgotten = %v", c.name, s.Phase, s.RefundHash, c.forget)
		}
	}
}

// While a refund of the escrow is recorded, a final fill waits: the refund decides once final (the
// escrow is gone), and the fill is confirmed only if the refund is forgotten.
func TestAFillWaitsWhileARefundIsRecorded(t *testing.T) {
	b := newBridgeUnderTest(t, true)
	b.ref.Refund = common.HexToHash("0x4e")
	// The follower has no node: reaching for finality would panic.
	if err := b.f.followFill(t.Context(), b.ref, theFill(), fillBlock+100); err != nil {
		t.Fatal(err)
	}
	if s := intentNamed(t, b.kube, "bridge").Status; s.Phase != v1alpha1.IntentPhaseSubmitted || s.Fill != nil {
		t.Errorf("a final fill with a refund recorded: %s, fill %+v; want submitted, waiting", s.Phase, s.Fill)
	}
}
