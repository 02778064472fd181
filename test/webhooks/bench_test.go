package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// BenchmarkDeliveryLatency measures, for b.N intents created one after the other, the time from
// the create's answer of the API server to the arrival of transfer.created at a loopback receiver,
// and, in the same run, the baseline: a test event sent straight to the same receiver
// (POST /v2/webhooks/{name}/test, one signed POST, no outbox). It reports p50 and p99 of both and
// the endpoint's status writes during the run (the target: none per attempt).
//
//	go test ./test/webhooks -run '^$' -bench DeliveryLatency -benchtime 200x
func BenchmarkDeliveryLatency(b *testing.B) {
	stack := startStack(b, nil)
	account := stack.CreateAccount(b, "Bench").Object.Name
	key := stack.CreateKey(b, account, "webhooks", unlimited)
	recv := newReceiver(b, nil)
	ep, _ := newEndpoint(b, stack, account, recv.URL+"/hooks")
	// The first delivery writes the status at once; count the writes after it.
	first := newIntent(b, stack, account)
	testenv.WaitFor(b, 30*time.Second, "the first delivery", func() bool { _, ok := createdArrival(recv, first.Spec.ID); return ok })
	testenv.WaitFor(b, 30*time.Second, "the endpoint's first status write", func() bool {
		return stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) == nil && ep.Status.LastSuccessAt != nil
	})
	version := ep.ResourceVersion

	var event, direct []time.Duration
	b.ResetTimer()
	for range b.N {
		ti := newIntent(b, stack, account)
		created := time.Now()
		var at time.Time
		testenv.WaitFor(b, 30*time.Second, "transfer.created", func() bool {
			var ok bool
			at, ok = createdArrival(recv, ti.Spec.ID)
			return ok
		})
		event = append(event, at.Sub(created))

		start := time.Now()
		if status, body := post(b, stack.URL+"/v2/webhooks/"+ep.Name+"/test", key); status != 200 {
			b.Fatalf("test event: %d %s", status, body)
		}
		direct = append(direct, time.Since(start))
	}
	b.StopTimer()
	must(b, stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep))
	writes := 0
	if ep.ResourceVersion != version {
		writes = 1 // at most one within the minute; the run is shorter
	}
	p := func(ds []time.Duration, q float64) time.Duration {
		slices.Sort(ds)
		return ds[min(len(ds)-1, int(q*float64(len(ds))))]
	}
	b.ReportMetric(float64(p(event, 0.5).Microseconds())/1000, "event-p50-ms")
	b.ReportMetric(float64(p(event, 0.99).Microseconds())/1000, "event-p99-ms")
	b.ReportMetric(float64(p(direct, 0.5).Microseconds())/1000, "direct-p50-ms")
	b.ReportMetric(float64(p(direct, 0.99).Microseconds())/1000, "direct-p99-ms")
	b.ReportMetric(float64(writes)/float64(b.N), "status-writes/event")
	fmt.Printf("webhook delivery, %d events: create→arrival p50 %s p99 %s; direct test event p50 %s p99 %s (ratio p50 %.1f×); endpoint status writes during the run: %d\n",
		b.N, p(event, 0.5), p(event, 0.99), p(direct, 0.5), p(direct, 0.99),
		float64(p(event, 0.5))/float64(p(direct, 0.5)), writes)
}

// createdArrival is when the receiver got intentID's transfer.created.
func createdArrival(recv *receiver, intentID string) (time.Time, bool) {
	for _, d := range recv.deliveries() {
		var data struct{ ID string }
		if d.event.Type == signing.EventTransferCreated && json.Unmarshal(d.event.Data, &data) == nil && data.ID == intentID {
			return d.at, true
		}
	}
	return time.Time{}, false
}
