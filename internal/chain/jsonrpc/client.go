// Package jsonrpc is the one client of chain nodes: the simulation's reads (internal/chain/chaindata),
// the Chain controller's probes, the chain watcher, the submission check and the reference filler
// all reach a node through a Client, so that each guard below is written once:
//
//   - dial: errors never quote the node's URL, which may carry a provider's credential (it comes
//     from a Secret); no error, log line, metric or status does;
//   - deadline: every round trip is bounded by Options.Timeout;
//   - circuit breaker: with Options.Failures set, that many failed round trips in a row open the
//     breaker for Options.Cooldown, during which calls fail at once instead of paying the deadline
//     again (gobreaker);
//   - batch: several questions in one round trip (Batch);
//   - metrics: round trips counted and timed by chain and caller, breakers reported (Metrics);
//   - tracing: within a traced operation, a span per call or batch, with the chain and the caller
//     and never the URL (internal/tracing).
//
// Its callers differ only in their Options: the simulation wants a short deadline and a breaker,
// the watcher a long deadline and its own backoff.
package jsonrpc

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// Options are one caller's settings of its clients; zero values take the defaults.
type Options struct {
	// Caller names the user of the client in metrics: "simulation", "watcher", "probe", ...
	Caller string
	// Timeout bounds one round trip (a call or a batch); DefaultTimeout when zero.
	Timeout time.Duration
	// Failures is how many failed round trips in a row open the client's breaker; 0 runs without a
	// breaker (a caller with its own backoff).
	Failures uint32
	// Cooldown is how long an open breaker refuses calls before it lets one through again;
	// DefaultCooldown when zero.
	Cooldown time.Duration
	// Metrics receives the round trips; nil records nothing.
	Metrics *Metrics
	// Uncompressed asks the node not to gzip its answers: for a caller whose answers are a few
	// hundred bytes (the simulation), compressing them costs the node and the client more than
	// it saves on the wire.
	Uncompressed bool
	// IdleConns is how many idle connections to the node the client keeps for its next round
	// trips; 2 (http.DefaultTransport's) when zero. A caller with many round trips at once (the
	// simulation) keeps more, or each one over that opens and closes a connection of its own.
	IdleConns int
}

// Defaults of Options.
const (
	DefaultTimeout  = 10 * time.Second
	DefaultCooldown = 30 * time.Second
)

// ErrWrongChain is returned when a node reports another chain id than its Chain declares.
var ErrWrongChain = errors.New("the node serves another chain")

// ErrUnusableURL is the error of a URL that cannot be dialled; it never quotes the URL.
var ErrUnusableURL = errors.New("the RPC URL is not usable")

// Client is one chain's node as one caller uses it. It is safe for concurrent use.
type Client struct {
	rpc     *rpc.Client
	url     string
	chain   string // the Chain's CAIP-2 id, for metrics and the breaker
	opts    Options
	breaker *gobreaker.CircuitBreaker[struct{}]
}

// Dial connects to the node of chain (its CAIP-2 id, for metrics) at url, within the client's
// timeout; for http(s) that only parses the URL, a ws(s) URL connects.
func Dial(ctx context.Context, chain, url string, opts Options) (*Client, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	c, err := rpc.DialOptions(ctx, url, rpc.WithHTTPClient(nodeHTTP(opts)))
	if err != nil {
		return nil, ErrUnusableURL // the dial error may quote the URL
	}
	client := &Client{rpc: c, url: url, chain: chain, opts: opts}
	if opts.Failures > 0 {
		client.breaker = gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
			Name:        chain,
			MaxRequests: 1,
			Timeout:     opts.Cooldown,
			ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= opts.Failures },
			// A request its client abandoned says nothing about the node.
			IsExcluded:    func(err error) bool { return errors.Is(err, context.Canceled) },
			OnStateChange: func(_ string, _, to gobreaker.State) { opts.Metrics.breaker(chain, opts.Caller, to) },
		})
	}
	return client, nil
}

// nodeHTTP is the HTTP client of every node, one for each setting of opts' transport: it follows
// no redirect. The URL is what was checked (https, the operator's trusted hosts, the SSRF rules
// of a Chain's endpoints), and a redirect, which resends a JSON-RPC POST on 307 and 308, would
// send the call to a host nobody checked, even over plain http.
func nodeHTTP(opts Options) *http.Client {
	key := transportKey{uncompressed: opts.Uncompressed, idle: max(opts.IdleConns, 0)}
	if c, ok := nodeClients.Load(key); ok {
		return c.(*http.Client)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DisableCompression = key.uncompressed
	if key.idle > 0 {
		transport.MaxIdleConnsPerHost = key.idle
	}
	c, _ := nodeClients.LoadOrStore(key, &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	})
	return c.(*http.Client)
}

// transportKey is what tells the node clients' transports apart.
type transportKey struct {
	uncompressed bool
	idle         int
}

// nodeClients are the HTTP clients by transportKey: shared, so that the clients of one setting
// share their idle connections, and few.
var nodeClients sync.Map

