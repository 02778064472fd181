package quotestore

import (
	"context"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

// replica is one replica's store over the shared server.
func replica(t *testing.T, srv *redistest.Server) *Shared {
	t.Helper()
	c := srv.Client()
	t.Cleanup(func() { _ = c.Close() })
	return &Shared{Local: intent.NewMemoryQuotes(0, nil), Client: c, Prefix: "tis:test:", Log: logr.Discard()}
}

func simulation(ttl time.Duration) intent.SimulatedQuote {
	now := time.Now()
	return intent.SimulatedQuote{ID: intent.NewSimulationID(now), Account: "alice", RequestHash: "sha256:00",
		ExpiresAt: now.Add(ttl), ResolvedPath: []intent.Step{intent.StepSwap}, AmountOut: "1000", MinAmountOut: "995", SlippageBps: 50}
}

func TestASimulationPutOnOneReplicaIsFoundOnAnother(t *testing.T) {
	srv := redistest.Start(t)
	a, b := replica(t, srv), replica(t, srv)
	ctx := context.Background()
	q := simulation(time.Minute)
	if err := a.Put(ctx, q); err != nil {
		t.Fatal(err)
	}
	got, found, err := b.Get(ctx, q.ID)
	if err != nil || !found || got.MinAmountOut != q.MinAmountOut || !got.ExpiresAt.Equal(q.ExpiresAt) {
		t.Fatalf("other replica: %+v found %v err %v, want %+v", got, found, err, q)
	}
	pttl, err := srv.Client().PTTL(ctx, a.key(q.ID)).Result()
	if err != nil || pttl <= 55*time.Second || pttl > time.Minute {
		t.Fatalf("PTTL %v (%v), want the time to expiresAt", pttl, err)
	}
	if _, found, err := b.Get(ctx, intent.NewSimulationID(time.Now())); found || err != nil {
		t.Fatalf("unknown id: found %v err %v", found, err)
	}
}

func TestRedisDropsASimulationAtItsExpiresAt(t *testing.T) {
	srv := redistest.Start(t)
	a, b := replica(t, srv), replica(t, srv)
	ctx := context.Background()
	q := simulation(300 * time.Millisecond)
	if err := a.Put(ctx, q); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond)
	if _, found, err := b.Get(ctx, q.ID); found || err != nil {
		t.Fatalf("after expiresAt: found %v err %v", found, err)
	}
}

// Without Redis a replica still finds its own simulations, and says it cannot tell about the
// others' within the call's deadline, whether Redis is gone or hangs.
func TestWithoutRedisTheAnswerIsBounded(t *testing.T) {
	for _, fault := range []string{"stopped", "paused"} {
		t.Run(fault, func(t *testing.T) {
			srv := redistest.Start(t)
			a, b := replica(t, srv), replica(t, srv)
			ctx := context.Background()
			q := simulation(time.Minute)
			if err := a.Put(ctx, q); err != nil {
				t.Fatal(err)
			}
			if fault == "stopped" {
				srv.Stop()
			} else {
				srv.Pause()
				defer srv.Resume()
			}
			if _, found, err := a.Get(ctx, q.ID); !found || err != nil {
				t.Fatalf("own simulation without Redis: found %v err %v", found, err)
			}
			start := time.Now()
			_, found, err := b.Get(ctx, q.ID)
			if err == nil || found {
				t.Fatalf("another replica's simulation without Redis: found %v err %v, want an error", found, err)
			}
			if took := time.Since(start); took > time.Second {
				t.Fatalf("the lookup took %v, want about the %v deadline", took, DefaultTimeout)
			}
			if err := a.Put(ctx, simulation(time.Minute)); err == nil {
				t.Fatal("a put Redis did not take reports no error")
			}
		})
	}
}
