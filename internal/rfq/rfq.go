// Package rfq is the request for quotes: it asks every filler of a route at once, under one
// deadline, for the output it would deliver for an order, and picks the best answer at or above
// the order's floor. A quote endpoint is an outside dependency like a webhook receiver: each ask
// is signed (Standard Webhooks), dialled through the SSRF guard, bounded in time and in the size of
// its answer, and each filler has a bounded share (requests in flight) and a circuit breaker, so
// that one slow or hostile endpoint never holds a request past its deadline nor crowds out the
// others. Fillers that win and do not fill (fades) are counted, and past a threshold not asked for
// a while (Fades).
//
// The package does no Kubernetes and knows no account: the caller hands it the fillers of the
// route (internal/registry's FillerDirectory) and the order's fields.
package rfq

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/oklog/ulid/v2"

	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/strictjson"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

// Defaults of Options (docs/decisions.md, "The request for quotes").
const (
	// DefaultDeadline bounds a whole request for quotes: a firm simulation or a create waits at
	// most this long for the market.
	DefaultDeadline = 500 * time.Millisecond
	// DefaultMaxBody is the most of an answer that is read; a larger answer is discarded
	// (too_large). A quote is three short fields.
	DefaultMaxBody = 4 << 10
	// DefaultMaxInFlight is the most requests one filler has in flight; beyond it the filler is not
	// asked (busy).
	DefaultMaxInFlight = 4
	// DefaultBreakerFailures consecutive failures open a filler's breaker ...
	DefaultBreakerFailures = 5
	// ... for DefaultBreakerCooldown, during which it is not asked (breaker_open).
	DefaultBreakerCooldown = 30 * time.Second
	userAgent              = "transfer-intent-service-rfq/1"
)

// Outcome is what came of asking one filler.
type Outcome string

// The outcomes, as the metrics and Result name them.
const (
	// OutcomeOK: a valid quote at or above the floor.
	OutcomeOK Outcome = "ok"
	// OutcomeNoQuote: the filler answered 204, it does not quote this order.
	OutcomeNoQuote Outcome = "no_quote"
	// OutcomeTimeout: no complete answer before the deadline.
	OutcomeTimeout Outcome = "timeout"
	// OutcomeError: no answer (connection refused, refused destination, TLS), or a status other
	// than 200 and 204.
	OutcomeError Outcome = "error"
	// OutcomeTooLarge: the answer is longer than Options.MaxBody.
	OutcomeTooLarge Outcome = "too_large"
	// OutcomeBadJSON: the answer is not one strict JSON quote (unknown or duplicate fields, an
	// amount that is no uint256).
	OutcomeBadJSON Outcome = "bad_json"
	// OutcomeBelowFloor: a valid quote below the order's minAmountOut.
	OutcomeBelowFloor Outcome = "below_floor"
	// OutcomeAboveCeiling: a quote above Request.Ceiling, far above any price: a lie or a bug,
	// which would otherwise win every request.
	OutcomeAboveCeiling Outcome = "above_ceiling"
	// OutcomeAboveMaxIn: a valid ask of an exact output above the input the order escrows at
	// most (Request.AmountIn), as OutcomeBelowFloor is for an exact input.
	OutcomeAboveMaxIn Outcome = "above_max_in"
	// OutcomeBelowMinIn: an ask of an exact output below Request.MinAmountIn, far below any
	// price: a lie or a bug, as OutcomeAboveCeiling is for an exact input.
	OutcomeBelowMinIn Outcome = "below_min_in"
	// OutcomeWrongRequest: the quote names another requestId than the request's.
	OutcomeWrongRequest Outcome = "wrong_request"
	// OutcomeWrongFiller: the quote names another filler address than the Filler's payout address
	// on the destination chain.
	OutcomeWrongFiller Outcome = "wrong_filler"
	// OutcomeBusy: not asked, the filler already has Options.MaxInFlight requests in flight.
	OutcomeBusy Outcome = "busy"
	// OutcomeBreakerOpen: not asked, the filler's circuit breaker is open.
	OutcomeBreakerOpen Outcome = "breaker_open"
	// OutcomeFading: not asked, the filler is past its fade threshold (Fades).
	OutcomeFading Outcome = "fading"
)

