package intentstore_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
)

// record is the part of the API's TransferIntent the specs read.
type record struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Status   string `json:"status"`
	OrderID  string `json:"orderId"`
	Metadata struct {
		ChainID string `json:"chainId"`
	} `json:"metadata"`
	ExpiresAt string `json:"expiresAt"`
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func call(base, method, path, key string, body any, header ...string) answer {
	GinkgoHelper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		Expect(err).NotTo(HaveOccurred())
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("api-key", key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := httpClient().Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return answer{resp.StatusCode, resp.Header, b}
}

func decode[T any](a answer) T {
	GinkgoHelper()
	var v T
	Expect(json.Unmarshal(a.body, &v)).To(Succeed(), string(a.body))
	return v
}

func transferRequest(amount string) map[string]any {
	return map[string]any{
		"from": chainID + ":" + alice, "to": chainID + ":" + bob, "asset": chainID + ":" + usdc, "amount": amount,
	}
}

func listIDs(base, key string) []string {
	GinkgoHelper()
	a := call(base, http.MethodGet, "/v2/transfers?limit=100", key, nil)
	Expect(a.status).To(Equal(http.StatusOK), string(a.body))
	var ids []string
	for _, r := range decode[[]record](a) {
		ids = append(ids, r.ID)
	}
	return ids
}

func objectOf(id string) *v1alpha1.TransferIntent {
	GinkgoHelper()
	name, err := intent.ObjectNameFromID(id)
	Expect(err).NotTo(HaveOccurred())
	var obj v1alpha1.TransferIntent
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &obj)).To(Succeed())
	return &obj
}

// intentsWithKey lists, from the API server itself, the intents created under an idempotency key.
func intentsWithKey(account, key string) []v1alpha1.TransferIntent {
	GinkgoHelper()
	var list v1alpha1.TransferIntentList
	Expect(k8sClient.List(ctx, &list, client.InNamespace(namespace))).To(Succeed())
	want := intentstore.IdempotencyKeyHash(intentstore.Owner{Account: account, Environment: v1alpha1.EnvironmentTest}, key)
	var out []v1alpha1.TransferIntent
	for _, it := range list.Items {
		if it.Spec.IdempotencyKeyHash == want {
			out = append(out, it)
		}
	}
	return out
}

