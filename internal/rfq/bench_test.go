package rfq

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"testing"
	"time"
)

// slowQuote is how long the benchmark's slow filler takes: slow, but within the deadline, so that
// its quote counts and Ask waits for it (Ask cannot know the slow answer is not the best).
const slowQuote = 50 * time.Millisecond

// BenchmarkAsk measures Ask with five loopback fillers, one of them slow, next to its baseline: a
// bare loopback round trip to one of the same servers in the same run. It reports the p50 and p99
// of each (ms): Ask's floor is the slow filler's delay, its cost above that is the fan-out, the
// signatures and the strict reads.
func BenchmarkAsk(b *testing.B) {
	var fillers []Filler
	var fast *endpoint
	for _, name := range []string{"f1", "f2", "f3", "f4"} {
		fast = good(b, name, "1000000")
		fillers = append(fillers, fast.filler)
	}
	var slow *endpoint
	slow = serve(b, "slow", func(w http.ResponseWriter, r *http.Request, req Request) {
		time.Sleep(slowQuote)
		quoting("1000001", &slow.filler.Payout)(w, r, req)
	})
	fillers = append(fillers, slow.filler)
	m := newMarket(Options{Deadline: DefaultDeadline})
	ctx := context.Background()

	b.Run("ask-5-fillers-1-slow", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			start := time.Now()
			res := m.Ask(ctx, fillers, order, floor)
			took = append(took, time.Since(start))
			if res.Winner == nil || res.Winner.Filler != "slow" {
				b.Fatalf("winner %+v: %s", res.Winner, res)
			}
		}
		report(b, took)
	})
	b.Run("ask-4-fast-fillers", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			start := time.Now()
			if res := m.Ask(ctx, fillers[:4], order, floor); res.Winner == nil {
				b.Fatalf("no winner: %s", res)
			}
			took = append(took, time.Since(start))
		}
		report(b, took)
	})
	b.Run("baseline-bare-round-trip", func(b *testing.B) {
		client := &http.Client{}
		body := []byte(`{"requestId":"x"}`)
		var took []time.Duration
		for b.Loop() {
			start := time.Now()
			resp, err := client.Post(fast.URL, "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = new(bytes.Buffer).ReadFrom(resp.Body)
			_ = resp.Body.Close()
			took = append(took, time.Since(start))
		}
		report(b, took)
	})
}

func report(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
