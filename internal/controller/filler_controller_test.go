package controller

import (
	"context"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// newFiller returns a valid Filler of the account on one route between two fresh chains.
func newFiller(account string) *v1alpha1.Filler {
	from, to := uniqueChainID(), uniqueChainID()
	return &v1alpha1.Filler{
		ObjectMeta: metav1.ObjectMeta{Name: uniqueName("filler"), Namespace: namespace},
		Spec: v1alpha1.FillerSpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: account},
			QuoteURL:   "http://127.0.0.1:9101/quote",
			Routes:     []v1alpha1.FillerRoute{{FromChainID: from, ToChainID: to}},
			PayoutAddresses: []v1alpha1.FillerPayoutAddress{
				{ChainID: to, Address: randomAddress()},
			},
		},
	}
}

// createFillerAccount creates a Ready account that owns a filler key.
func createFillerAccount() *v1alpha1.Account {
	GinkgoHelper()
	account := createReadyAccount()
	key, _ := newApiKey(account.Name)
	key.Spec.Role = v1alpha1.ApiKeyRoleFiller
	Expect(k8sClient.Create(ctx, key)).To(Succeed())
	return account
}

// servingNames lists the names of the fillers the directory has for a route, any token.
func servingNames(r v1alpha1.FillerRoute) []string {
	var names []string
	for _, f := range models.Fillers.Serving(r.FromChainID, r.ToChainID, r.FromChainID+":"+randomAddress(), r.ToChainID+":"+randomAddress()) {
		names = append(names, f.Name)
	}
	return names
}

