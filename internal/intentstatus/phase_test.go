package intentstatus

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

func TestPhaseEnteredAt(t *testing.T) {
	created := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	changed := created.Add(90 * time.Second)
	at := func(t time.Time) *metav1.Time { m := metav1.NewTime(t); return &m }
	for _, tc := range []struct {
		name   string
		status v1alpha1.TransferIntentStatus
		want   time.Time
	}{
		{"a new intent, pending by implication", v1alpha1.TransferIntentStatus{}, created},
		{"a phase written without its time", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseConfirmed}, created},
		{"a transition's time", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseExpired, UpdatedAt: at(changed)}, changed},
		// Written by hand, a time before the creation is still the status's word.
		{"a time before the creation", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed, UpdatedAt: at(created.Add(-time.Hour))}, created.Add(-time.Hour)},
	} {
		ti := &v1alpha1.TransferIntent{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(created)}, Status: tc.status}
		if got := PhaseEnteredAt(ti); !got.Equal(tc.want) {
			t.Errorf("%s: PhaseEnteredAt = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestEveryTransitionDatesThePhase: the time a transition stamps is the one PhaseEnteredAt reads.
func TestEveryTransitionDatesThePhase(t *testing.T) {
	created := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	ti := &v1alpha1.TransferIntent{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(created)}}
	now := metav1.NewTime(created.Add(time.Minute))
	if err := Expire(ti, now); err != nil {
		t.Fatal(err)
	}
	if got := PhaseEnteredAt(ti); !got.Equal(now.Time) {
		t.Errorf("expired at %s, PhaseEnteredAt = %s", now, got)
	}
}
