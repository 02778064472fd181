package transferrecord

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// The fill's improvement is measured against the floor its order encodes (24,000,000 base
// units), rounded down: it never flatters the filler.
func TestTheFillShowsItsImprovementOverTheFloor(t *testing.T) {
	for amount, want := range map[string]int64{"24000000": 0, "24002399": 0, "24002400": 1, "24288000": 120, "48000000": 10_000} {
		ti := refundIntent(t, refundOrder(), func(s *v1alpha1.TransferIntentStatus) {
			s.Fill = &v1alpha1.FillStatus{ChainID: "eip155:1338", Filler: refundUser.Hex(), AmountOut: amount, FillerName: "filler-a"}
		})
		rec := Of(ti, chainsWith(nil), refundDeadline)
		if rec.Fill == nil || rec.Fill.ImprovementBps == nil || *rec.Fill.ImprovementBps != want || rec.Fill.FillerName != "filler-a" {
			t.Fatalf("fill of %s: %+v, want improvementBps %d", amount, rec.Fill, want)
		}
	}
	ti := refundIntent(t, refundOrder(), func(s *v1alpha1.TransferIntentStatus) {
		s.Fill = &v1alpha1.FillStatus{ChainID: "eip155:1338", Filler: refundUser.Hex(), AmountOut: "24288000"}
	})
	ti.Spec.Tx.Data = "0x00"
	if rec := Of(ti, chainsWith(nil), refundDeadline); rec.Fill.ImprovementBps != nil {
		t.Fatalf("an order that does not read back has improvement %d", *rec.Fill.ImprovementBps)
	}
	// A fill below the floor is not this order's fill (the contract refuses it): no improvement,
	// never a negative one, which the OpenAPI document forbids.
	below := refundIntent(t, refundOrder(), func(s *v1alpha1.TransferIntentStatus) {
		s.Fill = &v1alpha1.FillStatus{ChainID: "eip155:1338", Filler: refundUser.Hex(), AmountOut: "23999999"}
	})
	if rec := Of(below, chainsWith(nil), refundDeadline); rec.Fill.ImprovementBps != nil {
		t.Fatalf("a fill below the floor has improvement %d", *rec.Fill.ImprovementBps)
	}
}

func TestTheRecordShowsTheMarketTerms(t *testing.T) {
	ti := refundIntent(t, refundOrder(), nil)
	if rec := Of(ti, chainsWith(nil), refundDeadline); rec.Auction != nil {
		t.Fatalf("an intent without market terms shows %+v", rec.Auction)
	}
	start, deadline := refundDeadline.Add(-time.Hour), metav1.NewTime(refundDeadline.Add(-time.Hour))
	ti.Spec.Quote = &v1alpha1.IntentQuote{AmountOut: "24.5", MinAmountOut: "24", SlippageBps: 50}
	ti.Spec.Auction = &v1alpha1.IntentAuction{Type: "exclusive", StartAmountOut: "24.6", DecayStartAt: metav1.NewTime(start),
		DecayEndAt: metav1.NewTime(start.Add(time.Minute)), ExclusiveFiller: refundUser.Hex(), ExclusivityDeadline: &deadline,
		ExclusivityOverrideBps: 25, Winner: "filler-a", Quotes: 2, FillersAsked: 3}
	a := Of(ti, chainsWith(nil), refundDeadline).Auction
	if a == nil || a.Type != "exclusive" || a.StartAmountOut != "24.6" || a.MinAmountOut != "24" || !a.DecayEndAt.Equal(start.Add(time.Minute)) ||
		a.ExclusiveFiller != refundUser.Hex() || a.ExclusivityDeadline == nil || !a.ExclusivityDeadline.Equal(start) ||
		a.ExclusivityOverrideBps != 25 || a.Quotes != 2 || a.FillersAsked != 3 {
		t.Fatalf("auction = %+v", a)
	}
}