var _ = Describe("Filler controller", func() {
	It("generates a signing secret the Filler owns and publishes the filler with it", func() {
		account := createFillerAccount()
		f := newFiller(account.Name)
		Expect(k8sClient.Create(ctx, f)).To(Succeed())
		cond := expectReady(f, metav1.ConditionTrue, v1alpha1.ReasonValid)

		name := FillerSecretName(f.Name)
		Expect(f.Status.SigningSecretRef).To(Equal(&v1alpha1.SecretKeyReference{Name: name, Key: signing.DefaultSecretKey}))
		secret := eventuallySecret(name, func(g Gomega, s *corev1.Secret) { g.Expect(s.Data).To(HaveKey("secret")) })
		value := string(secret.Data["secret"])
		_, err := signing.ParseSecret(value)
		Expect(err).NotTo(HaveOccurred())
		Expect(secret.OwnerReferences).To(ConsistOf(metav1.OwnerReference{
			APIVersion: v1alpha1.GroupVersion.String(), Kind: "Filler", Name: f.Name, UID: f.UID,
			Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
		}), "the garbage collector deletes the Secret with the Filler")
		Expect(f.OwnerReferences).To(ConsistOf(metav1.OwnerReference{
			APIVersion: v1alpha1.GroupVersion.String(), Kind: "Account", Name: account.Name, UID: account.UID,
			Controller: ptr.To(false), BlockOwnerDeletion: ptr.To(true),
		}), "the garbage collector deletes the Filler with its Account")
		Expect(cond.Message).NotTo(ContainSubstring(value))
		expectNoEventCarries(f, value, value[len(signing.SecretPrefix):])

		route := f.Spec.Routes[0]
		withinOneSecond(func() bool {
			got, ok := models.Fillers.Get(f.Name)
			return ok && got.Secret == value
		})
		got, _ := models.Fillers.Get(f.Name)
		Expect(got.URL).To(Equal(f.Spec.QuoteURL))
		Expect(got.Account).To(Equal(account.Name))
		payout, ok := got.Payout(route.ToChainID)
		Expect(ok).To(BeTrue())
		Expect(payout).To(Equal(common.HexToAddress(f.Spec.PayoutAddresses[0].Address)))
		Expect(servingNames(route)).To(Equal([]string{f.Name}))

		// Deleted: withdrawn.
		Expect(k8sClient.Delete(ctx, f)).To(Succeed())
		withinOneSecond(func() bool { return len(servingNames(route)) == 0 })
	})

	It("is not asked while its Account does not exist, and is once it does with a filler key", func() {
		accountName := uniqueName("acct")
		f := newFiller(accountName)
		Expect(k8sClient.Create(ctx, f)).To(Succeed())
		expectReady(f, metav1.ConditionFalse, v1alpha1.ReasonOwnerMissing)
		Expect(servingNames(f.Spec.Routes[0])).To(BeEmpty())

		account := newAccount()
		account.Name = accountName
		Expect(k8sClient.Create(ctx, account)).To(Succeed())
		expectReady(f, metav1.ConditionFalse, v1alpha1.ReasonAccountNotFiller)
		Expect(servingNames(f.Spec.Routes[0])).To(BeEmpty())

		// A client key does not make a filler; a filler key does.
		clientKey, _ := newApiKey(accountName)
		Expect(k8sClient.Create(ctx, clientKey)).To(Succeed())
		Consistently(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(f), f)).To(Succeed())
			g.Expect(f.Status.Conditions).To(ContainElement(HaveField("Reason", v1alpha1.ReasonAccountNotFiller)))
		}).WithTimeout(300 * time.Millisecond).Should(Succeed())
		key, _ := newApiKey(accountName)
		key.Spec.Role = v1alpha1.ApiKeyRoleFiller
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(f, metav1.ConditionTrue, v1alpha1.ReasonValid)
		withinOneSecond(func() bool { return len(servingNames(f.Spec.Routes[0])) == 1 })

		// Its only filler key disabled: no longer a filler.
		Expect(k8sClient.Get(ctx, objKey(key), key)).To(Succeed())
		key.Spec.Disabled = true
		Expect(k8sClient.Update(ctx, key)).To(Succeed())
		expectReady(f, metav1.ConditionFalse, v1alpha1.ReasonAccountNotFiller)
		withinOneSecond(func() bool { return len(servingNames(f.Spec.Routes[0])) == 0 })
	})

	It("is not asked while disabled", func() {
		account := createFillerAccount()
		f := newFiller(account.Name)
		f.Spec.Disabled = true
		Expect(k8sClient.Create(ctx, f)).To(Succeed())
		expectReady(f, metav1.ConditionFalse, v1alpha1.ReasonDisabled)
		Expect(servingNames(f.Spec.Routes[0])).To(BeEmpty())

		f.Spec.Disabled = false
		Expect(k8sClient.Update(ctx, f)).To(Succeed())
		expectReady(f, metav1.ConditionTrue, v1alpha1.ReasonValid)
		withinOneSecond(func() bool { return len(servingNames(f.Spec.Routes[0])) == 1 })
	})

	It("lists only the Ready fillers serving a route, by token", func() {
		account := createFillerAccount()
		from, to := uniqueChainID(), uniqueChainID()
		usdcIn, usdcOut := from+":"+randomAddress(), to+":"+randomAddress()
		mk := func(edit func(*v1alpha1.FillerSpec)) *v1alpha1.Filler {
			f := newFiller(account.Name)
			f.Spec.Routes = []v1alpha1.FillerRoute{{FromChainID: from, ToChainID: to}}
			f.Spec.PayoutAddresses = []v1alpha1.FillerPayoutAddress{{ChainID: to, Address: randomAddress()}}
			edit(&f.Spec)
			Expect(k8sClient.Create(ctx, f)).To(Succeed())
			return f
		}
		anyToken := mk(func(*v1alpha1.FillerSpec) {})
		usdcOnly := mk(func(s *v1alpha1.FillerSpec) { s.Routes[0].TokensIn = []string{usdcIn} })
		disabled := mk(func(s *v1alpha1.FillerSpec) { s.Disabled = true })
		otherWay := mk(func(s *v1alpha1.FillerSpec) {
			s.Routes = []v1alpha1.FillerRoute{{FromChainID: to, ToChainID: from}}
			s.PayoutAddresses = []v1alpha1.FillerPayoutAddress{{ChainID: from, Address: randomAddress()}}
		})
		for _, f := range []*v1alpha1.Filler{anyToken, usdcOnly, otherWay} {
			expectReady(f, metav1.ConditionTrue, v1alpha1.ReasonValid)
		}
		expectReady(disabled, metav1.ConditionFalse, v1alpha1.ReasonDisabled)
		names := func(in string) []string {
			var out []string
			for _, f := range rfq.Fillers(models.Fillers.Serving(from, to, in, usdcOut), to) {
				out = append(out, f.Name)
			}
			return out
		}
		want := []string{anyToken.Name, usdcOnly.Name}
		if strings.Compare(want[0], want[1]) > 0 {
			want[0], want[1] = want[1], want[0]
		}
		withinOneSecond(func() bool { return len(names(usdcIn)) == 2 })
		Expect(names(usdcIn)).To(Equal(want))
		Expect(names(from + ":" + randomAddress())).To(Equal([]string{anyToken.Name}))
	})
})

