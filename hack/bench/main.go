// Command bench measures the HTTP API on loopback against a bare net/http handler that serves the
// same bytes, in the same process and run, with the same load client, and prints both and their
// ratio. `make bench` runs it.
//
//	go run ./hack/bench -duration 5s -concurrency 32
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/loadgen"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

func main() {
	cfg := loadgen.Config{}
	flag.DurationVar(&cfg.Duration, "duration", 5*time.Second, "Measured time per run.")
	flag.DurationVar(&cfg.Warmup, "warmup", time.Second, "Unmeasured time before each run.")
	flag.IntVar(&cfg.Concurrency, "concurrency", 32, "Concurrent connections.")
	rounds := flag.Int("rounds", 2, "Runs of each server, interleaved, so drift affects both alike.")
	flag.Parse()
	if err := benchTokens(cfg, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// benchTokens compares GET /v2/tokens through the whole stack (correlation id, access log,
// auth gate with sha256 and key index, rate limiter, router, pre-encoded snapshot, metrics) with
// a handler that only writes the same bytes.
func benchTokens(cfg loadgen.Config, rounds int) error {
	key, full, err := fullStack()
	if err != nil {
		return err
	}
	fullURL, stopFull, err := serve(full)
	if err != nil {
		return err
	}
	defer stopFull()
	fullReq := loadgen.Request{Method: http.MethodGet, URL: fullURL + "/v2/tokens", Header: http.Header{apiserver.APIKeyHeader: {key}}}

	body, err := fetch(fullReq)
	if err != nil {
		return err
	}
	bareURL, stopBare, err := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	if err != nil {
		return err
	}
	defer stopBare()
	bareReq := loadgen.Request{Method: http.MethodGet, URL: bareURL + "/v2/tokens"}

	fmt.Printf("GET /v2/tokens (%d bytes), %d connections, %s per run, %d rounds\n", len(body), cfg.Concurrency, cfg.Duration, rounds)
	var bestBare, bestFull loadgen.Result
	for i := range rounds {
		b := loadgen.Run(context.Background(), cfg, bareReq)
		f := loadgen.Run(context.Background(), cfg, fullReq)
		fmt.Printf("  round %d bare  %s\n  round %d full  %s\n", i+1, b, i+1, f)
		if f.Statuses[http.StatusOK] != f.Requests {
			return fmt.Errorf("full stack answered other than 200: %v", f.Statuses)
		}
		if i == 0 || b.RPS() > bestBare.RPS() {
			bestBare = b
		}
		if i == 0 || f.RPS() > bestFull.RPS() {
			bestFull = f
		}
	}
	fmt.Printf("best bare  %s\nbest full  %s\n", bestBare, bestFull)
	fmt.Printf("throughput ratio full/bare = %.2f (target >= 0.80); p99 ratio full/bare = %.2f\n",
		bestFull.RPS()/bestBare.RPS(), float64(bestFull.P99)/float64(bestBare.P99))
	return nil
}

// fullStack builds the API as the operator does, with the sample registry and one key whose
// limit is high enough that the load measures the limiter's cost, not its refusals.
func fullStack() (string, http.Handler, error) {
	tokens := registry.NewTokenRegistry()
	for _, t := range sampleTokens() {
		tokens.Upsert(t)
	}
	keys := registry.NewKeyIndex()
	k, err := apikey.Generate(registry.EnvironmentTest)
	if err != nil {
		return "", nil, err
	}
	keys.SetAccount("bench", false)
	keys.Upsert(k.Hash, registry.Key{ID: "bench-key", Account: "bench", Environment: registry.EnvironmentTest,
		DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: 1 << 30})
	docFull, docV2, err := openapi.Documents("http://127.0.0.1")
	if err != nil {
		return "", nil, err
	}
	// The production logger (JSON, info level, access log on) writing to a discarding sink: the
	// encoding cost is measured, the terminal is not.
	log := zap.New(zap.WriteTo(io.Discard), zap.UseDevMode(false))
	srv := apiserver.New(apiserver.DefaultOptions(), apiserver.Deps{Keys: keys, Tokens: tokens, OpenAPI: docFull, OpenAPIV2: docV2}, log)
	srv.MarkReady()
	return k.Plaintext, srv.Handler(), nil
}

func serve(h http.Handler) (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	s := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.Serve(l) }()
	return "http://" + l.Addr().String(), func() { _ = s.Close() }, nil
}

func fetch(r loadgen.Request) ([]byte, error) {
	req, err := http.NewRequest(r.Method, r.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header = r.Header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", r.URL, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

func sampleTokens() []registry.Token {
	var out []registry.Token
	for _, t := range []struct {
		symbol, chain, addr string
		decimals            int32
	}{
		{"USDC", "eip155:1", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6},
		{"WETH", "eip155:1", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", 18},
		{"ETH", "eip155:1", registry.NativeTokenAddress, 18},
		{"USDC", "eip155:8453", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6},
		{"WETH", "eip155:8453", "0x4200000000000000000000000000000000000006", 18},
		{"USDC", "eip155:42161", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6},
		{"WETH", "eip155:42161", "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", 18},
		{"USDC", "eip155:11155111", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", 6},
	} {
		out = append(out, registry.Token{Name: t.symbol + "-" + t.chain, Symbol: t.symbol, ChainID: t.chain,
			Address: t.chain + ":" + t.addr, Decimals: t.decimals, CreatedAt: time.Unix(0, 0)})
	}
	return out
}
