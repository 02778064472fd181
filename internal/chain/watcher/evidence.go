package watcher

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
)

// A bridge escrow is released on the attester's word, so the attester's word rests on more than
// one node: before a final bridge fill is signed, the settlement contracts at both ends must be
// verified on chain and be the order's own, and at least two distinct endpoints of the destination
// chain (its rpc and witnessRpcs) must agree on the fill, with none answering otherwise. One
// lying or intercepted node can then at worst delay a payout, never forge one.

// attestable decides whether a final bridge fill may be attested now. A fill that may not waits
// for a later step (a witness catching up, a contract verified, an operator's fix); why is logged
// and counted once per fill and reason.
func (f *follower) attestable(ctx context.Context, ref OrderRef, r *jsonrpc.Receipt) (bool, error) {
	if why := f.unverified(ref); why != "" {
		f.withheld(ref, unattestedUnverified, why)
		return false, nil
	}
	restricted := f.opts.TrustedSources.Restricts(f.chain.ID)
	if len(f.witnesses) == 0 {
		// The option covers Chains configured without witnesses, not Chains whose witnesses could
		// not be dialled or answered another chain id at the follower's start, nor chains whose
		// attestations the operator restricted to trusted hosts.
		if f.opts.SingleSourceAttestation && len(f.chain.WitnessURLs) == 0 && !restricted {
			return true, nil
		}
		f.withheld(ref, unattestedSingleSource, fmt.Sprintf("%s has no witnessRpcs: a fill seen by one endpoint only is not attested", f.chain.ID))
		return false, nil
	}
	want := fillView{status: r.Status, block: r.BlockNumber, blockHash: r.BlockHash, log: fillLog(r, ref)}
	verdicts := f.askWitnesses(ctx, ref, want)
	agree, disputes := 1, []string(nil) // the node itself said want
	trustedAgree := map[string]bool{}   // the listed hosts that agree: two ports of one host are one word
	if h, ok := f.opts.TrustedSources.TrustedHost(f.chain.ID, f.chain.RPCURL); ok {
		trustedAgree[h] = true
	}
	for i, v := range verdicts {
		switch v.kind {
		case agrees:
			agree++
			if h, ok := f.opts.TrustedSources.TrustedHost(f.chain.ID, f.witnesses[i].url); ok {
				trustedAgree[h] = true
			}
		case disagrees:
			disputes = append(disputes, fmt.Sprintf("witnessRpcs[%d] %s", i, v.detail))
		}
	}
	if len(disputes) > 0 {
		return false, f.disputed(ctx, ref, disputes)
	}
	if agree < 2 {
		f.withheld(ref, unattestedNoQuorum, fmt.Sprintf("no witness of %s confirms the fill yet", f.chain.ID))
		return false, nil
	}
	if restricted && len(trustedAgree) < 2 {
		f.withheld(ref, unattestedUntrusted, fmt.Sprintf("the %d endpoints of %s that agree on the fill are on %d distinct hosts of --attestation-trusted-hosts; 2 are needed",
			agree, f.chain.ID, len(trustedAgree)))
		return false, nil
	}
	return true, f.setAgreement(ctx, metav1.ConditionTrue, v1alpha1.ReasonSourcesAgree,
		fmt.Sprintf("%d endpoints agreed on the fill %s of order %s (block %d, %s)", agree, ref.Fill.Hash.Hex(), ref.OrderID.Hex(), r.BlockNumber, r.BlockHash.Hex()))
}

// unverified says why the settlement contracts of the order are not ones the service may attest
// for ("" when they are): the origin contract (the attestation's domain) must be its Chain's
// verified settlement contract, and the order's destinationSettler this Chain's. The live chain
// table is read, so that a contract that lost its verification stops attestations at once.
func (f *follower) unverified(ref OrderRef) string {
	origin, ok := f.chains.Get(caip.NamespaceEIP155 + ":" + ref.Domain.ChainID.String())
	if !ok || !origin.SettlementVerified || origin.SettlementAddress != ref.Domain.Contract.Hex() {
		return fmt.Sprintf("the order's origin contract %s is not the verified settlement contract of eip155:%s", ref.Domain.Contract.Hex(), ref.Domain.ChainID)
	}
	dest, ok := f.chains.Get(f.chain.ID)
	if !ok || !dest.SettlementVerified || dest.SettlementAddress != ref.DestSettler.Hex() {
		return fmt.Sprintf("the order's destinationSettler %s is not the verified settlement contract of %s", ref.DestSettler.Hex(), f.chain.ID)
	}
	return ""
}

