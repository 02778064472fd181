package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

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