var _ = Describe("Filler CRD validation", func() {
	create := func(edit func(*v1alpha1.FillerSpec)) error {
		f := newFiller(uniqueName("acct"))
		edit(&f.Spec)
		return k8sClient.Create(ctx, f)
	}
	DescribeTable("refuses a bad manifest, as the Go mirror does",
		func(edit func(*v1alpha1.FillerSpec), message string) {
			err := create(edit)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(ContainSubstring(message))
			spec := newFiller("acct").Spec
			edit(&spec)
			Expect(ValidateFillerSpec(&spec)).NotTo(BeEmpty(), "the Go mirror accepts what the API server refuses")
		},
		Entry("plain http to a public host", func(s *v1alpha1.FillerSpec) { s.QuoteURL = "http://quotes.example.com/quote" }, "quoteURL must be https"),
		Entry("not a URL", func(s *v1alpha1.FillerSpec) { s.QuoteURL = "quotes" }, "quoteURL must be https"),
		Entry("a bad chain id", func(s *v1alpha1.FillerSpec) { s.Routes[0].FromChainID = "eip155:01" }, "an eip155 chain id must be"),
		Entry("a chain id that is no CAIP-2", func(s *v1alpha1.FillerSpec) { s.Routes[0].FromChainID = "ethereum" }, "fromChainId"),
		Entry("a token on another chain", func(s *v1alpha1.FillerSpec) {
			s.Routes[0].TokensIn = []string{"eip155:1:" + randomAddress()}
		}, "every tokensIn entry must be a CAIP-10 address on fromChainId"),
		Entry("a route without a payout address on its destination", func(s *v1alpha1.FillerSpec) {
			s.PayoutAddresses[0].ChainID = "eip155:1"
		}, "every route's toChainId needs a payout address"),
		Entry("a payout address that is no address", func(s *v1alpha1.FillerSpec) { s.PayoutAddresses[0].Address = "0x1234" }, "address"),
		Entry("no route", func(s *v1alpha1.FillerSpec) { s.Routes = nil }, "routes"),
	)

	It("accepts https and loopback http", func() {
		for _, url := range []string{"https://quotes.example.com/v1/quote", "http://localhost:9101/quote", "http://[::1]:9101/quote"} {
			Expect(create(func(s *v1alpha1.FillerSpec) { s.QuoteURL = url })).To(Succeed(), url)
		}
	})

	It("refuses to change accountRef", func() {
		f := newFiller(uniqueName("acct"))
		err := patchAfterCreate(f, func(f *v1alpha1.Filler) { f.Spec.AccountRef.Name = "someone-else" })
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("accountRef is immutable"))
	})
})

