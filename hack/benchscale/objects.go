package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// caller is one account of the run with its test keys.
type caller struct {
	account, keyName, key string
	// keys are all the account's keys (key is the first): a reader at full speed needs more than
	// one key's rate limit.
	keys []string
}

// keyFor spreads requests over the caller's keys.
func (c caller) keyFor(seq int) string { return c.keys[seq%len(c.keys)] }

// setupNamespace creates the namespace, the sample Chains and TokenDefinitions that need no node
// (the samples' local chains point at a port another `make run` may be using; orderChains runs
// them on ports of its own while the templates are made), and the accounts with test keys, each
// rate-limited as loosely as an ApiKey allows.
func setupNamespace(ctx context.Context, c client.Client, namespace, samples string, accounts int) ([]caller, error) {
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	skipped := map[string]bool{}
	for _, doc := range documents(filepath.Join(samples, "intents_v1alpha1_chain.yaml")) {
		var ch v1alpha1.Chain
		if err := yaml.UnmarshalStrict(doc, &ch); err != nil {
			return nil, fmt.Errorf("sample chain: %w", err)
		}
		if ch.Spec.RPC != nil {
			skipped[ch.Spec.ChainID] = true
			continue
		}
		ch.Namespace = namespace
		if err := c.Create(ctx, &ch); err != nil {
			return nil, fmt.Errorf("creating chain %s: %w", ch.Name, err)
		}
	}
	for _, doc := range documents(filepath.Join(samples, "intents_v1alpha1_tokendefinition.yaml")) {
		var td v1alpha1.TokenDefinition
		if err := yaml.UnmarshalStrict(doc, &td); err != nil {
			return nil, fmt.Errorf("sample token definition: %w", err)
		}
		if skipped[td.Spec.ChainID] {
			continue
		}
		td.Namespace = namespace
		if err := c.Create(ctx, &td); err != nil {
			return nil, fmt.Errorf("creating token definition %s: %w", td.Name, err)
		}
	}
	callers := make([]caller, accounts)
	for i := range callers {
		name := fmt.Sprintf("bench-%03d", i)
		if err := c.Create(ctx, &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
			Spec:       v1alpha1.AccountSpec{DisplayName: name, Email: name + "@example.com"},
		}); err != nil {
			return nil, fmt.Errorf("creating account %s: %w", name, err)
		}
		callers[i] = caller{account: name, keyName: name}
		// The first account is the caller of the read measurements.
		keysPerAccount := 2
		if i == 0 {
			keysPerAccount = 16
		}
		for j := range keysPerAccount {
			k, err := apikey.Generate(registry.EnvironmentTest)
			if err != nil {
				return nil, err
			}
			keyName := fmt.Sprintf("%s-%d", name, j)
			if err := c.Create(ctx, &v1alpha1.ApiKey{
				ObjectMeta: metav1.ObjectMeta{Name: keyName, Namespace: namespace},
				Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: name},
					Environment: v1alpha1.EnvironmentTest, KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: 100_000},
			}); err != nil {
				return nil, fmt.Errorf("creating key %s: %w", keyName, err)
			}
			callers[i].keys = append(callers[i].keys, k.Plaintext)
		}
		callers[i].key, callers[i].keyName = callers[i].keys[0], name+"-0"
	}
	return callers, nil
}

// documents splits a multi-document YAML file.
func documents(path string) [][]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		fatalf("reading %s: %v", path, err)
	}
	var docs [][]byte
	for doc := range bytes.SplitSeq(data, []byte("\n---")) {
		if len(bytes.TrimSpace(doc)) > 0 {
			docs = append(docs, doc)
		}
	}
	return docs
}

