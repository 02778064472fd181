package apiserver

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// CorrelationHeader carries the request's correlation id on every response.
const CorrelationHeader = "X-Correlation-Id"

// accessEntry is one request's log record. It is logged as one object (zap encodes it without
// reflection through MarshalLogObject) because boxing each field for logr costs an allocation
// per field on every request. It never holds the API key, only the key's id.
type accessEntry struct {
	Method        string        `json:"method"`
	Route         string        `json:"route"`
	Status        int           `json:"status"`
	Duration      time.Duration `json:"duration"`
	CorrelationID string        `json:"correlationId"`
	// TraceID is the request's trace when it was sampled (--otlp-endpoint); empty otherwise.
	TraceID string `json:"traceId,omitempty"`
	KeyID   string `json:"keyId,omitempty"`
	Account string `json:"account,omitempty"`
}

// MarshalLogObject implements zapcore.ObjectMarshaler.
func (e *accessEntry) MarshalLogObject(enc zapcore.ObjectEncoder) error {
	enc.AddString("method", e.Method)
	enc.AddString("route", e.Route)
	enc.AddInt("status", e.Status)
	enc.AddDuration("duration", e.Duration)
	enc.AddString("correlationId", e.CorrelationID)
	if e.TraceID != "" {
		enc.AddString("traceId", e.TraceID)
	}
	if e.KeyID != "" {
		enc.AddString("keyId", e.KeyID)
		enc.AddString("account", e.Account)
	}
	return nil
}

// newCorrelationID is a ULID for the request at t. Its random part comes from math/rand/v2's
// per-thread generator rather than ulid.Make's monotonic source, which takes a process-wide lock
// on every request: a correlation id must be unique, not secret nor ordered within a millisecond.
func newCorrelationID(t time.Time) string {
	var id ulid.ULID
	_ = id.SetTime(ulid.Timestamp(t)) // fails only after the year 10889
	binary.BigEndian.PutUint64(id[6:14], rand.Uint64())
	binary.BigEndian.PutUint16(id[14:], uint16(rand.Uint32()))
	return id.String()
}

// requestState is what the layers of one request learn and the outermost layer logs and measures.
// It is the request context's problem.Carrier, so one context value serves every layer.
type requestState struct {
	correlationID string
	route         string
	// routes is the mux that names route when no handler did (nameRoute).
	routes        *http.ServeMux
	key           registry.Key
	authenticated bool
	access        accessEntry
}

// CorrelationID implements problem.Carrier.
func (st *requestState) CorrelationID() string { return st.correlationID }

func stateFrom(ctx context.Context) *requestState {
	st, _ := problem.CarrierFrom(ctx).(*requestState)
	if st == nil {
		return &requestState{}
	}
	return st
}

// KeyFrom returns the API key that authenticated the request; ok is false outside the auth gate.
func KeyFrom(r *http.Request) (registry.Key, bool) {
	st := stateFrom(r.Context())
	return st.key, st.authenticated
}

// observe is the outermost layer: it gives the request a correlation id, turns panics and
// net/http's own plain-text 400/404/405 into problems, and records the metric and the log line.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		st := &requestState{correlationID: newCorrelationID(start), route: routeUnmatched}
		ctx := problem.WithCarrier(r.Context(), st)
		var span trace.Span // the request's server span; nil while tracing is off
		if tracing.Enabled() {
			ctx, span = startServerSpan(ctx, r, st, start)
		}
		r = r.WithContext(ctx)
		w.Header()[CorrelationHeader] = []string{st.correlationID}
		sw := &statusWriter{ResponseWriter: w, req: r, problems: s.problems}
		body := r.Body
		var took time.Duration
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler { //nolint:errorlint // sentinel compared as net/http does
					panic(v)
				}
				s.log.Error(fmt.Errorf("panic: %v", v), "request panicked", "correlationId", st.correlationID,
					"stack", string(debug.Stack()))
				if !sw.wroteHeader {
					s.problems.Write(sw, r, problem.InternalError, "The server failed to handle the request.", nil)
				}
			}
			if took == 0 {
				took = time.Since(start)
			}
			s.record(r, sw.status(), st, took, span)
		}()
		next.ServeHTTP(sw, r)
		if sw.status() == http.StatusRequestEntityTooLarge {
			took = time.Since(start) // the answer's time, not the draining's
			linger(sw, r, body)
		}
	})
}

