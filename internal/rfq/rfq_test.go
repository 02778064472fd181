package rfq

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// testDeadline is short so that the suite is quick, and long enough that a loopback answer on a
// loaded machine comes well within it.
const testDeadline = 300 * time.Millisecond

// slack is how far past the deadline Ask may return here. What this suite holds is that a bad
// endpoint never keeps Ask past the deadline by its own delay (the slow ones take ten deadlines);
// the margin absorbs a loaded 2-core CI machine's scheduling under -race (a slow body's Ask took
// 439 ms of a 300 ms deadline there). The tight figure (p99 within 20 ms of the deadline) is
// BenchmarkFirmQuoteMarket's, measured beside its baseline.
const slack = 200 * time.Millisecond

var order = Request{
	FromChainID: 1337, FromChain: "eip155:1337", ToChainID: 1338, ToChain: "eip155:1338",
	TokenIn:  "eip155:1337:0x5FbDB2315678afecb367f032d93F642f64180aa3",
	TokenOut: "eip155:1338:0x5FbDB2315678afecb367f032d93F642f64180aa3",
	AmountIn: "1000000", RecipientChainID: "eip155:1338",
	Deadline: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
}

var floor = big.NewInt(990_000)

// endpoint is a quote endpoint on loopback: handle decides the answer to each request.
type endpoint struct {
	*httptest.Server
	filler Filler
	hits   atomic.Int64
	mu     sync.Mutex
	bodies [][]byte
	heads  []http.Header
}

func newSecret(t testing.TB) string {
	t.Helper()
	s, err := signing.NewSecret(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serve starts an endpoint named name; handle gets the request as the filler reads it.
func serve(t testing.TB, name string, handle func(w http.ResponseWriter, r *http.Request, req Request)) *endpoint {
	t.Helper()
	e := &endpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies, e.heads = append(e.bodies, body), append(e.heads, r.Header.Clone())
		e.mu.Unlock()
		var req Request
		_ = json.Unmarshal(body, &req)
		handle(w, r, req)
	}))
	t.Cleanup(e.Close)
	e.filler = Filler{Name: name, URL: e.URL + "/quote", Secret: newSecret(t),
		Payout: common.HexToAddress(fmt.Sprintf("0x%040x", len(name)*7919))}
	return e
}

