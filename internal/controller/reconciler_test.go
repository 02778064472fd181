package controller

import (
	"context"
	"errors"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// Reconciler tests on a fake client: what needs a controlled clock or a non-leader replica.

const testNamespace = "tis"

func fakeClient(t testing.TB, objs ...client.Object) client.Client {
	t.Helper()
	b := fake.NewClientBuilder().WithScheme(testenv.Scheme()).WithObjects(objs...).
		WithStatusSubresource(&v1alpha1.Chain{}, &v1alpha1.TokenDefinition{}, &v1alpha1.Account{}, &v1alpha1.ApiKey{}, &v1alpha1.TransferIntent{},
			&v1alpha1.WebhookEndpoint{}, &v1alpha1.Filler{})
	for _, ix := range Indexes() {
		b = b.WithIndex(ix.Object, ix.Field, ix.Extract)
	}
	return b.Build()
}

func request(name string) ctrl.Request {
	return ctrl.Request{NamespacedName: types.NamespacedName{Namespace: testNamespace, Name: name}}
}

func readyOf(t testing.TB, c client.Client, obj client.Object) *metav1.Condition {
	t.Helper()
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
		t.Fatal(err)
	}
	return meta.FindStatusCondition(obj.(v1alpha1.Object).GetCommonStatus().Conditions, v1alpha1.ConditionReady)
}

var _ = Describe("An ApiKey with an expiry", func() {
	It("is requeued at expiresAt", func() {
		t := GinkgoTB()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		clk := clocktesting.NewFakePassiveClock(now)
		account := &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: testNamespace, UID: "acme-uid"},
			Spec:       v1alpha1.AccountSpec{DisplayName: "Acme", Email: "ops@acme.example"},
		}
		expiresAt := now.Add(90 * time.Second)
		key := &v1alpha1.ApiKey{
			ObjectMeta: metav1.ObjectMeta{Name: "k1", Namespace: testNamespace, Generation: 1},
			Spec: v1alpha1.ApiKeySpec{
				AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
				KeyHash: registry.HashKey("sk_test_k1"), DisplayPrefix: "sk_test_k1",
				ExpiresAt: &metav1.Time{Time: expiresAt},
			},
		}
		c := fakeClient(t, account, key)
		recorder := events.NewFakeRecorder(10)
		keys := registry.NewKeyIndex()
		keys.SetAccount("acme", false)
		r := &ApiKeyReconciler{writer: writer{Client: c, Recorder: recorder, Clock: clk}, Keys: keys}

		res, err := r.Reconcile(context.Background(), request("k1"))
		if err != nil {
			t.Fatal(err)
		}
		if want := 90*time.Second + expiryGrace; res.RequeueAfter != want {
			t.Errorf("RequeueAfter = %v, want %v", res.RequeueAfter, want)
		}
		if cond := readyOf(t, c, key); cond == nil || cond.Reason != v1alpha1.ReasonValid || cond.ObservedGeneration != 1 {
			t.Fatalf("Ready = %+v, want Valid for generation 1", cond)
		}
		if len(key.OwnerReferences) != 1 || key.OwnerReferences[0].UID != "acme-uid" || !*key.OwnerReferences[0].BlockOwnerDeletion {
			t.Errorf("owner references = %+v", key.OwnerReferences)
		}
		if got := <-recorder.Events; got != "Normal Valid the key is accepted" {
			t.Errorf("event = %q", got)
		}

		clk.SetTime(expiresAt)
		res, err = r.Reconcile(context.Background(), request("k1"))
		if err != nil {
			t.Fatal(err)
		}
		if res.RequeueAfter != 0 {
			t.Errorf("an expired key is requeued after %v", res.RequeueAfter)
		}
		if cond := readyOf(t, c, key); cond == nil || cond.Reason != v1alpha1.ReasonExpired || !cond.LastTransitionTime.Time.Equal(expiresAt) {
			t.Errorf("Ready = %+v, want Expired at %v", cond, expiresAt)
		}
		if _, ok := keys.Authenticate(key.Spec.KeyHash, expiresAt); ok {
			t.Error("the index accepts an expired key")
		}
	})
})

