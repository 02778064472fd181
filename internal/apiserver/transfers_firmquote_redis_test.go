package apiserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/utils/clock"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/quotestore"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

// sharedQuotes makes a replica keep its simulations in memory and in srv, as the operator does
// with --redis-url.
func sharedQuotes(t *testing.T, srv *redistest.Server, clk clock.PassiveClock) func(*transferConfig) {
	return func(c *transferConfig) {
		c.quotes = func(intent.QuoteStore) intent.QuoteStore {
			client := srv.Client()
			t.Cleanup(func() { _ = client.Close() })
			return &quotestore.Shared{Local: intent.NewMemoryQuotes(0, clk), Client: client, Prefix: "tis:" + testNamespace + ":",
				Clock: clk, Log: logr.Discard()}
		}
	}
}

// Two replicas share one Redis: a simulation answered by one is honoured by a create on the other.
func TestASimulationOnOneReplicaIsHonouredByACreateOnAnother(t *testing.T) {
	srv := redistest.Start(t)
	a := newTransferHarness(t)
	a = a.replica(t, sharedQuotes(t, srv, a.clock))
	b := a.replica(t, sharedQuotes(t, srv, a.clock))

	sim := a.simulateQuote(t, usdcToWETH())
	setWETHPrice(a.catalog, "0.5")
	rec := b.createRecord(t, usdcToWETH().with("simulationId", sim.SimulationID))
	if rec.Quote == nil || *rec.Quote != *sim.Quote {
		t.Fatalf("replica b answers quote %+v, want replica a's simulated %+v", rec.Quote, *sim.Quote)
	}
	if got, want := encodedMinimum(t, rec), weiOf(t, sim.Quote.MinAmountOut); got.Cmp(want) != 0 {
		t.Fatalf("the order encodes minAmountOut %s, want the simulated %s", got, want)
	}
	// The other replica judges the body and the expiry as the first would.
	resp, raw := b.post(t, transfersPath, testKeyA, usdcToWETH().with("amount", "99", "simulationId", sim.SimulationID).String())
	assertProblem(t, resp, raw, problem.QuoteMismatch, transfersPath)
	a.clock.Step(intent.DefaultQuoteTTL)
	resp, raw = b.post(t, transfersPath, testKeyA, usdcToWETH().with("simulationId", sim.SimulationID).String())
	assertProblem(t, resp, raw, problem.QuoteExpired, transfersPath)
}

// Redis gone: the replica that simulated still honours its quote; another answers a bounded 503
// with Retry-After, not a false quote-expired and not a hang.
func TestWithoutRedisACreateOnAnotherReplicaIsABounded503(t *testing.T) {
	for _, fault := range []string{"stopped", "paused"} {
		t.Run(fault, func(t *testing.T) {
			srv := redistest.Start(t)
			a := newTransferHarness(t)
			a = a.replica(t, sharedQuotes(t, srv, a.clock))
			b := a.replica(t, sharedQuotes(t, srv, a.clock))
			sim := a.simulateQuote(t, usdcToWETH())
			if fault == "stopped" {
				srv.Stop()
			} else {
				srv.Pause()
				defer srv.Resume()
			}
			start := time.Now()
			resp, raw := b.post(t, transfersPath, testKeyA, usdcToWETH().with("simulationId", sim.SimulationID).String())
			took := time.Since(start)
			assertProblem(t, resp, raw, problem.ServiceUnavailable, transfersPath)
			if resp.Header.Get("Retry-After") == "" {
				t.Fatal("503 without Retry-After")
			}
			if took > 2*time.Second {
				t.Fatalf("the create took %v, want about Redis's %v deadline", took, quotestore.DefaultTimeout)
			}
			rec := a.createRecord(t, usdcToWETH().with("simulationId", sim.SimulationID))
			if rec.Quote == nil || *rec.Quote != *sim.Quote {
				t.Fatalf("the simulating replica answers quote %+v, want %+v", rec.Quote, *sim.Quote)
			}
			// A simulation Redis did not take says so.
			resp, raw = a.post(t, simulatePath, testKeyA, usdcToWETH().String())
			if got := decodeJSON[intent.SimulationResult](t, raw); resp.StatusCode != http.StatusOK || !containsPrefix(got.Warnings, intent.WarningQuoteNotShared) {
				t.Fatalf("simulate without Redis: %d warnings %v", resp.StatusCode, got.Warnings)
			}
		})
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
