// Package sender makes one delivery attempt of a webhook: a signed POST (Standard Webhooks) to a
// public address (internal/webhook/ssrf), bounded in time, that follows no redirect and reads at
// most a little of the answer.
package sender

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

// Defaults of Options.
const (
	DefaultTimeout = 10 * time.Second
	// MaxResponse is how much of an answer is read: a receiver's body tells nothing the status
	// does not, and a large one would only cost memory.
	MaxResponse = 4 << 10
	userAgent   = "transfer-intent-service-webhooks/1"
)

// Options tune a Sender; the zero value is the production one.
type Options struct {
	// Timeout bounds an attempt, from the connection to the last byte read; DefaultTimeout when
	// zero.
	Timeout time.Duration
	// Transport replaces the guarded transport (tests only: it bypasses the SSRF checks).
	Transport http.RoundTripper
	// AllowLoopback lets test endpoints reach loopback addresses (make run and the tests,
	// --webhook-allow-loopback). Off in production: the manager's own loopback serves pprof, probes
	// and sidecars' admin ports, which a test endpoint must not reach.
	AllowLoopback bool
}

// Sender delivers events. One Sender serves every endpoint; it is safe for concurrent use.
type Sender struct {
	live, test    *http.Client
	timeout       time.Duration
	allowLoopback bool
}