// quoting answers amount for the request it is given, from the filler's payout address.
func quoting(amount string, payout *common.Address) func(http.ResponseWriter, *http.Request, Request) {
	return func(w http.ResponseWriter, _ *http.Request, req Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"requestId":%q,"amountOut":%q,"filler":%q}`, req.RequestID, amount, payout.Hex())
	}
}

func newMarket(opts Options) *Market {
	opts.AllowLoopback = true
	if opts.Deadline == 0 {
		opts.Deadline = testDeadline
	}
	return NewMarket(opts)
}

func fillersOf(es ...*endpoint) []Filler {
	var fs []Filler
	for _, e := range es {
		fs = append(fs, e.filler)
	}
	return fs
}

func outcomes(r Result) map[string]Outcome {
	m := map[string]Outcome{}
	for _, q := range r.Quotes {
		m[q.Filler] = q.Outcome
	}
	return m
}

// good is a filler quoting amount.
func good(t testing.TB, name, amount string) *endpoint {
	var e *endpoint
	e = serve(t, name, func(w http.ResponseWriter, r *http.Request, req Request) {
		quoting(amount, &e.filler.Payout)(w, r, req)
	})
	return e
}

func TestTheBestQuoteWins(t *testing.T) {
	a, b, c := good(t, "a", "995000"), good(t, "b", "1001000"), good(t, "c", "999999")
	m := newMarket(Options{})
	res := m.Ask(context.Background(), fillersOf(a, b, c), order, floor)
	if res.Winner == nil || res.Winner.Filler != "b" || res.Winner.AmountOut.String() != "1001000" {
		t.Fatalf("winner %+v, want b with 1001000 (%s)", res.Winner, res)
	}
	if res.Winner.Payout != b.filler.Payout {
		t.Errorf("winner's payout %s, want %s", res.Winner.Payout, b.filler.Payout)
	}
	for name, o := range outcomes(res) {
		if o != OutcomeOK {
			t.Errorf("%s: %s, want ok", name, o)
		}
	}
	if st := m.Stats("b"); st.Quotes != 1 || st.Wins != 1 || st.QuoteLatency <= 0 {
		t.Errorf("stats of b: %+v", st)
	}
}

func TestTiesGoToTheEarliestAnswer(t *testing.T) {
	var late *endpoint
	late = serve(t, "late", func(w http.ResponseWriter, r *http.Request, req Request) {
		time.Sleep(60 * time.Millisecond)
		quoting("1000000", &late.filler.Payout)(w, r, req)
	})
	early := good(t, "early", "1000000")
	res := newMarket(Options{}).Ask(context.Background(), fillersOf(late, early), order, floor)
	if res.Winner == nil || res.Winner.Filler != "early" {
		t.Fatalf("winner %+v, want early (%s)", res.Winner, res)
	}
}

// TestEveryBadEndpointIsBounded: next to two good fillers, each kind of bad endpoint costs its own
// quote only, and Ask returns within the deadline.
func TestEveryBadEndpointIsBounded(t *testing.T) {
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		_ = l.Close()
		return "http://" + addr + "/quote"
	}()
	cases := []struct {
		name   string
		handle func(e *endpoint) func(http.ResponseWriter, *http.Request, Request)
		url    string
		want   Outcome
	}{
		{"slow", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, r *http.Request, req Request) {
				select {
				case <-time.After(10 * testDeadline):
				case <-r.Context().Done():
				}
				quoting("2000000", &e.filler.Payout)(w, r, req)
			}
		}, "", OutcomeTimeout},
		{"down", nil, closed, OutcomeError},
		{"garbage", func(*endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, _ Request) {
				_, _ = io.WriteString(w, `{"amountOut": 2000000`)
			}
		}, "", OutcomeBadJSON},
		{"unknown-field", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, req Request) {
				fmt.Fprintf(w, `{"requestId":%q,"amountOut":"2000000","bonus":"1"}`, req.RequestID)
			}
		}, "", OutcomeBadJSON},
		{"duplicate-field", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, req Request) {
				fmt.Fprintf(w, `{"requestId":%q,"amountOut":"1","amountOut":"2000000"}`, req.RequestID)
			}
		}, "", OutcomeBadJSON},
		{"not-uint256", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, req Request) {
				fmt.Fprintf(w, `{"requestId":%q,"amountOut":"2e6"}`, req.RequestID)
			}
		}, "", OutcomeBadJSON},
		{"oversized", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, req Request) {
				fmt.Fprintf(w, `{"requestId":%q,"amountOut":"2000000","filler":%q}%s`, req.RequestID, e.filler.Payout.Hex(),
					strings.Repeat(" ", DefaultMaxBody))
			}
		}, "", OutcomeTooLarge},
		{"slow-body", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, r *http.Request, req Request) {
				w.WriteHeader(http.StatusOK)
				body := fmt.Sprintf(`{"requestId":%q,"amountOut":"2000000"}`, req.RequestID)
				for i := range len(body) {
					_, _ = io.WriteString(w, body[i:i+1])
					w.(http.Flusher).Flush()
					select {
					case <-time.After(testDeadline / 10):
					case <-r.Context().Done():
						return
					}
				}
			}
		}, "", OutcomeTimeout},
		{"below-floor", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return quoting("989999", &e.filler.Payout)
		}, "", OutcomeBelowFloor},
		{"other-request", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, _ Request) {
				fmt.Fprintf(w, `{"requestId":"01J00000000000000000000000","amountOut":"2000000","filler":%q}`, e.filler.Payout.Hex())
			}
		}, "", OutcomeWrongRequest},
		{"other-filler", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			other := common.HexToAddress("0x00000000000000000000000000000000000000ff")
			return quoting("2000000", &other)
		}, "", OutcomeWrongFiller},
		{"no-quote", func(*endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, _ Request) { w.WriteHeader(http.StatusNoContent) }
		}, "", OutcomeNoQuote},
		{"server-error", func(*endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, _ *http.Request, _ Request) { w.WriteHeader(http.StatusInternalServerError) }
		}, "", OutcomeError},
		{"redirect", func(e *endpoint) func(http.ResponseWriter, *http.Request, Request) {
			return func(w http.ResponseWriter, r *http.Request, req Request) {
				if r.URL.Path == "/elsewhere" { // a redirect is not followed: this is never asked
					quoting("2000000", &e.filler.Payout)(w, r, req)
					return
				}
				http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
			}
		}, "", OutcomeError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := good(t, "a", "995000"), good(t, "b", "1000000")
			var bad *endpoint
			if tc.handle != nil {
				bad = serve(t, "bad", func(w http.ResponseWriter, r *http.Request, req Request) { tc.handle(bad)(w, r, req) })
			} else {
				bad = &endpoint{filler: Filler{Name: "bad", URL: tc.url, Secret: newSecret(t)}}
			}
			m := newMarket(Options{})
			start := time.Now()
			res := m.Ask(context.Background(), fillersOf(a, bad, b), order, floor)
			took := time.Since(start)
			if took > testDeadline+slack {
				t.Errorf("Ask took %s, more than the deadline %s + %s", took, testDeadline, slack)
			}
			got := outcomes(res)
			if got["bad"] != tc.want || got["a"] != OutcomeOK || got["b"] != OutcomeOK {
				t.Errorf("outcomes %v, want bad=%s and a, b ok", got, tc.want)
			}
			if res.Winner == nil || res.Winner.Filler != "b" {
				t.Errorf("winner %+v, want b (%s)", res.Winner, res)
			}
		})
	}
}

// TestRequestsAreSignedAndNameOnlyTheOrder: each filler gets the order's fields, signed with its
// own secret, and nothing else: no account, key or user, and not the other fillers.
func TestRequestsAreSignedAndNameOnlyTheOrder(t *testing.T) {
	a, b := good(t, "a", "995000"), good(t, "b", "1000000")
	res := newMarket(Options{}).Ask(context.Background(), fillersOf(a, b), order, floor)
	want := []string{"amountIn", "deadline", "fromChain", "fromChainId", "minAmountOut", "quoteDeadline",
		"recipientChainId", "requestId", "toChain", "toChainId", "tokenIn", "tokenOut", "tradeType"}
	for _, e := range []*endpoint{a, b} {
		e.mu.Lock()
		body, head := e.bodies[0], e.heads[0]
		e.mu.Unlock()
		if err := signing.Verify(head, body, time.Now(), signing.DefaultTolerance, e.filler.Secret); err != nil {
			t.Errorf("%s: the signature does not verify with its secret: %v", e.filler.Name, err)
		}
		other := a
		if e == a {
			other = b
		}
		if err := signing.Verify(head, body, time.Now(), signing.DefaultTolerance, other.filler.Secret); err == nil {
			t.Errorf("%s: the request verifies with another filler's secret", e.filler.Name)
		}
		if got := head.Get(signing.HeaderID); got != res.RequestID {
			t.Errorf("%s: webhook-id %q, want the request id %q", e.filler.Name, got, res.RequestID)
		}
		var fields map[string]any
		if err := json.Unmarshal(body, &fields); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Errorf("%s: the request's fields are %v, want %v", e.filler.Name, keys, want)
		}
		for _, leak := range []string{"account", "apiKey", "api-key", "sk_test_", "from\"", "995000", "1000000\""} {
			if strings.Contains(string(body), leak) && leak != "1000000\"" {
				t.Errorf("%s: the request holds %q: %s", e.filler.Name, leak, body)
			}
		}
		if fields["minAmountOut"] != floor.String() || fields["amountIn"] != order.AmountIn {
			t.Errorf("%s: minAmountOut %v amountIn %v", e.filler.Name, fields["minAmountOut"], fields["amountIn"])
		}
	}
}

// TestAFillerHasABoundedShare: a filler that holds its requests keeps at most MaxInFlight of them;
// beyond, it is not asked (busy), while another filler is still asked.
func TestAFillerHasABoundedShare(t *testing.T) {
	release := make(chan struct{})
	hold := serve(t, "hold", func(w http.ResponseWriter, r *http.Request, req Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusNoContent)
	})
	other := good(t, "other", "1000000")
	m := newMarket(Options{MaxInFlight: 2, Deadline: 5 * time.Second})
	var wg sync.WaitGroup
	results := make(chan Result, 6)
	for range 6 {
		wg.Go(func() { results <- m.Ask(context.Background(), fillersOf(hold), order, floor) })
	}
	// Wait until two asks hold both slots and the four others have returned.
	for deadline := time.Now().Add(5 * time.Second); (hold.hits.Load() < 2 || len(results) < 4) && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	// hold's two slots are taken: it is not asked, the other filler is.
	res := m.Ask(context.Background(), fillersOf(hold, other), order, floor)
	if o := outcomes(res); o["hold"] != OutcomeBusy || o["other"] != OutcomeOK {
		t.Errorf("while hold holds its slots: %v, want hold busy and other ok", o)
	}
	close(release)
	wg.Wait()
	close(results)
	busy, asked := 0, 0
	for r := range results {
		switch o := outcomes(r)["hold"]; o {
		case OutcomeBusy:
			busy++
		case OutcomeNoQuote:
			asked++
		default:
			t.Errorf("hold: %s", o)
		}
	}
	if asked != 2 || busy != 4 {
		t.Errorf("hold was asked %d times and busy %d times, want 2 and 4", asked, busy)
	}
	if got := hold.hits.Load(); got != 2 {
		t.Errorf("hold received %d requests, want 2", got)
	}
}

// TestTheBreakerOpensAfterFailures: BreakerFailures failures in a row keep a filler from being
// asked until the cooldown ends; one success closes it.
func TestTheBreakerOpensAfterFailures(t *testing.T) {
	healthy := atomic.Bool{}
	var e *endpoint
	e = serve(t, "flaky", func(w http.ResponseWriter, r *http.Request, req Request) {
		if healthy.Load() {
			quoting("1000000", &e.filler.Payout)(w, r, req)
			return
		}
		w.WriteHeader(http.StatusBadGateway)
	})
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	m := newMarket(Options{BreakerFailures: 3, BreakerCooldown: time.Minute, Now: func() time.Time { return *clock.Load() }})
	ask := func() Outcome { return outcomes(m.Ask(context.Background(), fillersOf(e), order, floor))["flaky"] }
	for i := range 3 {
		if got := ask(); got != OutcomeError {
			t.Fatalf("ask %d: %s, want error", i, got)
		}
	}
	if got := ask(); got != OutcomeBreakerOpen {
		t.Fatalf("after 3 failures: %s, want breaker_open", got)
	}
	if got := e.hits.Load(); got != 3 {
		t.Errorf("the endpoint got %d requests, want 3", got)
	}
	later := now.Add(time.Minute + time.Second)
	clock.Store(&later)
	if got := ask(); got != OutcomeError {
		t.Fatalf("after the cooldown: %s, want error (asked again)", got)
	}
	if got := ask(); got != OutcomeBreakerOpen {
		t.Fatalf("one failure after the cooldown: %s, want breaker_open again", got)
	}
	evenLater := later.Add(2 * time.Minute)
	clock.Store(&evenLater)
	healthy.Store(true)
	for i := range 4 {
		if got := ask(); got != OutcomeOK {
			t.Fatalf("healthy ask %d: %s, want ok", i, got)
		}
	}
}

// TestAFillerThatFadesIsNotAsked: a winner that does not fill within its exclusivity is counted,
// and after the threshold it is not asked until the cooldown ends.
func TestAFillerThatFadesIsNotAsked(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	fades := NewFades(FadeOptions{Threshold: 2, Window: time.Hour, Cooldown: 15 * time.Minute})
	m := newMarket(Options{Fades: fades, Now: func() time.Time { return *clock.Load() }})
	fader, honest := good(t, "fader", "1000000"), good(t, "honest", "995000")
	for i := range 2 {
		res := m.Ask(context.Background(), fillersOf(fader, honest), order, floor)
		if res.Winner == nil || res.Winner.Filler != "fader" {
			t.Fatalf("round %d: winner %+v, want fader", i, res.Winner)
		}
		orderID := fmt.Sprintf("order-%d", i)
		m.RecordWin("fader", orderID, clock.Load().Add(30*time.Second))
		next := clock.Load().Add(time.Minute)
		clock.Store(&next)
		if faded := fades.Sweep(next); !slices.Equal(faded, []string{"fader"}) {
			t.Fatalf("round %d: swept %v, want [fader]", i, faded)
		}
	}
	// The honest filler wins one and fills it: no fade.
	m.RecordWin("honest", "order-h", clock.Load().Add(30*time.Second))
	fades.RecordFill("order-h", "honest", *clock.Load())
	if faded := fades.Sweep(clock.Load().Add(time.Hour)); len(faded) != 0 {
		t.Errorf("a filled win was swept as a fade: %v", faded)
	}
	res := m.Ask(context.Background(), fillersOf(fader, honest), order, floor)
	if got := outcomes(res); got["fader"] != OutcomeFading || res.Winner == nil || res.Winner.Filler != "honest" {
		t.Fatalf("after 2 fades: %v, winner %+v; want fader not asked and honest winning", got, res.Winner)
	}
	st := m.Stats("fader")
	if st.Fades != 2 || st.RecentFades != 2 || st.NotAskedUntil.IsZero() {
		t.Errorf("stats of fader: %+v", st)
	}
	if hs := m.Stats("honest"); hs.Fills != 1 || hs.Fades != 0 {
		t.Errorf("stats of honest: %+v", hs)
	}
	after := st.NotAskedUntil.Add(time.Second)
	clock.Store(&after)
	if got := outcomes(m.Ask(context.Background(), fillersOf(fader, honest), order, floor)); got["fader"] != OutcomeOK {
		t.Errorf("after the cooldown: fader %s, want ok", got["fader"])
	}
}

func TestFadesAreBounded(t *testing.T) {
	f := NewFades(FadeOptions{MaxTrackedWins: 10})
	now := time.Now()
	for i := range 1000 {
		f.RecordWin("x", fmt.Sprint(i), now.Add(time.Hour))
	}
	if got := f.Tracked(); got != 10 {
		t.Errorf("%d wins tracked, want 10", got)
	}
	if len(f.order) > 20 {
		t.Errorf("the eviction order holds %d ids", len(f.order))
	}
	// Another filler's fill of a won order is the winner's fade.
	f.RecordFill("999", "y", now)
	if st := f.Stats("x", now); st.Fades != 1 {
		t.Errorf("x: %+v, want one fade", st)
	}
}

func TestParseUint256(t *testing.T) {
	max := "115792089237316195423570985008687907853269984665640564039457584007913129639935"
	for s, ok := range map[string]bool{"0": true, "1": true, max: true, "": false, "01": false, "-1": false,
		"1.0": false, "1e6": false, " 1": false, "+1": false,
		"115792089237316195423570985008687907853269984665640564039457584007913129639936": false} {
		if _, got := parseUint256(s); got != ok {
			t.Errorf("parseUint256(%q) = %v, want %v", s, got, ok)
		}
	}
}

// TestLoopbackOnlyWhenAllowed: the production Market refuses a loopback quote endpoint before
// dialling it.
func TestLoopbackOnlyWhenAllowed(t *testing.T) {
	e := good(t, "local", "1000000")
	res := NewMarket(Options{Deadline: testDeadline}).Ask(context.Background(), fillersOf(e), order, floor)
	if got := outcomes(res)["local"]; got != OutcomeError || e.hits.Load() != 0 {
		t.Errorf("a loopback endpoint without AllowLoopback: %s after %d requests, want error and none", got, e.hits.Load())
	}
}

func TestNoFillersNoWinner(t *testing.T) {
	res := newMarket(Options{}).Ask(context.Background(), nil, order, floor)
	if res.Winner != nil || len(res.Quotes) != 0 {
		t.Errorf("%+v", res)
	}
}

// A quote above the request's ceiling (far above any price) does not win, whatever it bids, and
// counts against the filler's breaker like any answer that is not a quote; one at the ceiling
// wins.
func TestAQuoteAboveTheCeilingDoesNotWin(t *testing.T) {
	liar := good(t, "liar", "115792089237316195423570985008687907853269984665640564039457584007913129639935")
	atCeiling, honest := good(t, "at-ceiling", "1100000"), good(t, "honest", "1000500")
	m := newMarket(Options{})
	req := order
	req.Ceiling = big.NewInt(1_100_000)
	res := m.Ask(context.Background(), fillersOf(liar, atCeiling, honest), req, floor)
	if res.Winner == nil || res.Winner.Filler != "at-ceiling" {
		t.Fatalf("winner %+v, want at-ceiling (%s)", res.Winner, res)
	}
	if o := outcomes(res)["liar"]; o != OutcomeAboveCeiling || !o.failure() {
		t.Fatalf("the liar's outcome: %s", o)
	}
	res = m.Ask(context.Background(), fillersOf(liar, honest), req, floor)
	if res.Winner == nil || res.Winner.Filler != "honest" {
		t.Fatalf("winner %+v, want honest (%s)", res.Winner, res)
	}
}

// asking answers an exact output's ask amountIn for the request it is given, from payout.
func asking(name string, amountIn string) func(t testing.TB) *endpoint {
	return func(t testing.TB) *endpoint {
		var e *endpoint
		e = serve(t, name, func(w http.ResponseWriter, _ *http.Request, req Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"requestId":%q,"amountIn":%q,"filler":%q}`, req.RequestID, amountIn, e.filler.Payout.Hex())
		})
		return e
	}
}

