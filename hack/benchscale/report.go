package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report is every figure of a run.
type report struct {
	o                   options
	subjects            []*subject
	loadStart, loadEnd  string
	fill                fillResult
	callerIntents       int
	informerStream      []time.Duration
	informerList        []time.Duration
	emptyAPI, fullAPI   memory
	emptyEtcd, fullEtcd memory
	emptyDB, fullDB     etcdSize
	archive             *archiveRun
}

// print writes the report: a header naming the run and the subjects, then the table of figures.
func (r *report) print(w *os.File) {
	r.printHeader(w)
	f := &figures{r: r, n: float64(r.o.n)}
	f.head()
	f.fill()
	f.startup()
	f.firstPass()
	f.memory()
	f.reads()
	f.creates()
	f.createCPU()
	f.write(w)
	r.printArchive(w)
}

// printHeader writes the line naming the run and the machine, and one line per subject.
func (r *report) printHeader(w *os.File) {
	fmt.Fprintf(w, "\nbench-scale: %d intents over %d accounts (the caller has %d), Go %s, %d CPUs, load average %s at the start and %s at the end\n",
		r.o.n, r.o.accounts, r.callerIntents, runtime.Version(), runtime.NumCPU(), r.loadStart, r.loadEnd)
	for _, s := range r.subjects {
		fmt.Fprintf(w, "  %s: %s %s %s\n", s.label, strings.Join(s.env, " "), s.bin, strings.Join(r.o.managerArgs, " "))
	}
	fmt.Fprintln(w)
}

// figures is the table of a report's figures, built a section at a time.
type figures struct {
	table
	r *report
	n float64 // intents stored, the divisor of the per-intent figures
}

// head adds the column headings: one column per subject, and their ratio when there are two.
func (f *figures) head() {
	head := []string{"FIGURE"}
	for _, s := range f.r.subjects {
		head = append(head, strings.ToUpper(s.label))
	}
	if len(f.r.subjects) == 2 {
		head = append(head, "AFTER/BEFORE")
	}
	f.row(append(head, "BASELINE AND TARGET")...)
}

// single adds a row of one figure for the whole run (the control plane's).
func (f *figures) single(name, value, note string) {
	cols := []string{name, value}
	for range len(f.r.subjects) - 1 {
		cols = append(cols, "")
	}
	if len(f.r.subjects) == 2 {
		cols = append(cols, "")
	}
	f.row(append(cols, note)...)
}

// each adds a row of one figure per subject, their ratio, and a note.
func (f *figures) each(name string, value func(*subject) float64, format func(float64) string, note string) {
	cols := []string{name}
	var vals []float64
	for _, s := range f.r.subjects {
		v := value(s)
		vals = append(vals, v)
		cols = append(cols, format(v))
	}
	if len(vals) == 2 {
		cols = append(cols, ratio(vals[1], vals[0]))
	}
	f.row(append(cols, note)...)
}

// The formats of the figures.
func seconds(v float64) string {
	return time.Duration(v * float64(time.Second)).Round(10 * time.Millisecond).String()
}
func byteSize(v float64) string { return fmt.Sprintf("%.0f B", v) }
func mebi(v float64) string     { return fmt.Sprintf("%.1f MiB", v/(1<<20)) }
func micro(v float64) string    { return round(time.Duration(v * float64(time.Second))).String() }
func perSec(v float64) string   { return fmt.Sprintf("%.0f/s", v) }

// fill adds the rate of the fill.
func (f *figures) fill() {
	r := f.r
	f.single("fill: raw client, create + status write", fmt.Sprintf("%.0f intents/s", float64(r.fill.n)/r.fill.elapsed.Seconds()),
		fmt.Sprintf("%d writers, %s for %d", r.o.fillWorkers, r.fill.elapsed.Round(time.Second), r.fill.n))
}

