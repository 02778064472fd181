package intentstore_test

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/diff"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
)

var _ = Describe("The cached copy of an intent", func() {
	It("holds no managedFields nor anything else no reader uses, and serves every field as stored", func() {
		created := call(replica1, http.MethodPost, "/v2/transfers", keyA, transferRequest("3.25"))
		Expect(created.status).To(Equal(http.StatusCreated), string(created.body))
		id := decode[record](created).ID
		owner := intentstore.Owner{Account: accountA, Environment: v1alpha1.EnvironmentTest}

		By("confirming it with a fill, as the chain watcher writes it, and annotating it with kubectl apply's copy")
		hash, blockHash := "0x"+strings.Repeat("a1", 32), "0x"+strings.Repeat("b2", 32)
		fill := v1alpha1.FillStatus{ChainID: chainID, Hash: "0x" + strings.Repeat("c3", 32), BlockNumber: 12, BlockHash: "0x" + strings.Repeat("d4", 32),
			Filler: alice, AmountOut: "3240000", Attestation: "0x" + strings.Repeat("e5", 65)}
		detail := "the fill " + fill.Hash + " on " + chainID + " is final (block 12)"
		for _, phase := range []v1alpha1.IntentPhase{v1alpha1.IntentPhaseSubmitted, v1alpha1.IntentPhaseConfirmed} {
			Eventually(func() error {
				obj := objectOf(id)
				before := obj.DeepCopy()
				now := metav1.NewTime(time.Now().UTC().Truncate(time.Second))
				obj.Status.Phase, obj.Status.UpdatedAt = phase, &now
				obj.Status.Hash, obj.Status.BlockNumber, obj.Status.BlockHash = hash, 10, blockHash
				if phase == v1alpha1.IntentPhaseConfirmed {
					obj.Status.Fill = fill.DeepCopy()
					meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: v1alpha1.ConditionTransaction,
						Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonConfirmed, Message: detail, ObservedGeneration: obj.Generation})
				}
				return k8sClient.Status().Patch(ctx, obj, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
			}).WithTimeout(10 * time.Second).Should(Succeed())
		}
		obj := objectOf(id)
		before := obj.DeepCopy()
		obj.Annotations = map[string]string{corev1.LastAppliedConfigAnnotation: `{"kind":"TransferIntent"}`, "team": "payments"}
		Expect(k8sClient.Patch(ctx, obj, client.MergeFrom(before))).To(Succeed())

		By("reading the cached copy: the stored object less exactly what the cache drops")
		Eventually(func(g Gomega) {
			live := objectOf(id)
			g.Expect(live.ManagedFields).NotTo(BeEmpty())
			g.Expect(live.Annotations).To(HaveKey(corev1.LastAppliedConfigAnnotation))
			g.Expect(live.Spec.RequestHash).NotTo(BeEmpty())
			cached, found, err := store.Get(ctx, owner, id)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(found).To(BeTrue())
			g.Expect(cached.ResourceVersion).To(Equal(live.ResourceVersion))
			g.Expect(cached.ManagedFields).To(BeNil())
			g.Expect(cached.Annotations).To(Equal(map[string]string{"team": "payments"}))

			want := live.DeepCopy()
			want.TypeMeta = cached.TypeMeta
			want.ManagedFields = nil
			delete(want.Annotations, corev1.LastAppliedConfigAnnotation)
			want.Spec.IdempotencyKeyHash, want.Spec.RequestHash = "", ""
			g.Expect(equality.Semantic.DeepEqual(cached, want)).To(BeTrue(), "cached copy differs from the stored object:\n%s", diff.Diff(want, cached))
		}).WithTimeout(10 * time.Second).Should(Succeed())

		By("serving the full record from it")
		got := call(replica1, http.MethodGet, "/v2/transfers/"+id, keyA, nil)
		Expect(got.status).To(Equal(http.StatusOK), string(got.body))
		rec := decode[map[string]any](got)
		Expect(rec).To(HaveKeyWithValue("status", "confirmed"))
		Expect(rec).To(HaveKeyWithValue("statusDetail", detail))
		Expect(rec).To(HaveKeyWithValue("blockNumber", BeNumerically("==", 10)))
		Expect(rec["metadata"]).To(HaveKeyWithValue("hash", hash))
		Expect(rec["fill"]).To(And(HaveKeyWithValue("hash", fill.Hash), HaveKeyWithValue("amountOut", fill.AmountOut), HaveKeyWithValue("filler", alice)))
		Expect(rec["request"]).To(And(HaveKeyWithValue("amount", "3.25"), HaveKeyWithValue("asset", chainID+":"+usdc)))
		Expect(rec["tx"]).To(HaveKeyWithValue("to", usdc))
	})
})
