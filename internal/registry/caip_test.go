package registry

import (
	"slices"
	"testing"
)

func TestSplitCAIP10(t *testing.T) {
	tests := []struct {
		in             string
		chain, address string
		ok             bool
	}{
		{"eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "eip155:1", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", true},
		{"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv", true},
		{"eip155:1", "", "", false},
		{"eip155:1:", "", "", false},
		{":1:0xabc", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		chain, address, ok := SplitCAIP10(tt.in)
		if chain != tt.chain || address != tt.address || ok != tt.ok {
			t.Errorf("SplitCAIP10(%q) = %q, %q, %v; want %q, %q, %v", tt.in, chain, address, ok, tt.chain, tt.address, tt.ok)
		}
	}
}

func TestNormalizeCAIP10(t *testing.T) {
	const usdc = "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	tests := []struct{ in, want string }{
		{usdc, usdc},
		{"eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", usdc},
		{"eip155:1:0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48", usdc},
		{"eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "eip155:1:" + NativeTokenAddress},
		{"eip155:1:0xabc", "eip155:1:0xabc"}, // not an address: unchanged
		{"cosmos:cosmoshub-4:cosmos1abc", "cosmos:cosmoshub-4:cosmos1abc"},
		{"not-caip", "not-caip"},
	}
	for _, tt := range tests {
		if got := NormalizeCAIP10(tt.in); got != tt.want {
			t.Errorf("NormalizeCAIP10(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCompareChainIDs(t *testing.T) {
	ids := []string{"eip155:8453", "eip155:10", "solana:abc", "eip155:1", "eip155:2", "cosmos:hub", "eip155:11155111", "eip155:x"}
	slices.SortFunc(ids, CompareChainIDs)
	want := []string{"cosmos:hub", "eip155:1", "eip155:2", "eip155:10", "eip155:8453", "eip155:11155111", "eip155:x", "solana:abc"}
	if !slices.Equal(ids, want) {
		t.Errorf("sorted = %v, want %v", ids, want)
	}
}
