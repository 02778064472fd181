package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	ctrlzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// lockedBuffer is a WriteSyncer tests can read while the log flushes into it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *lockedBuffer) Sync() error { return nil }
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Every access log line is kept, even thousands a second (controller-runtime's logger would keep
// 100 and then one in 100), and reaches the output within the flush interval.
func TestAccessLogIsUnsampledAndFlushedSoon(t *testing.T) {
	var out lockedBuffer
	buffered := newLogOutput(&out)
	defer func() { _ = buffered.Stop() }()
	log := newAccessLogger(&ctrlzap.Options{}, buffered)
	const lines = 5000
	for i := range lines {
		log.Info("request", "n", i)
	}
	deadline := time.Now().Add(10 * logFlushInterval)
	for strings.Count(out.String(), "\n") < lines && time.Now().Before(deadline) {
		time.Sleep(logFlushInterval / 4)
	}
	if got := strings.Count(out.String(), "\n"); got != lines {
		t.Fatalf("%d of %d lines written within %s", got, lines, 10*logFlushInterval)
	}
	first := strings.SplitN(out.String(), "\n", 2)[0]
	for _, want := range []string{`"level":"info"`, `"logger":"api"`, `"msg":"request"`, `"n":0`} {
		if !strings.Contains(first, want) {
			t.Errorf("line %s lacks %s", first, want)
		}
	}
	// One line, then nothing else: it still arrives by itself within the flush interval.
	log.Info("request", "n", "last")
	deadline = time.Now().Add(10 * logFlushInterval)
	for !strings.Contains(out.String(), `"n":"last"`) && time.Now().Before(deadline) {
		time.Sleep(logFlushInterval / 4)
	}
	if !strings.Contains(out.String(), `"n":"last"`) {
		t.Fatal("a lone line was not flushed within 10 flush intervals")
	}
}

// slowSink is an output that takes delay for every write, as a terminal that cannot keep up does.
type slowSink struct {
	lockedBuffer
	delay time.Duration
}

func (s *slowSink) Write(p []byte) (int, error) {
	time.Sleep(s.delay)
	return s.lockedBuffer.Write(p)
}

// Lines written by many goroutines while the output is slow all arrive, each whole, in the order
// each goroutine wrote them; Stop writes what waits.
func TestLogOutputKeepsEveryLineInOrder(t *testing.T) {
	out := &slowSink{delay: 2 * time.Millisecond}
	w := newAsyncWriter(out, 4<<10, time.Hour) // only a full buffer triggers a write
	const writers, lines = 8, 2000
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range lines {
				_, _ = w.Write([]byte(strings.Repeat("x", i%50) + " g" + strconv.Itoa(g) + " n" + strconv.Itoa(i) + "\n"))
			}
		})
	}
	wg.Wait()
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, writers)
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var g, n int
		fields := strings.Fields(line)
		if _, err := fmt.Sscanf(fields[len(fields)-2]+" "+fields[len(fields)-1], "g%d n%d", &g, &n); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if n != next[g] {
			t.Fatalf("writer %d: line %d after %d", g, n, next[g]-1)
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d of %d lines", g, n, lines)
		}
	}
}

// blockingSink is an output whose writes wait until released: entered says a write began.
type blockingSink struct {
	lockedBuffer
	entered chan struct{}
	release chan struct{}
}

func (s *blockingSink) Write(p []byte) (int, error) {
	s.entered <- struct{}{}
	<-s.release
	return s.lockedBuffer.Write(p)
}

// A line written while a batch is being written to a stuck output is not held up by that write.
func TestLogOutputWriteDoesNotWaitForTheOutput(t *testing.T) {
	out := &blockingSink{entered: make(chan struct{}, 1), release: make(chan struct{})}
	w := newAsyncWriter(out, 1<<10, time.Hour)
	_, _ = w.Write([]byte(strings.Repeat("a", 600) + "\n")) // over half: the goroutine starts writing
	select {
	case <-out.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the batch was not written")
	}
	wrote := make(chan struct{})
	go func() {
		_, _ = w.Write([]byte("b\n"))
		close(wrote)
	}()
	select {
	case <-wrote:
	case <-time.After(10 * time.Second):
		t.Fatal("Write waited for the output")
	}
	close(out.release) // the stuck write, and the last batch at Stop, go through
	go func() {
		for range out.entered {
		}
	}()
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.HasSuffix(got, "b\n") {
		t.Errorf("output ends %q, want the second line", got[max(0, len(got)-10):])
	}
}

// After Stop, a Write that finds the buffer full writes it itself instead of waiting forever.
func TestLogOutputAfterStop(t *testing.T) {
	var out lockedBuffer
	w := newAsyncWriter(&out, 16, time.Hour)
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		_, _ = w.Write([]byte("0123456789\n"))
	}
	_ = w.Sync()
	if got := strings.Count(out.String(), "\n"); got != 10 {
		t.Fatalf("%d of 10 lines", got)
	}
}

// The access log's time text is zap's RFC 3339 encoder's, for every second and location.
func TestRFC3339Seconds(t *testing.T) {
	enc := zapcore.NewJSONEncoder(zapcore.EncoderConfig{TimeKey: "ts", EncodeTime: rfc3339Seconds})
	ref := zapcore.NewJSONEncoder(zapcore.EncoderConfig{TimeKey: "ts", EncodeTime: zapcore.RFC3339TimeEncoder})
	zone := time.FixedZone("X", 5*3600+1800)
	base := time.Date(2026, 11, 25, 1, 2, 3, 999_000_000, time.UTC)
	for _, ts := range []time.Time{base, base.Add(time.Millisecond), base.Add(time.Second), base.In(zone), base.Add(-time.Hour), base.Local()} {
		got, err := enc.EncodeEntry(zapcore.Entry{Time: ts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ref.EncodeEntry(zapcore.Entry{Time: ts}, nil)
		if got.String() != want.String() {
			t.Errorf("%s: got %s, want %s", ts, got, want)
		}
	}
}
