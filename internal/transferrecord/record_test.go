package transferrecord

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// testIntent is an intent of the account, minted at epoch + n ms.
func testIntent(account string, n int, typ v1alpha1.IntentType) *v1alpha1.TransferIntent {
	return &v1alpha1.TransferIntent{Spec: v1alpha1.TransferIntentSpec{
		ID: intent.NewIntentID(epoch.Add(time.Duration(n) * time.Millisecond)), AccountRef: v1alpha1.LocalObjectReference{Name: account}, Type: typ,
	}}
}

func TestSummaryOf(t *testing.T) {
	obj := testIntent("acme", 123, v1alpha1.IntentTypeSwap)
	sum := SummaryOf(obj)
	if sum.Status != v1alpha1.IntentPhasePending || !sum.CreatedAt.Equal(epoch.Add(123*time.Millisecond)) || sum.UpdatedAt != sum.CreatedAt {
		t.Fatalf("new intent: %+v", sum)
	}
	// updatedAt is stored in whole seconds: it never reads as earlier than createdAt.
	early := metav1.NewTime(epoch)
	obj.Status.UpdatedAt = &early
	if sum := SummaryOf(obj); sum.UpdatedAt != sum.CreatedAt {
		t.Fatalf("updatedAt %v before createdAt %v", sum.UpdatedAt, sum.CreatedAt)
	}
	later := metav1.NewTime(epoch.Add(time.Minute))
	obj.Status.UpdatedAt, obj.Status.Phase, obj.Status.Hash = &later, v1alpha1.IntentPhaseSubmitted, "0xabc"
	if sum := SummaryOf(obj); !sum.UpdatedAt.Equal(later.Time) || sum.Status != v1alpha1.IntentPhaseSubmitted || sum.Hash != "0xabc" {
		t.Fatalf("submitted: %+v", sum)
	}
}
