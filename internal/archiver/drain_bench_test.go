package archiver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/jackc/pgx/v5"
	"golang.org/x/time/rate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
)

// BenchmarkDrain (make bench-drain) measures, in one run on one API server and one PostgreSQL,
// the rate at which intents are created and the rate at which the archiver moves them out once
// finished, and prints their ratio (issue 46 wants drain/create >= 2).
//
// The create rate is the raw POST of a TransferIntent by 32 concurrent client-go writers: what a
// /v2 create costs the API server (one write), without /v2's own work, so it is the fastest /v2
// could create and the ratio is the harder one. The intents are then marked expired (untimed, the
// controller's write) and the archiver drains them by passes, as Start runs them, without a rate
// bound, until none is due. ARCHIVER_DRAIN_N sets how many (default 3000).
func BenchmarkDrain(b *testing.B) {
	n := drainN(b)
	ctrllog.SetLogger(logr.Discard())
	w := newWorld(b)
	w.archiver.Options = Options{After: time.Minute, Rate: 1e9, Interval: 50 * time.Millisecond}
	t := &timings{}
	w.archiver.APIReader = timedReader{w.archiver.APIReader, t}
	w.archiver.Archive = timedArchive{w.archiver.Archive, t}
	for b.Loop() {
		c0 := cpuUse()
		intents, created := w.createConcurrently(n, 32)
		c1 := cpuUse()
		w.expireConcurrently(intents, 32)
		w.waitIndexed(n)
		d0 := cpuUse()
		drained := w.drain(n)
		d1 := cpuUse()
		createRate, drainRate := float64(n)/created.Seconds(), float64(n)/drained.Seconds()
		fmt.Printf("create: %d intents in %s, %.0f/s (raw POST, 32 writers)\n", n, created.Round(time.Millisecond), createRate)
		fmt.Printf("drain:  %d intents in %s, %.0f/s (lists %s, archive writes %s)\n", n, drained.Round(time.Millisecond),
			drainRate, t.list.Round(time.Millisecond), t.upsert.Round(time.Millisecond))
		printCPU("create", c0, c1, n)
		printCPU("drain", d0, d1, n)
		fmt.Printf("drain/create: %.2fx (target >= 2x)\n", drainRate/createRate)
		// The ceiling of any archiver that deletes intent by intent with preconditions: the same
		// number of deletes alone, from 32 writers, nothing listed or archived.
		intents, _ = w.createConcurrently(n, 32)
		w.expireConcurrently(intents, 32)
		e0 := cpuUse()
		deleted := w.deleteConcurrently(intents, 32)
		printCPU("bare delete", e0, cpuUse(), n)
		fmt.Printf("bare deletes (the ceiling): %.0f/s, %.2fx the create rate\n", float64(n)/deleted.Seconds(), float64(n)/deleted.Seconds()/createRate)
		b.ReportMetric(createRate, "creates/s")
		b.ReportMetric(drainRate, "drains/s")
		b.ReportMetric(drainRate/createRate, "drain/create")
	}
}

func drainN(b *testing.B) int {
	n, err := strconv.Atoi(os.Getenv("ARCHIVER_DRAIN_N"))
	if err != nil || n <= 0 {
		return 3000
	}
	return n
}

// createConcurrently creates n pending intents from workers writers and times it.
func (w *world) createConcurrently(n, workers int) ([]*v1alpha1.TransferIntent, time.Duration) {
	intents := make([]*v1alpha1.TransferIntent, n)
	for i := range intents {
		intents[i] = w.newIntent()
	}
	start := time.Now()
	w.concurrently(intents, workers, func(ti *v1alpha1.TransferIntent) error { return w.kube.Create(context.Background(), ti) })
	return intents, time.Since(start)
}

// expireConcurrently writes each intent's status as the controller writes an expiry.
func (w *world) expireConcurrently(intents []*v1alpha1.TransferIntent, workers int) {
	at := metav1.NewTime(time.Now().Truncate(time.Second))
	w.concurrently(intents, workers, func(ti *v1alpha1.TransferIntent) error {
		ti.Status.Phase, ti.Status.UpdatedAt = v1alpha1.IntentPhaseExpired, &at
		return w.kube.Status().Update(context.Background(), ti)
	})
}

// deleteConcurrently deletes the intents as the archiver does, with preconditions, and times it.
func (w *world) deleteConcurrently(intents []*v1alpha1.TransferIntent, workers int) time.Duration {
	start := time.Now()
	w.concurrently(intents, workers, func(ti *v1alpha1.TransferIntent) error {
		return w.kube.Delete(context.Background(), ti, client.Preconditions{UID: &ti.UID, ResourceVersion: &ti.ResourceVersion})
	})
	return time.Since(start)
}