var _ = Describe("Transfer intents through the API", func() {
	It("creates an intent, lists it for its account only, and expires it at its deadline", func() {
		// Ten seconds: the create refuses a deadline sooner than the estimated settlement time (1 s),
		// and under load (make test beside a flake hunt) the create came 3 s after this line.
		deadline := time.Now().Add(10 * time.Second).UTC().Truncate(time.Second)
		body := transferRequest("12.5")
		body["deadline"] = deadline.Format(time.RFC3339)
		created := call(replica1, http.MethodPost, "/v2/transfers", keyA, body)
		Expect(created.status).To(Equal(http.StatusCreated), string(created.body))
		rec := decode[record](created)
		Expect(created.header.Get("Location")).To(Equal(baseURL + "/v2/transfers/" + rec.ID))
		Expect(rec.Status).To(Equal("pending"))

		By("storing a TransferIntent with its labels and spec")
		obj := objectOf(rec.ID)
		Expect(obj.Labels).To(And(
			HaveKeyWithValue(v1alpha1.LabelAccount, accountA),
			HaveKeyWithValue(v1alpha1.LabelType, "transfer"),
		))
		Expect(obj.Spec.ID).To(Equal(rec.ID))
		Expect(obj.Spec.AccountRef.Name).To(Equal(accountA))
		Expect(obj.Spec.Environment).To(Equal(v1alpha1.EnvironmentTest))
		Expect(obj.Spec.Type).To(Equal(v1alpha1.IntentTypeTransfer))
		Expect(obj.Spec.FromChain).To(Equal(chainID))
		Expect(obj.Spec.OrderID).To(Equal(rec.OrderID))
		Expect(obj.Spec.Tx).NotTo(BeNil())
		Expect(obj.Spec.Tx.To).To(Equal(usdc))
		Expect(obj.Spec.ExpiresAt.Time).To(BeTemporally("==", deadline))

		By("listing it for its account, not for another account's key")
		Expect(listIDs(replica1, keyA)).To(ContainElement(rec.ID))
		Expect(listIDs(replica1, keyB)).NotTo(ContainElement(rec.ID))
		Expect(call(replica1, http.MethodGet, "/v2/transfers/"+rec.ID, keyB, nil).status).To(Equal(http.StatusNotFound))

		By("serving the same list as a plain list of the cache")
		Eventually(func(g Gomega) {
			items, err := store.ListFromCache(ctx, accountA)
			g.Expect(err).NotTo(HaveOccurred())
			var fromCache []string
			for _, it := range items {
				fromCache = append(fromCache, it.Spec.ID)
			}
			slices.Sort(fromCache)
			fromIndex := listIDs(replica1, keyA)
			slices.Reverse(fromIndex)
			g.Expect(fromIndex).To(Equal(fromCache))
		}).WithTimeout(5 * time.Second).Should(Succeed())

		By("expiring it at the deadline: the status shows expired through the API")
		Eventually(func(g Gomega) {
			got := call(replica1, http.MethodGet, "/v2/transfers/"+rec.ID, keyA, nil)
			g.Expect(got.status).To(Equal(http.StatusOK))
			g.Expect(decode[record](got).Status).To(Equal("expired"))
		}).WithTimeout(25 * time.Second).WithPolling(100 * time.Millisecond).Should(Succeed())
		Expect(time.Now()).To(BeTemporally(">=", deadline))
		var listed []record
		Eventually(func() []record {
			listed = decode[[]record](call(replica1, http.MethodGet, "/v2/transfers?type=transfer", keyA, nil))
			return listed
		}).Should(ContainElement(HaveField("ID", rec.ID)))
		for _, r := range listed {
			if r.ID == rec.ID {
				Expect(r.Status).To(Equal("expired"))
			}
		}
		Expect(objectOf(rec.ID).Status.Phase).To(Equal(v1alpha1.IntentPhaseExpired))
	})

	It("creates exactly one intent for 20 concurrent retries with one Idempotency-Key", func() {
		key := "retry-" + fmt.Sprint(time.Now().UnixNano())
		answers := make([]answer, 20)
		var wg sync.WaitGroup
		for i := range answers {
			wg.Go(func() {
				defer GinkgoRecover()
				answers[i] = call(replica1, http.MethodPost, "/v2/transfers", keyA, transferRequest("3"), "Idempotency-Key", key)
			})
		}
		wg.Wait()
		statuses := map[int]int{}
		ids := map[string]bool{}
		for _, a := range answers {
			statuses[a.status]++
			ids[decode[record](a).ID] = true
		}
		Expect(statuses).To(Equal(map[int]int{http.StatusCreated: 1, http.StatusOK: 19}))
		Expect(ids).To(HaveLen(1))
		stored := intentsWithKey(accountA, key)
		Expect(stored).To(HaveLen(1))
		Expect(ids).To(HaveKey(stored[0].Spec.ID))

		By("owner-referencing the claim to the intent, so garbage collection removes it with the intent")
		var claim coordinationv1.Lease
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace,
			Name: intentstore.ClaimName(intentstore.IdempotencyKeyHash(intentstore.Owner{Account: accountA, Environment: v1alpha1.EnvironmentTest}, key))}, &claim)).To(Succeed())
		Expect(*claim.Spec.HolderIdentity).To(Equal(stored[0].Spec.ID))
		Expect(claim.OwnerReferences).To(ConsistOf(HaveField("UID", stored[0].UID)))

		By("refusing the key with another body")
		Expect(call(replica1, http.MethodPost, "/v2/transfers", keyA, transferRequest("4"), "Idempotency-Key", key).status).
			To(Equal(http.StatusUnprocessableEntity))
	})

	It("creates exactly one intent when the retries reach two replicas", func() {
		key := "replicas-" + fmt.Sprint(time.Now().UnixNano())
		answers := make([]answer, 20)
		var wg sync.WaitGroup
		for i := range answers {
			base := replica1
			if i%2 == 1 {
				base = replica2
			}
			wg.Go(func() {
				defer GinkgoRecover()
				answers[i] = call(base, http.MethodPost, "/v2/transfers", keyA, transferRequest("5"), "Idempotency-Key", key)
			})
		}
		wg.Wait()
		created, ids := 0, map[string]bool{}
		for _, a := range answers {
			switch a.status {
			case http.StatusCreated:
				created++
				ids[decode[record](a).ID] = true
			case http.StatusOK:
				ids[decode[record](a).ID] = true
			default:
				// The other replica may find the claim before the intent exists: 409, retry later.
				Expect(a.status).To(Equal(http.StatusConflict), string(a.body))
			}
		}
		Expect(created).To(Equal(1))
		Expect(ids).To(HaveLen(1))
		Expect(intentsWithKey(accountA, key)).To(HaveLen(1))

		By("answering later retries with the same intent on both replicas")
		for _, base := range []string{replica1, replica2} {
			a := call(base, http.MethodPost, "/v2/transfers", keyA, transferRequest("5"), "Idempotency-Key", key)
			Expect(a.status).To(Equal(http.StatusOK), string(a.body))
			Expect(ids).To(HaveKey(decode[record](a).ID))
		}
	})

	It("finds an intent created on the other replica before its watch delivers it", func() {
		a := call(replica1, http.MethodPost, "/v2/transfers", keyB, transferRequest("6"))
		Expect(a.status).To(Equal(http.StatusCreated))
		id := decode[record](a).ID
		got := call(replica2, http.MethodGet, "/v2/transfers/"+id, keyB, nil)
		Expect(got.status).To(Equal(http.StatusOK), string(got.body))
		Expect(decode[record](got).ID).To(Equal(id))
	})
})

