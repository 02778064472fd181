package watcher

import (
	"errors"
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The bridge fill the node reports final: transaction fillTx in block fillBlock (fillBlockHash) of
// eip155:1338, filling order bridgeOrderID on the destination settler.
var (
	originSettler = common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")
	destSettler   = common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	bridgeOrderID = common.HexToHash("0xd34ad8e6f26c542f2b616c3a506af2e6e9ffc51e091abe4c67c282b29ab2a4ca")
	bridgeFiller  = common.HexToAddress("0x364d50F3542dE1252aC9af1a286c76eb81dbA15e")
	// orderUser opens the orders under test and receives their fills.
	orderUser     = common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	fillTx        = common.HexToHash("0xf111")
	fillBlockHash = common.HexToHash("0xb10c7")
	otherHash     = common.HexToHash("0x0bad")
)

const fillBlock = 7

// theFill is the node's receipt of the fill: successful, in fillBlock, with the order's Filled event.
func theFill() *jsonrpc.Receipt {
	return &jsonrpc.Receipt{
		Status: types.ReceiptStatusSuccessful, BlockNumber: fillBlock, BlockHash: fillBlockHash, GasUsed: 50_000,
		Logs: []types.Log{{
			Address: destSettler,
			Topics: []common.Hash{
				contracts.NewSettlement().GetABI().Events["Filled"].ID, bridgeOrderID,
				common.BytesToHash(bridgeFiller.Bytes()), common.BytesToHash(orderUser.Bytes()),
			},
			Data:        common.LeftPadBytes(big.NewInt(24_825_250).Bytes(), 32),
			BlockNumber: fillBlock, BlockHash: fillBlockHash, TxHash: fillTx,
		}},
	}
}

// fakeWitness is a witness endpoint of the destination chain, served by go-ethereum's JSON-RPC
// server: what it answers for the finalized tag (nil: not served), its head, its canonical block
// hashes, and its receipt of the fill (nil: none). fail makes every call fail; failReceipt only the
// receipt's.
type fakeWitness struct {
	finalized   *uint64
	head        uint64
	blocks      map[uint64]common.Hash
	receipt     *jsonrpc.Receipt
	fail        bool
	failReceipt bool
	// missing are heights the endpoint knows no block at (null), whatever its head.
	missing map[uint64]bool
	// chainID is the chain it serves; 1338 (the destination) when zero.
	chainID uint64
	// url is where serve runs it.
	url string
}

type rpcHeader struct {
	Number    hexutil.Uint64 `json:"number"`
	Hash      common.Hash    `json:"hash"`
	Timestamp hexutil.Uint64 `json:"timestamp"`
}

type rpcReceipt struct {
	Status      hexutil.Uint64 `json:"status"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
	BlockHash   common.Hash    `json:"blockHash"`
	GasUsed     hexutil.Uint64 `json:"gasUsed"`
	Logs        []types.Log    `json:"logs"`
}

var errWitnessDown = errors.New("witness down")

// ethService answers the eth_ methods the watcher asks a witness.
type ethService struct{ w *fakeWitness }

func (s ethService) GetBlockByNumber(n rpc.BlockNumber, _ bool) (*rpcHeader, error) {
	if s.w.fail {
		return nil, errWitnessDown
	}
	if n == rpc.FinalizedBlockNumber {
		if s.w.finalized == nil {
			return nil, nil
		}
		n = rpc.BlockNumber(*s.w.finalized) //nolint:gosec // a small block number
	}
	if s.w.missing[uint64(n)] { //nolint:gosec // a small block number
		return nil, nil
	}
	h, ok := s.w.blocks[uint64(n)] //nolint:gosec // a small block number
	if !ok {
		h = common.BigToHash(big.NewInt(int64(n) + 1000))
	}
	return &rpcHeader{Number: hexutil.Uint64(n), Hash: h, Timestamp: 1_700_000_000}, nil //nolint:gosec // a small block number
}

func (s ethService) ChainId() (*hexutil.Big, error) { //nolint:revive // the JSON-RPC method eth_chainId
	if s.w.fail {
		return nil, errWitnessDown
	}
	id := s.w.chainID
	if id == 0 {
		id = 1338
	}
	return (*hexutil.Big)(new(big.Int).SetUint64(id)), nil
}

func (s ethService) BlockNumber() (hexutil.Uint64, error) {
	if s.w.fail {
		return 0, errWitnessDown
	}
	return hexutil.Uint64(s.w.head), nil
}

func (s ethService) GetTransactionReceipt(common.Hash) (*rpcReceipt, error) {
	if s.w.fail || s.w.failReceipt {
		return nil, errWitnessDown
	}
	r := s.w.receipt
	if r == nil {
		return nil, nil
	}
	return &rpcReceipt{Status: hexutil.Uint64(r.Status), BlockNumber: hexutil.Uint64(r.BlockNumber), BlockHash: r.BlockHash, GasUsed: hexutil.Uint64(r.GasUsed), Logs: r.Logs}, nil
}

// serve runs the witness until the test ends and dials it as the watcher does.
func (w *fakeWitness) serve(t *testing.T) *jsonrpc.Client {
	t.Helper()
	srv := rpc.NewServer()
	if err := srv.RegisterName("eth", ethService{w}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Stop() })
	w.url = hs.URL
	c, err := jsonrpc.Dial(t.Context(), "eip155:1338", hs.URL, jsonrpc.Options{Caller: Caller})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func uint64p(n uint64) *uint64 { return &n }

// Witnesses as they answer about the fill.

// agreeing holds the fill's block final and says what the node says.
func agreeing() *fakeWitness {
	return &fakeWitness{finalized: uint64p(fillBlock + 3), head: fillBlock + 10, blocks: map[uint64]common.Hash{fillBlock: fillBlockHash}, receipt: theFill()}
}

// erring fails every call.
func erring() *fakeWitness { return &fakeWitness{fail: true} }

// lagging has the same fill, but does not hold its block final yet.
func lagging() *fakeWitness {
	w := agreeing()
	w.finalized = uint64p(fillBlock - 2)
	return w
}

// laggingWithoutTag serves no finalized tag and is not the bridge depth past the fill's block.
func laggingWithoutTag() *fakeWitness {
	w := agreeing()
	w.finalized, w.head = nil, fillBlock+3
	return w
}

// failingOnReceipt holds the block final but does not answer for the receipt.
func failingOnReceipt() *fakeWitness {
	w := agreeing()
	w.failReceipt = true
	return w
}

// bridgeUnderTest is a follower of the destination chain eip155:1338 with witnesses, and a bridge
// intent of eip155:1337 submitted and waiting for its fill to be confirmed. Both settlement
// contracts are verified, and the service has an attester key.
type bridgeUnderTest struct {
	f    *follower
	ref  OrderRef
	kube client.Client
	m    *metrics
}

func newBridgeUnderTest(t *testing.T, singleSource bool, witnesses ...*fakeWitness) *bridgeUnderTest {
	t.Helper()
	m, err := newMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	chains := registry.NewChainTable()
	chains.Upsert("local-dev", registry.Chain{ID: "eip155:1337", SettlementAddress: originSettler.Hex(), SettlementVerified: true})
	chains.Upsert("local-dev-2", registry.Chain{ID: "eip155:1338", SettlementAddress: destSettler.Hex(), SettlementVerified: true})
	dest, _ := chains.Get("eip155:1338")
	dest.BlockTimeSeconds = 1
	kube := fake.NewClientBuilder().WithScheme(v1alpha1.Scheme()).
		WithStatusSubresource(&v1alpha1.TransferIntent{}, &v1alpha1.Chain{}).
		WithObjects(
			&v1alpha1.Chain{ObjectMeta: metav1.ObjectMeta{Name: "local-dev-2", Namespace: "default"}},
			&v1alpha1.TransferIntent{
				ObjectMeta: metav1.ObjectMeta{Name: "bridge", Namespace: "default"},
				Status:     v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted},
			},
		).Build()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{
		chain: dest, chainID: 1338, namespace: "default", log: logr.Discard(), metrics: m, chains: chains,
		writer:   &intentstatus.Writer{Client: kube, APIReader: kube},
		reported: map[common.Hash]string{}, refundBlocks: map[common.Hash]blockRef{},
		opts: Options{Attester: settlement.NewAttester(key), SingleSourceAttestation: singleSource},
	}
	m.follow(dest.ID)
	for _, w := range witnesses {
		c := w.serve(t)
		f.witnesses = append(f.witnesses, &witness{Client: c, url: w.url})
	}
	ref := OrderRef{
		Name: "bridge", OrderID: bridgeOrderID, Origin: 1337, Dest: 1338, Phase: v1alpha1.IntentPhaseSubmitted, OpenFinal: true,
		Domain:      settlement.Domain{ChainID: big.NewInt(1337), Contract: originSettler},
		DestSettler: destSettler,
		Fill:        &FillRef{Hash: fillTx, Block: fillBlock, BlockHash: fillBlockHash, Filler: bridgeFiller, AmountOut: big.NewInt(24_825_250)},
	}
	return &bridgeUnderTest{f: f, ref: ref, kube: kube, m: m}
}

// confirm runs the final fill through confirmFill and reports whether it was attested: the intent
// confirmed with a signature in its status.
func (b *bridgeUnderTest) confirm(t *testing.T) bool {
	t.Helper()
	if err := b.f.confirmFill(t.Context(), b.ref, theFill()); err != nil {
		t.Fatal(err)
	}
	var ti v1alpha1.TransferIntent
	if err := b.kube.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "bridge"}, &ti); err != nil {
		t.Fatal(err)
	}
	signed := ti.Status.Fill != nil && ti.Status.Fill.Attestation != ""
	if confirmed := ti.Status.Phase == v1alpha1.IntentPhaseConfirmed; confirmed != signed {
		t.Fatalf("phase %s, attestation %v: a bridge is confirmed exactly when attested", ti.Status.Phase, signed)
	}
	return signed
}

func (b *bridgeUnderTest) unattested(reason string) float64 {
	return testutil.ToFloat64(b.m.unattested.WithLabelValues("eip155:1338", reason))
}

// agreement is the Chain's RPCAgreement condition (nil: none).
func (b *bridgeUnderTest) agreement(t *testing.T) *metav1.Condition {
	t.Helper()
	var chain v1alpha1.Chain
	if err := b.kube.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "local-dev-2"}, &chain); err != nil {
		t.Fatal(err)
	}
	return meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionRPCAgreement)
}

// A witness that errs or lags abstains: it neither confirms nor contradicts, so the node and
// abstaining witnesses make no quorum and nothing is signed (the fill waits, counted once as
// no_quorum). One witness that agrees makes the quorum of two, whatever the others' abstentions.
func TestAnAbstainingWitnessMakesNoQuorum(t *testing.T) {
	for name, witnesses := range map[string][]func() *fakeWitness{
		"a witness that errs":                              {erring},
		"a witness behind the finalized block":             {lagging},
		"a witness without the tag, short of bridge depth": {laggingWithoutTag},
		"a witness that fails on the receipt":              {failingOnReceipt},
		"every witness abstains":                           {erring, lagging, laggingWithoutTag, failingOnReceipt},
	} {
		t.Run(name, func(t *testing.T) {
			var ws []*fakeWitness
			for _, w := range witnesses {
				ws = append(ws, w())
			}
			b := newBridgeUnderTest(t, false, ws...)
			if b.confirm(t) {
				t.Fatal("the fill was attested on the node's word and abstentions")
			}
			if b.confirm(t) {
				t.Fatal("the fill was attested at the second step")
			}
			if n := b.unattested(unattestedNoQuorum); n != 1 {
				t.Errorf("unattested{no_quorum} = %v, want 1 (once per fill)", n)
			}
			if n := testutil.ToFloat64(b.m.disagreements.WithLabelValues("eip155:1338")); n != 0 {
				t.Errorf("an abstention counted as a disagreement (%v)", n)
			}
			if c := b.agreement(t); c != nil {
				t.Errorf("RPCAgreement %+v written without a quorum", c)
			}
		})
	}
	t.Run("one witness agrees, another abstains", func(t *testing.T) {
		b := newBridgeUnderTest(t, false, erring(), agreeing())
		if !b.confirm(t) {
			t.Fatal("the node and an agreeing witness did not make the quorum")
		}
		if c := b.agreement(t); c == nil || c.Status != metav1.ConditionTrue || c.Reason != v1alpha1.ReasonSourcesAgree || !strings.Contains(c.Message, "2 endpoints") {
			t.Errorf("RPCAgreement %+v, want True SourcesAgree by 2 endpoints", c)
		}
	})
}

// A Chain without witnessRpcs has one source, the node: its fills are not signed unless the
// service runs with --unsafe-single-rpc-attestation (development chains only).
func TestAFillSeenByTheNodeAloneIsSignedOnlyWithTheUnsafeOption(t *testing.T) {
	b := newBridgeUnderTest(t, false)
	if b.confirm(t) {
		t.Fatal("a fill seen by the node alone was attested without --unsafe-single-rpc-attestation")
	}
	if n := b.unattested(unattestedSingleSource); n != 1 {
		t.Errorf("unattested{single_source} = %v, want 1", n)
	}
	b = newBridgeUnderTest(t, true)
	if !b.confirm(t) {
		t.Fatal("with --unsafe-single-rpc-attestation, the fill was not attested")
	}
	// A Chain that names witnesses, none of which could be dialled at the follower's start, is not
	// a single-source Chain: the option does not cover it.
	b = newBridgeUnderTest(t, true)
	b.f.chain.WitnessURLs = []string{"https://witness.example"}
	if b.confirm(t) {
		t.Fatal("a Chain whose configured witnesses were all dropped was attested on one node under the unsafe option")
	}
}

// A witness that holds the fill's block final under another hash contradicts the node, even when
// it reports the same receipt status and the same Filled event: the two saw different blocks, so
// nothing is signed, and the disagreement is counted and shown on the Chain. The other hash is
// caught in the witness's header of the block and in its receipt alike.
func TestAWitnessThatDisagreesOnlyOnTheBlockHashWithholdsTheSignature(t *testing.T) {
	otherBranch := func(header, receipt common.Hash) func() *fakeWitness {
		return func() *fakeWitness {
			w := agreeing()
			w.blocks[fillBlock] = header
			w.receipt.BlockHash = receipt
			for i := range w.receipt.Logs {
				w.receipt.Logs[i].BlockHash = receipt
			}
			return w
		}
	}
	for name, witness := range map[string]func() *fakeWitness{
		"its block and receipt on another branch":       otherBranch(otherHash, otherHash),
		"another block, the node's hash in the receipt": otherBranch(otherHash, fillBlockHash),
		"the node's block, another hash in the receipt": otherBranch(fillBlockHash, otherHash),
	} {
		t.Run(name, func(t *testing.T) {
			b := newBridgeUnderTest(t, false, witness(), agreeing())
			if b.confirm(t) {
				t.Fatal("the fill was attested although a witness holds another block final")
			}
			if n := testutil.ToFloat64(b.m.disagreements.WithLabelValues("eip155:1338")); n != 1 {
				t.Errorf("tis_chain_rpc_disagreements_total = %v, want 1", n)
			}
			if n := b.unattested(unattestedDisagreement); n != 1 {
				t.Errorf("unattested{sources_disagree} = %v, want 1", n)
			}
			if c := b.agreement(t); c == nil || c.Status != metav1.ConditionFalse || c.Reason != v1alpha1.ReasonSourcesDisagree || !strings.Contains(c.Message, otherHash.Hex()) {
				t.Errorf("RPCAgreement %+v, want False SourcesDisagree naming %s", c, otherHash.Hex())
			}
		})
	}
}

// A witness that did not answer when its follower started was never asked its chain id: it is
// asked before its word counts. One that serves another chain abstains for good, however well it
// agrees; one that comes up serving this chain makes the quorum.
func TestAWitnessCountsOnlyOnceItServesTheChain(t *testing.T) {
	other := agreeing()
	other.chainID = 1
	b := newBridgeUnderTest(t, false, other)
	for step := range 2 {
		if b.confirm(t) {
			t.Fatalf("step %d: attested on the word of a witness of another chain", step)
		}
	}

	late := agreeing()
	late.fail = true // down when the follower started, and at the first attempt
	b = newBridgeUnderTest(t, false, late)
	if b.confirm(t) {
		t.Fatal("attested while the only witness was down")
	}
	late.fail = false
	if !b.confirm(t) {
		t.Fatal("a witness that came up serving the chain, and agrees, made no quorum")
	}
}

// Where the operator lists trusted hosts for the destination chain (--attestation-trusted-hosts),
// agreeing endpoints count only when they are on the list, so whoever writes the Chain cannot
// choose the endpoints the attester believes: the listed node and an unlisted witness that agrees
// sign nothing (counted once as untrusted_sources); two listed endpoints that agree do. The unsafe
// single-source option does not lift the list.
func TestOnlyTrustedEndpointsAttestWhereTheOperatorListsThem(t *testing.T) {
	run := func(t *testing.T, listWitness bool) *bridgeUnderTest {
		t.Helper()
		b := newBridgeUnderTest(t, false, agreeing())
		b.f.chain.RPCURL = "https://node.example/v1/KEY"
		entry := "eip155:1338=node.example"
		if listWitness {
			entry += "," + strings.TrimPrefix(b.f.witnesses[0].url, "http://")
		}
		if err := b.f.opts.TrustedSources.Add(entry); err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := run(t, false)
	for step := range 2 {
		if b.confirm(t) {
			t.Fatalf("step %d: attested on the word of an endpoint off the trusted list", step)
		}
	}
	if n := b.unattested(unattestedUntrusted); n != 1 {
		t.Errorf("unattested{untrusted_sources} = %v, want 1 (once per fill)", n)
	}
	if !run(t, true).confirm(t) {
		t.Error("two listed endpoints that agree made no attestation")
	}

	// Two ports of one listed host are one provider's word, not two.
	sameHost := newBridgeUnderTest(t, false, agreeing())
	sameHost.f.chain.RPCURL = "http://127.0.0.1:1"
	if err := sameHost.f.opts.TrustedSources.Add("eip155:1338=127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if sameHost.confirm(t) {
		t.Error("the node and a witness on two ports of one listed host made two trusted sources")
	}

	single := newBridgeUnderTest(t, true)
	if err := single.f.opts.TrustedSources.Add("eip155:1338=node.example"); err != nil {
		t.Fatal(err)
	}
	single.f.chain.RPCURL = "https://node.example"
	if single.confirm(t) {
		t.Error("the unsafe single-source option attested on a chain with a trusted list")
	}
}
