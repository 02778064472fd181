package intent

import (
	"context"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// TestRegistryCatalog runs a simulation against the real read models, so a change of their
// lookup semantics (normalisation, symbol case) shows up here.
func TestRegistryCatalog(t *testing.T) {
	chains := registry.NewChainTable()
	tokens := registry.NewTokenRegistry()
	fixtures := testCatalog()
	for id, c := range fixtures.chains {
		chains.Upsert(strings.ReplaceAll(id, ":", "-"), c)
	}
	for _, tok := range fixtures.tokens {
		tok.Name = strings.ToLower(strings.ReplaceAll(tok.Address, ":", "-"))
		tokens.Upsert(tok)
	}
	cat := RegistryCatalog{Chains: chains, Tokens: tokens}
	svc := newTestService(t, func(c *Config) { c.Catalog = cat })

	req := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	p := mustParse(t, req)
	if got := p.KnownChains(cat); len(got) != 2 {
		t.Fatalf("KnownChains = %v", got)
	}
	plan, err := svc.Prepare(context.Background(), "acme", p, testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if plan.TokenOut.Address != "eip155:8453:"+usdcBase || !plan.Valid {
		t.Errorf("bridge resolved token out %q, valid %v %v", plan.TokenOut.Address, plan.Valid, plan.Errors)
	}
}

func TestResolvePathSymbolCase(t *testing.T) {
	if got := ResolvePath(TypeBridge, "USDC", "usdc"); len(got) != 1 || got[0] != StepBridge {
		t.Errorf("ResolvePath(bridge, USDC, usdc) = %v, want [bridge]", got)
	}
}