// The projection fills the read model and writes nothing; the reconciler of the same kind writes
// the status; only the reconciler waits for the leader election.
var _ = Describe("A projection", func() {
	It("fills the read models without writing", func() {
		t := GinkgoTB()
		chain := &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "sepolia", Namespace: testNamespace, Generation: 1},
			Spec: v1alpha1.ChainSpec{
				ChainID: "eip155:11155111", Environment: v1alpha1.EnvironmentTest, DisplayName: "Sepolia",
				NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 780,
				DefaultGasPriceWei: "1000000000", NativeTokenPriceUSD: "0",
			},
		}
		c := fakeClient(t, chain)
		recorder := events.NewFakeRecorder(10)
		chains := registry.NewChainTable()
		projection := &ChainReconciler{writer: writer{Client: readOnly{c}, Recorder: recorder, project: true}, Chains: chains}

		if _, err := projection.Reconcile(context.Background(), request("sepolia")); err != nil {
			t.Fatal(err)
		}
		if _, ok := chains.Get("eip155:11155111"); !ok {
			t.Error("the projection did not publish the chain")
		}
		if cond := readyOf(t, c, chain); cond != nil {
			t.Errorf("the projection wrote the status: %+v", cond)
		}
		if len(recorder.Events) != 0 {
			t.Errorf("the projection emitted an event: %s", <-recorder.Events)
		}
		if err := projection.Status().Patch(context.Background(), chain, client.MergeFrom(chain.DeepCopy())); !errors.Is(err, errProjectionWrite) {
			t.Errorf("a projection's status write gave %v; want it refused", err)
		}
		if err := projection.Delete(context.Background(), chain); !errors.Is(err, errProjectionWrite) {
			t.Errorf("a projection's delete gave %v; want it refused", err)
		}
		if *projection.controllerOptions().NeedLeaderElection || projection.controllerName("chain") != "chain-projection" {
			t.Errorf("the projection waits for the election (%v) or is named %q", *projection.controllerOptions().NeedLeaderElection, projection.controllerName("chain"))
		}

		reconciler := &ChainReconciler{writer: writer{Client: c, Recorder: recorder}, Chains: chains}
		if _, err := reconciler.Reconcile(context.Background(), request("sepolia")); err != nil {
			t.Fatal(err)
		}
		if cond := readyOf(t, c, chain); cond == nil || cond.Reason != v1alpha1.ReasonValid {
			t.Errorf("the reconciler did not write the status: %+v", cond)
		}
		if !*reconciler.controllerOptions().NeedLeaderElection {
			t.Error("the reconciler that writes runs without the leader election")
		}
	})
})

var _ = Describe("requestsFor", func() {
	It("uses the index", func() {
		t := GinkgoTB()
		mk := func(name, chainID string) *v1alpha1.TokenDefinition {
			return &v1alpha1.TokenDefinition{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace},
				Spec:       v1alpha1.TokenDefinitionSpec{Symbol: name, ChainID: chainID, Address: chainID + ":" + registry.NativeTokenAddress},
			}
		}
		c := fakeClient(t, mk("a", "eip155:1"), mk("b", "eip155:1"), mk("c", "eip155:10"))
		reqs := requestsFor(context.Background(), c, &v1alpha1.TokenDefinitionList{}, ChainIDField, []string{"eip155:1", "eip155:5"})
		if len(reqs) != 2 || reqs[0].Name != "a" || reqs[1].Name != "b" {
			t.Errorf("requests = %v, want a and b", reqs)
		}
	})
})

var _ = Describe("The enqueuer", func() {
	It("keeps requests until started", func() {
		t := GinkgoTB()
		var e enqueuer
		e.add([]ctrl.Request{request("early")})
		q := newTestQueue()
		if err := e.Start(context.Background(), q); err != nil {
			t.Fatal(err)
		}
		e.add([]ctrl.Request{request("late")})
		if got := q.Len(); got != 2 {
			t.Errorf("queue holds %d requests, want 2", got)
		}
		q.ShutDown()
	})
})

func newTestQueue() workqueue.TypedRateLimitingInterface[ctrl.Request] {
	return workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[ctrl.Request]())
}

