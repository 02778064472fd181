package main

import (
	"context"
	"fmt"
	mathrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
)

// archiveRun is what the archive phase measured.
type archiveRun struct {
	// samples are the control plane's memory each time a chunk of intents had gone through
	// create, expiry and archiving: the live set is back to what it was, the archive holds more.
	samples []archiveSample
	// created is the raw create loop of the flow: its rate is the create rate the archiver must
	// keep up with.
	created loadResult
	// flow is how long the whole flow took, from the first create until the last intent left
	// the API server.
	flow time.Duration
	// drain is the archiver alone over a backlog of finished intents: how many, and how long
	// until none was left.
	drainN   int
	drain    time.Duration
	rowBytes float64 // the archive's bytes (table, indexes, TOAST) per row
	rows     int
}

type archiveSample struct {
	// events are the Events in the namespace: one per expiry, kept by the API server for its
	// --event-ttl (1 h), whatever became of the intent.
	archived, live, events int
	api, etcd              memory
	db                     etcdSize
}

// archiveChunks is how many times the flow stops to sample memory.
const archiveChunks = 4

// measureArchive puts -archive-n intents through create → expired → archived with the manager
// under test (the last subject) running with an archive on a PostgreSQL of its own, sampling the
// API server's and etcd's memory after each chunk, then measures the archiver alone draining a
// backlog of finished intents. It runs before the fill, so that the live set is only the
// templates and the figures show what the archive's size does to the control plane: nothing.
func (b *bench) measureArchive(ctx context.Context) error {
	o := b.o
	if o.archiveN <= 0 {
		return nil
	}
	tb := &programTB{}
	defer tb.cleanup()
	logf("archive: starting PostgreSQL")
	pg := pgtest.Start(tb)
	s := b.rep.subjects[len(b.rep.subjects)-1]
	archiveArgs := []string{"--archive-url", pg.URL, "--archive-after", "1s", "--archive-rate", fmt.Sprint(o.archiveRate)}
	m, err := b.launch(s, "archive", archiveArgs...)
	if err != nil {
		return err
	}
	defer m.stop()
	if _, err := m.waitReady(ctx, o.readyTimeout); err != nil {
		return err
	}
	base, err := b.liveIntents(ctx)
	if err != nil {
		return err
	}
	run := &archiveRun{}
	b.rep.archive = run
	pl := &planner{namespace: o.namespace, templates: b.templates, callers: b.callers, rng: mathrand.New(mathrand.NewPCG(5, 6))}
	if err := b.sampleArchive(ctx, pg.URL, run); err != nil {
		return err
	}
	start := time.Now()
	chunk := o.archiveN / archiveChunks
	for i := range archiveChunks {
		logf("archive: chunk %d/%d: %d intents created, expired by the controller, moved by the archiver", i+1, archiveChunks, chunk)
		res := storeN(ctx, o.createConcurrency, chunk, func(ctx context.Context) error {
			now := time.Now()
			obj := pl.clone(v1alpha1.IntentTypeTransfer, b.callers[mathrand.IntN(len(b.callers))], now)
			obj.Spec.ExpiresAt = metav1.NewTime(now.Add(3 * time.Second).Truncate(time.Second))
			return b.cp.admin.Create(ctx, obj)
		})
		if res.failures > 0 {
			return fmt.Errorf("archive flow: %d creates failed: %w", res.failures, res.firstErr)
		}
		run.created = merge(run.created, res)
		if err := b.waitLive(ctx, base, o.readyTimeout); err != nil {
			return err
		}
		if err := b.sampleArchive(ctx, pg.URL, run); err != nil {
			return err
		}
	}
	run.flow = time.Since(start)
	m.stop()
	return b.measureDrain(ctx, s, archiveArgs, pg.URL, run, base, pl)
}

// measureDrain stores finished intents with the manager stopped, then starts it and times the
// archiver until none is left.
func (b *bench) measureDrain(ctx context.Context, s *subject, args []string, url string, run *archiveRun, base int, pl *planner) error {
	o := b.o
	run.drainN = o.archiveN / 5
	logf("archive: %d expired intents stored with the manager stopped, then drained by the archiver", run.drainN)
	// Expired a minute ago, with the Ready condition in the controller's words, so that the
	// controller has nothing to write and the archiver's deletes meet no conflict.
	finishedAt := metav1.NewTime(time.Now().Add(-time.Minute).Truncate(time.Second))
	expired := v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseExpired, UpdatedAt: &finishedAt}
	expired.ObservedGeneration = 1
	expired.Conditions = []metav1.Condition{{Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonTerminal,
		Message: fmt.Sprintf("the intent is expired; it is deleted at %s",
			finishedAt.Add(controller.DefaultIntentRetention).UTC().Format(time.RFC3339)),
		ObservedGeneration: 1, LastTransitionTime: finishedAt}}
	res := storeN(ctx, o.createConcurrency, run.drainN, func(ctx context.Context) error {
		obj := pl.clone(v1alpha1.IntentTypeTransfer, b.callers[mathrand.IntN(len(b.callers))], time.Now())
		obj.Labels[legacyStatusLabel] = string(v1alpha1.IntentPhaseExpired)
		return storeWithStatus(ctx, b.cp.admin, fillPlan{obj: obj, status: *expired.DeepCopy()})
	})
	if res.failures > 0 {
		return fmt.Errorf("storing finished intents: %d failed: %w", res.failures, res.firstErr)
	}
	// The clock starts with the manager: the archiver may move intents before /readyz says so,
	// so the drain rate includes the start (about a second), never leaves part of the work out.
	start := time.Now()
	m, err := b.launch(s, "archive-drain", args...)
	if err != nil {
		return err
	}
	defer m.stop()
	if err := b.waitLive(ctx, base, o.readyTimeout); err != nil {
		return err
	}
	run.drain = time.Since(start)
	return b.sampleArchive(ctx, url, run)
}