// startup adds the times to ready, the bare informer's sync next to them, and each start's time.
func (f *figures) startup() {
	r := f.r
	f.each("time to ready, empty store", func(s *subject) float64 { return s.emptyReady.Seconds() }, seconds, "")
	f.each("time to ready (/readyz 200), median", func(s *subject) float64 { return median(s.fullReady).Seconds() }, seconds,
		fmt.Sprintf("target < 30s; %d starts each", r.o.restarts+1))
	f.single("  bare informer sync, streamed, median", median(r.informerStream).Round(10*time.Millisecond).String(),
		"a controller-runtime cache of TransferIntents alone, WatchListClient on (client-go's default): "+durations(r.informerStream))
	f.single("  bare informer sync, one list, median", median(r.informerList).Round(10*time.Millisecond).String(),
		"the same, WatchListClient off: "+durations(r.informerList))
	for i, s := range r.subjects {
		cols := []string{"  " + s.label + ": each start"}
		for j := range r.subjects {
			if j == i {
				cols = append(cols, durations(s.fullReady))
			} else {
				cols = append(cols, "")
			}
		}
		if len(r.subjects) == 2 {
			cols = append(cols, "")
		}
		f.row(append(cols, "")...)
	}
}

// firstPass adds when all intents were served and the first reconcile pass was done.
func (f *figures) firstPass() {
	f.each("all intents served over /v2 (1st start)", func(s *subject) float64 { return s.servedAt.Seconds() }, seconds, "paging every account")
	f.each("first reconcile pass done, median", func(s *subject) float64 { return median(s.reconciled).Seconds() }, seconds, "")
	f.each("  API writes at start-up (last start)", func(s *subject) float64 { return s.startWrites }, func(v float64) string { return fmt.Sprintf("%.0f", v) }, "")
}

// memory adds the managers' memory, then the control plane's.
func (f *figures) memory() {
	r, n := f.r, f.n
	f.each("manager RSS, empty store", func(s *subject) float64 { return float64(s.emptyMgr.rss) }, mebi, "")
	f.each("manager RSS", func(s *subject) float64 { return float64(s.fullMgr.rss) }, mebi, "target < 400 MiB at 100,000")
	f.each("manager RSS per intent", func(s *subject) float64 { return float64(s.fullMgr.rss-s.emptyMgr.rss) / n }, byteSize,
		"(RSS - empty-store RSS) / N; target < 2,560 B")
	f.each("manager peak RSS (VmHWM) per intent", func(s *subject) float64 { return float64(s.fullMgr.peak-s.emptyMgr.peak) / n }, byteSize, "")
	f.each("manager Go heap live", func(s *subject) float64 { return s.fullMgr.heapLive }, mebi, "as the last garbage collection found it")
	f.each("manager Go heap live per intent", func(s *subject) float64 { return (s.fullMgr.heapLive - s.emptyMgr.heapLive) / n }, byteSize, "")
	f.each("manager Go heap in use per intent", func(s *subject) float64 { return (s.fullMgr.heapInuse - s.emptyMgr.heapInuse) / n }, byteSize,
		"go_memstats_heap_inuse_bytes: live and garbage not yet collected")
	f.single("kube-apiserver RSS", mebi(float64(r.fullAPI.rss)), fmt.Sprintf("%s empty store; %s per intent", mebi(float64(r.emptyAPI.rss)),
		byteSize(float64(r.fullAPI.rss-r.emptyAPI.rss)/n)))
	f.single("etcd RSS", mebi(float64(r.fullEtcd.rss)), fmt.Sprintf("%s empty store; %s per intent", mebi(float64(r.emptyEtcd.rss)),
		byteSize(float64(r.fullEtcd.rss-r.emptyEtcd.rss)/n)))
	f.single("etcd db size (metrics)", mebi(float64(r.fullDB.total)), fmt.Sprintf("%s per intent, with history since the last compaction; in use %s per intent",
		byteSize(float64(r.fullDB.total-r.emptyDB.total)/n), byteSize(float64(r.fullDB.inUse-r.emptyDB.inUse)/n)))
	f.single("etcd db compacted + defragmented", mebi(float64(r.fullDB.compacted)), fmt.Sprintf("%s per intent: the live data alone",
		byteSize(float64(r.fullDB.compacted-r.emptyDB.compacted)/n)))
}

