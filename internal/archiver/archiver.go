// Package archiver moves finished TransferIntents out of the API server into the archive
// (internal/archive), on the elected leader: a confirmed, failed or expired intent is written to
// PostgreSQL and then deleted, once it has been finished for Options.After. The move is
// idempotent (an upsert by id, then the delete, with preconditions): a crash between the two
// writes the row again next time and loses nothing, and while PostgreSQL is down nothing is
// deleted, so the intents simply stay resources. Its rate is bounded (Options.Rate), so archiving
// never takes the API server's capacity from creates.
package archiver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/defaults"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=transferintents,verbs=get;list;watch;delete

// Defaults of Options.
const (
	DefaultAfter     = 10 * time.Minute
	DefaultBatch     = 200
	DefaultRate      = 500 // intents per second; see docs/decisions.md (issue 24) for the choice
	DefaultInterval  = 10 * time.Second
	DefaultRetention = 30 * 24 * time.Hour
)

// Options are the archiver's settings; zero values take the defaults.
type Options struct {
	// After is how long an intent stays a resource once finished.
	After time.Duration
	// Batch is how many intents one archive transaction holds.
	Batch int
	// Rate bounds the intents moved per second (each costs the API server one delete).
	Rate float64
	// Interval is the pause between passes once nothing is due.
	Interval time.Duration
	// Retention is how long an archived intent is kept after its last change.
	Retention time.Duration
}

// Archive is what the archiver writes to (*archive.Store).
type Archive interface {
	Upsert(ctx context.Context, records []archive.Record) error
	DeleteUpdatedBefore(ctx context.Context, t time.Time, batch int) (int, error)
}

// Archiver is a leader-only Runnable.
type Archiver struct {
	// Cache lists the finished intents (by status label) for the backlog.
	Cache client.Reader
	// APIReader lists them from the API server whole: the cache drops fields the archive keeps (the
	// idempotency key's hash, the request hash).
	APIReader client.Reader
	// Writer deletes the archived intents.
	Writer    client.Writer
	Archive   Archive
	Namespace string
	Options
	Clock   clock.PassiveClock
	Log     logr.Logger
	Metrics *Metrics
	// BeforeArchive, when set, runs on each batch before it is archived; an error keeps the batch
	// in the API server for the next pass. The webhook emitter records the intents' last events
	// there, so that an intent never leaves the API server with an event unrecorded.
	BeforeArchive func(ctx context.Context, intents []*v1alpha1.TransferIntent) error
}

// NeedLeaderElection is true: one replica moves intents.
func (a *Archiver) NeedLeaderElection() bool { return true }

