package jsonrpc

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/sony/gobreaker/v2"
)

// silentNode accepts connections and never answers; it counts the connections it accepted.
func silentNode(t *testing.T) (addr string, accepted *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	accepted = new(atomic.Int32)
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			t.Cleanup(func() { _ = conn.Close() }) // held open, never answered
		}
	}()
	return l.Addr().String(), accepted
}

// A node that never answers costs one Timeout per round trip until the breaker opens; then calls
// fail at once without reaching it, and no error quotes the URL (it may hold a credential).
func TestSilentNodeIsBoundedThenSkipped(t *testing.T) {
	addr, accepted := silentNode(t)
	url := "http://user:s3cret@" + addr
	metrics, err := NewMetrics(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	c, err := Dial(context.Background(), "eip155:31337", url, Options{Caller: "test", Timeout: 100 * time.Millisecond, Failures: 2, Cooldown: time.Minute, Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 2 {
		start := time.Now()
		_, err := c.Head(context.Background())
		if took := time.Since(start); err == nil || took > time.Second {
			t.Fatalf("call %d: err %v after %s; want an error within the timeout", i, err, took)
		}
		if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), addr) {
			t.Fatalf("the error quotes the RPC URL: %v", err)
		}
	}
	reached := accepted.Load()
	start := time.Now()
	err = c.Batch(context.Background(), []rpc.BatchElem{{Method: "eth_chainId", Result: new(string)}}, nil)
	// "At once" is: sooner than the timeout a call to the silent node takes. A tighter bound (it
	// was 10 ms) measures the machine's load rather than the breaker.
	if took := time.Since(start); !errors.Is(err, gobreaker.ErrOpenState) || took >= 100*time.Millisecond {
		t.Fatalf("after 2 failures: err %v after %s; want the open breaker sooner than the timeout", err, took)
	}
	if accepted.Load() != reached {
		t.Fatal("a call with the breaker open reached the node")
	}
	if got := testutil.ToFloat64(metrics.open.WithLabelValues("eip155:31337", "test")); got != 1 {
		t.Errorf("tis_chain_rpc_degraded = %v, want 1", got)
	}
	if got := testutil.ToFloat64(metrics.calls.WithLabelValues("eip155:31337", "test", "error")); got != 2 {
		t.Errorf("failed round trips counted %v, want 2 (the refused one never reached the node)", got)
	}
}

// A caller with its own backoff runs without a breaker: failures never stop its calls.
func TestWithoutFailuresThereIsNoBreaker(t *testing.T) {
	addr, accepted := silentNode(t)
	c, err := Dial(context.Background(), "eip155:1", "http://"+addr, Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 5 {
		if _, err := c.Head(context.Background()); err == nil || errors.Is(err, gobreaker.ErrOpenState) {
			t.Fatalf("err %v; want the node's timeout every time", err)
		}
	}
	if accepted.Load() == 0 {
		t.Fatal("no call reached the node")
	}
}

// A node that answers with a JSON-RPC error is up: its refusals do not open the breaker, and the
// caller still sees the error object (a revert's data, say).
func TestErrorAnswersDoNotCountAgainstTheNode(t *testing.T) {
	var requests atomic.Int32
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted","data":"0x08c379a0"}}`))
	}))
	defer node.Close()
	c, err := Dial(context.Background(), "eip155:1", node.URL, Options{Timeout: time.Second, Failures: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 3 {
		var out string
		err := c.Call(context.Background(), &out, "eth_call")
		var data rpc.DataError
		if !errors.As(err, &data) || data.ErrorData() != "0x08c379a0" {
			t.Fatalf("call %d: err %v; want the node's error answer with its data", i, err)
		}
	}
	if requests.Load() != 3 {
		t.Fatalf("the node saw %d requests, want 3: error answers opened the breaker", requests.Load())
	}
}

func TestDialNeverQuotesTheURL(t *testing.T) {
	_, err := Dial(context.Background(), "eip155:1", "ftp://user:s3cret@example.invalid", Options{})
	if !errors.Is(err, ErrUnusableURL) || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("err %v; want ErrUnusableURL without the URL", err)
	}
}

func TestPoolRedialsWhenTheURLChanges(t *testing.T) {
	p := NewPool(Options{})
	defer p.Close()
	a, err := p.Client(context.Background(), "eip155:1", "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := p.Client(context.Background(), "eip155:1", "http://127.0.0.1:1"); again != a {
		t.Fatal("the same URL dialled a second client")
	}
	if b, _ := p.Client(context.Background(), "eip155:1", "http://127.0.0.1:2"); b == a || b.URL() != "http://127.0.0.1:2" {
		t.Fatal("a changed URL kept the old client")
	}
}

// A node's URL is what was checked (https, the trusted hosts, the SSRF rules): a redirect, which
// resends the JSON-RPC POST on 307 and 308, is not followed to a host nobody checked.
func TestTheClientFollowsNoRedirect(t *testing.T) {
	var reached atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`))
	}))
	defer elsewhere.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		redirect := httptest.NewServer(http.RedirectHandler(elsewhere.URL, code))
		c, err := Dial(context.Background(), "eip155:1", redirect.URL, Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var out string
		err = c.Call(context.Background(), &out, "eth_chainId")
		c.Close()
		redirect.Close()
		if err == nil || reached.Load() != 0 {
			t.Fatalf("%d: answer %q, err %v, the other host reached %d times; want an error and no call elsewhere", code, out, err, reached.Load())
		}
	}
}

// countingNode answers eth_blockNumber after a short think (so that concurrent calls overlap),
// and counts the connections it accepted and the requests that asked for gzip.
func countingNode(t *testing.T) (url string, conns, gzipped *atomic.Int32) {
	t.Helper()
	conns, gzipped = new(atomic.Int32), new(atomic.Int32)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			gzipped.Add(1)
		}
		time.Sleep(2 * time.Millisecond) // a node's work; the calls overlap
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x10"}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, conns, gzipped
}

// The simulation's settings of a client: answers not gzipped, and the connections of calls at
// once kept for the next ones. The defaults (every other caller) ask for gzip and keep 2.
func TestTheClientsTransportSettings(t *testing.T) {
	const clients, rounds = 8, 20
	run := func(opts Options) (conns, gzipped int32) {
		url, c, g := countingNode(t)
		opts.Timeout = 5 * time.Second
		node, err := Dial(context.Background(), "eip155:1", url, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer node.Close()
		for range rounds {
			var wg sync.WaitGroup
			for range clients {
				wg.Go(func() {
					if _, err := node.Head(context.Background()); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		}
		return c.Load(), g.Load()
	}
	// A connection goes back to the pool just after its caller has its answer, so a round may
	// dial one before the last round's is back: the bounds leave room for that. Kept, the 8
	// connections of the first round serve all; with 2 kept, every round dials about 6.
	conns, gzipped := run(Options{Uncompressed: true, IdleConns: 64})
	if gzipped != 0 || conns > 2*clients {
		t.Errorf("uncompressed, 64 idle: %d of %d requests asked for gzip, %d connections; want none, and at most %d connections", gzipped, clients*rounds, conns, 2*clients)
	}
	conns, gzipped = run(Options{})
	if gzipped != clients*rounds || conns <= 4*clients {
		t.Errorf("defaults: %d of %d requests asked for gzip, %d connections; want all, and more than %d (2 kept idle)", gzipped, clients*rounds, conns, 4*clients)
	}
}