// Close closes the connection.
func (c *Client) Close() { c.rpc.Close() }

// URL is the node's URL. It may hold a credential: compare it, never print it.
func (c *Client) URL() string { return c.url }

// Raw is the underlying go-ethereum client, for a caller that needs go-ethereum's own client
// types (the reference filler's ethclient, to send transactions). Its calls bypass the deadline,
// breaker and metrics: bound them with the context.
func (c *Client) Raw() *rpc.Client { return c.rpc }

// Batch sends elems in one round trip. The error is the round trip's own (the node did not
// answer); each element's answer, or the node's refusal of it, is in its Result and Error, with
// the URL redacted. check, when not nil, judges the answers: its error counts as the node's
// failure, like a round trip that failed (a node that serves another chain is as bad as none).
func (c *Client) Batch(ctx context.Context, elems []rpc.BatchElem, check func() error) error {
	if !tracing.Recording(ctx) {
		return c.batch(ctx, elems, check)
	}
	methods := make([]string, len(elems))
	for i := range elems {
		methods[i] = elems[i].Method
	}
	ctx, span := c.startSpan(ctx, "jsonrpc batch",
		attribute.Int("rpc.jsonrpc.batch_size", len(elems)), attribute.StringSlice("rpc.jsonrpc.methods", methods))
	err := c.batch(ctx, elems, check)
	tracing.End(span, err)
	return err
}

func (c *Client) batch(ctx context.Context, elems []rpc.BatchElem, check func() error) error {
	return c.roundTrip(ctx, func(ctx context.Context) error {
		if err := c.rpc.BatchCallContext(ctx, elems); err != nil {
			return err
		}
		for i := range elems {
			elems[i].Error = Redact(elems[i].Error, c.url)
		}
		if check != nil {
			return check()
		}
		return nil
	})
}

// Call makes one call. An error answer of the node (JSON-RPC error object) is returned as it is
// (rpc.Error, rpc.DataError) and does not count against the node: it answered.
func (c *Client) Call(ctx context.Context, result any, method string, args ...any) error {
	if !tracing.Recording(ctx) {
		return c.call(ctx, result, method, args)
	}
	ctx, span := c.startSpan(ctx, "jsonrpc "+method, attribute.String("rpc.method", method))
	err := c.call(ctx, result, method, args)
	tracing.End(span, err)
	return err
}

func (c *Client) call(ctx context.Context, result any, method string, args []any) error {
	var answer error
	err := c.roundTrip(ctx, func(ctx context.Context) error {
		err := c.rpc.CallContext(ctx, result, method, args...)
		var rpcErr rpc.Error
		if errors.As(err, &rpcErr) {
			answer = err
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	return Redact(answer, c.url)
}

// startSpan starts the span of a call or batch, a child of the caller's (a call outside a traced
// operation, like the watcher's polling, gets none: Recording). It names the chain and the
// caller, never the node's URL, which may hold a credential; its error is the redacted one.
func (c *Client) startSpan(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	return tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("rpc.system", "jsonrpc"),
			attribute.String("transferintent.chain", c.chain), attribute.String("transferintent.rpc.caller", c.opts.Caller)),
		trace.WithAttributes(attrs...))
}

var tracer = tracing.NewScope("github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc")

// roundTrip runs fn within the deadline, through the breaker, and redacts its error. A round
// trip the open breaker refused never reached the node and is not counted in the metrics.
func (c *Client) roundTrip(ctx context.Context, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	measured := func() error {
		start := time.Now()
		err := Redact(fn(ctx), c.url)
		c.opts.Metrics.observe(c.chain, c.opts.Caller, time.Since(start), err)
		return err
	}
	if c.breaker == nil {
		return measured()
	}
	_, err := c.breaker.Execute(func() (struct{}, error) { return struct{}{}, measured() })
	return err
}

// redacted is an error whose message no longer quotes the node's URL (net/http's errors do, and
// the URL may hold a credential), wrapping the original so that errors.Is still sees through it.
type redacted struct {
	msg string
	err error
}

func (e redacted) Error() string { return e.msg }
func (e redacted) Unwrap() error { return e.err }

// Redact returns err with every occurrence of the node's URL, as given or as net/url and net/http
// print it with its password masked (the user name and path stay readable there, and a path can
// hold an API key), replaced by <rpc url>; errors.Is still sees the original through it.
func Redact(err error, rawURL string) error {
	if err == nil || rawURL == "" {
		return err
	}
	msg := err.Error()
	forms := []string{rawURL}
	if u, perr := url.Parse(rawURL); perr == nil {
		forms = append(forms, u.String(), u.Redacted())
		if _, ok := u.User.Password(); ok { // net/http's errors mask a password with ***
			forms = append(forms, strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1))
		}
	}
	redactedMsg := msg
	for _, form := range forms {
		if form != "" {
			redactedMsg = strings.ReplaceAll(redactedMsg, form, "<rpc url>")
		}
	}
	if redactedMsg == msg {
		return err
	}
	return redacted{msg: redactedMsg, err: err}
}
