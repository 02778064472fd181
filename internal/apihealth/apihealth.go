// Package apihealth follows whether the Kubernetes API server answers, for /health and /readyz:
// a replica that cannot write should not be sent writes, while it keeps serving reads from its
// cache.
package apihealth

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/utils/clock"
)

// Defaults of a Checker.
const (
	DefaultInterval = 2 * time.Second
	DefaultTimeout  = 2 * time.Second
	// DefaultGrace is how long the API server may fail to answer before the replica reports
	// itself not ready: a blip must not take every replica out of its Service at once.
	DefaultGrace = 10 * time.Second
)

// Checker probes the API server every Interval, each probe within Timeout, and remembers the last
// answer. It runs on every replica (NeedLeaderElection is false).
type Checker struct {
	// Probe asks the API server something cheap (its /version); required.
	Probe func(ctx context.Context) error
	// Subject names what is probed in the log and in Check's error; "the Kubernetes API server"
	// when empty. A Checker follows Redis the same way.
	Subject string
	// Consequence is logged when the subject stops answering; "creates answer 503 until it does"
	// when empty (the Kubernetes API server's).
	Consequence string
	Interval    time.Duration
	Timeout     time.Duration
	Grace       time.Duration
	Clock       clock.PassiveClock
	// Log gets a line when the API server stops answering (with the error) and when it answers
	// again; the error never reaches /health, which anyone may read.
	Log logr.Logger

	mu       sync.Mutex
	lastOK   time.Time
	failing  bool
	lastErr  error
	started  time.Time
	probedOK bool
}

// NeedLeaderElection is false: every replica reports its own reachability.
func (c *Checker) NeedLeaderElection() bool { return false }

// Start probes until ctx ends.
func (c *Checker) Start(ctx context.Context) error {
	c.defaults()
	c.mu.Lock()
	c.started = c.Clock.Now()
	c.mu.Unlock()
	t := time.NewTicker(c.Interval)
	defer t.Stop()
	for {
		c.ProbeOnce(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

func (c *Checker) defaults() {
	if c.Interval <= 0 {
		c.Interval = DefaultInterval
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Grace <= 0 {
		c.Grace = DefaultGrace
	}
	if c.Clock == nil {
		c.Clock = clock.RealClock{}
	}
	if c.Subject == "" {
		c.Subject = "the Kubernetes API server"
	}
	if c.Consequence == "" {
		c.Consequence = "creates answer 503 until it does"
	}
}

// ProbeOnce asks the API server once and records the answer.
func (c *Checker) ProbeOnce(ctx context.Context) {
	c.defaults()
	pctx, cancel := context.WithTimeout(ctx, c.Timeout)
	err := c.Probe(pctx)
	cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		if c.failing {
			c.Log.Info(c.Subject + " answers again")
		}
		c.lastOK, c.failing, c.lastErr, c.probedOK = c.Clock.Now(), false, nil, true
		return
	}
	if !c.failing {
		c.Log.Info(c.Subject+" does not answer: "+c.Consequence, "error", err.Error())
	}
	c.failing, c.lastErr = true, err
}

// State is "ok", or why the API server is not answering.
func (c *Checker) State() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.failing {
		return "ok"
	}
	// A fixed phrase: the error can name the API server's address or the service account.
	return "unreachable"
}

// Check is the /readyz check: an error once the API server has not answered for Grace.
func (c *Checker) Check(*http.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.failing {
		return nil
	}
	since := c.lastOK
	if !c.probedOK {
		since = c.started
	}
	if c.Clock == nil || c.Clock.Since(since) < c.Grace {
		return nil
	}
	return errors.New(c.Subject + " has not answered for " + c.Clock.Since(since).Round(time.Second).String())
}