// New returns a Sender: endpoints reach public addresses only; test endpoints loopback too with
// Options.AllowLoopback.
func New(opts Options) *Sender {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	client := func(allowLoopback bool) *http.Client {
		rt := opts.Transport
		if rt == nil {
			rt = &http.Transport{
				// No proxy from the environment: the guard must see the real destination.
				Proxy:                 nil,
				DialContext:           (&ssrf.Dialer{AllowLoopback: allowLoopback, Timeout: opts.Timeout}).DialContext,
				TLSHandshakeTimeout:   opts.Timeout,
				ResponseHeaderTimeout: opts.Timeout,
				// A receiver's headers say nothing we read; Go's default allows 10 MB.
				MaxResponseHeaderBytes: 16 << 10,
				MaxIdleConnsPerHost:    4,
				IdleConnTimeout:        90 * time.Second,
				ForceAttemptHTTP2:      true,
			}
		}
		return &http.Client{
			Transport: rt,
			Timeout:   opts.Timeout,
			// A redirect is an answer, not a new destination: it would bypass the URL checks.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return &Sender{live: client(false), test: client(opts.AllowLoopback), timeout: opts.Timeout, allowLoopback: opts.AllowLoopback}
}

// AllowsLoopback reports whether an endpoint of the environment (live or not) may be on loopback.
func (s *Sender) AllowsLoopback(live bool) bool { return !live && s.allowLoopback }

// Attempt is a delivery to make.
type Attempt struct {
	URL string
	// Live is the endpoint's environment: a test endpoint may be on loopback.
	Live    bool
	EventID string
	Body    []byte
	// Secrets sign the attempt (the current one, then a previous one during a rotation).
	Secrets []string
}

// Result is an attempt's outcome.
type Result struct {
	// Status is the answer's status code; 0 when none came.
	Status   int
	Duration time.Duration
	// Err is set when the attempt failed: no answer, or not a 2xx. errors.Is(Err, ssrf.ErrRefused)
	// tells a refused destination.
	Err error
}

// OK reports a 2xx answer.
func (r Result) OK() bool { return r.Err == nil }

// ErrorType classifies a failed attempt in a few words that name no host, address or URL (the
// error's message may hold all three): the status code when the receiver answered ("503",
// "307"), else refused (a destination the SSRF rules refuse), timeout, canceled, dns, tls,
// signing or connection. It is "" for a delivered attempt. Tracing records it (error.type).
func (r Result) ErrorType() string {
	switch {
	case r.Err == nil:
		return ""
	case r.Status != 0:
		return strconv.Itoa(r.Status)
	case errors.Is(r.Err, ssrf.ErrRefused):
		return "refused"
	case errors.Is(r.Err, errSigning):
		return "signing"
	case errors.Is(r.Err, context.Canceled):
		return "canceled"
	case errors.Is(r.Err, context.DeadlineExceeded):
		return "timeout"
	}
	var dnsErr *net.DNSError
	if errors.As(r.Err, &dnsErr) {
		if dnsErr.IsTimeout {
			return "timeout"
		}
		return "dns"
	}
	var netErr net.Error
	if errors.As(r.Err, &netErr) && netErr.Timeout() {
		return "timeout"
	}
	var certErr *tls.CertificateVerificationError
	var alert tls.AlertError
	var header tls.RecordHeaderError
	if errors.As(r.Err, &certErr) || errors.As(r.Err, &alert) || errors.As(r.Err, &header) {
		return "tls"
	}
	return "connection"
}

// errSigning marks a failure to sign (a malformed secret): no request was made.
var errSigning = errors.New("signing")

// urlError is a URL the rules refuse before anything is resolved (ssrf.CheckURL): its message is
// about the URL as written, which its owner knows.
type urlError struct{ err error }

func (e urlError) Error() string { return e.err.Error() }
func (e urlError) Unwrap() error { return e.err }

// Describe says what an attempt came to in words that are safe to show to the endpoint's owner
// (its status, the /webhooks page, the answer of a test send): the receiver's status code, or a
// refusal of the URL as written, and otherwise one sentence for every failure before an HTTP
// answer. Not the address a host resolved to, not the resolver, and not which of DNS, the
// connection, TLS or the timeout failed: those would map the cluster's names to its addresses,
// tell its existing internal names from missing ones, and make test sends a port prober.
// Traces and metrics keep the kind of failure (ErrorType). "" for a delivered attempt.
func (s *Sender) Describe(r Result) string { return Describe(r, s.timeout) }

// Describe is Sender.Describe for a sender whose attempts time out after timeout.
func Describe(r Result, timeout time.Duration) string {
	switch {
	case r.Err == nil:
		return ""
	case r.Status != 0 || errors.As(r.Err, new(urlError)):
		return r.Err.Error()
	case errors.Is(r.Err, errSigning):
		return "the endpoint's signing secret could not sign the event"
	case errors.Is(r.Err, context.Canceled):
		return "the attempt was canceled (the service is stopping)"
	}
	return fmt.Sprintf("no HTTP answer: the receiver could not be reached within %s "+
		"(its host must resolve to a public address and accept HTTPS connections)", timeout)
}

// Send makes one attempt, signed at now.
func (s *Sender) Send(ctx context.Context, a Attempt, now time.Time) Result {
	start := time.Now()
	res := s.send(ctx, a, now)
	res.Duration = time.Since(start)
	return res
}

func (s *Sender) send(ctx context.Context, a Attempt, now time.Time) Result {
	if err := ssrf.CheckURL(a.URL, s.AllowsLoopback(a.Live)); err != nil {
		return Result{Err: urlError{err}}
	}
	header, err := signing.Sign(a.EventID, now, a.Body, a.Secrets...)
	if err != nil {
		return Result{Err: fmt.Errorf("%w: %w", errSigning, err)}
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL, bytes.NewReader(a.Body))
	if err != nil {
		return Result{Err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	client := s.test
	if a.Live {
		client = s.live
	}
	resp, err := client.Do(req)
	if err != nil {
		return Result{Err: describe(err)}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponse))
	_ = resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return Result{Status: resp.StatusCode}
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return Result{Status: resp.StatusCode, Err: fmt.Errorf("HTTP %d: redirects are not followed", resp.StatusCode)}
	default:
		return Result{Status: resp.StatusCode, Err: fmt.Errorf("HTTP %d", resp.StatusCode)}
	}
}

// describe shortens a client error to what an operator needs: the url is in the resource already.
func describe(err error) error {
	var uerr interface{ Unwrap() error }
	if errors.As(err, &uerr) {
		if inner := uerr.Unwrap(); inner != nil {
			if errors.Is(inner, context.DeadlineExceeded) {
				return fmt.Errorf("no answer within the timeout: %w", inner)
			}
			return inner
		}
	}
	return err
}
