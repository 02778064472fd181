package filler

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr/testr"

	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// The reference filler's quote endpoint answers a signed request for a route it serves with its
// price at the request's floor (its premium over it), and nothing else: 204 for another chain, a
// token it does not hold enough of, or a floor it cannot price; 401 for a request not signed with
// its Filler's secret.
func TestQuoteEndpoint(t *testing.T) {
	c := newGaslessChain(t, 1338)
	key := newTestKey(t)
	c.dev.Mint(t, c.token, crypto.PubkeyToAddress(key.PublicKey), big.NewInt(1_000_000_000))
	f := &Filler{Key: key, Chains: map[uint64]*Chain{1338: c.filler}, Log: testr.New(t),
		Quote: Premium(40)}
	secret, err := signing.NewSecret(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&QuoteEndpoint{Filler: f, Secrets: []string{secret}})
	t.Cleanup(srv.Close)

	ask := func(secret string, toChain uint64, token, floor, drop string) (int, quoteAnswer) {
		t.Helper()
		fields := map[string]any{
			"requestId": "01JQUOTE", "fromChainId": 1337, "toChainId": toChain, "tokenOut": token, "minAmountOut": floor,
		}
		if drop != "" {
			fields["nativeDropAmount"] = drop
		}
		body, _ := json.Marshal(fields)
		header, err := signing.Sign("01JQUOTE", time.Now(), body, secret)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, bytes.NewReader(body))
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var ans quoteAnswer
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal(raw, &ans); err != nil {
				t.Fatalf("quote %q: %v", raw, err)
			}
		}
		return resp.StatusCode, ans
	}
	token := fmt.Sprintf("eip155:1338:%s", c.token.Hex())

	status, ans := ask(secret, 1338, token, "100000000", "")
	if status != http.StatusOK || ans.RequestID != "01JQUOTE" || ans.AmountOut != "100400000" ||
		ans.Filler != crypto.PubkeyToAddress(key.PublicKey).Hex() {
		t.Errorf("a served route: %d %+v; want 200 with 100,400,000 (40 bps over the floor) from the filler", status, ans)
	}
	other, _ := signing.NewSecret(rand.Reader)
	for name, tt := range map[string]struct {
		secret, token, floor, drop string
		chain                      uint64
		want                       int
	}{
		"another secret":                     {other, token, "100000000", "", 1338, http.StatusUnauthorized},
		"another chain":                      {secret, token, "100000000", "", 1, http.StatusNoContent},
		"a token of another chain":           {secret, fmt.Sprintf("eip155:1337:%s", c.token.Hex()), "100000000", "", 1338, http.StatusNoContent},
		"beyond its inventory":               {secret, token, "999999999", "", 1338, http.StatusNoContent},
		"no floor":                           {secret, token, "x", "", 1338, http.StatusNoContent},
		"a native drop within its bound":     {secret, token, "100000000", DefaultMaxNativeDrop.String(), 1338, http.StatusOK},
		"a native drop above its bound":      {secret, token, "100000000", new(big.Int).Add(DefaultMaxNativeDrop, big.NewInt(1)).String(), 1338, http.StatusNoContent},
		"a native drop that is not a number": {secret, token, "100000000", "0x10", 1338, http.StatusNoContent},
	} {
		if got, _ := ask(tt.secret, tt.chain, tt.token, tt.floor, tt.drop); got != tt.want {
			t.Errorf("%s: %d; want %d", name, got, tt.want)
		}
	}
}

// An exact output's request for quotes is answered with the input asked: the filler's premium
// inverted (the most escrowed less 40 bps, rounded up), at most the escrow, and only when it holds
// the exact output.
func TestQuoteEndpointAsksTheInputOfAnExactOutput(t *testing.T) {
	c := newGaslessChain(t, 1338)
	key := newTestKey(t)
	c.dev.Mint(t, c.token, crypto.PubkeyToAddress(key.PublicKey), big.NewInt(1_000_000_000))
	f := &Filler{Key: key, Chains: map[uint64]*Chain{1338: c.filler}, Log: testr.New(t), Quote: Premium(40)}
	secret, err := signing.NewSecret(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&QuoteEndpoint{Filler: f, Secrets: []string{secret}})
	t.Cleanup(srv.Close)
	ask := func(amountOut, amountIn string) (int, map[string]any) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"requestId": "01JEXACT", "fromChainId": 1337, "toChainId": 1338,
			"tokenOut": fmt.Sprintf("eip155:1338:%s", c.token.Hex()), "tradeType": "exactOutput",
			"amountOut": amountOut, "minAmountOut": amountOut, "amountIn": amountIn})
		header, err := signing.Sign("01JEXACT", time.Now(), body, secret)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, bytes.NewReader(body))
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var ans map[string]any
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal(raw, &ans); err != nil {
				t.Fatalf("quote %q: %v", raw, err)
			}
		}
		return resp.StatusCode, ans
	}
	// 100 out for at most 1,000,000 in: it would deliver 100.4 for that, so it asks
	// ceil(1,000,000 x 100,000,000 / 100,400,000) = 996,016.
	status, ans := ask("100000000", "1000000")
	if status != http.StatusOK || ans["amountIn"] != "996016" || ans["amountOut"] != nil || ans["requestId"] != "01JEXACT" {
		t.Fatalf("an exact output: %d %v; want 200 asking amountIn 996016 and no amountOut", status, ans)
	}
	if status, _ := ask("999999999", "1000000"); status != http.StatusNoContent {
		t.Errorf("an exact output beyond its inventory: %d; want 204", status)
	}
	if status, _ := ask("100000000", "x"); status != http.StatusNoContent {
		t.Errorf("no escrow: %d; want 204", status)
	}
}