// Asked reports whether the outcome is one of a request made (not a filler skipped).
func (o Outcome) Asked() bool {
	return o != OutcomeBusy && o != OutcomeBreakerOpen && o != OutcomeFading
}

// failure reports whether the outcome counts against the filler's breaker: the endpoint did not
// answer as a quote endpoint must. A 204, a quote below the floor and a valid quote are answers.
func (o Outcome) failure() bool {
	switch o {
	case OutcomeTimeout, OutcomeError, OutcomeTooLarge, OutcomeBadJSON, OutcomeWrongRequest, OutcomeWrongFiller, OutcomeAboveCeiling, OutcomeBelowMinIn:
		return true
	}
	return false
}

// Filler is one filler to ask: what the read model holds of a Ready Filler resource.
type Filler struct {
	// Name is the Filler resource's name (metrics, Result).
	Name string
	// URL is the quote endpoint (spec.quoteURL).
	URL string
	// Secret signs the requests (whsec_...). Never logged.
	Secret string
	// Payout is the filler's payout address on the order's destination chain: the exclusive filler
	// the order will name if the filler wins.
	Payout common.Address
}

// String names the filler without its secret, for logs.
func (f Filler) String() string { return f.Name }

// Request is what a filler is told of an order: the order's own fields, and no account, key,
// user address or other filler's quote.
type Request struct {
	// RequestID is a ULID; Ask sets it when empty. It is the webhook-id of the signed request and
	// the quote must repeat it.
	RequestID string `json:"requestId"`
	// FromChainID and FromChain are the origin chain, numeric (EIP-155) and CAIP-2.
	FromChainID uint64 `json:"fromChainId"`
	FromChain   string `json:"fromChain"`
	// ToChainID and ToChain are the destination chain, where the output is delivered.
	ToChainID uint64 `json:"toChainId"`
	ToChain   string `json:"toChain"`
	// TokenIn and TokenOut are CAIP-10 token addresses on the origin and destination chains.
	TokenIn  string `json:"tokenIn"`
	TokenOut string `json:"tokenOut"`
	// TradeType is exactInput (the filler quotes the output it delivers for AmountIn) or
	// exactOutput (the filler asks the input it takes to deliver exactly AmountOut); Ask sets
	// exactInput when empty.
	TradeType string `json:"tradeType"`
	// AmountIn is the input in base units, a decimal string: for an exact output, the most the
	// order escrows (an ask above it is refused).
	AmountIn string `json:"amountIn"`
	// AmountOut is an exact output's output, in base units of TokenOut: what the fill delivers,
	// exactly. Ask sets it from its floor argument; absent for an exact input.
	AmountOut string `json:"amountOut,omitempty"`
	// MinAmountOut is the floor, in base units of TokenOut; Ask sets it from its floor argument
	// (an exact output's floor is its exact amount).
	MinAmountOut string `json:"minAmountOut"`
	// RecipientChainID is the CAIP-2 chain the recipient is paid on (the destination chain).
	RecipientChainID string `json:"recipientChainId"`
	// NativeDropAmount is the order's gas on arrival, in base units of the destination chain's
	// native token, a decimal string: the filler pays it to the recipient with the fill, beside
	// the output it quotes. Absent: none.
	NativeDropAmount string `json:"nativeDropAmount,omitempty"`
	// FeeAmount is the order's integrator fee in base units of TokenIn, a decimal string: the
	// settlement contract pays the filler AmountIn less it. Absent: none.
	FeeAmount string `json:"feeAmount,omitempty"`
	// Deadline is the order's deadline.
	Deadline time.Time `json:"deadline"`
	// QuoteDeadline is when answers stop being read; Ask sets it.
	QuoteDeadline time.Time `json:"quoteDeadline"`
	// Ceiling is the highest quote taken, in base units of TokenOut (nil: none). It is not sent:
	// it is derived from the service's own price, which a filler is not told.
	Ceiling *big.Int `json:"-"`
	// MinAmountIn is the lowest ask of an exact output taken (nil: none); not sent, as Ceiling.
	MinAmountIn *big.Int `json:"-"`
}

