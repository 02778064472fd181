package controller

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// The lifecycle with a fake clock: every wait is a RequeueAfter of the exact length, and the
// transitions happen at the instants they are due, not a poll later.

type lifecycleFixture struct {
	t        testing.TB
	client   client.Client
	clock    *clocktesting.FakePassiveClock
	recorder *events.FakeRecorder
	r        *TransferIntentReconciler
}

func newLifecycleFixture(t testing.TB, objs ...client.Object) *lifecycleFixture {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	f := &lifecycleFixture{
		t: t,
		client: fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(&v1alpha1.TransferIntent{}).
			WithIndex(&v1alpha1.TransferIntent{}, v1alpha1.PhaseField, intentstatus.IndexByPhase).WithObjects(objs...).Build(),
		clock:    clocktesting.NewFakePassiveClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)),
		recorder: events.NewFakeRecorder(20),
	}
	metrics, err := NewIntentMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	f.r = &TransferIntentReconciler{
		writer:    writer{Client: f.client, Recorder: f.recorder, Clock: f.clock},
		Retention: 72 * time.Hour,
		Metrics:   metrics,
	}
	return f
}

func (f *lifecycleFixture) advance(d time.Duration) { f.clock.SetTime(f.clock.Now().Add(d)) }

func (f *lifecycleFixture) reconcile(obj *v1alpha1.TransferIntent) ctrl.Result {
	f.t.Helper()
	res, err := f.r.Reconcile(context.Background(), ctrl.Request{NamespacedName: client.ObjectKeyFromObject(obj)})
	if err != nil {
		f.t.Fatalf("Reconcile: %v", err)
	}
	return res
}

func (f *lifecycleFixture) get(obj *v1alpha1.TransferIntent) error {
	return f.client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj)
}

// expect checks the phase, the Ready reason and the next wake-up.
func (f *lifecycleFixture) expect(obj *v1alpha1.TransferIntent, res ctrl.Result, phase v1alpha1.IntentPhase, reason string, requeue time.Duration) {
	f.t.Helper()
	if err := f.get(obj); err != nil {
		f.t.Fatal(err)
	}
	cond := meta.FindStatusCondition(obj.Status.Conditions, v1alpha1.ConditionReady)
	switch {
	case intentstatus.Phase(obj) != phase:
		f.t.Fatalf("phase %q, want %q", obj.Status.Phase, phase)
	case cond == nil || cond.Status != metav1.ConditionTrue || cond.Reason != reason:
		f.t.Fatalf("Ready %+v, want True/%s", cond, reason)
	case res.RequeueAfter != requeue:
		f.t.Fatalf("RequeueAfter %s, want %s", res.RequeueAfter, requeue)
	}
}

// expectImpliedPending checks that the reconcile left a new pending intent's status unwritten
// (pending and Ready are implied) and waits until its expiry.
func (f *lifecycleFixture) expectImpliedPending(obj *v1alpha1.TransferIntent, res ctrl.Result, requeue time.Duration) {
	f.t.Helper()
	if err := f.get(obj); err != nil {
		f.t.Fatal(err)
	}
	switch {
	case !equality.Semantic.DeepEqual(obj.Status, v1alpha1.TransferIntentStatus{}):
		f.t.Fatalf("status %+v, want none written", obj.Status)
	case res.RequeueAfter != requeue:
		f.t.Fatalf("RequeueAfter %s, want %s", res.RequeueAfter, requeue)
	}
}