// An exact output asks the fillers for the input they take to deliver exactly the amount: the
// request says so, the lowest ask at most the escrow wins, an ask above it does not (an answer,
// as a quote below the floor is), one below the least input is a lie (a failure), and an answer
// with amountOut is no answer to an exact output.
func TestTheLowestAskOfAnExactOutputWins(t *testing.T) {
	req := order
	req.TradeType, req.AmountIn, req.MinAmountIn = TradeExactOutput, "1010000", big.NewInt(900_000)
	exact := big.NewInt(1_000_000)
	low, high, above := asking("low", "1001000")(t), asking("high", "1009999")(t), asking("above", "1010001")(t)
	liar, atMax := asking("liar", "899999")(t), asking("at-max", "1010000")(t)
	output := good(t, "output", "1000000")
	m := newMarket(Options{})
	res := m.Ask(context.Background(), fillersOf(high, above, low, liar, atMax, output), req, exact)
	if w := res.Winner; w == nil || w.Filler != "low" || w.AmountIn.String() != "1001000" || w.AmountOut != nil || w.Payout != low.filler.Payout {
		t.Fatalf("winner %+v, want low asking 1001000 (%s)", res.Winner, res)
	}
	want := map[string]Outcome{"low": OutcomeOK, "high": OutcomeOK, "at-max": OutcomeOK, "above": OutcomeAboveMaxIn,
		"liar": OutcomeBelowMinIn, "output": OutcomeBadJSON}
	for name, o := range outcomes(res) {
		if o != want[name] {
			t.Errorf("%s: %s, want %s", name, o, want[name])
		}
	}
	if OutcomeAboveMaxIn.failure() || !OutcomeBelowMinIn.failure() {
		t.Errorf("above_max_in is an answer, below_min_in a failure")
	}
	low.mu.Lock()
	body := low.bodies[0]
	low.mu.Unlock()
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatal(err)
	}
	if fields["tradeType"] != "exactOutput" || fields["amountOut"] != "1000000" || fields["minAmountOut"] != "1000000" || fields["amountIn"] != "1010000" {
		t.Errorf("the request %s; want tradeType exactOutput, amountOut = minAmountOut = 1000000, amountIn 1010000", body)
	}
	if res = m.Ask(context.Background(), fillersOf(above), req, exact); res.Winner != nil {
		t.Errorf("an ask above the escrow won: %s", res)
	}
}
