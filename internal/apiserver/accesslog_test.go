package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// syncBuffer collects log output written from the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *syncBuffer) Sync() error { return nil }
func (b *syncBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.FieldsFunc(b.buf.String(), func(r rune) bool { return r == '\n' })
}

// accessServer is a harness whose access log is written as JSON lines to out, at the level given.
// Not ready, it answers /v2 with 503.
func accessServer(t *testing.T, accessLog bool, access logr.Logger, ready bool) *httptest.Server {
	t.Helper()
	h := newHarness(t)
	opts := h.srv.opts
	opts.AccessLog = accessLog
	srv := New(opts, Deps{Keys: h.keys, Tokens: h.tokens, Clock: h.clock, AccessLog: access}, logr.Discard())
	if _, isZap := access.GetSink().(zapr.Underlier); isZap && access.GetV() == 0 && srv.accessZap == nil {
		t.Fatal("a zap-backed access logger is not written through zap directly")
	}
	if ready {
		srv.MarkReady()
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func zapAccessLogger(out *syncBuffer, level zapcore.Level) logr.Logger {
	core := zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), out, level)
	return zapr.NewLogger(zap.New(core)).WithName("api")
}

func get(t *testing.T, url, key string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if key != "" {
		req.Header.Set(APIKeyHeader, key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp
}

// The access log line of a request names its route, status, key id and account and carries the
// response's correlation id, never the key itself; a refused request is named by the route it
// was meant for.
func TestAccessLogLine(t *testing.T) {
	var out syncBuffer
	ts := accessServer(t, true, zapAccessLogger(&out, zapcore.InfoLevel), true)
	ok := get(t, ts.URL+"/v2/tokens", testKeyA)
	refused := get(t, ts.URL+"/v2/tokens", "not-a-key")
	anonymous := get(t, ts.URL+"/v2/tokens", "")
	lines := out.lines()
	if len(lines) != 3 {
		t.Fatalf("%d access log lines, want 3:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, want := range []struct {
		resp           *http.Response
		status         int
		keyID, account string
	}{{ok, http.StatusOK, "key-a", "alice"}, {refused, http.StatusForbidden, "", ""}, {anonymous, http.StatusUnauthorized, "", ""}} {
		if strings.Contains(lines[i], testKeyA) || strings.Contains(lines[i], "not-a-key") {
			t.Errorf("line %d holds an API key: %s", i, lines[i])
		}
		var line struct {
			Level, Logger, Msg string
			HTTP               struct {
				Method, Route, CorrelationID, KeyID, Account string
				Status                                       int
				Duration                                     float64 // seconds
			} `json:"http"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &line); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, lines[i])
		}
		got := line.HTTP
		if line.Level != "info" || line.Logger != "api" || line.Msg != "request" || got.Method != http.MethodGet ||
			got.Route != "GET /v2/tokens" || got.Status != want.status || got.KeyID != want.keyID ||
			got.Account != want.account || got.Duration <= 0 || got.CorrelationID != want.resp.Header.Get(CorrelationHeader) || got.CorrelationID == "" {
			t.Errorf("line %d: %s", i, lines[i])
		}
	}
}

// With --access-log=false only 5xx answers are logged at info; the rest need -v=1. Both the zap
// path and any other logr sink agree, and a logger already at V(1) is not logged at info.
func TestAccessLogOffLogsOnlyServerErrors(t *testing.T) {
	for name, quietAndVerbose := range map[string]func(out *syncBuffer) (quiet, verbose logr.Logger){
		"zap": func(out *syncBuffer) (logr.Logger, logr.Logger) {
			return zapAccessLogger(out, zapcore.InfoLevel), zapAccessLogger(out, zapcore.DebugLevel)
		},
		"funcr": func(out *syncBuffer) (logr.Logger, logr.Logger) {
			write := func(prefix, args string) { _, _ = out.Write([]byte(prefix + args + "\n")) }
			return funcr.New(write, funcr.Options{}), funcr.New(write, funcr.Options{Verbosity: 1})
		},
	} {
		t.Run(name, func(t *testing.T) {
			var quietOut, verboseOut syncBuffer
			quiet, _ := quietAndVerbose(&quietOut)
			_, verbose := quietAndVerbose(&verboseOut)
			get(t, accessServer(t, false, quiet, true).URL+"/v2/tokens", testKeyA)
			if lines := quietOut.lines(); len(lines) != 0 {
				t.Errorf("a 200 was logged with the access log off: %q", lines)
			}
			get(t, accessServer(t, false, quiet, false).URL+"/v2/tokens", testKeyA)
			if lines := quietOut.lines(); len(lines) != 1 || !strings.Contains(lines[0], "503") {
				t.Errorf("a 503 should be logged once with the access log off, got %q", lines)
			}
			get(t, accessServer(t, false, verbose, true).URL+"/v2/tokens", testKeyA)
			if lines := verboseOut.lines(); len(lines) != 1 || !strings.Contains(lines[0], "GET /v2/tokens") {
				t.Errorf("at -v=1 the 200 should be logged once, got %q", lines)
			}
			var vOut syncBuffer
			_, v1 := quietAndVerbose(&vOut)
			get(t, accessServer(t, true, v1.V(1), true).URL+"/v2/tokens", testKeyA)
			if lines := vOut.lines(); len(lines) != 1 {
				t.Errorf("a V(1) access logger at -v=1 should log the 200 once, got %q", lines)
			}
			var v0Out syncBuffer
			q, _ := quietAndVerbose(&v0Out)
			get(t, accessServer(t, true, q.V(1), true).URL+"/v2/tokens", testKeyA)
			if lines := v0Out.lines(); len(lines) != 0 {
				t.Errorf("a V(1) access logger at -v=0 logged %q", lines)
			}
		})
	}
}
