package settlement_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// With tracing on, an attestation is a span of its own naming the order and the contract, and
// never the key.
func TestAttestationIsASpan(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	a := settlement.NewAttester(key)
	domain := settlement.Domain{ChainID: big.NewInt(11155111), Contract: common.HexToAddress("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")}
	order := common.HexToHash("0x01")
	attest := func() {
		t.Helper()
		if _, err := a.Attest(context.Background(), domain, order, common.HexToAddress("0x02"), big.NewInt(42)); err != nil {
			t.Fatal(err)
		}
	}
	attest() // tracing off: nothing to see, nothing to fail

	exporter := tracetest.NewInMemoryExporter()
	t.Cleanup(tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))))
	attest()
	spans := exporter.GetSpans()
	if len(spans) != 1 || spans[0].Name != "settlement attest" {
		t.Fatalf("spans %v", spans)
	}
	got := map[string]string{}
	for _, kv := range spans[0].Attributes {
		got[string(kv.Key)] = kv.Value.String()
	}
	if got["transferintent.order_id"] != order.Hex() || got["transferintent.settlement.chain_id"] != "11155111" ||
		got["transferintent.settlement.contract"] != domain.Contract.Hex() || got["transferintent.attester"] != a.Address().Hex() {
		t.Errorf("attributes %v", got)
	}
}