// reads adds the latencies of the read runs.
func (f *figures) reads() {
	r := f.r
	reads := []struct {
		name string
		res  func(*subject) loadResult
	}{
		{"GET /v2/transfers first page (50)", func(s *subject) loadResult { return s.first }},
		{"GET /v2/transfers middle page (cursor)", func(s *subject) loadResult { return s.middle }},
		{"GET /v2/transfers?type=swap first page", func(s *subject) loadResult { return s.filtered }},
		{"GET /v2/transfers/{id} (random ids)", func(s *subject) loadResult { return s.getByID }},
	}
	for _, rd := range reads {
		f.each(rd.name+" p50", func(s *subject) float64 { return rd.res(s).p50.Seconds() }, micro, "")
		f.each("  p99", func(s *subject) float64 { return rd.res(s).p99.Seconds() }, micro,
			fmt.Sprintf("%d readers, %s closed loop%s", r.o.latencyWorkers, r.o.latencyDuration, r.failures(rd.res)))
	}
}

// creates adds the create rates through /v2 and of the raw client-go loop.
func (f *figures) creates() {
	r := f.r
	f.each("POST /v2/transfers sustained", func(s *subject) float64 { return s.createHTTP.rate() }, perSec,
		fmt.Sprintf("%d concurrent, %d run(s) of %s%s", r.o.createConcurrency, r.o.createRounds, r.o.createDuration, r.failures(func(s *subject) loadResult { return s.createHTTP })))
	f.each("  p99 of a create", func(s *subject) float64 { return s.createHTTP.p99.Seconds() }, micro, "")
	f.each("  controller's queue empty", func(s *subject) float64 { return median(s.drained).Seconds() }, seconds,
		"after the run ended: the controller's backlog of new intents")
	f.each("raw client-go create loop, same API server", func(s *subject) float64 { return s.createRaw.rate() }, perSec,
		"into a namespace no manager watches, that manager running"+r.failures(func(s *subject) loadResult { return s.createRaw }))
	f.each("  p99 of a raw create", func(s *subject) float64 { return s.createRaw.p99.Seconds() }, micro, "")
}

// createCPU adds the CPU a create costs, by process, and the rate the CPUs would allow; then
// how /v2 creates compare with raw ones.
func (f *figures) createCPU() {
	httpUse := func(s *subject) (cpuUse, loadResult) { return s.createCPU, s.createHTTP }
	rawUse := func(s *subject) (cpuUse, loadResult) { return s.rawCPU, s.createRaw }
	cores := float64(runtime.NumCPU())
	for _, c := range []struct {
		name string
		use  func(*subject) (cpuUse, loadResult)
		note string
	}{
		{"CPU per /v2 create, all processes", httpUse, "until the controller's queue emptied"},
		{"CPU per raw create, all processes", rawUse, ""},
	} {
		f.each(c.name, perCreate(c.use, cpuUse.total), micro, c.note)
		f.each("  manager", perCreate(c.use, func(u cpuUse) time.Duration { return u.manager }), micro, "")
		f.each("  kube-apiserver", perCreate(c.use, func(u cpuUse) time.Duration { return u.apiServer }), micro, "")
		f.each("  etcd", perCreate(c.use, func(u cpuUse) time.Duration { return u.etcd }), micro, "")
		f.each("  load generator (this process)", perCreate(c.use, func(u cpuUse) time.Duration { return u.loadGen }), micro, "")
		f.each("  bound: creates/s the CPUs allow", func(s *subject) float64 {
			if per := perCreate(c.use, cpuUse.total)(s); per > 0 {
				return cores / per
			}
			return 0
		}, perSec, fmt.Sprintf("%d cores / CPU per create, if nothing else ran", runtime.NumCPU()))
	}
	times := func(v float64) string { return fmt.Sprintf("%.2fx", v) }
	f.each("POST /v2/transfers / raw client-go", func(s *subject) float64 { return s.createHTTP.rate() / s.createRaw.rate() },
		times, "how close create gets to what the API server allows (target >= 0.8x)")
	f.each("CPU per /v2 create / per raw create", func(s *subject) float64 {
		if raw := perCreate(rawUse, cpuUse.total)(s); raw > 0 {
			return perCreate(httpUse, cpuUse.total)(s) / raw
		}
		return 0
	}, times, "all processes (target <= 1.5x)")
}