// Start runs passes until ctx ends. A failed pass (PostgreSQL or the API server down) is logged
// and tried again after Interval; nothing was deleted that was not archived.
func (a *Archiver) Start(ctx context.Context) error {
	a.defaults()
	limiter := rate.NewLimiter(rate.Limit(a.Rate), a.Batch)
	notOpen := notOpenWait
	for {
		_, found, err := a.pass(ctx, limiter)
		wait := a.Interval
		switch {
		case errors.Is(err, postgres.ErrNotOpen) && notOpen < a.Interval:
			// The connection opens in the background at start: look again soon, backing off to
			// the interval, past which a PostgreSQL that never answered counts as a failure.
			wait, notOpen = notOpen, 2*notOpen
		case err != nil && ctx.Err() == nil:
			a.Metrics.failed()
			a.Log.Error(err, "archiving finished intents; trying again", "in", a.Interval)
		case err == nil && found > 0:
			wait = 0 // a backlog: go on at the limiter's pace
		}
		if err == nil {
			notOpen = notOpenWait
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

func (a *Archiver) defaults() {
	defaults.Positive(&a.After, DefaultAfter)
	defaults.Positive(&a.Batch, DefaultBatch)
	defaults.Positive(&a.Rate, DefaultRate)
	defaults.Positive(&a.Interval, DefaultInterval)
	defaults.Positive(&a.Retention, DefaultRetention)
	if a.Clock == nil {
		a.Clock = clock.RealClock{}
	}
}

// notOpenWait is the first pause of the archiver while the archive's connection is not open yet;
// it doubles up to Options.Interval.
const notOpenWait = 500 * time.Millisecond

// Pass measures the backlog, moves up to passBatches batches of the due intents of each phase, and applies
// the archive's retention. It returns how many intents it moved.
func (a *Archiver) Pass(ctx context.Context, limiter *rate.Limiter) (int, error) {
	moved, _, err := a.pass(ctx, limiter)
	return moved, err
}

// pass is Pass, also returning how many due intents it found: those it moved, and those that
// changed since they were read (a conflict), which the next pass moves at once.
func (a *Archiver) pass(ctx context.Context, limiter *rate.Limiter) (moved, found int, err error) {
	a.defaults()
	now := a.Clock.Now()
	if err := a.measureBacklog(ctx, now); err != nil {
		return 0, 0, err
	}
	for _, phase := range intent.FinishedStatuses() {
		m, f, err := a.moveDue(ctx, v1alpha1.IntentPhase(phase), now, limiter)
		moved, found = moved+m, found+f
		if err != nil {
			return moved, found, err
		}
	}
	return moved, found, a.applyRetention(ctx, now)
}

// due reports whether the intent has been finished for After.
func (a *Archiver) due(ti *v1alpha1.TransferIntent, now time.Time) bool {
	if ti.DeletionTimestamp != nil {
		return false
	}
	if !intent.Finished(intentstatus.Phase(ti)) {
		return false // an index or a field selector that lags the phase
	}
	return !now.Before(intentstatus.PhaseEnteredAt(ti).Add(a.After))
}

// measureBacklog counts the due intents still resources, from the cache.
func (a *Archiver) measureBacklog(ctx context.Context, now time.Time) error {
	backlog := 0
	for _, phase := range intent.FinishedStatuses() {
		var list v1alpha1.TransferIntentList
		if err := a.Cache.List(ctx, &list, client.InNamespace(a.Namespace), client.UnsafeDisableDeepCopy,
			client.MatchingFields{v1alpha1.PhaseField: string(phase)}); err != nil {
			return fmt.Errorf("listing %s intents: %w", phase, err)
		}
		for i := range list.Items {
			if a.due(&list.Items[i], now) {
				backlog++
			}
		}
	}
	a.Metrics.backlog(backlog)
	return nil
}

// passBatches is how many batches of one phase a pass moves at most, so that a long backlog still
// measures the backlog and applies the retention every few seconds.
const passBatches = 10

// callTimeout bounds each API server call of the archiver (a page of the list, a delete) and
// BeforeArchive: a stalled server fails the pass, which is tried again, instead of holding it.
const callTimeout = 30 * time.Second

// moveDue moves up to passBatches batches of the phase's due intents and returns how many it moved
// and how many were due. The two halves of a move run as a pipeline: one goroutine lists a page,
// archives it (one PostgreSQL transaction) and only then hands it over, while the deletes of the
// batches before it are in flight. The API server, which bounds the drain, is not left idle while
// a page is listed or PostgreSQL commits (issue 46: the deletes are the API server's work, and
// each must carry its own preconditions, so they cannot be one request).
func (a *Archiver) moveDue(ctx context.Context, phase v1alpha1.IntentPhase, now time.Time, limiter *rate.Limiter) (moved, found int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	archived := make(chan []*v1alpha1.TransferIntent, 1) // one batch ahead of the deletes
	var archiveErr error
	go func() {
		defer close(archived)
		found, archiveErr = a.archiveDue(ctx, phase, now, limiter, archived)
	}()
	d := newDeleter(a.Writer, a.Metrics)
	for due := range archived {
		d.deleteAll(ctx, due)
	}
	moved, err = d.wait()
	return moved, found, errors.Join(archiveErr, err)
}

// archiveDue lists the phase's due intents page by page and archives each page's; a batch goes to
// out only once its rows are committed, so nothing is deleted that is not archived. It stops at
// the first error (that batch is not sent: it stays in the API server for the next pass).
func (a *Archiver) archiveDue(ctx context.Context, phase v1alpha1.IntentPhase, now time.Time, limiter *rate.Limiter,
	out chan<- []*v1alpha1.TransferIntent) (found int, err error) {
	cont := ""
	for range passBatches {
		due, next, err := a.listPage(ctx, phase, now, cont)
		if err != nil {
			return found, err
		}
		found += len(due)
		if len(due) > 0 {
			if err := a.archiveBatch(ctx, due, limiter); err != nil {
				return found, err
			}
			select {
			case out <- due:
			case <-ctx.Done():
				return found, ctx.Err()
			}
		}
		if cont = next; cont == "" {
			return found, nil
		}
	}
	return found, nil
}

// archiveBatch waits for the limiter, lets BeforeArchive see the batch, then upserts it in one
// transaction (a pgx batch: one round trip, idempotent by id).
func (a *Archiver) archiveBatch(ctx context.Context, due []*v1alpha1.TransferIntent, limiter *rate.Limiter) error {
	records := make([]archive.Record, len(due))
	for i, ti := range due {
		var err error
		if records[i], err = intentstore.RecordOf(ti); err != nil {
			return err
		}
	}
	if err := limiter.WaitN(ctx, len(due)); err != nil {
		return err
	}
	if a.BeforeArchive != nil {
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		defer cancel()
		if err := a.BeforeArchive(callCtx, due); err != nil {
			return fmt.Errorf("before archiving %d intents: %w", len(due), err)
		}
	}
	// The archive first: an intent is deleted only once its row is written. Upsert is bounded by
	// the database's own call timeout.
	if err := a.Archive.Upsert(ctx, records); err != nil {
		return fmt.Errorf("writing %d intents to the archive: %w", len(records), err)
	}
	return nil
}

// deleteWorkers is how many deletes are in flight at once, across the batches of a phase: one at
// a time, a delete's round trip (a few milliseconds) bounded the archiver below the API server's
// create rate; 32 is as many as the create writers of make bench-drain, whose bare deletes from
// 32 writers are the ceiling the archiver is measured against. The rate limiter, not this, bounds
// the archiver's share of the API server.
const deleteWorkers = 32

// deleter deletes archived intents from deleteWorkers goroutines, collecting what happened.
type deleter struct {
	writer  client.Writer
	metrics *Metrics
	group   errgroup.Group
	mu      sync.Mutex
	moved   int
	failed  []error
}

func newDeleter(w client.Writer, m *Metrics) *deleter {
	d := &deleter{writer: w, metrics: m}
	d.group.SetLimit(deleteWorkers)
	return d
}

// deleteAll starts the deletes of an archived batch; it returns once the last has started.
func (d *deleter) deleteAll(ctx context.Context, due []*v1alpha1.TransferIntent) {
	for _, ti := range due {
		d.group.Go(func() error {
			d.record(ti, d.delete(ctx, ti))
			return nil // the errors are collected by record: one must not stop the others
		})
	}
}

// delete deletes one intent if it is still the one archived: the preconditions keep an intent
// that changed since it was read (or was replaced under its name); its next pass writes the newer
// state (the upsert keeps the latest) before deleting it.
func (d *deleter) delete(ctx context.Context, ti *v1alpha1.TransferIntent) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return d.writer.Delete(ctx, ti, client.Preconditions{UID: &ti.UID, ResourceVersion: &ti.ResourceVersion})
}

func (d *deleter) record(ti *v1alpha1.TransferIntent, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case err == nil:
		d.moved++
		d.metrics.archived(1) // as it happens: a pass can move thousands
	case apierrors.IsNotFound(err) || apierrors.IsConflict(err):
	default:
		// One intent that cannot be deleted (a finalizer of someone else's, a webhook) must not
		// hold up the others: it stays archived and live, and is tried again next pass.
		d.failed = append(d.failed, fmt.Errorf("deleting archived intent %s: %w", ti.Name, err))
	}
}

// wait waits for every delete started and returns how many deleted.
func (d *deleter) wait() (int, error) {
	_ = d.group.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.moved, errors.Join(d.failed...)
}

// listPage reads one page (Batch intents) of the phase whole from the API server, from cont, and
// returns its due intents and the next page's token ("" when this was the last, or nothing further
// can be due). Names, and so the pages, run from the oldest intent to the newest. A token that
// expired (the API server compacted past it) ends the pass's list: the next pass starts over.
func (a *Archiver) listPage(ctx context.Context, phase v1alpha1.IntentPhase, now time.Time, cont string) ([]*v1alpha1.TransferIntent, string, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	var list v1alpha1.TransferIntentList
	err := a.APIReader.List(ctx, &list, client.InNamespace(a.Namespace), client.Limit(int64(a.Batch)), client.Continue(cont),
		client.MatchingFields{v1alpha1.PhaseField: string(phase)})
	switch {
	case cont != "" && apierrors.IsResourceExpired(err):
		return nil, "", nil
	case err != nil:
		return nil, "", fmt.Errorf("listing %s intents from the API server: %w", phase, err)
	}
	var due []*v1alpha1.TransferIntent
	for i := range list.Items {
		ti := &list.Items[i]
		if created := intent.IDTime(ti.Spec.ID); !created.IsZero() && now.Before(created.Add(a.After)) {
			// An intent finishes after it is created: nothing from here on can be due.
			return due, "", nil
		}
		if a.due(ti, now) {
			due = append(due, ti)
		}
	}
	return due, list.Continue, nil
}

// applyRetention deletes from the archive what has been unchanged for Retention, in batches.
func (a *Archiver) applyRetention(ctx context.Context, now time.Time) error {
	for {
		n, err := a.Archive.DeleteUpdatedBefore(ctx, now.Add(-a.Retention), a.Batch*5)
		if err != nil {
			return fmt.Errorf("the archive's retention: %w", err)
		}
		a.Metrics.expired(n)
		if n < a.Batch*5 {
			return nil
		}
	}
}