// fillView is what an endpoint says of a fill: its receipt's status, its block, and the order's
// Filled event in it (nil: none).
type fillView struct {
	status    uint64
	block     uint64
	blockHash common.Hash
	log       *types.Log
}

// verdictKind is how a witness's answer compares with the node's.
type verdictKind int

const (
	// abstains: the witness did not answer, or not at final depth yet (it lags): it neither
	// confirms nor contradicts.
	abstains verdictKind = iota
	agrees
	// disagrees: at final depth by its own account, the witness says something else.
	disagrees
)

type verdict struct {
	kind   verdictKind
	detail string
}

// witness is a witness endpoint of the chain. verified says it answered the chain's id; other is
// the other chain it serves, once seen: it then abstains for good.
type witness struct {
	*jsonrpc.Client
	// url is the endpoint's URL (it may hold a provider's key: never logged).
	url      string
	verified bool
	other    *big.Int
}

// servesChain checks, once, that witness i serves the follower's chain: one that did not answer
// when the follower started has not been asked yet. Until it has answered the right id it
// abstains; one that serves another chain is logged once and abstains for good, since its word
// about this chain means nothing. Each witness is checked by its own goroutine (askWitnesses).
func (f *follower) servesChain(ctx context.Context, i int, w *witness) (bool, string) {
	switch {
	case w.verified:
		return true, ""
	case w.other != nil:
		return false, "serves chain " + w.other.String()
	}
	id, err := w.ChainID(ctx)
	if err != nil {
		return false, "did not answer its chain id: " + err.Error()
	}
	if !id.IsUint64() || id.Uint64() != f.chainID {
		w.other = id
		f.log.Error(nil, "a witness endpoint serves another chain: its word is ignored", "witness", i, "chainId", id.String())
		return false, "serves chain " + id.String()
	}
	w.verified = true
	return true, ""
}

// askWitnesses asks every witness, concurrently (each call within the watcher's CallTimeout),
// what it says of the fill.
func (f *follower) askWitnesses(ctx context.Context, ref OrderRef, want fillView) []verdict {
	out := make([]verdict, len(f.witnesses))
	var wg sync.WaitGroup
	for i, w := range f.witnesses {
		wg.Go(func() {
			if ok, why := f.servesChain(ctx, i, w); !ok {
				out[i] = verdict{abstains, why}
				return
			}
			out[i] = f.ask(ctx, w.Client, ref, want)
		})
	}
	wg.Wait()
	return out
}

// ask compares one witness's account of the fill with the node's.
func (f *follower) ask(ctx context.Context, w *jsonrpc.Client, ref OrderRef, want fillView) verdict {
	// Finality first: the header and receipt read after it are of a block the witness already
	// held final, so a reorg between the reads cannot pass a stale hash.
	final, err := witnessFinal(ctx, w, bridgeConfirmations(f.chain), want.block)
	if err != nil || !final {
		return verdict{abstains, fmt.Sprintf("does not hold block %d final yet", want.block)}
	}
	header, err := w.HeaderByNumber(ctx, want.block)
	if err != nil {
		return verdict{abstains, "has no block " + fmt.Sprint(want.block) + " yet"}
	}
	receipts, err := w.Receipts(ctx, []common.Hash{ref.Fill.Hash})
	if err != nil {
		return verdict{abstains, "did not answer: " + err.Error()}
	}
	if header.Hash != want.blockHash {
		return verdict{disagrees, fmt.Sprintf("says block %d is %s at final depth, not %s", want.block, header.Hash.Hex(), want.blockHash.Hex())}
	}
	rec := receipts[0]
	if rec == nil {
		return verdict{disagrees, fmt.Sprintf("has block %d but no receipt of %s", want.block, ref.Fill.Hash.Hex())}
	}
	got := fillView{status: rec.Status, block: rec.BlockNumber, blockHash: rec.BlockHash, log: fillLog(rec, ref)}
	if diff := got.differences(want); diff != "" {
		return verdict{disagrees, diff}
	}
	return verdict{agrees, ""}
}