// Requests of the three intent types. The transfers are on a sample testnet, which has no node:
// the service prices them from the Chain's static defaults. The swaps and bridges are on the
// samples' two local chains (orderChains), the only ones with a settlement contract the service
// can verify.
const (
	sepolia     = "eip155:11155111"
	usdcSepolia = sepolia + ":0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
	local1      = "eip155:1337"
	local2      = "eip155:1338"
	localUSDC   = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	userA       = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	userB       = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

var templateRequests = map[v1alpha1.IntentType]string{
	v1alpha1.IntentTypeTransfer: `{"from":"` + sepolia + `:` + userA + `","to":"` + sepolia + `:` + userB + `","asset":"` + usdcSepolia + `","amount":"12.5"}`,
	v1alpha1.IntentTypeSwap: `{"from":"` + local1 + `:` + userA + `","to":"` + local1 + `:` + userA + `","asset":{"in":"` + local1 + `:` + registry.NativeTokenAddress +
		`","out":"` + local1 + `:` + localUSDC + `"},"amount":"0.25"}`,
	v1alpha1.IntentTypeBridge: `{"from":"` + local1 + `:` + userA + `","to":"` + local2 + `:` + userA + `","asset":"` + local1 + `:` + localUSDC + `","amount":"40"}`,
}

var intentTypes = []v1alpha1.IntentType{v1alpha1.IntentTypeTransfer, v1alpha1.IntentTypeSwap, v1alpha1.IntentTypeBridge}

// The mix of the fill: most intents are settled, as in a store bounded by retention.
var (
	typeWeights  = []weighted[v1alpha1.IntentType]{{v1alpha1.IntentTypeTransfer, 60}, {v1alpha1.IntentTypeSwap, 25}, {v1alpha1.IntentTypeBridge, 15}}
	phaseWeights = []weighted[v1alpha1.IntentPhase]{
		{v1alpha1.IntentPhasePending, 10}, {v1alpha1.IntentPhaseSubmitted, 5}, {v1alpha1.IntentPhaseConfirmed, 65},
		{v1alpha1.IntentPhaseFailed, 5}, {v1alpha1.IntentPhaseExpired, 15},
	}
)

type weighted[T any] struct {
	v      T
	weight int
}

func pick[T any](rng *mathrand.Rand, ws []weighted[T]) T {
	total := 0
	for _, w := range ws {
		total += w.weight
	}
	n := rng.IntN(total)
	for _, w := range ws {
		if n < w.weight {
			return w.v
		}
		n -= w.weight
	}
	return ws[len(ws)-1].v
}

// fillPlan is one intent of the fill: what to store and the status to write after it.
type fillPlan struct {
	obj    *v1alpha1.TransferIntent
	status v1alpha1.TransferIntentStatus
}

// planner makes intents like the ones the service stores, from templates the service created.
type planner struct {
	namespace string
	templates map[v1alpha1.IntentType]*v1alpha1.TransferIntent
	callers   []caller
	now       time.Time
	rng       *mathrand.Rand
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return "0x" + hex.EncodeToString(b)
}

func randomAddress() string { return common.HexToAddress(randomHex(20)).Hex() }

// clone is the template of typ as a new intent of the caller, created at `at`, with the fields
// that differ between intents made fresh: ids, addresses, hashes.
func (p *planner) clone(typ v1alpha1.IntentType, c caller, at time.Time) *v1alpha1.TransferIntent {
	t := p.templates[typ]
	obj := &v1alpha1.TransferIntent{Spec: *t.Spec.DeepCopy()}
	obj.Namespace = p.namespace
	obj.Spec.ID = intent.NewIntentID(at)
	obj.Name, _ = intent.ObjectNameFromID(obj.Spec.ID)
	obj.Spec.AccountRef.Name = c.account
	obj.Spec.APIKeyRef = &v1alpha1.LocalObjectReference{Name: c.keyName}
	obj.Spec.OrderID = randomHex(32)
	obj.Spec.RequestHash = "sha256:" + randomHex(32)[2:]
	if p.rng.IntN(2) == 0 {
		obj.Spec.IdempotencyKeyHash = "sha256:" + randomHex(32)[2:]
	}
	from, to := randomAddress(), randomAddress()
	if typ == v1alpha1.IntentTypeSwap {
		to = from
	}
	obj.Spec.Request.From = obj.Spec.FromChain + ":" + from
	obj.Spec.Request.To = obj.Spec.ToChain + ":" + to
	obj.Spec.Request.Amount = strconv.Itoa(1+p.rng.IntN(10_000)) + "." + strconv.Itoa(p.rng.IntN(100))
	obj.Spec.ExpiresAt = metav1.NewTime(at.Add(time.Hour).UTC().Truncate(time.Second))
	obj.Labels = intentLabels(c.account, typ, v1alpha1.IntentPhasePending)
	return obj
}

// plan is intent number i of n: its account, type, creation time (ids spread over the last 20
// days, oldest first) and phase, with the status the service would have written: the chain
// watcher's fields and conditions, and the Ready condition exactly as the TransferIntent
// controller words it, so that the manager under test finds nothing to rewrite.
func (p *planner) plan(i, n int) fillPlan {
	c := p.callers[i%len(p.callers)]
	typ := pick(p.rng, typeWeights)
	phase := pick(p.rng, phaseWeights)
	span := 20 * 24 * time.Hour
	at := p.now.Add(-span + time.Duration(float64(span)*float64(i)/float64(n)))
	obj := p.clone(typ, c, at)
	obj.Labels = intentLabels(c.account, typ, phase)
	updated := metav1.NewTime(at.Add(time.Duration(1+p.rng.IntN(600)) * time.Second).UTC().Truncate(time.Second))
	if phase == v1alpha1.IntentPhasePending {
		// Pending intents keep waiting through the run.
		obj.Spec.ExpiresAt = metav1.NewTime(p.now.Add(time.Duration(2+p.rng.IntN(22)) * time.Hour).UTC().Truncate(time.Second))
	}
	st := v1alpha1.TransferIntentStatus{Phase: phase, UpdatedAt: &updated}
	st.ObservedGeneration = 1
	cond := func(typ string, status metav1.ConditionStatus, reason, msg string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: msg, ObservedGeneration: 1, LastTransitionTime: updated}
	}
	block := int64(5_000_000 + p.rng.IntN(1_000_000))
	if phase == v1alpha1.IntentPhaseSubmitted || phase == v1alpha1.IntentPhaseConfirmed || phase == v1alpha1.IntentPhaseFailed {
		st.Hash, st.BlockNumber, st.BlockHash = randomHex(32), block, randomHex(32)
	}
	var transaction *metav1.Condition
	switch phase {
	case v1alpha1.IntentPhaseSubmitted:
		c := cond(v1alpha1.ConditionTransaction, metav1.ConditionTrue, v1alpha1.ReasonIncluded,
			fmt.Sprintf("transaction %s is in block %d (%s); final at %d confirmations", st.Hash, block, st.BlockHash, 64))
		transaction = &c
	case v1alpha1.IntentPhaseConfirmed:
		msg := fmt.Sprintf("transaction %s succeeded in block %d (%s), %d blocks deep", st.Hash, block, st.BlockHash, 64)
		if typ != v1alpha1.IntentTypeTransfer {
			fill := &v1alpha1.FillStatus{ChainID: obj.Spec.ToChain, Hash: randomHex(32), BlockNumber: block + 3, BlockHash: randomHex(32),
				Filler: randomAddress(), AmountOut: strconv.Itoa(1_000_000 + p.rng.IntN(1_000_000_000))}
			msg = fmt.Sprintf("the fill %s on %s is final (block %d)", fill.Hash, fill.ChainID, fill.BlockNumber)
			if typ == v1alpha1.IntentTypeBridge {
				fill.Attestation = randomHex(65)
				msg += fmt.Sprintf("; attested for %s, which releases the escrow to %s", obj.Spec.Tx.To, fill.Filler)
			}
			st.Fill = fill
			st.Conditions = append(st.Conditions, cond(v1alpha1.ConditionOrderOpened, metav1.ConditionTrue, v1alpha1.ReasonOpened,
				fmt.Sprintf("the order was opened by transaction %s in block %d (%s), final: the settlement contract holds the escrow until a fill or the refund",
					st.Hash, block, st.BlockHash)))
		}
		c := cond(v1alpha1.ConditionTransaction, metav1.ConditionTrue, v1alpha1.ReasonConfirmed, msg)
		transaction = &c
	case v1alpha1.IntentPhaseFailed:
		c := cond(v1alpha1.ConditionTransaction, metav1.ConditionFalse, v1alpha1.ReasonReverted,
			fmt.Sprintf("transaction %s reverted in block %d (%s), gas used %d: execution reverted", st.Hash, block, st.BlockHash, 21_000+p.rng.IntN(100_000)))
		transaction = &c
	}
	if transaction != nil {
		st.Conditions = append(st.Conditions, *transaction)
	}
	// The Ready condition in the TransferIntent controller's words.
	var ready string
	switch phase {
	case v1alpha1.IntentPhasePending:
		ready = fmt.Sprintf("the intent is pending until %s", obj.Spec.ExpiresAt.UTC().Format(time.RFC3339))
	case v1alpha1.IntentPhaseSubmitted:
		ready = "the intent is submitted"
	default:
		why := ""
		if transaction != nil {
			why = " (" + transaction.Message + ")"
		}
		ready = fmt.Sprintf("the intent is %s%s; it is deleted at %s", phase, why,
			updated.Add(controller.DefaultIntentRetention).UTC().Format(time.RFC3339))
	}
	reason := v1alpha1.ReasonActive
	if intent.Finished(phase) {
		reason = v1alpha1.ReasonTerminal
	}
	st.Conditions = append(st.Conditions, cond(v1alpha1.ConditionReady, metav1.ConditionTrue, reason, ready))
	return fillPlan{obj: obj, status: st}
}

