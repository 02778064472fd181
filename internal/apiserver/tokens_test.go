package apiserver

import (
	"net/http"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

type registryKeyAlias = registry.Key

func TestListTokens(t *testing.T) {
	h := newHarness(t)
	cases := []struct{ path, want string }{
		{"/v2/tokens", `[{"symbol":"USDC","chainId":"eip155:1","address":"eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","decimals":6,"metadata":"https://example.test/usdc.json"},` +
			`{"symbol":"WETH","chainId":"eip155:1","address":"eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2","decimals":18,"metadata":null},` +
			`{"symbol":"USDC","chainId":"eip155:8453","address":"eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","decimals":6,"metadata":null}]`},
		{"/v2/tokens?chain-id=eip155:8453", `[{"symbol":"USDC","chainId":"eip155:8453","address":"eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","decimals":6,"metadata":null}]`},
		{"/v2/tokens?chain-id=eip155:999", `[]`},
	}
	for _, tc := range cases {
		resp, body := h.do(t, http.MethodGet, tc.path, withKey(testKeyA), "")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || string(body) != tc.want {
			t.Fatalf("%s: %d %s %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
}

func TestListTokensBadChainID(t *testing.T) {
	h := newHarness(t)
	for _, q := range []string{"chain-id=", "chain-id=eip155", "chain-id=EIP155:1", "chain-id=eip155:1:0xabc"} {
		resp, body := h.do(t, http.MethodGet, "/v2/tokens?"+q, withKey(testKeyA), "")
		p := assertProblem(t, resp, body, problem.BadRequest, "/v2/tokens?"+q)
		if p.Details["parameter"] != "chain-id" {
			t.Fatalf("%s: details %v do not name the parameter", q, p.Details)
		}
	}
}

func TestTokenSnapshotFollowsRegistry(t *testing.T) {
	h := newHarness(t)
	h.tokens.set(sampleTokens()[:1])
	_, body := h.do(t, http.MethodGet, "/v2/tokens?chain-id=eip155:8453", withKey(testKeyA), "")
	if string(body) != "[]" {
		t.Fatalf("removed token still served: %s", body)
	}
}