// sweep runs the retention sweep over the fixture's intents and returns what it queued (the
// controller has not started, so the requests wait in the enqueuer).
func (f *lifecycleFixture) sweep() []reconcile.Request {
	f.t.Helper()
	f.r.requeue.pending = nil
	s := &retentionSweep{reconciler: f.r, list: terminalIntents(f.client)}
	n, err := s.sweep(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	due := slices.Collect(maps.Keys(f.r.requeue.pending))
	if n != len(due) {
		f.t.Fatalf("sweep reported %d, queued %d", n, len(due))
	}
	return due
}

// nextEvent returns the next event the recorder got, or "".
func (f *lifecycleFixture) nextEvent() string {
	select {
	case e := <-f.recorder.Events:
		return e
	default:
		return ""
	}
}

// expectNoEvent fails on any event recorded: an intent's transitions are counted, not recorded
// as Events (docs/decisions.md, "An intent costs the API server three writes").
func (f *lifecycleFixture) expectNoEvent() {
	f.t.Helper()
	if e := f.nextEvent(); e != "" {
		f.t.Fatalf("event %q; want none", e)
	}
}

// expired is how many expiries to expired the reconciler counted.
func (f *lifecycleFixture) expired() float64 {
	return testutil.ToFloat64(f.r.Metrics.expiredN.WithLabelValues(string(v1alpha1.IntentPhaseExpired)))
}

func lifecycleIntent(expiresAt time.Time) *v1alpha1.TransferIntent {
	ti := newIntent("acme")
	ti.Namespace = "tis"
	ti.UID = types.UID("uid-" + ti.Name)
	ti.Spec.ExpiresAt = metav1.NewTime(expiresAt)
	return ti
}

var _ = Describe("A TransferIntent on a fake clock", func() {
	It("expires, then is deleted after the retention", func() {
		t := GinkgoTB()
		start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		ti := lifecycleIntent(start.Add(90 * time.Second))
		f := newLifecycleFixture(t, ti)

		res := f.reconcile(ti)
		f.expectImpliedPending(ti, res, 90*time.Second)
		if ti.Labels[v1alpha1.LabelAccount] != "acme" || ti.Labels[v1alpha1.LabelType] != "transfer" {
			t.Fatalf("labels %v", ti.Labels)
		}

		// An early wake-up (a resync, a restart) changes nothing and waits for the rest.
		f.advance(30 * time.Second)
		f.expectImpliedPending(ti, f.reconcile(ti), 60*time.Second)
		// A new intent is no news: no event (one per intent would be a third of the writes of a
		// create).
		if e := f.nextEvent(); e != "" {
			t.Fatalf("event before expiry: %q (want none)", e)
		}

		// Terminal: its deletion is beyond the retention horizon, so it waits on no timer.
		f.advance(60 * time.Second)
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseExpired, v1alpha1.ReasonTerminal, 0)
		if !ti.Status.UpdatedAt.Time.Equal(start.Add(90 * time.Second)) {
			t.Fatalf("updatedAt %v, want the expiry instant", ti.Status.UpdatedAt)
		}
		f.expectNoEvent()
		if n := f.expired(); n != 1 {
			t.Fatalf("%v expiries counted; want 1", n)
		}

		// The sweep leaves it until its deletion is within the horizon, then queues it, and the
		// reconcile waits for the exact instant.
		horizon := f.r.horizon()
		f.advance(f.r.Retention - horizon - time.Minute)
		if due := f.sweep(); len(due) != 0 {
			t.Fatalf("swept %v more than a horizon before its deletion", due)
		}
		f.advance(2 * time.Minute)
		if due := f.sweep(); len(due) != 1 || due[0].Name != ti.Name {
			t.Fatalf("swept %v within the horizon, want %s", due, ti.Name)
		}
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseExpired, v1alpha1.ReasonTerminal, horizon-time.Minute)

		f.advance(horizon - 2*time.Minute)
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseExpired, v1alpha1.ReasonTerminal, time.Minute)

		f.advance(time.Minute)
		f.reconcile(ti)
		if err := f.get(ti); !apierrors.IsNotFound(err) {
			t.Fatalf("after the retention the intent still exists (%v)", err)
		}
		f.expectNoEvent()
	})
})

var _ = Describe("The lifecycle's edge cases", func() {
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

	It("a submitted intent does not expire off-chain", func() {
		t := GinkgoTB()
		ti := lifecycleIntent(start.Add(-time.Hour))
		ti.Status.Phase = v1alpha1.IntentPhaseSubmitted
		f := newLifecycleFixture(t, ti)
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseSubmitted, v1alpha1.ReasonActive, 0)
	})

	It("an intent created past its expiry expires at once", func() {
		t := GinkgoTB()
		ti := lifecycleIntent(start.Add(-time.Second))
		f := newLifecycleFixture(t, ti)
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseExpired, v1alpha1.ReasonTerminal, 0)
	})

	It("retention of a terminal intent without updatedAt counts from its creation", func() {
		t := GinkgoTB()
		ti := lifecycleIntent(start.Add(time.Hour))
		ti.Status.Phase = v1alpha1.IntentPhaseConfirmed
		ti.CreationTimestamp = metav1.NewTime(start.Add(-71 * time.Hour))
		f := newLifecycleFixture(t, ti)
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseConfirmed, v1alpha1.ReasonTerminal, time.Hour)
	})

	It("an account name too long for a label is left out of the labels", func() {
		t := GinkgoTB()
		ti := lifecycleIntent(start.Add(time.Hour))
		ti.Spec.AccountRef.Name = strings.Repeat("a", 100)
		f := newLifecycleFixture(t, ti)
		f.expectImpliedPending(ti, f.reconcile(ti), time.Hour)
		if _, ok := ti.Labels[v1alpha1.LabelAccount]; ok {
			t.Fatalf("labels %v", ti.Labels)
		}
	})
})

