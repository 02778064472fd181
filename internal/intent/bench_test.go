package intent

import (
	"context"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/caip"
)

func benchmarkSimulate(b *testing.B, req Request) {
	svc := newTestService(b, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := ParseRequest(req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Simulate(ctx, "acme", p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulate is the common case: parse + simulate an ERC-20 transfer.
func BenchmarkSimulate(b *testing.B) {
	benchmarkSimulate(b, Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1.5"})
}

// BenchmarkSimulateSwapBridge is the costliest path: two catalogs lookups per side, the order ABI.
func BenchmarkSimulateSwapBridge(b *testing.B) {
	benchmarkSimulate(b, Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob),
		Asset: pair("eip155:1", usdcMainnet, "eip155:8453", registryNative), Amount: "1500.5", CallData: "0xcafe"})
}

func BenchmarkParseAccountID(b *testing.B) {
	for b.Loop() {
		if _, err := caip.ParseAccountID("eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"); err != nil {
			b.Fatal(err)
		}
	}
}
