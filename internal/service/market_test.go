package service

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
)

const (
	winnerPayout = "0x00000000000000000000000000000000000000A1"
	otherPayout  = "0x00000000000000000000000000000000000000B2"
)

// wonIntent is an intent whose order filler-a won, with its exclusivity ending at deadline.
func wonIntent(orderID string, deadline time.Time) *v1alpha1.TransferIntent {
	d := metav1.NewTime(deadline)
	return &v1alpha1.TransferIntent{Spec: v1alpha1.TransferIntentSpec{OrderID: orderID,
		Auction: &v1alpha1.IntentAuction{Type: "exclusive", Winner: "filler-a", ExclusiveFiller: winnerPayout, ExclusivityDeadline: &d}}}
}

func opened(ti *v1alpha1.TransferIntent) *v1alpha1.TransferIntent {
	out := ti.DeepCopy()
	out.Status.Phase, out.Status.BlockNumber = v1alpha1.IntentPhaseSubmitted, 7
	return out
}

func filledBy(ti *v1alpha1.TransferIntent, payout, name string) *v1alpha1.TransferIntent {
	out := opened(ti)
	out.Status.Fill = &v1alpha1.FillStatus{Filler: payout, FillerName: name, AmountOut: "1"}
	return out
}

// The fades are counted from what the intents record: a win once the order is opened within its
// exclusivity, settled by the winner's fill, a fade when another fills or nobody does.
func TestFadesAreCountedFromTheIntents(t *testing.T) {
	now := time.Date(2026, 12, 5, 3, 0, 0, 0, time.UTC)
	fades := rfq.NewFades(rfq.FadeOptions{Threshold: 2})
	market := rfq.NewMarket(rfq.Options{Fades: fades, Now: func() time.Time { return now }})
	w := fadeWatch{market: market, fades: fades, now: func() time.Time { return now }}
	deadline := now.Add(30 * time.Second)

	// Created, not opened: not a win (the filler cannot fill it).
	w.OnAdd(wonIntent("0x01", deadline), false)
	if n := fades.Tracked(); n != 0 {
		t.Fatalf("an order not opened is tracked as a win (%d)", n)
	}
	// Opened, then filled by the winner: a fill.
	w.OnUpdate(nil, opened(wonIntent("0x01", deadline)))
	w.OnUpdate(nil, filledBy(wonIntent("0x01", deadline), winnerPayout, ""))
	// Opened, then filled by another filler: the winner's fade.
	w.OnUpdate(nil, opened(wonIntent("0x02", deadline)))
	w.OnUpdate(nil, filledBy(wonIntent("0x02", deadline), otherPayout, "filler-b"))
	if st := fades.Stats("filler-a", now); st.Fills != 1 || st.Fades != 1 {
		t.Fatalf("filler-a: %+v, want one fill and one fade", st)
	}
	// Opened and never filled: a fade once the exclusivity and its slack are past.
	w.OnUpdate(nil, opened(wonIntent("0x03", deadline)))
	fades.Sweep(deadline.Add(FadeSlack))
	if st := fades.Stats("filler-a", now); st.Fades != 1 {
		t.Fatalf("a win was counted as a fade within its slack: %+v", st)
	}
	fades.Sweep(deadline.Add(FadeSlack + time.Second))
	if _, fading := fades.NotAskedUntil("filler-a", deadline.Add(FadeSlack+time.Second)); !fading {
		t.Fatalf("filler-a is asked after two fades: %+v", fades.Stats("filler-a", deadline.Add(FadeSlack+time.Second)))
	}
	// The deadline's own second is still exclusive.
	w.now = func() time.Time { return deadline }
	w.OnAdd(opened(wonIntent("0x05", deadline)), false)
	if n := fades.Tracked(); n != 1 {
		t.Fatalf("an order opened in its exclusivity's last second is not a win (%d tracked)", n)
	}
	fades.RecordFill("0x05", "filler-a", deadline)
	// An order seen opened only after its exclusivity (a replica starting) is no win.
	w.now = func() time.Time { return deadline.Add(time.Second) }
	w.OnAdd(opened(wonIntent("0x04", deadline)), false)
	if n := fades.Tracked(); n != 0 {
		t.Fatalf("an order past its exclusivity is tracked as a win (%d)", n)
	}
}

// A gasless order is the winner's to open from the book: signed within the exclusivity, it is a
// win, and one never opened nor filled is a fade. An order its user cancels is no win.
func TestAGaslessWinnerThatNeverOpensFades(t *testing.T) {
	now := time.Date(2026, 12, 5, 3, 0, 0, 0, time.UTC)
	fades := rfq.NewFades(rfq.FadeOptions{})
	market := rfq.NewMarket(rfq.Options{Fades: fades, Now: func() time.Time { return now }})
	w := fadeWatch{market: market, fades: fades, now: func() time.Time { return now }}
	deadline := now.Add(30 * time.Second)

	unsigned := gaslessAt(wonIntent("0x11", deadline), "")
	w.OnAdd(unsigned, false)
	if n := fades.Tracked(); n != 0 {
		t.Fatalf("an unsigned gasless order is tracked as a win (%d)", n)
	}
	w.OnUpdate(nil, gaslessAt(wonIntent("0x11", deadline), v1alpha1.IntentPhaseSigned))
	if n := fades.Tracked(); n != 1 {
		t.Fatalf("a signed gasless order is not a win (%d tracked)", n)
	}
	fades.Sweep(deadline.Add(FadeSlack + time.Second))
	if st := fades.Stats("filler-a", now); st.Fades != 1 {
		t.Fatalf("a winner that never opened the order: %+v, want one fade", st)
	}

	w.OnUpdate(nil, gaslessAt(wonIntent("0x12", deadline), v1alpha1.IntentPhaseSigned))
	w.OnUpdate(nil, gaslessAt(wonIntent("0x12", deadline), v1alpha1.IntentPhaseCancelling))
	fades.Sweep(deadline.Add(FadeSlack + time.Second))
	if st := fades.Stats("filler-a", now); st.Fades != 1 || fades.Tracked() != 0 {
		t.Fatalf("an order its user cancelled counted: %+v, %d tracked", st, fades.Tracked())
	}
}

func gaslessAt(ti *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) *v1alpha1.TransferIntent {
	out := ti.DeepCopy()
	out.Spec.Gasless = &v1alpha1.GaslessTerms{Nonce: "1"}
	out.Status.Phase = phase
	return out
}