// storeN calls store n times from workers concurrent workers.
func storeN(ctx context.Context, workers, n int, store func(context.Context) error) loadResult {
	var (
		left     atomic.Int64
		mu       sync.Mutex
		res      loadResult
		firstErr error
		wg       sync.WaitGroup
	)
	left.Store(int64(n))
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for left.Add(-1) >= 0 && ctx.Err() == nil {
				err := store(ctx)
				mu.Lock()
				res.n++
				if err != nil {
					res.failures++
					if firstErr == nil {
						firstErr = err
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.elapsed, res.firstErr = time.Since(start), firstErr
	return res
}

// liveIntents counts the TransferIntents in the manager's namespace.
func (b *bench) liveIntents(ctx context.Context) (int, error) {
	return b.count(ctx, &v1alpha1.TransferIntentList{})
}

// count counts the objects of list's kind in the manager's namespace from a one-item page: the
// API server says how many remain.
func (b *bench) count(ctx context.Context, list client.ObjectList) (int, error) {
	if err := b.cp.admin.List(ctx, list, client.InNamespace(b.o.namespace), client.Limit(1)); err != nil {
		return 0, err
	}
	n := meta.LenList(list)
	if remaining := list.GetRemainingItemCount(); remaining != nil {
		n += int(*remaining)
	}
	return n, nil
}

// waitLive waits until the namespace holds want intents again: every one created since has gone
// to the archive.
func (b *bench) waitLive(ctx context.Context, want int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		n, err := b.liveIntents(ctx)
		if err == nil && n <= want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d intents still live after %s, want %d (last error: %w)", n, timeout, want, err)
		}
		sleep(ctx, 200*time.Millisecond)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// sampleArchive records the archive's rows and size and the control plane's memory.
func (b *bench) sampleArchive(ctx context.Context, url string, run *archiveRun) error {
	sleep(ctx, b.o.settle)
	live, err := b.liveIntents(ctx)
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	var rows int
	var bytes int64
	// The table may not exist yet: the manager migrates in the background.
	err = conn.QueryRow(ctx, `select count(*), pg_total_relation_size('intents') from intents`).Scan(&rows, &bytes)
	if err != nil && len(run.samples) > 0 {
		return fmt.Errorf("reading the archive's size: %w", err)
	}
	if rows > 0 {
		run.rows, run.rowBytes = rows, float64(bytes)/float64(rows)
	}
	events, err := b.count(ctx, &eventsv1.EventList{})
	if err != nil {
		return err
	}
	smp := archiveSample{archived: rows, live: live, events: events}
	if smp.api, smp.etcd, smp.db, err = controlPlaneMemory(ctx, b.cp); err != nil {
		return err
	}
	run.samples = append(run.samples, smp)
	logf("archive: %d archived, %d live, %d events: kube-apiserver %s, etcd %s", rows, live, smp.events,
		mebi(float64(smp.api.rss)), mebi(float64(smp.etcd.rss)))
	return nil
}

// programTB lets this program start PostgreSQL with internal/pgtest, which is written for tests:
// Fatal ends the run, Cleanup runs when the phase ends. The embedded testing.TB is nil: pgtest and
// freeport call only the methods below.
type programTB struct {
	testing.TB
	cleanups []func()
}

func (p *programTB) Helper()                           {}
func (p *programTB) Fatal(args ...any)                 { p.cleanup(); fatalf("%s", fmt.Sprint(args...)) }
func (p *programTB) Fatalf(format string, args ...any) { p.cleanup(); fatalf(format, args...) }
func (p *programTB) Errorf(format string, args ...any) { logf(format, args...) }
func (p *programTB) Cleanup(f func())                  { p.cleanups = append(p.cleanups, f) }

func (p *programTB) cleanup() {
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
	p.cleanups = nil
}