// perCreate is the CPU seconds of one create: part of the CPU use, over the creates.
func perCreate(use func(*subject) (cpuUse, loadResult), part func(cpuUse) time.Duration) func(*subject) float64 {
	return func(s *subject) float64 {
		c, res := use(s)
		if res.n == 0 {
			return 0
		}
		return part(c).Seconds() / float64(res.n)
	}
}

func (r *report) failures(res func(*subject) loadResult) string {
	var parts []string
	for _, s := range r.subjects {
		if f := res(s); f.failures > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d FAILED (%v)", s.label, f.failures, f.firstErr))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

func ratio(after, before float64) string {
	if before == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", after/before)
}

// table aligns columns without tabwriter's trouble with multi-byte characters.
type table struct{ rows [][]string }

func (t *table) row(cols ...string) { t.rows = append(t.rows, cols) }

func (t *table) write(w *os.File) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r[:len(r)-1] {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Round(100 * time.Millisecond).String()
	}
	return strings.Join(parts, ", ")
}

// printArchive writes the archive phase's figures: the control plane's memory as the archive
// grows, the archive's bytes per intent, and the archiver's throughput against the create rate.
func (r *report) printArchive(w *os.File) {
	a := r.archive
	if a == nil {
		return
	}
	fmt.Fprintf(w, "\narchive: %d intents created, expired and archived in %s; then %d finished intents drained\n",
		a.created.n, round(a.flow), a.drainN)
	var t table
	t.row("ARCHIVED", "LIVE INTENTS", "EVENTS (1 H TTL)", "KUBE-APISERVER RSS", "ETCD RSS", "ETCD DB (COMPACTED)")
	for _, s := range a.samples {
		t.row(fmt.Sprint(s.archived), fmt.Sprint(s.live), fmt.Sprint(s.events), mebi(float64(s.api.rss)), mebi(float64(s.etcd.rss)),
			mebi(float64(s.db.compacted)))
	}
	first, last := a.samples[0], a.samples[len(a.samples)-1]
	t.row("last / first", "", "", ratio(float64(last.api.rss), float64(first.api.rss)), ratio(float64(last.etcd.rss), float64(first.etcd.rss)),
		ratio(float64(last.db.compacted), float64(first.db.compacted)))
	t.write(w)
	createRate := a.created.rate()
	drainRate := float64(a.drainN) / a.drain.Seconds()
	var f table
	f.row("FIGURE", "VALUE", "BASELINE AND TARGET")
	f.row("archive bytes per intent", byteSize(a.rowBytes), fmt.Sprintf("%d rows, table + indexes + TOAST", a.rows))
	f.row("raw create rate in the flow", perSec(createRate), fmt.Sprintf("%d concurrent client-go creates", r.o.createConcurrency))
	f.row("flow: created -> archived", perSec(float64(a.created.n)/a.flow.Seconds()), "create, expiry by the controller and the archive together")
	f.row("archiver alone, draining a backlog", perSec(drainRate), fmt.Sprintf("%d finished intents, --archive-rate %.0f", a.drainN, r.o.archiveRate))
	f.row("  / raw create rate", fmt.Sprintf("%.2fx", drainRate/createRate), "target >= 2x")
	if s := r.subjects[len(r.subjects)-1]; s.createHTTP.n > 0 {
		f.row("  / POST /v2/transfers rate", fmt.Sprintf("%.2fx", drainRate/s.createHTTP.rate()), "the create rate of the service itself; target >= 2x")
	}
	f.write(w)
}
