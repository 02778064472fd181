package registry

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"testing"
	"time"
)

const (
	usdcMainnet = "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	wethMainnet = "eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"
	daiMainnet  = "eip155:1:0x6B175474E89094C44Da98b954EedeAC495271d0F"
)

func testToken(name, symbol, address string, created time.Time) Token {
	chain, _, _ := SplitCAIP10(address)
	return Token{Name: name, Symbol: symbol, ChainID: chain, Address: address, Decimals: 6, CreatedAt: created}
}

func servedNames(r *TokenRegistry) []string {
	var names []string
	for _, t := range r.List() {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

func TestTokenRegistryConflicts(t *testing.T) {
	older := t0
	newer := t0.Add(time.Minute)
	tests := []struct {
		name       string
		upserts    []Token
		conflicts  []string // returned by each Upsert, in order
		served     []string
		deleteName string
		servedThen []string
	}{
		{
			name: "same address, older first",
			upserts: []Token{
				testToken("usdc", "USDC", usdcMainnet, older),
				testToken("usdc-dup", "USDC2", usdcMainnet, newer),
			},
			conflicts:  []string{"", "usdc"},
			served:     []string{"usdc"},
			deleteName: "usdc", servedThen: []string{"usdc-dup"},
		},
		{
			name: "same address, newer first: the older still wins",
			upserts: []Token{
				testToken("usdc-dup", "USDC2", usdcMainnet, newer),
				testToken("usdc", "USDC", usdcMainnet, older),
			},
			conflicts:  []string{"", ""},
			served:     []string{"usdc"},
			deleteName: "usdc", servedThen: []string{"usdc-dup"},
		},
		{
			name: "same address in another case is the same address",
			upserts: []Token{
				testToken("usdc", "USDC", usdcMainnet, older),
				testToken("usdc-lower", "USDC2", "eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", newer),
			},
			conflicts:  []string{"", "usdc"},
			served:     []string{"usdc"},
			deleteName: "usdc-lower", servedThen: []string{"usdc"},
		},
		{
			name: "same symbol without case",
			upserts: []Token{
				testToken("weth", "WETH", wethMainnet, older),
				testToken("weth-fake", "weth", daiMainnet, newer),
			},
			conflicts:  []string{"", "weth"},
			served:     []string{"weth"},
			deleteName: "weth", servedThen: []string{"weth-fake"},
		},
		{
			name: "same symbol on another chain is no conflict",
			upserts: []Token{
				testToken("usdc", "USDC", usdcMainnet, older),
				testToken("usdc-base", "USDC", "eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", newer),
			},
			conflicts:  []string{"", ""},
			served:     []string{"usdc", "usdc-base"},
			deleteName: "usdc", servedThen: []string{"usdc-base"},
		},
		{
			name: "a definition that lost does not block a third",
			upserts: []Token{
				testToken("a", "AAA", usdcMainnet, older),
				testToken("b", "BBB", usdcMainnet, newer),                  // loses to a (address)
				testToken("c", "BBB", wethMainnet, newer.Add(time.Second)), // same symbol as b, which is not served
			},
			conflicts:  []string{"", "a", ""},
			served:     []string{"a", "c"},
			deleteName: "a", servedThen: []string{"b"}, // b is older than c and now takes BBB
		},
		{
			name: "same age: the smaller name wins",
			upserts: []Token{
				testToken("z", "USDC", usdcMainnet, older),
				testToken("m", "USDC", usdcMainnet, older),
			},
			conflicts:  []string{"", ""},
			served:     []string{"m"},
			deleteName: "m", servedThen: []string{"z"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewTokenRegistry()
			for i, tok := range tt.upserts {
				if got := r.Upsert(tok); got != tt.conflicts[i] {
					t.Errorf("Upsert(%s) conflict = %q, want %q", tok.Name, got, tt.conflicts[i])
				}
			}
			if got := servedNames(r); !slices.Equal(got, tt.served) {
				t.Errorf("served = %v, want %v", got, tt.served)
			}
			r.Delete(tt.deleteName)
			if got := servedNames(r); !slices.Equal(got, tt.servedThen) {
				t.Errorf("after deleting %s: served = %v, want %v", tt.deleteName, got, tt.servedThen)
			}
		})
	}
}

func TestTokenRegistryLookups(t *testing.T) {
	r := NewTokenRegistry()
	meta := "ipfs://meta"
	usdc := testToken("usdc", "USDC", "eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", t0)
	usdc.Metadata = &meta
	r.Upsert(usdc)
	r.Upsert(testToken("weth", "WETH", wethMainnet, t0))
	r.Upsert(testToken("eth", "ETH", "eip155:1:"+NativeTokenAddress, t0))
	r.Upsert(testToken("usdc-op", "USDC", "eip155:10:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", t0))
	r.Upsert(testToken("usdc-base", "USDC", "eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", t0))

	var order []string
	for _, tok := range r.List() {
		order = append(order, tok.ChainID+"/"+tok.Symbol)
	}
	if want := []string{"eip155:1/ETH", "eip155:1/USDC", "eip155:1/WETH", "eip155:10/USDC", "eip155:8453/USDC"}; !slices.Equal(order, want) {
		t.Errorf("List order = %v, want %v", order, want)
	}
	if got := len(r.ByChain("eip155:1")); got != 3 {
		t.Errorf("ByChain(eip155:1) has %d tokens, want 3", got)
	}
	if got := r.ByChain("eip155:5"); len(got) != 0 {
		t.Errorf("ByChain(unknown) = %v", got)
	}

	lookups := []struct {
		address string
		want    string
	}{
		{usdcMainnet, "usdc"}, // the registry stored the lowercase address in EIP-55 form
		{"eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "usdc"},
		{"eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "eth"},
		{"eip155:10:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", ""}, // right address, wrong chain
		{"garbage", ""},
	}
	for _, l := range lookups {
		tok, ok := r.ByAddress(l.address)
		if tok.Name != l.want || ok != (l.want != "") {
			t.Errorf("ByAddress(%s) = %q, %v; want %q", l.address, tok.Name, ok, l.want)
		}
	}
	if tok, _ := r.ByAddress(usdcMainnet); tok.Address != usdcMainnet || tok.Metadata == nil || *tok.Metadata != meta {
		t.Errorf("ByAddress returned %+v", tok)
	}
	if tok, ok := r.BySymbol("eip155:1", "usdc"); !ok || tok.Name != "usdc" {
		t.Errorf("BySymbol(eip155:1, usdc) = %q, %v", tok.Name, ok)
	}
	if _, ok := r.BySymbol("eip155:5", "USDC"); ok {
		t.Error("BySymbol found a token on an unknown chain")
	}
}

func TestTokenRegistryVersionAndListeners(t *testing.T) {
	r := NewTokenRegistry()
	changes := 0
	var conflictChains [][]string
	r.OnChange(func() { changes++ })
	r.OnConflictChange(func(ids []string) { conflictChains = append(conflictChains, ids) })

	r.Upsert(testToken("usdc", "USDC", usdcMainnet, t0))
	r.Upsert(testToken("usdc", "USDC", usdcMainnet, t0)) // no-op
	if changes != 1 || r.Version() != 1 {
		t.Fatalf("after a no-op upsert: changes = %d, version = %d; want 1, 1", changes, r.Version())
	}
	r.Upsert(testToken("usdc-dup", "USDC", usdcMainnet, t0.Add(time.Second))) // loses: served set unchanged
	if changes != 1 || r.Version() != 1 {
		t.Errorf("a losing definition changed the served set: changes = %d", changes)
	}
	if len(conflictChains) != 0 {
		t.Errorf("conflict listeners told %v; only the written definition changed", conflictChains)
	}
	r.Delete("usdc") // usdc-dup is served now: its controller must hear of it
	if changes != 2 || r.Version() != 2 {
		t.Errorf("changes = %d, version = %d; want 2, 2", changes, r.Version())
	}
	if want := [][]string{{"eip155:1"}}; !slices.EqualFunc(conflictChains, want, slices.Equal) {
		t.Errorf("conflict notifications = %v, want %v", conflictChains, want)
	}
	// An older definition arriving late demotes the served one.
	r.Upsert(testToken("usdc-old", "USDC", usdcMainnet, t0.Add(-time.Hour)))
	if want := [][]string{{"eip155:1"}, {"eip155:1"}}; !slices.EqualFunc(conflictChains, want, slices.Equal) {
		t.Errorf("conflict notifications = %v, want %v", conflictChains, want)
	}
	if tok, _ := r.ByAddress(usdcMainnet); tok.Name != "usdc-old" {
		t.Errorf("served %q, want usdc-old", tok.Name)
	}
}

func TestTokenRegistryConcurrentReaders(t *testing.T) {
	r := NewTokenRegistry()
	r.Upsert(testToken("usdc", "USDC", usdcMainnet, t0))
	readDuringWrites(t, 300, func() error {
		if tok, ok := r.ByAddress(usdcMainnet); !ok || tok.Name != "usdc" {
			return errors.New("usdc missing during writes")
		}
		if !slices.IsSortedFunc(r.List(), compareServedTokens) {
			return errors.New("List not sorted")
		}
		_ = r.ByChain("eip155:8453")
		return nil
	}, func(i int) {
		name := fmt.Sprintf("t%d", i%20)
		r.Upsert(testToken(name, "T"+name, fmt.Sprintf("eip155:8453:0x%040x", i%20+1), t0.Add(time.Duration(i))))
		if i%4 == 0 {
			r.Delete(name)
		}
	})
}

func BenchmarkTokenRegistryList(b *testing.B) {
	r := NewTokenRegistry()
	for i := range 200 {
		r.Upsert(testToken(fmt.Sprintf("t%d", i), fmt.Sprintf("T%d", i), fmt.Sprintf("eip155:%d:0x%040x", i%10+1, i+1), t0))
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := 0
		for pb.Next() {
			n += len(r.List())
		}
		_ = n
	})
}

// A token whose price feed alone changed is republished: the simulation reads the new feed.
func TestTokenEqualSeesThePriceFeed(t *testing.T) {
	feed := PriceFeed{Address: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", Decimals: 8, MaxAge: time.Hour}
	a := Token{Symbol: "USDC", ChainID: "eip155:1", Address: "eip155:1:" + usdcMainnet, PriceFeed: &feed}
	b := a
	longer := feed
	longer.MaxAge = 2 * time.Hour
	b.PriceFeed = &longer
	if tokenEqual(a, b) {
		t.Error("tokenEqual ignores the feed's maxAge")
	}
	b.PriceFeed = nil
	if tokenEqual(a, b) {
		t.Error("tokenEqual ignores a removed feed")
	}
	same := feed
	b.PriceFeed = &same
	if !tokenEqual(a, b) {
		t.Error("tokenEqual compares the feed's pointer, not its value")
	}
}

// A token whose declared maximum alone changed is republished: the simulation refuses by it.
func TestTokenEqualSeesTheMaxAmount(t *testing.T) {
	a := Token{Symbol: "USDC", ChainID: "eip155:1", Address: usdcMainnet, MaxAmount: big.NewInt(1_000_000)}
	b := a
	b.MaxAmount = big.NewInt(2_000_000)
	if tokenEqual(a, b) {
		t.Error("tokenEqual ignores a changed maxAmount")
	}
	b.MaxAmount = nil
	if tokenEqual(a, b) {
		t.Error("tokenEqual ignores a removed maxAmount")
	}
	b.MaxAmount = big.NewInt(1_000_000)
	if !tokenEqual(a, b) {
		t.Error("tokenEqual compares maxAmount's pointer, not its value")
	}
}
