// Package apiserver is the service's HTTP interface: /health, /openapi.json and the /v2 API (sign-in
// and /auth are internal/webauth, mounted beside it). Reads answer from the in-memory read models
// and the informer cache. The Kubernetes API is called on the request path only to write (creating
// an intent and its idempotency claim) and, for an intent created a moment ago on another replica,
// to read it before the watch brings it (docs/architecture.md).
//
// A request goes one way: observe (correlation id, recovery, metrics, log) -> readiness -> auth gate
// -> rate limit -> route -> handler. Handlers are small functions over the interfaces in deps.go,
// so they are tested with httptest and no cluster.
package apiserver

import (
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// Options are the server's settings, from flags.
type Options struct {
	// BindAddress is where the API listens (--api-bind-address).
	BindAddress string
	// Site is the external URL, problem base URL and body limit, shared with sign-in; the service
	// (internal/service) sets it from its one Site value.
	problem.Site
	// ShutdownTimeout bounds the graceful shutdown.
	ShutdownTimeout time.Duration
	// AccessLog logs every request at info level; without it only failures (status >= 500) are
	// logged at info and the rest at V(1).
	AccessLog bool
	// Streams bound the event streams of GET /v2/transfers/{id}/events.
	Streams StreamOptions
}

// DefaultOptions are the defaults of the flags.
func DefaultOptions() Options {
	return Options{
		BindAddress:     ":8080",
		Site:            problem.DefaultSite(),
		ShutdownTimeout: 20 * time.Second,
		AccessLog:       true,
		Streams: StreamOptions{
			MaxPerKey: DefaultStreamsPerKey, MaxPerAccount: DefaultStreamsPerAccount, MaxPerServer: DefaultStreamsPerServer,
			AccountShare: DefaultStreamAccountShare,
			Heartbeat:    DefaultStreamHeartbeat, Buffer: DefaultStreamBuffer,
		},
	}
}

// Server is the HTTP API. Create it with New, add Runnable() to the manager, and call MarkReady
// once the caches have synced; until then /v2 answers 503.
type Server struct {
	opts     Options
	deps     Deps
	problems problem.Writer
	log      logr.Logger
	access   logr.Logger
	// accessZap is the access log's zap logger when access is backed by zap (zapr, as in cmd):
	// writing a line through it directly skips logr's key/value conversion on every request.
	accessZap *zap.Logger
	metrics   *Metrics
	ready     atomic.Bool
	tokens    *tokenSnapshot
	handler   http.Handler
	// policies caches RateLimit-Policy header values by limit.
	policies sync.Map
	// streams counts the open event streams; closing is closed when the server shuts down, to
	// end them.
	streams   *streamLimits
	closing   chan struct{}
	closeOnce sync.Once
}

// New builds the server and its routes.
func New(opts Options, deps Deps, log logr.Logger) *Server {
	if deps.Clock == nil {
		deps.Clock = clock.RealClock{}
	}
	if deps.Limiter == nil {
		deps.Limiter = ratelimit.NewSlidingWindow()
	}
	if deps.Metrics == nil {
		deps.Metrics = NewMetrics(nil)
	}
	opts.Streams = opts.Streams.withDefaults()
	s := &Server{
		opts:     opts,
		deps:     deps,
		problems: problem.NewWriter(opts.BaseURL, opts.ProblemBaseURL),
		log:      log,
		access:   log,
		metrics:  deps.Metrics,
		streams:  newStreamLimits(opts.Streams),
		closing:  make(chan struct{}),
	}
	if deps.AccessLog.GetSink() != nil {
		s.access = deps.AccessLog
	}
	// Only at V(0): the zap logger under a logr.Logger does not carry the logger's own V level.
	if u, ok := s.access.GetSink().(zapr.Underlier); ok && s.access.GetV() == 0 {
		s.accessZap = u.GetUnderlying()
	}
	s.tokens = newTokenSnapshot(deps.Tokens)
	s.handler = s.routes()
	return s
}

// Handler is the whole HTTP interface, for tests with httptest.
func (s *Server) Handler() http.Handler { return s.handler }

// MarkReady lets /v2 traffic through; call it once the caches have synced and the read models
// have been filled.
func (s *Server) MarkReady() { s.ready.Store(true) }

// Runnable wraps the server for the manager. It runs on every replica, leader or not.
func (s *Server) Runnable(listener net.Listener) *manager.Server {
	timeout := s.opts.ShutdownTimeout
	srv := &http.Server{
		Addr:              s.opts.BindAddress,
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    32 << 10,
	}
	srv.RegisterOnShutdown(s.closeStreams)
	return &manager.Server{Name: "api", Listener: listener, Server: srv, ShutdownTimeout: &timeout}
}

// ReadyzCheck is a healthz.Checker for the manager's /readyz: not ready until MarkReady.
func (s *Server) ReadyzCheck(_ *http.Request) error {
	if !s.ready.Load() {
		return errNotReady
	}
	return nil
}

var errNotReady = errors.New("caches not synced")