var _ = Describe("ValidateFillerSpec", func() {
	It("refuses what the CRD cannot check: a bad EIP-55 checksum, a private address literal, a duplicate chain", func() {
		spec := newFiller("acct").Spec
		spec.PayoutAddresses[0].Address = breakChecksum(spec.PayoutAddresses[0].Address)
		Expect(ValidateFillerSpec(&spec).ToAggregate().Error()).To(ContainSubstring("EIP-55"))

		spec = newFiller("acct").Spec
		spec.QuoteURL = "https://10.0.0.1/quote"
		Expect(ValidateFillerSpec(&spec).ToAggregate().Error()).To(ContainSubstring("private"))

		spec = newFiller("acct").Spec
		spec.PayoutAddresses = append(spec.PayoutAddresses, spec.PayoutAddresses[0])
		Expect(ValidateFillerSpec(&spec)).NotTo(BeEmpty())

		Expect(ValidateFillerSpec(ptr.To(newFiller("acct").Spec))).To(BeEmpty())
	})
})

// A fading filler, on a fake client with the market's stats: Ready=False Fading with the time it
// is asked again, still published (the request for quotes skips it by itself), and the counters on
// the status.
var _ = Describe("A fading Filler", func() {
	It("reports Fading and the market's counters", func() {
		t := GinkgoTB()
		now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
		account := &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "mm", Namespace: testNamespace, UID: "mm-uid"},
			Spec:       v1alpha1.AccountSpec{DisplayName: "Market maker", Email: "mm@example.com"},
		}
		key := &v1alpha1.ApiKey{
			ObjectMeta: metav1.ObjectMeta{Name: "mm-key", Namespace: testNamespace},
			Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: "mm"}, Environment: v1alpha1.EnvironmentTest,
				KeyHash: registry.HashKey("sk_test_mm"), DisplayPrefix: "sk_test_mm", Role: v1alpha1.ApiKeyRoleFiller},
		}
		f := newFiller("mm")
		f.Namespace, f.Name, f.UID, f.Generation = testNamespace, "fader", "fader-uid", 1
		c := fakeClient(t, account, key, f)
		fillers := registry.NewFillerDirectory()
		until := now.Add(10 * time.Minute)
		stats := rfq.Stats{Quotes: 40, Wins: 7, Fills: 4, Fades: 3, RecentFades: 3, QuoteLatency: 42 * time.Millisecond, NotAskedUntil: until}
		r := &FillerReconciler{writer: writer{Client: c, Recorder: events.NewFakeRecorder(10), Clock: clocktesting.NewFakePassiveClock(now)},
			Fillers: fillers, Stats: func(string) rfq.Stats { return stats }}
		res, err := r.Reconcile(context.Background(), request("fader"))
		if err != nil {
			t.Fatal(err)
		}
		if res.RequeueAfter != DefaultFillerStatsInterval {
			t.Errorf("requeue after %s, want the stats interval", res.RequeueAfter)
		}
		cond := readyOf(t, c, f)
		if cond.Reason != v1alpha1.ReasonFading || !strings.Contains(cond.Message, until.Format(time.RFC3339)) || !strings.Contains(cond.Message, "3 fades") {
			t.Errorf("Ready: %+v", cond)
		}
		st := f.Status
		if st.Quotes != 40 || st.Wins != 7 || st.Fills != 4 || st.Fades != 3 || st.QuoteLatencyMs != 42 || st.NotAskedUntil == nil || !st.NotAskedUntil.Time.Equal(until) {
			t.Errorf("status: %+v", st)
		}
		if _, ok := fillers.Get("fader"); !ok {
			t.Error("a fading filler is withdrawn: the request for quotes skips it by itself")
		}

		// The cool-down over: Ready again.
		stats.NotAskedUntil, stats.RecentFades = time.Time{}, 0
		if _, err := r.Reconcile(context.Background(), request("fader")); err != nil {
			t.Fatal(err)
		}
		if cond := readyOf(t, c, f); cond.Reason != v1alpha1.ReasonValid || f.Status.NotAskedUntil != nil {
			t.Errorf("after the cool-down: %+v, notAskedUntil %v", cond, f.Status.NotAskedUntil)
		}
	})
})
