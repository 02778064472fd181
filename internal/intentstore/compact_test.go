package intentstore

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// storedIntent is an intent as the informer decodes it: every field the service writes, the API
// server's bookkeeping, and an annotation of `kubectl apply`.
func storedIntent(t testing.TB, n int) *v1alpha1.TransferIntent {
	t.Helper()
	obj := testIntent("acme", n, v1alpha1.IntentTypeSwap)
	obj.UID = "c0ffee00-0000-4000-8000-000000000001"
	obj.ResourceVersion = "4711"
	obj.Labels = v1alpha1.IntentLabels("acme", v1alpha1.IntentTypeSwap)
	obj.Annotations = map[string]string{corev1.LastAppliedConfigAnnotation: `{"spec":{}}`, "team": "payments"}
	obj.ManagedFields = []metav1.ManagedFieldsEntry{{
		Manager: "manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "intents.transferintent.io/v1alpha1",
		FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:id":{}}}`),
	}}
	updated := metav1.NewTime(epoch.Add(time.Minute))
	obj.Spec.APIKeyRef = &v1alpha1.LocalObjectReference{Name: "acme-key"}
	obj.Spec.Environment, obj.Spec.ToChain = v1alpha1.EnvironmentTest, "eip155:1"
	obj.Spec.ResolvedPath = []v1alpha1.IntentType{v1alpha1.IntentTypeSwap}
	obj.Spec.Request = v1alpha1.TransferRequest{From: "eip155:1:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", To: "eip155:1:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		Asset: v1alpha1.TransferAsset{In: "eip155:1:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", Out: "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}, Amount: "1.5"}
	obj.Spec.Tx = &v1alpha1.TransactionPayload{To: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", Data: "0x1234", Value: "1500000000000000000", ChainID: 1, Gas: 350000}
	obj.Spec.ExpiresAt = metav1.NewTime(epoch.Add(time.Hour))
	obj.Spec.IdempotencyKeyHash = "sha256:ab"
	obj.Spec.RequestHash = "sha256:cd"
	obj.Status = v1alpha1.TransferIntentStatus{
		Phase: v1alpha1.IntentPhaseConfirmed, Hash: "0xaa", BlockNumber: 7, BlockHash: "0xbb", RefundHash: "0xcc", UpdatedAt: &updated,
		Fill: &v1alpha1.FillStatus{ChainID: "eip155:1", Hash: "0xdd", BlockNumber: 9, BlockHash: "0xee", Filler: "0xff", AmountOut: "42", Attestation: "0x99"},
	}
	obj.Status.ObservedGeneration = 1
	obj.Status.Conditions = []metav1.Condition{
		{Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonConfirmed, Message: "final", ObservedGeneration: 1, LastTransitionTime: updated},
		{Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonTerminal, Message: "the intent is confirmed", ObservedGeneration: 1, LastTransitionTime: updated},
	}
	// Through JSON, as the informer gets it: every string its own copy.
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var decoded v1alpha1.TransferIntent
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	return &decoded
}

var _ = Describe("The cache transform", func() {
	It("drops only what no reader uses", func() {
		t := GinkgoTB()
		obj := storedIntent(t, 1)
		want := obj.DeepCopy()
		want.ManagedFields = nil
		want.Annotations = map[string]string{"team": "payments"}
		want.Spec.IdempotencyKeyHash, want.Spec.RequestHash = "", ""

		out, err := CacheTransform()(obj)
		if err != nil {
			t.Fatal(err)
		}
		got := out.(*v1alpha1.TransferIntent)
		if got.ManagedFields != nil {
			t.Errorf("managedFields kept: %v", got.ManagedFields)
		}
		if _, ok := got.Annotations[corev1.LastAppliedConfigAnnotation]; ok {
			t.Error("last-applied-configuration kept")
		}
		if !equality.Semantic.DeepEqual(got, want) {
			t.Errorf("the transform changed more than it should:\ngot  %+v\nwant %+v", got, want)
		}
	})
})

var _ = Describe("The cache transform", func() {
	It("shares repeated values", func() {
		t := GinkgoTB()
		transform := CacheTransform()
		a, b := storedIntent(t, 1), storedIntent(t, 2)
		for _, obj := range []*v1alpha1.TransferIntent{a, b} {
			if _, err := transform(obj); err != nil {
				t.Fatal(err)
			}
		}
		same := func(name, x, y string) {
			t.Helper()
			if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
				t.Errorf("%s: %q and %q are not one shared string", name, x, y)
			}
		}
		same("namespace", a.Namespace, b.Namespace)
		same("account", a.Spec.AccountRef.Name, b.Spec.AccountRef.Name)
		same("key", a.Spec.APIKeyRef.Name, b.Spec.APIKeyRef.Name)
		same("fromChain", a.Spec.FromChain, b.Spec.FromChain)
		same("asset in", a.Spec.Request.Asset.In, b.Spec.Request.Asset.In)
		same("asset out", a.Spec.Request.Asset.Out, b.Spec.Request.Asset.Out)
		same("tx.to", a.Spec.Tx.To, b.Spec.Tx.To)
		same("phase", string(a.Status.Phase), string(b.Status.Phase))
		same("condition reason", a.Status.Conditions[1].Reason, b.Status.Conditions[1].Reason)
		same("fill chain", a.Status.Fill.ChainID, b.Status.Fill.ChainID)
		if reflect.ValueOf(a.Labels).UnsafePointer() != reflect.ValueOf(b.Labels).UnsafePointer() {
			t.Error("intents with the same labels hold two label maps")
		}
		// What is each intent's own stays its own.
		if a.Spec.ID == b.Spec.ID || unsafe.StringData(a.Spec.OrderID) == unsafe.StringData(b.Spec.OrderID) {
			t.Error("ids or orderIds shared")
		}
		c := storedIntent(t, 3)
		c.Labels = v1alpha1.IntentLabels("acme", v1alpha1.IntentTypeTransfer)
		if _, err := transform(c); err != nil {
			t.Fatal(err)
		}
		if c.Labels[v1alpha1.LabelType] != string(v1alpha1.IntentTypeTransfer) || reflect.ValueOf(c.Labels).UnsafePointer() == reflect.ValueOf(a.Labels).UnsafePointer() {
			t.Errorf("other labels got the shared map: %v", c.Labels)
		}
	})
})

var _ = Describe("The compactor's tables", func() {
	It("are bounded", func() {
		t := GinkgoTB()
		c := newCompactor(2, 1)
		for i := range 10 {
			obj := storedIntent(t, i)
			obj.Labels = v1alpha1.IntentLabels("acme", v1alpha1.IntentType(rune('a'+i)))
			c.compact(obj)
		}
		if len(c.strings) != 2 || len(c.labelSets) != 1 {
			t.Fatalf("tables grew past their bounds: %d strings, %d label sets", len(c.strings), len(c.labelSets))
		}
	})
})

var _ = Describe("StripForCache", func() {
	It("drops the last-applied annotation and the managed fields, and ignores what is not an object", func() {
		t := GinkgoTB()
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
			Annotations:   map[string]string{corev1.LastAppliedConfigAnnotation: `{"data":{"url":"c2VjcmV0"}}`},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
		}, Data: map[string][]byte{"url": []byte("secret")}}
		StripForCache(secret)
		if secret.Annotations != nil || secret.ManagedFields != nil || string(secret.Data["url"]) != "secret" {
			t.Fatalf("stripped secret: %+v", secret)
		}
		StripForCache("not an object") // ignored
	})
})