// Claims nobody owns are collected: adopted by their intent when it exists, deleted when it does
// not and no request can still be creating it; young or owned claims are left alone.
var _ = Describe("The claim janitor", func() {
	It("adopts or deletes unowned claims old enough, and leaves the others", func() {
		created := decode[record](call(replica1, http.MethodPost, "/v2/transfers", keyA, transferRequest("5")))
		Expect(created.ID).NotTo(BeEmpty())
		old := metav1.NewMicroTime(time.Now().Add(-time.Hour))
		young := metav1.NewMicroTime(time.Now())
		claim := func(name, holder string, at metav1.MicroTime) *coordinationv1.Lease {
			GinkgoHelper()
			l := &coordinationv1.Lease{
				ObjectMeta: metav1.ObjectMeta{Name: intentstore.ClaimNamePrefix + name, Namespace: namespace,
					Labels: map[string]string{intentstore.LabelClaim: intentstore.ClaimKindIdempotencyKey}},
				Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, AcquireTime: &at},
			}
			Expect(k8sClient.Create(ctx, l)).To(Succeed())
			return l
		}
		orphan := claim("janitor-orphan", intent.NewIntentID(time.Now().Add(-time.Hour)), old)
		unadopted := claim("janitor-unadopted", created.ID, old)
		fresh := claim("janitor-fresh", intent.NewIntentID(time.Now()), young)

		janitor := &intentstore.ClaimJanitor{Store: store, APIReader: k8sClient, Log: GinkgoLogr}
		adopted, deleted, err := janitor.Sweep(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(adopted).To(BeNumerically(">=", 1))
		Expect(deleted).To(BeNumerically(">=", 1))

		Expect(apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(orphan), orphan))).To(BeTrue(), "the orphan is deleted")
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(unadopted), unadopted)).To(Succeed())
		Expect(unadopted.OwnerReferences).To(ConsistOf(HaveField("Name", HavePrefix(intent.IntentObjectNamePrefix))), "the claim of an existing intent is adopted")
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(fresh), fresh)).To(Succeed())
		Expect(fresh.OwnerReferences).To(BeEmpty(), "a young claim may belong to a request still running")
	})
})