func (w *world) concurrently(intents []*v1alpha1.TransferIntent, workers int, f func(*v1alpha1.TransferIntent) error) {
	var (
		next  atomic.Int64
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(intents); i = int(next.Add(1) - 1) {
				if err := f(intents[i]); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		w.t.Fatal(first)
	}
}

// drain runs the archiver's passes until none finds a due intent, checks that all n left the API
// server for the archive, and returns how long it took.
func (w *world) drain(n int) time.Duration {
	limiter := rate.NewLimiter(rate.Inf, 1)
	start := time.Now()
	for {
		_, found, err := w.archiver.pass(context.Background(), limiter)
		if err != nil {
			w.t.Fatal(err)
		}
		if found == 0 {
			break
		}
	}
	took := time.Since(start)
	var list v1alpha1.TransferIntentList
	if err := w.kube.List(context.Background(), &list, client.InNamespace(w.ns)); err != nil {
		w.t.Fatal(err)
	}
	if len(list.Items) != 0 {
		w.t.Fatalf("%d intents still live after the drain", len(list.Items))
	}
	var rows int
	conn, err := pgx.Connect(context.Background(), w.pg.URL)
	if err != nil {
		w.t.Fatal(err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if err := conn.QueryRow(context.Background(), `select count(*) from intents`).Scan(&rows); err != nil {
		w.t.Fatal(err)
	}
	if rows != n {
		w.t.Fatalf("the archive holds %d rows, want %d", rows, n)
	}
	return took
}

// timings add up the archiver's sequential calls during a drain.
type timings struct {
	mu           sync.Mutex
	list, upsert time.Duration
}

func (t *timings) add(d *time.Duration, start time.Time) {
	t.mu.Lock()
	*d += time.Since(start)
	t.mu.Unlock()
}

type timedReader struct {
	client.Reader
	t *timings
}

func (r timedReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	defer r.t.add(&r.t.list, time.Now())
	return r.Reader.List(ctx, list, opts...)
}

type timedArchive struct {
	Archive
	t *timings
}

func (a timedArchive) Upsert(ctx context.Context, records []archive.Record) error {
	defer a.t.add(&a.t.upsert, time.Now())
	return a.Archive.Upsert(ctx, records)
}

// cpuUse is the CPU time so far of this process and of each kind of its descendants (the API
// server, etcd, PostgreSQL), by command name; it tells which process a phase's work went to.
func cpuUse() map[string]time.Duration {
	use := map[string]time.Duration{}
	var self syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err == nil {
		use["test (client, archiver)"] = time.Duration(self.Utime.Nano() + self.Stime.Nano())
	}
	parents := map[int]int{}
	stats := map[int][]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// comm is in parentheses and may hold spaces: the fields after it are split.
		s := string(raw)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		fields := append([]string{s[open+1 : closing]}, strings.Fields(s[closing+1:])...)
		ppid, _ := strconv.Atoi(fields[2])
		parents[pid], stats[pid] = ppid, fields
	}
	me := os.Getpid()
	for pid, f := range stats {
		if !descends(pid, me, parents) {
			continue
		}
		utime, _ := strconv.ParseInt(f[12], 10, 64)
		stime, _ := strconv.ParseInt(f[13], 10, 64)
		name := f[0]
		if strings.HasPrefix(name, "postgres") {
			name = "postgres"
		}
		use[name] += time.Duration(utime+stime) * 10 * time.Millisecond // USER_HZ is 100 on Linux
	}
	return use
}

func descends(pid, ancestor int, parents map[int]int) bool {
	for range 32 {
		p, ok := parents[pid]
		if !ok || p <= 1 {
			return false
		}
		if p == ancestor {
			return true
		}
		pid = p
	}
	return false
}

// printCPU prints the CPU each process spent between before and after, per intent.
func printCPU(what string, before, after map[string]time.Duration, n int) {
	names := make([]string, 0, len(after))
	for name := range after {
		names = append(names, name)
	}
	slices.Sort(names)
	parts := make([]string, 0, len(names))
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%s %.2f ms", name, float64(after[name]-before[name])/float64(time.Millisecond)/float64(n)))
	}
	fmt.Printf("  CPU per intent, %s: %s\n", what, strings.Join(parts, ", "))
}