// A pending intent on a watched chain is not expired while the chain watcher's recorded progress
// is behind its expiry (its transaction may be in a block not read yet), for at most the grace.
var _ = Describe("The expiry of a pending intent on a watched chain", func() {
	It("waits for the chain watcher, for at most the grace", func() {
		t := GinkgoTB()
		expiresAt := time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
		ti := lifecycleIntent(expiresAt)
		chain := &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "sepolia", Namespace: ti.Namespace},
			Spec:       v1alpha1.ChainSpec{ChainID: ti.Spec.FromChain, RPC: &v1alpha1.ChainRPC{URL: "http://127.0.0.1:1"}},
			Status: v1alpha1.ChainStatus{Watch: &v1alpha1.ChainWatchStatus{
				ProcessedBlock: 10, ProcessedBlockTime: metav1.NewTime(expiresAt.Add(-5 * time.Second)),
			}},
		}
		scheme := runtime.NewScheme()
		if err := v1alpha1.AddToScheme(scheme); err != nil {
			t.Fatal(err)
		}
		f := newLifecycleFixture(t)
		f.client = fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(&v1alpha1.TransferIntent{}, &v1alpha1.Chain{}).
			WithIndex(&v1alpha1.Chain{}, ChainIDField, ChainByChainID).
			WithIndex(&v1alpha1.TransferIntent{}, v1alpha1.PhaseField, intentstatus.IndexByPhase).WithObjects(ti, chain).Build()
		f.r.Client = f.client

		f.clock.SetTime(expiresAt.Add(time.Second))
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhasePending, v1alpha1.ReasonActive, watcherWait)

		// The watcher has read past the expiry: nothing came, the intent expires.
		if err := f.client.Get(context.Background(), client.ObjectKeyFromObject(chain), chain); err != nil {
			t.Fatal(err)
		}
		chain.Status.Watch.ProcessedBlockTime = metav1.NewTime(expiresAt.Add(time.Second))
		if err := f.client.Status().Update(context.Background(), chain); err != nil {
			t.Fatal(err)
		}
		res := f.reconcile(ti)
		if err := f.get(ti); err != nil || ti.Status.Phase != v1alpha1.IntentPhaseExpired {
			t.Fatalf("phase %q (%v) after the watcher passed the expiry, want expired (result %+v)", ti.Status.Phase, err, res)
		}

		// A watcher stuck behind does not hold an expiry past the grace.
		stuck := lifecycleIntent(expiresAt)
		stuck.Name = "stuck"
		if err := f.client.Create(context.Background(), stuck); err != nil {
			t.Fatal(err)
		}
		chain.Status.Watch.ProcessedBlockTime = metav1.NewTime(expiresAt.Add(-time.Hour))
		if err := f.client.Status().Update(context.Background(), chain); err != nil {
			t.Fatal(err)
		}
		f.clock.SetTime(expiresAt.Add(DefaultExpiryGrace))
		f.reconcile(stuck)
		if err := f.get(stuck); err != nil || stuck.Status.Phase != v1alpha1.IntentPhaseExpired {
			t.Fatalf("phase %q (%v) past the grace, want expired", stuck.Status.Phase, err)
		}
	})
})

// The chain watcher may write submitted between the controller's read of an expiring intent and
// its relabelling: the expiry must then not happen, nor be announced. The relabelling carries the
// resourceVersion read, so it conflicts, and the next reconcile sees the submitted intent.
var _ = Describe("An expiry racing a submission", func() {
	It("does not expire the intent", func() {
		t := GinkgoTB()
		start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		ti := lifecycleIntent(start.Add(-time.Second))
		ti.Labels = nil // created by kubectl: the expiry's reconcile relabels it first
		f := newLifecycleFixture(t, ti)
		base := f.client
		raced := false
		f.client = interceptor.NewClient(base.(client.WithWatch), interceptor.Funcs{
			Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
				if !raced {
					raced = true
					var live v1alpha1.TransferIntent
					if err := c.Get(ctx, client.ObjectKeyFromObject(obj), &live); err != nil {
						return err
					}
					live.Status.Phase, live.Status.Hash = v1alpha1.IntentPhaseSubmitted, "0x"+strings.Repeat("ab", 32)
					if err := c.Status().Update(ctx, &live); err != nil {
						return err
					}
				}
				return c.Patch(ctx, obj, patch, opts...)
			},
		})
		f.r.Client = f.client

		if _, err := f.r.Reconcile(context.Background(), ctrl.Request{NamespacedName: client.ObjectKeyFromObject(ti)}); err == nil {
			t.Fatal("the reconcile that raced the submission succeeded; want a conflict")
		}
		f.expect(ti, f.reconcile(ti), v1alpha1.IntentPhaseSubmitted, v1alpha1.ReasonActive, 0)
		if n := f.expired(); n != 0 {
			t.Fatalf("%v expiries counted for an intent that was submitted, not expired", n)
		}
	})
})
