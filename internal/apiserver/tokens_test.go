package apiserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
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
	for _, q := range []string{"chain-id=", "chain-id=eip155", "chain-id=EIP155:1", "chain-id=eip155:1:0xabc",
		"chain-id=eip155:01", "chain-id=eip155:0"} {
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

func TestListTokensPaging(t *testing.T) {
	h := newHarness(t)
	var got []string
	path := "/v2/tokens?limit=2"
	for pages := 0; path != ""; pages++ {
		if pages > 3 {
			t.Fatal("paging does not end")
		}
		resp, body := h.do(t, http.MethodGet, path, withKey(testKeyA), "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		var items []map[string]any
		if err := json.Unmarshal(body, &items); err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			got = append(got, it["address"].(string))
		}
		path = ""
		if link := resp.Header.Get("Link"); link != "" {
			m := regexp.MustCompile(`^<` + regexp.QuoteMeta(testBaseURL) + `([^>]+)>; rel="next"$`).FindStringSubmatch(link)
			if m == nil {
				t.Fatalf("Link %q", link)
			}
			path = m[1]
		}
	}
	var want []string
	for _, tk := range sampleTokens() {
		want = append(want, tk.Address)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paged %v, want %v", got, want)
	}
}

func TestListTokensPagingSurvivesRemovals(t *testing.T) {
	h := newHarness(t)
	resp, _ := h.do(t, http.MethodGet, "/v2/tokens?limit=1", withKey(testKeyA), "")
	link := resp.Header.Get("Link")
	next, err := url.Parse(link[1:strings.Index(link, ">")])
	if err != nil {
		t.Fatal(err)
	}
	cursor := next.Query().Get("cursor")
	// The item the cursor points after is removed: the next page still starts at the right place.
	h.tokens.set(sampleTokens()[1:])
	_, body := h.do(t, http.MethodGet, "/v2/tokens?limit=1&cursor="+cursor, withKey(testKeyA), "")
	if !strings.Contains(string(body), "WETH") {
		t.Fatalf("page after a removed cursor item: %s", body)
	}
}

func TestListTokensBadPaging(t *testing.T) {
	h := newHarness(t)
	for q, param := range map[string]string{
		"limit=0": "limit", "limit=101": "limit", "limit=x": "limit", "limit=1&limit=2": "limit",
		"cursor=%21%21": "cursor", "cursor=" + encodeCursor("only-one-field"): "cursor",
	} {
		resp, body := h.do(t, http.MethodGet, "/v2/tokens?"+q, withKey(testKeyA), "")
		p := assertProblem(t, resp, body, problem.BadRequest, "/v2/tokens?"+q)
		if p.Details["parameter"] != param {
			t.Fatalf("%s: details %v", q, p.Details)
		}
	}
}