// The shared reconcile withdraws a published object whose spec turns invalid, and reports why.
var _ = Describe("An invalid spec", func() {
	It("withdraws the published key", func() {
		t := GinkgoTB()
		now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		account := &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: testNamespace, UID: "acme-uid"},
			Spec:       v1alpha1.AccountSpec{DisplayName: "Acme", Email: "ops@acme.example"},
		}
		key := &v1alpha1.ApiKey{
			ObjectMeta: metav1.ObjectMeta{Name: "k1", Namespace: testNamespace, Generation: 1},
			Spec: v1alpha1.ApiKeySpec{
				AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
				KeyHash: registry.HashKey("sk_test_k1"), DisplayPrefix: "sk_test_k1",
			},
		}
		c := fakeClient(t, account, key)
		keys := registry.NewKeyIndex()
		keys.SetAccount("acme", false)
		r := &ApiKeyReconciler{writer: writer{Client: c, Clock: clocktesting.NewFakePassiveClock(now)}, Keys: keys}

		if _, err := r.Reconcile(context.Background(), request("k1")); err != nil {
			t.Fatal(err)
		}
		if _, ok := keys.Authenticate(key.Spec.KeyHash, now); !ok {
			t.Fatal("a valid key is not published")
		}

		// A live prefix on a test key: stored before the CRD refused it, say.
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(key), key); err != nil {
			t.Fatal(err)
		}
		key.Spec.DisplayPrefix = "sk_live_k1"
		if err := c.Update(context.Background(), key); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Reconcile(context.Background(), request("k1")); err != nil {
			t.Fatal(err)
		}
		if _, ok := keys.Authenticate(key.Spec.KeyHash, now); ok {
			t.Error("the index still accepts a key whose spec is invalid")
		}
		if cond := readyOf(t, c, key); cond == nil || cond.Reason != v1alpha1.ReasonInvalidSpec {
			t.Errorf("Ready = %+v, want InvalidSpec", cond)
		}
	})
})

var _ = Describe("An Account past its maxApiKeys", func() {
	It("refuses its newest keys, KeyLimitExceeded, and the index refuses them", func() {
		t := GinkgoTB()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		limit := int32(2)
		account := &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: testNamespace, UID: "acme-uid"},
			Spec:       v1alpha1.AccountSpec{DisplayName: "Acme", Email: "ops@acme.example", MaxAPIKeys: &limit},
		}
		objs := []client.Object{account}
		for i, name := range []string{"k1", "k2", "k3"} {
			objs = append(objs, &v1alpha1.ApiKey{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace, Generation: 1,
					CreationTimestamp: metav1.NewTime(now.Add(time.Duration(i) * time.Minute))},
				Spec: v1alpha1.ApiKeySpec{
					AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
					KeyHash: registry.HashKey("sk_test_" + name), DisplayPrefix: "sk_test_" + name,
				},
			})
		}
		c := fakeClient(t, objs...)
		keys := registry.NewKeyIndex()
		keys.SetAccount("acme", false)
		r := &ApiKeyReconciler{writer: writer{Client: c, Recorder: events.NewFakeRecorder(10), Clock: clocktesting.NewFakePassiveClock(now)}, Keys: keys}
		for _, name := range []string{"k1", "k2", "k3"} {
			if _, err := r.Reconcile(context.Background(), request(name)); err != nil {
				t.Fatal(err)
			}
		}
		for name, want := range map[string]bool{"k1": true, "k2": true, "k3": false} {
			cond := readyOf(t, c, &v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace}})
			if ready := cond != nil && cond.Status == metav1.ConditionTrue; ready != want {
				t.Errorf("%s: Ready %+v, want ready %v", name, cond, want)
			}
			if !want && (cond == nil || cond.Reason != v1alpha1.ReasonKeyLimitExceeded) {
				t.Errorf("%s: %+v, want reason KeyLimitExceeded", name, cond)
			}
			if _, ok := keys.Authenticate(registry.HashKey("sk_test_"+name), now); ok != want {
				t.Errorf("%s: authenticates %v, want %v", name, ok, want)
			}
		}
	})
})
