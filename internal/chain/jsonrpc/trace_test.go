package jsonrpc

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// Within a traced operation, a batch and a call are each a child span naming the chain, the
// caller and the methods; no span attribute, name or status quotes the node's URL, whose path
// holds the provider's key here. Outside a traced operation there is no span.
func TestRoundTripsAreSpansWithoutTheURL(t *testing.T) {
	exporter := tracetest.NewInMemoryExporter()
	t.Cleanup(tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))))
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.ContentLength > 0 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			var b [1]byte
			_, _ = r.Body.Read(b[:])
			if b[0] == '[' {
				_, _ = w.Write([]byte(`[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":"0x10"}]`))
				return
			}
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted"}}`))
	}))
	defer node.Close()
	url := node.URL + "/v3/s3cretkey"
	c, err := Dial(context.Background(), "eip155:1", url, Options{Caller: "simulation", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	var id, head string
	batch := []rpc.BatchElem{{Method: "eth_chainId", Result: &id}, {Method: "eth_blockNumber", Result: &head}}
	if err := c.Batch(context.Background(), batch, nil); err != nil {
		t.Fatal(err)
	}
	if spans := exporter.GetSpans(); len(spans) != 0 {
		t.Fatalf("a batch outside a traced operation made %d spans", len(spans))
	}

	ctx, parent := tracing.NewScope("test").Start(context.Background(), "simulate")
	if err := c.Batch(ctx, batch, nil); err != nil || id != "0x1" || head != "0x10" {
		t.Fatalf("batch: %v %q %q", err, id, head)
	}
	_ = c.Call(ctx, new(string), "eth_call")
	parent.End()

	spans := exporter.GetSpans()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want the batch, the call and their parent", len(spans))
	}
	for i, want := range []string{"jsonrpc batch", "jsonrpc eth_call"} {
		s := spans[i]
		got := map[string]string{}
		for _, kv := range s.Attributes {
			got[string(kv.Key)] = kv.Value.String()
		}
		if s.Name != want || s.Parent.SpanID() != parent.SpanContext().SpanID() || s.SpanKind != trace.SpanKindClient ||
			got["transferintent.chain"] != "eip155:1" || got["transferintent.rpc.caller"] != "simulation" || got["rpc.system"] != "jsonrpc" {
			t.Errorf("span %d: %s %v", i, s.Name, got)
		}
		if strings.Contains(s.Name+s.Status.Description+strings.Join(values(got), " "), "s3cretkey") ||
			strings.Contains(s.Status.Description, node.URL) {
			t.Errorf("span %s quotes the URL: %v %s", s.Name, got, s.Status.Description)
		}
	}
	if got := spans[0].Attributes; !strings.Contains(attributeString(got), "eth_chainId") {
		t.Errorf("batch span without its methods: %v", got)
	}
	if spans[1].Status.Code != codes.Error || spans[1].Status.Description != "execution reverted" {
		t.Errorf("call span status %+v, want the node's refusal", spans[1].Status)
	}
}

func values(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func attributeString(kvs []attribute.KeyValue) string {
	var b strings.Builder
	for _, kv := range kvs {
		b.WriteString(string(kv.Key) + "=" + kv.Value.String() + " ")
	}
	return b.String()
}
