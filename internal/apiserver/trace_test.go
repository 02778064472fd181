package apiserver

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap/zapcore"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// installTracing turns tracing on for the test with sampler, exporting synchronously to memory.
// Tests that call it must not run in parallel: the provider is global.
func installTracing(t *testing.T, sampler sdktrace.Sampler) *tracetest.InMemoryExporter {
	t.Helper()
	exporter := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter), sdktrace.WithSampler(sampler))
	t.Cleanup(tracing.Install(tp))
	return exporter
}

// requestTrace waits for the server span of the request whose correlation id is given (it ends
// after the answer may have been sent) and returns it with the other spans of its trace.
func requestTrace(t *testing.T, exporter *tracetest.InMemoryExporter, correlationID string) (root tracetest.SpanStub, others []tracetest.SpanStub) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		spans := exporter.GetSpans()
		found := false
		for _, s := range spans {
			if attr(s, "correlation.id") == correlationID {
				root, found = s, true
			}
		}
		if !found {
			continue
		}
		for _, s := range spans {
			if s.SpanContext.TraceID() == root.SpanContext.TraceID() && s.SpanContext.SpanID() != root.SpanContext.SpanID() {
				others = append(others, s)
			}
		}
		return root, others
	}
	t.Fatalf("no server span for correlation id %s", correlationID)
	return root, nil
}

func attr(s tracetest.SpanStub, key attribute.Key) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value.String()
		}
	}
	return ""
}

// A create through the real handler stack and intent store is one trace: the server span named by
// its route as the root, and each Kubernetes write of the store as its child.
func TestCreateIsOneTrace(t *testing.T) {
	exporter := installTracing(t, sdktrace.AlwaysSample())
	h := newTransferHarness(t)
	for _, tc := range []struct {
		name   string
		header []string
		writes []string
	}{
		{"without a key", nil, []string{"kubernetes create TransferIntent"}},
		{"with an Idempotency-Key", []string{IdempotencyKeyHeader, "trace-1"},
			[]string{"kubernetes create Lease", "kubernetes create TransferIntent", "kubernetes patch Lease"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().String(), tc.header...)
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			root, children := requestTrace(t, exporter, resp.Header.Get(CorrelationHeader))
			if root.Name != "POST /v2/transfers" || root.SpanKind != trace.SpanKindServer || root.Parent.IsValid() ||
				attr(root, "http.route") != "/v2/transfers" || attr(root, "http.response.status_code") != "201" ||
				attr(root, "http.request.method") != "POST" || attr(root, "transferintent.account") != "alice" {
				t.Errorf("server span %s (parent %v) %v", root.Name, root.Parent.SpanID(), root.Attributes)
			}
			var names []string
			for _, c := range children {
				names = append(names, c.Name)
				if c.Parent.SpanID() != root.SpanContext.SpanID() || c.SpanKind != trace.SpanKindClient ||
					attr(c, "k8s.namespace.name") != testNamespace {
					t.Errorf("span %s: parent %v, want the server span %v; attributes %v", c.Name, c.Parent.SpanID(), root.SpanContext.SpanID(), c.Attributes)
				}
			}
			if len(names) != len(tc.writes) {
				t.Fatalf("spans under the request %q, want %q", names, tc.writes)
			}
			for i := range names {
				if names[i] != tc.writes[i] {
					t.Fatalf("spans under the request %q, want %q", names, tc.writes)
				}
			}
		})
	}
}

// A server span is named by its route pattern, never the raw path; a request that matched no
// route is named by its method.
func TestServerSpanNames(t *testing.T) {
	for _, tc := range []struct{ method, route, want string }{
		{"GET", "GET /v2/transfers/{id}", "GET /v2/transfers/{id}"},
		{"POST", "/auth/", "POST /auth/"},
		{"GET", routeUnmatched, "GET"},
	} {
		if got := spanName(tc.method, tc.route); got != tc.want {
			t.Errorf("spanName(%s, %s) = %s, want %s", tc.method, tc.route, got, tc.want)
		}
	}
	exporter := installTracing(t, sdktrace.AlwaysSample())
	h := newTransferHarness(t)
	resp, _ := h.do(t, http.MethodGet, transfersPath+"/not-an-id", withKey(testKeyA), "")
	root, _ := requestTrace(t, exporter, resp.Header.Get(CorrelationHeader))
	if root.Name != "GET /v2/transfers/{id}" || resp.StatusCode != http.StatusBadRequest || attr(root, "http.response.status_code") != "400" {
		t.Errorf("span %s %v", root.Name, root.Attributes)
	}
}

// The access log line carries the trace id next to the correlation id when the request was
// sampled, and is unchanged when it was not or tracing is off.
func TestAccessLogCarriesTheSampledTraceID(t *testing.T) {
	traceIDOf := func(t *testing.T, sampled, on bool) (logged string, resp *http.Response, exporter *tracetest.InMemoryExporter) {
		t.Helper()
		if on {
			sampler := sdktrace.NeverSample()
			if sampled {
				sampler = sdktrace.AlwaysSample()
			}
			exporter = installTracing(t, sampler)
		}
		var out syncBuffer
		ts := accessServer(t, true, zapAccessLogger(&out, zapcore.InfoLevel), true)
		resp = get(t, ts.URL+"/v2/tokens", testKeyA)
		lines := out.lines()
		if len(lines) != 1 {
			t.Fatalf("%d access log lines, want 1", len(lines))
		}
		var line struct {
			HTTP map[string]any `json:"http"`
		}
		if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
			t.Fatal(err)
		}
		if line.HTTP["correlationId"] != resp.Header.Get(CorrelationHeader) {
			t.Errorf("line %s", lines[0])
		}
		id, has := line.HTTP["traceId"].(string)
		if !has && line.HTTP["traceId"] != nil {
			t.Errorf("traceId %v", line.HTTP["traceId"])
		}
		return id, resp, exporter
	}
	t.Run("sampled", func(t *testing.T) {
		id, resp, exporter := traceIDOf(t, true, true)
		root, _ := requestTrace(t, exporter, resp.Header.Get(CorrelationHeader))
		if id == "" || id != root.SpanContext.TraceID().String() {
			t.Errorf("logged trace id %q, want %s", id, root.SpanContext.TraceID())
		}
	})
	t.Run("not sampled", func(t *testing.T) {
		if id, _, _ := traceIDOf(t, false, true); id != "" {
			t.Errorf("an unsampled request logged trace id %q", id)
		}
	})
	t.Run("tracing off", func(t *testing.T) {
		if id, _, _ := traceIDOf(t, false, false); id != "" {
			t.Errorf("trace id %q logged with tracing off", id)
		}
	})
}