// witnessFinal reports whether the witness holds block n final: under its finalized block where it
// serves the tag, else at the chain's bridge depth under its head.
func witnessFinal(ctx context.Context, w *jsonrpc.Client, depth, n uint64) (bool, error) {
	fin, served, err := w.FinalizedHeader(ctx)
	if err != nil {
		return false, err
	}
	view, head := finalityView{read: true, served: served, block: fin.Number}, uint64(0)
	if !served {
		if head, err = w.Head(ctx); err != nil {
			return false, err
		}
	}
	return view.holds(n, head, depth), nil
}

// differences names what the witness's view (v) says otherwise than the node's (want).
func (v fillView) differences(want fillView) string {
	var out []string
	if v.status != want.status {
		out = append(out, fmt.Sprintf("receipt status %d, not %d", v.status, want.status))
	}
	if v.block != want.block || v.blockHash != want.blockHash {
		out = append(out, fmt.Sprintf("block %d (%s), not %d (%s)", v.block, v.blockHash.Hex(), want.block, want.blockHash.Hex()))
	}
	if !sameLog(v.log, want.log) {
		out = append(out, "another Filled event (address, topics or data)")
	}
	return strings.Join(out, "; ")
}

// sameLog compares what a log says: its address, topics and data.
func sameLog(a, b *types.Log) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Address == b.Address && slices.Equal(a.Topics, b.Topics) && bytes.Equal(a.Data, b.Data)
}

// disputed reports sources that contradict each other about a fill: counted, announced as a
// Warning event on the Chain and as its RPCAgreement condition, once per fill.
func (f *follower) disputed(ctx context.Context, ref OrderRef, disputes []string) error {
	msg := fmt.Sprintf("the endpoints disagree on the fill %s of order %s (rpc saw it final): %s; it is not attested until they agree",
		ref.Fill.Hash.Hex(), ref.OrderID.Hex(), strings.Join(disputes, "; "))
	if f.reported[ref.Fill.Hash] == unattestedDisagreement {
		return nil
	}
	f.reported[ref.Fill.Hash] = unattestedDisagreement
	f.log.Error(nil, "RPC endpoints disagree on a bridge fill: not attested", "intent", ref.Name, "orderId", ref.OrderID.Hex(), "fill", ref.Fill.Hash.Hex(), "disputes", disputes)
	f.metrics.disagreement(f.chain.ID)
	f.metrics.unattestedFill(f.chain.ID, unattestedDisagreement)
	return f.setAgreement(ctx, metav1.ConditionFalse, v1alpha1.ReasonSourcesDisagree, msg)
}

// withheld logs and counts, once per fill and reason, a fill that is not attested yet.
func (f *follower) withheld(ref OrderRef, reason, why string) {
	if f.reported[ref.Fill.Hash] == reason {
		return
	}
	f.reported[ref.Fill.Hash] = reason
	f.log.Info("a final bridge fill is not attested", "intent", ref.Name, "orderId", ref.OrderID.Hex(), "reason", reason, "why", why)
	f.metrics.unattestedFill(f.chain.ID, reason)
}

// setAgreement records the Chain's RPCAgreement condition when its status or reason changes (or,
// for a disagreement, its message), with a Warning event for a disagreement. The Chain controller
// writes the other conditions: the patch carries the resourceVersion read, so neither writer can
// drop the other's condition.
func (f *follower) setAgreement(ctx context.Context, status metav1.ConditionStatus, reason, msg string) error {
	key := client.ObjectKey{Namespace: f.namespace, Name: f.chain.Name}
	var chain v1alpha1.Chain
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := f.writer.APIReader.Get(ctx, key, &chain); err != nil {
			return err
		}
		prev := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionRPCAgreement)
		if prev != nil && prev.Status == status && prev.Reason == reason && (status == metav1.ConditionTrue || prev.Message == msg) {
			return nil
		}
		before := chain.DeepCopy()
		meta.SetStatusCondition(&chain.Status.Conditions, metav1.Condition{
			Type: v1alpha1.ConditionRPCAgreement, Status: status, Reason: reason, Message: msg,
			ObservedGeneration: chain.Generation, LastTransitionTime: f.writer.Now(),
		})
		return f.writer.Client.Status().Patch(ctx, &chain, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	})
	if err = client.IgnoreNotFound(err); err != nil {
		return fmt.Errorf("recording the RPCAgreement condition of Chain %s: %w", f.chain.Name, err)
	}
	if status != metav1.ConditionTrue && f.writer.Events != nil {
		f.writer.Events.Eventf(&chain, nil, corev1.EventTypeWarning, reason, "AttestFill", "%s", msg)
	}
	return nil
}