// fillResult is what a fill measured.
type fillResult struct {
	n       int
	elapsed time.Duration
	writes  int
}

// fill stores n intents with their statuses, from workers concurrent writers: the plans are made
// in one goroutine (ids must be minted in order), the writes in the others.
func fill(ctx context.Context, c client.Client, p *planner, n, workers int, progress func(done int)) (fillResult, error) {
	plans := make(chan fillPlan, 4*workers)
	go func() {
		defer close(plans)
		for i := range n {
			select {
			case plans <- p.plan(i, n):
			case <-ctx.Done():
				return
			}
		}
	}()
	var (
		done, writes atomic.Int64
		wg           sync.WaitGroup
		errOnce      sync.Once
		firstErr     error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for pl := range plans {
				if err := storeWithStatus(ctx, c, pl); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
				writes.Add(2)
				if d := done.Add(1); d%10_000 == 0 && progress != nil {
					progress(int(d))
				}
			}
		})
	}
	wg.Wait()
	for range plans { //nolint:revive // drain the producer after a failure
	}
	return fillResult{n: int(done.Load()), elapsed: time.Since(start), writes: int(writes.Load())}, firstErr
}

func storeWithStatus(ctx context.Context, c client.Client, pl fillPlan) error {
	obj := pl.obj
	for attempt := 0; ; attempt++ {
		err := c.Create(ctx, obj)
		if err == nil {
			break
		}
		if attempt >= 5 || !retryable(err) {
			return fmt.Errorf("creating %s: %w", obj.Name, err)
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	// A new intent is pending by implication: every finished phase but expired (confirmed,
	// failed) was submitted first (the CRD refuses any other first phase).
	statuses := []v1alpha1.TransferIntentStatus{pl.status}
	if p := pl.status.Phase; intent.Finished(p) && p != v1alpha1.IntentPhaseExpired {
		submitted := *pl.status.DeepCopy()
		submitted.Phase = v1alpha1.IntentPhaseSubmitted
		statuses = []v1alpha1.TransferIntentStatus{submitted, pl.status}
	}
	for _, st := range statuses {
		obj.Status = st
		if err := updateStatus(ctx, c, obj); err != nil {
			return err
		}
	}
	return nil
}

func updateStatus(ctx context.Context, c client.Client, obj *v1alpha1.TransferIntent) error {
	for attempt := 0; ; attempt++ {
		err := c.Status().Update(ctx, obj)
		if err == nil {
			return nil
		}
		if attempt >= 5 || !retryable(err) {
			return fmt.Errorf("writing the status of %s: %w", obj.Name, err)
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
}

func retryable(err error) bool {
	return apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) || apierrors.IsTooManyRequests(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsInternalError(err)
}

// legacyStatusLabel is the phase label of the releases before 0.2 (their controller kept it equal
// to the phase; their retention sweep and archiver listed by it). The objects the harness stores
// carry it too, so that an older build measured with -before finds them as it would its own.
const legacyStatusLabel = "intents.transferintent.io/status"

// intentLabels are the labels the intent store sets at a create, with the legacy phase label.
func intentLabels(account string, t v1alpha1.IntentType, phase v1alpha1.IntentPhase) map[string]string {
	labels := v1alpha1.IntentLabels(account, t)
	labels[legacyStatusLabel] = string(phase)
	return labels
}