// The trade types of a Request.
const (
	TradeExactInput  = "exactInput"
	TradeExactOutput = "exactOutput"
)

// bounds are what an answer is checked against: an exact input's floor and ceiling of the output,
// or an exact output's least and most input.
type bounds struct {
	exactOutput    bool
	floor, ceiling *big.Int
	minIn, maxIn   *big.Int
}

// quote is a filler's answer, read strictly.
type quote struct {
	RequestID string `json:"requestId"`
	// AmountOut answers an exact input, AmountIn an exact output.
	AmountOut string `json:"amountOut,omitempty"`
	AmountIn  string `json:"amountIn,omitempty"`
	// Filler is optional; when present it must be the Filler's payout address.
	Filler string `json:"filler,omitempty"`
}

// Quote is what came of asking one filler.
type Quote struct {
	Filler  string
	Outcome Outcome
	// AmountOut is the quoted output (OutcomeOK and OutcomeBelowFloor); nil otherwise.
	AmountOut *big.Int
	// AmountIn is an exact output's ask (OutcomeOK and OutcomeAboveMaxIn); nil otherwise.
	AmountIn *big.Int
	// Latency is from the start of the request for quotes to the answer (0 when not asked; the
	// deadline for a timeout).
	Latency time.Duration
	// Payout is the filler's payout address on the destination chain.
	Payout common.Address
	// arrival orders the answers for the tie-break.
	arrival int
}

// Result is the outcome of a request for quotes.
type Result struct {
	RequestID string
	// Quotes holds one entry per filler asked or skipped, in the order of the fillers given.
	Quotes []Quote
	// Winner is the best OutcomeOK quote: the highest AmountOut (for an exact output, the lowest
	// AmountIn), and of equal amounts the one that arrived first. Nil when no filler quoted at or
	// above the floor (at or below the most input).
	Winner *Quote
	// Took is how long Ask took.
	Took time.Duration
}

