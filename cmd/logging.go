package main

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	ctrlzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// Bounds of the log's buffer: a request never waits for a write to stderr unless 256 KiB are
// waiting already, and a crash loses at most the last 200 ms of lines.
const (
	logBufferBytes   = 256 << 10
	logFlushInterval = 200 * time.Millisecond
)

// logOutput is the manager's log output once the flags are parsed; main flushes it at exit.
var logOutput *asyncWriter

// newLogOutput is where every log line goes: stderr through a buffer written by a goroutine of its
// own every logFlushInterval, sooner once half of logBufferBytes wait, and at exit (Stop).
// Writing each access log line straight to stderr cost the API about a fifth of its throughput;
// flushing a buffer on the request path (zap's BufferedWriteSyncer) made the requests that met a
// flush wait for it, which on a terminal is milliseconds.
func newLogOutput(w zapcore.WriteSyncer) *asyncWriter {
	return newAsyncWriter(w, logBufferBytes, logFlushInterval)
}

// asyncWriter keeps lines in memory and writes them to out from one goroutine, so that a request
// that logs only appends to a buffer. Nothing is dropped: when more than limit bytes wait while
// the previous batch is still being written (out is slower than the log), Write waits for room.
// Memory is bounded by two buffers of about limit bytes each (plus a line per waiting request).
type asyncWriter struct {
	out      zapcore.WriteSyncer
	limit    int
	interval time.Duration

	mu    sync.Mutex
	room  *sync.Cond // signalled when buf has been taken for writing
	buf   []byte     // lines not yet taken, guarded by mu
	taken uint64     // batches taken, guarded by mu
	// stopped is set by Stop, under mu: Write then writes a full buffer itself.
	stopped bool
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	// writeMu serializes taking buf and writing it, so batches reach out in order; spare is the
	// buffer of the last batch written, reused for the next, guarded by writeMu.
	writeMu sync.Mutex
	spare   []byte
}

func newAsyncWriter(out zapcore.WriteSyncer, limit int, interval time.Duration) *asyncWriter {
	w := &asyncWriter{
		out: out, limit: limit, interval: interval,
		buf: make([]byte, 0, limit), spare: make([]byte, 0, limit),
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
	}
	w.room = sync.NewCond(&w.mu)
	go w.loop()
	return w
}

// Write appends p (one whole log line: zap writes each entry with one call) to the buffer.
func (w *asyncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if len(w.buf) > 0 && len(w.buf)+len(p) > w.limit {
		if w.stopped {
			// No goroutine writes any more: write the waiting lines here.
			w.mu.Unlock()
			_ = w.flush()
			w.mu.Lock()
		} else {
			// Wait for the next batch to be taken, then append even if others have filled the
			// room meanwhile: every waiter goes on after one batch, none waits for ever behind
			// newer lines. The buffer may so exceed limit by a line per waiting request.
			taken := w.taken
			w.signal()
			for w.taken == taken && !w.stopped {
				w.room.Wait()
			}
		}
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= w.limit/2 {
		w.signal()
	}
	w.mu.Unlock()
	return len(p), nil
}

// signal asks the writing goroutine to write now.
func (w *asyncWriter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Sync writes what waits and syncs out; zap calls it before a panic or fatal exit.
func (w *asyncWriter) Sync() error {
	err := w.flush()
	if serr := w.out.Sync(); err == nil {
		err = serr
	}
	return err
}

// Stop stops the writing goroutine and writes what waits. Lines written after it wait for the
// next Sync, or are written by Write itself once the buffer is full.
func (w *asyncWriter) Stop() error {
	w.once.Do(func() { close(w.stop) })
	<-w.done
	w.mu.Lock()
	w.stopped = true
	w.room.Broadcast()
	w.mu.Unlock()
	return w.Sync()
}

func (w *asyncWriter) loop() {
	defer close(w.done)
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		case <-w.wake:
		}
		_ = w.flush() // stderr failing leaves nowhere to report it
	}
}

// flush takes the waiting lines, lets writers go on into the spare buffer, and writes the taken
// ones outside mu.
func (w *asyncWriter) flush() error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	w.mu.Lock()
	batch := w.buf
	w.buf = w.spare[:0]
	w.taken++
	w.room.Broadcast()
	w.mu.Unlock()
	var err error
	if len(batch) > 0 {
		_, err = w.out.Write(batch)
	}
	if cap(batch) > 2*w.limit {
		batch = make([]byte, 0, w.limit) // a giant line: do not keep its buffer
	}
	w.spare = batch[:0]
	return err
}

// newAccessLogger writes the access log, one JSON line per request as the rest of the log is
// written (controller-runtime's production encoder and --zap-time-encoding), but never sampled:
// controller-runtime's logger keeps only the first 100 lines a second of one message, and an
// access log that drops requests under load is no record. --zap-log-level above info silences it.
func newAccessLogger(opts *ctrlzap.Options, out zapcore.WriteSyncer) logr.Logger {
	cfg := zap.NewProductionEncoderConfig()
	cfg.EncodeTime = rfc3339Seconds
	if opts.TimeEncoder != nil {
		cfg.EncodeTime = opts.TimeEncoder
	}
	var level zapcore.LevelEnabler = zapcore.InfoLevel
	if opts.Level != nil {
		level = opts.Level
	}
	core := zapcore.NewCore(zapcore.NewJSONEncoder(cfg), out, level)
	return zapr.NewLogger(zap.New(core)).WithName("api")
}

// second is the RFC 3339 text of one second in one location.
type second struct {
	unix int64
	loc  *time.Location
	text string
}

var lastSecond atomic.Pointer[second]

// rfc3339Seconds writes what zapcore.RFC3339TimeEncoder writes, formatting each second once: the
// access log writes thousands of lines a second, each with the same time text.
func rfc3339Seconds(t time.Time, enc zapcore.PrimitiveArrayEncoder) {
	unix, loc := t.Unix(), t.Location()
	if s := lastSecond.Load(); s != nil && s.unix == unix && s.loc == loc {
		enc.AppendString(s.text)
		return
	}
	text := t.Format(time.RFC3339)
	lastSecond.Store(&second{unix: unix, loc: loc, text: text})
	enc.AppendString(text)
}