// Bounds of reading an oversized body after its 413.
const (
	lingerBytes   = 16 << 20
	lingerTimeout = 2 * time.Second
)

// linger sends the 413 and then reads and throws away the rest of the body, up to lingerBytes and
// lingerTimeout, before net/http closes the connection (nginx's lingering close). Closing a socket
// with unread data makes the kernel send a reset, and a client that sends its whole body before
// reading (Python's urllib, many SDKs) then meets "connection reset" instead of the 413.
func linger(w http.ResponseWriter, r *http.Request, body io.Reader) {
	if r.ContentLength > lingerBytes {
		return // more than we would read: the reset cannot be avoided
	}
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	_ = rc.SetReadDeadline(time.Now().Add(lingerTimeout))
	_, _ = io.CopyN(io.Discard, body, lingerBytes)
}

func (s *Server) record(r *http.Request, status int, st *requestState, d time.Duration, span trace.Span) {
	if st.route == routeUnmatched && st.routes != nil {
		if _, pattern := st.routes.Handler(r); pattern != "" {
			st.route = pattern
		}
	}
	s.metrics.observe(st.route, r.Method, status, d)
	if span != nil {
		endServerSpan(span, r, status, st)
	}
	verbose := !s.opts.AccessLog && status < 500 // logged at -v=1 only
	if s.accessZap != nil {
		level := zapcore.InfoLevel
		if verbose {
			level = zapcore.DebugLevel // zapr's V(1)
		}
		if ce := s.accessZap.Check(level, "request"); ce != nil {
			s.fillAccess(r, status, st, d, span)
			ce.Write(zap.Object("http", &st.access))
		}
		return
	}
	log := s.access
	if verbose {
		log = log.V(1)
	}
	if log.Enabled() {
		s.fillAccess(r, status, st, d, span)
		log.Info("request", "http", &st.access)
	}
}

func (s *Server) fillAccess(r *http.Request, status int, st *requestState, d time.Duration, span trace.Span) {
	st.access = accessEntry{Method: metricMethod(r.Method), Route: st.route, Status: status, Duration: d, CorrelationID: st.correlationID}
	if span != nil {
		if sc := span.SpanContext(); sc.IsSampled() {
			st.access.TraceID = sc.TraceID().String()
		}
	}
	if st.authenticated {
		st.access.KeyID, st.access.Account = st.key.ID, st.key.Account
	}
}

// statusWriter remembers the status for metrics and replaces a plain-text 400, 404 or 405 written
// by net/http (ServeMux, http.Error) with the matching problem.
type statusWriter struct {
	http.ResponseWriter
	req         *http.Request
	problems    problem.Writer
	code        int
	wroteHeader bool
	swallow     bool
}

func (w *statusWriter) WriteHeader(code int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	w.code = code
	// ServeMux's own answers are plain text; a problem, or a page that says what is wrong with its
	// form (webauth's /webhooks), goes out as it is.
	if ct := w.Header().Get("Content-Type"); (code == http.StatusNotFound || code == http.StatusMethodNotAllowed || code == http.StatusBadRequest) &&
		ct != problem.ContentType && !strings.HasPrefix(ct, "text/html") {
		w.swallow = true
		w.Header().Del("X-Content-Type-Options")
		t, detail := problem.NotFound, "No resource exists at this path."
		switch code {
		case http.StatusMethodNotAllowed:
			t, detail = problem.MethodNotAllowed, fmt.Sprintf("%s is not allowed here; allowed: %s.", w.req.Method, w.Header().Get("Allow"))
		case http.StatusBadRequest:
			// ServeMux's bare 400 for the target "*" with any method but OPTIONS.
			t, detail = problem.BadRequest, "The request target must be a path."
		}
		w.problems.Write(w.ResponseWriter, w.req, t, detail, nil)
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.swallow {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) status() int {
	if !w.wroteHeader {
		return http.StatusOK
	}
	return w.code
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// errBodyTooLarge reports whether err came from http.MaxBytesReader.
func errBodyTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}