// Options tune a Market; the zero value is the production one.
type Options struct {
	// Deadline bounds a whole request for quotes (DefaultDeadline).
	Deadline time.Duration
	// MaxBody is the most bytes of an answer read (DefaultMaxBody).
	MaxBody int64
	// MaxInFlight is the most requests in flight per filler (DefaultMaxInFlight).
	MaxInFlight int
	// BreakerFailures and BreakerCooldown: that many consecutive failures keep a filler from being
	// asked for the cooldown (DefaultBreakerFailures, DefaultBreakerCooldown).
	BreakerFailures int
	BreakerCooldown time.Duration
	// AllowLoopback lets quote endpoints be on loopback (make run and tests, as the webhook
	// sender's --webhook-allow-loopback). Off in production.
	AllowLoopback bool
	// Transport replaces the guarded transport (tests only: it bypasses the SSRF checks).
	Transport http.RoundTripper
	// Fades, when set, keeps fillers past their fade threshold from being asked and is told of
	// every win.
	Fades *Fades
	// Metrics records every ask (nil: none).
	Metrics *Metrics
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Market asks fillers for quotes. One Market serves every request; it is safe for concurrent use
// and keeps each filler's in-flight count, breaker and statistics across requests.
type Market struct {
	opts   Options
	client *http.Client

	mu      sync.Mutex
	fillers map[string]*fillerState
}

// NewMarket returns a Market.
func NewMarket(opts Options) *Market {
	if opts.Deadline <= 0 {
		opts.Deadline = DefaultDeadline
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if opts.BreakerFailures <= 0 {
		opts.BreakerFailures = DefaultBreakerFailures
	}
	if opts.BreakerCooldown <= 0 {
		opts.BreakerCooldown = DefaultBreakerCooldown
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	rt := opts.Transport
	if rt == nil {
		rt = &http.Transport{
			// No proxy from the environment: the guard must see the real destination.
			Proxy:       nil,
			DialContext: (&ssrf.Dialer{AllowLoopback: opts.AllowLoopback, Timeout: opts.Deadline}).DialContext,
			// No ResponseHeaderTimeout: the request's context bounds the whole exchange, and a second
			// timer racing it would report a slow filler as an error rather than a timeout.
			TLSHandshakeTimeout:    opts.Deadline,
			MaxResponseHeaderBytes: 16 << 10,
			// Keep a connection per request a filler may have in flight, so that an RFQ rarely pays
			// for a handshake.
			MaxIdleConnsPerHost: opts.MaxInFlight,
			IdleConnTimeout:     90 * time.Second,
			ForceAttemptHTTP2:   true,
		}
	}
	return &Market{
		opts: opts,
		client: &http.Client{
			Transport: rt,
			// A redirect is an answer, not a new destination: it would bypass the URL checks.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		fillers: map[string]*fillerState{},
	}
}

// Deadline is the deadline of one request for quotes.
func (m *Market) Deadline() time.Duration { return m.opts.Deadline }

// Ask asks every filler at once for a quote on req, with floor as minAmountOut, and returns within
// the Market's deadline (or ctx's, if sooner) with every answer and the winner. A filler that is
// busy, whose breaker is open or that is fading is not asked. Ask never fails: a request no filler
// answers has no winner, and the order goes to the open Dutch auction.
func (m *Market) Ask(ctx context.Context, fillers []Filler, req Request, floor *big.Int) Result {
	start := m.opts.Now()
	began := time.Now() // monotonic, for latencies
	if req.RequestID == "" {
		req.RequestID = ulid.MustNew(ulid.Timestamp(start), rand.Reader).String()
	}
	if floor == nil {
		floor = new(big.Int)
	}
	req.MinAmountOut = floor.String()
	b := bounds{floor: floor, ceiling: req.Ceiling}
	switch req.TradeType {
	case "":
		req.TradeType = TradeExactInput
	case TradeExactOutput:
		b.exactOutput, b.ceiling, b.minIn = true, nil, req.MinAmountIn
		b.maxIn, _ = new(big.Int).SetString(req.AmountIn, 10)
		req.AmountOut = floor.String()
	}
	req.QuoteDeadline = start.Add(m.opts.Deadline).UTC().Truncate(time.Millisecond)
	req.Deadline = req.Deadline.UTC()
	res := Result{RequestID: req.RequestID, Quotes: make([]Quote, len(fillers))}
	body, err := json.Marshal(req)
	if err != nil { // cannot happen: strings, numbers and times
		for i, f := range fillers {
			res.Quotes[i] = Quote{Filler: f.Name, Outcome: OutcomeError, Payout: f.Payout}
		}
		return res
	}

	ctx, cancel := context.WithTimeout(ctx, m.opts.Deadline)
	defer cancel()
	type answer struct {
		i int
		q Quote
	}
	answers := make(chan answer, len(fillers))
	pending := 0
	for i, f := range fillers {
		res.Quotes[i] = Quote{Filler: f.Name, Payout: f.Payout}
		state := m.state(f.Name)
		if skip := m.admit(state, f.Name, start); skip != "" {
			res.Quotes[i].Outcome = skip
			m.opts.Metrics.observe(f.Name, skip, 0, false)
			continue
		}
		pending++
		go func() {
			defer state.release()
			q := m.askOne(ctx, f, req.RequestID, body, b, start, began)
			answers <- answer{i, q}
		}()
	}
	arrival := 0
	for pending > 0 {
		select {
		case a := <-answers:
			pending--
			arrival++
			a.q.arrival = arrival
			res.Quotes[a.i] = a.q
		case <-ctx.Done():
			// Answers already in take their places; the stragglers' contexts are cancelled with this one; their goroutines end on their
			// own and release their filler's slot then, so a hanging endpoint holds its own slots
			// only. What they would say is not waited for.
			for drained := false; !drained; {
				select {
				case a := <-answers:
					arrival++
					a.q.arrival = arrival
					res.Quotes[a.i] = a.q
				default:
					drained = true
				}
			}
			for i := range res.Quotes {
				if res.Quotes[i].Outcome == "" {
					res.Quotes[i].Outcome = OutcomeTimeout
					res.Quotes[i].Latency = m.opts.Deadline
				}
			}
			pending = 0
		}
	}
	for i := range res.Quotes {
		q := &res.Quotes[i]
		if q.Outcome.Asked() {
			m.record(q.Filler, q.Outcome, q.Latency)
		}
		if q.Outcome == OutcomeOK && (res.Winner == nil || better(q, res.Winner, b.exactOutput)) {
			res.Winner = q
		}
	}
	if res.Winner != nil {
		m.state(res.Winner.Filler).win()
		m.opts.Metrics.win(res.Winner.Filler)
	}
	res.Took = time.Since(began)
	return res
}

// better says whether q beats the winner so far w: more output, or for an exact output less
// input; of equal amounts, the one that arrived first.
func better(q, w *Quote, exactOutput bool) bool {
	c := q.AmountOut.Cmp(w.AmountOut)
	if exactOutput {
		c = w.AmountIn.Cmp(q.AmountIn)
	}
	return c > 0 || (c == 0 && q.arrival < w.arrival)
}

// RecordWin tells the Market's fade tracking (Options.Fades) that the winner of a request for
// quotes now holds the order's exclusivity until exclusiveUntil: the caller calls it once the
// order naming the winner exists.
func (m *Market) RecordWin(filler, orderID string, exclusiveUntil time.Time) {
	if m.opts.Fades != nil {
		m.opts.Fades.RecordWin(filler, orderID, exclusiveUntil)
	}
}

// admit decides whether the filler is asked, and takes one of its in-flight slots when it is. It
// returns the outcome of a skip, or "".
func (m *Market) admit(s *fillerState, name string, now time.Time) Outcome {
	if m.opts.Fades != nil {
		if _, fading := m.opts.Fades.NotAskedUntil(name, now); fading {
			return OutcomeFading
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case now.Before(s.openUntil):
		return OutcomeBreakerOpen
	case s.inFlight >= m.opts.MaxInFlight:
		return OutcomeBusy
	}
	s.inFlight++
	return ""
}

// askOne makes one signed POST and reads its answer.
func (m *Market) askOne(ctx context.Context, f Filler, requestID string, body []byte, b bounds, start time.Time, began time.Time) Quote {
	q := Quote{Filler: f.Name, Payout: f.Payout}
	outcome, amount := m.post(ctx, f, requestID, body, b, start)
	q.Outcome, q.Latency = outcome, time.Since(began)
	if b.exactOutput {
		q.AmountIn = amount
	} else {
		q.AmountOut = amount
	}
	return q
}

func (m *Market) post(ctx context.Context, f Filler, requestID string, body []byte, b bounds, now time.Time) (Outcome, *big.Int) {
	if err := ssrf.CheckURL(f.URL, m.opts.AllowLoopback); err != nil {
		return OutcomeError, nil
	}
	header, err := signing.Sign(requestID, now, body, f.Secret)
	if err != nil {
		return OutcomeError, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.URL, bytes.NewReader(body))
	if err != nil {
		return OutcomeError, nil
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	resp, err := m.client.Do(req)
	if err != nil {
		return timeoutOr(ctx, err), nil
	}
	defer func() { _ = resp.Body.Close() }()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNoContent:
		return OutcomeNoQuote, nil
	default:
		return OutcomeError, nil
	}
	if resp.ContentLength > m.opts.MaxBody {
		return OutcomeTooLarge, nil
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, m.opts.MaxBody+1))
	switch {
	case err != nil:
		return timeoutOr(ctx, err), nil
	case int64(len(raw)) > m.opts.MaxBody:
		return OutcomeTooLarge, nil
	}
	var ans quote
	if strictjson.Check(raw) != nil {
		return OutcomeBadJSON, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return OutcomeBadJSON, nil
	}
	if ans.RequestID != requestID {
		return OutcomeWrongRequest, nil
	}
	answer, other := ans.AmountOut, ans.AmountIn
	if b.exactOutput {
		answer, other = ans.AmountIn, ans.AmountOut
	}
	amount, ok := parseUint256(answer)
	if !ok || other != "" {
		return OutcomeBadJSON, nil // an exact input is answered with amountOut, an exact output with amountIn
	}
	if ans.Filler != "" {
		if !common.IsHexAddress(ans.Filler) || !strings.HasPrefix(ans.Filler, "0x") || common.HexToAddress(ans.Filler) != f.Payout {
			return OutcomeWrongFiller, nil
		}
	}
	if b.exactOutput {
		switch {
		case b.maxIn == nil || amount.Cmp(b.maxIn) > 0:
			return OutcomeAboveMaxIn, amount
		case b.minIn != nil && amount.Cmp(b.minIn) < 0, amount.Sign() == 0:
			return OutcomeBelowMinIn, nil
		}
		return OutcomeOK, amount
	}
	if amount.Cmp(b.floor) < 0 {
		return OutcomeBelowFloor, amount
	}
	if b.ceiling != nil && amount.Cmp(b.ceiling) > 0 {
		return OutcomeAboveCeiling, nil
	}
	return OutcomeOK, amount
}

// timeoutOr classifies a failed exchange: OutcomeTimeout when the request's deadline has passed or
// a timer of the transport fired (the TLS handshake's), else OutcomeError.
func timeoutOr(ctx context.Context, err error) Outcome {
	var netErr net.Error
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) ||
		(errors.As(err, &netErr) && netErr.Timeout()) {
		return OutcomeTimeout
	}
	return OutcomeError
}

// maxUint256 is 2^256 - 1.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// parseUint256 reads a decimal string of digits only (no sign, no leading zero but for "0", no
// exponent) that fits in a uint256.
func parseUint256(s string) (*big.Int, bool) {
	if s == "" || len(s) > 78 || (len(s) > 1 && s[0] == '0') {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return nil, false
		}
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Cmp(maxUint256) > 0 {
		return nil, false
	}
	return n, true
}

// String describes a result in one line for logs: outcomes by filler, never a secret or URL.
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rfq %s in %s:", r.RequestID, r.Took.Round(time.Millisecond))
	for _, q := range r.Quotes {
		fmt.Fprintf(&b, " %s=%s", q.Filler, q.Outcome)
	}
	if w := r.Winner; w != nil && w.AmountIn != nil {
		fmt.Fprintf(&b, " winner=%s(in %s)", w.Filler, w.AmountIn)
	} else if w != nil {
		fmt.Fprintf(&b, " winner=%s(%s)", w.Filler, w.AmountOut)
	}
	return b.String()
}

// Fillers turns the directory's fillers of a route (registry.FillerDirectory.Serving) into the
// fillers to ask, each with its payout address on the order's destination chain toChain. A filler
// without one is left out (the Filler's validation requires one for every route's destination).
func Fillers(serving []registry.Filler, toChain string) []Filler {
	out := make([]Filler, 0, len(serving))
	for _, f := range serving {
		payout, ok := f.Payout(toChain)
		if !ok {
			continue
		}
		out = append(out, Filler{Name: f.Name, URL: f.URL, Secret: f.Secret, Payout: payout})
	}
	return out
}
