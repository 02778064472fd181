package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

func TestTransferBadRequests(t *testing.T) {
	h := newTransferHarness(t)
	ok := usdcTransfer()
	cases := []struct {
		name, body, field, mentions string
	}{
		{"malformed JSON", `{"from":`, "", "not valid JSON"},
		{"not an object", `["from"]`, "", "JSON object"},
		{"null", `null`, "", "JSON object"},
		{"two objects", ok.String() + ok.String(), "", "exactly one"},
		{"unknown field", ok.with("memo", "hi").String(), "memo", `"memo"`},
		{"field names are exact", strings.Replace(ok.String(), `"from"`, `"From"`, 1), "From", `"From"`},
		{"amount is a number", ok.with("amount", 12.5).String(), "amount", "amount"},
		{"from is null", strings.Replace(ok.String(), `"from":"`+caip10(sepolia, aliceAddr)+`"`, `"from":null`, 1), "from", "from"},
		{"missing to", ok.with("to", nil).String(), "to", "to"},
		{"missing amount", ok.with("amount", nil).String(), "amount", "amount"},
		{"missing asset", ok.with("asset", nil).String(), "asset", "asset"},
		{"asset is a number", ok.with("asset", 7).String(), "asset", "asset"},
		{"asset object with an unknown member", ok.with("asset", map[string]string{"in": "x", "out": "y", "via": "z"}).String(), "asset", "asset"},
		{"malformed CAIP-10", ok.with("to", "eip155:11155111").String(), "to", "to"},
		{"bad EIP-55 checksum", ok.with("to", sepolia+":0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed").String(), "to", "to"},
		{"deadline not RFC 3339", ok.with("deadline", "tomorrow").String(), "deadline", "deadline"},
		{"callData not hex", ok.with("callData", "cafe").String(), "callData", "callData"},
	}
	for _, path := range []string{simulatePath, transfersPath} {
		for _, tc := range cases {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				resp, body := h.post(t, path, testKeyA, tc.body)
				p := assertProblem(t, resp, body, problem.BadRequest, path)
				if !strings.Contains(p.Detail, tc.mentions) {
					t.Fatalf("detail %q does not mention %q", p.Detail, tc.mentions)
				}
				if tc.field != "" && p.Details["field"] != tc.field {
					t.Fatalf("details %v, want field %q", p.Details, tc.field)
				}
			})
		}
	}
}

func TestTransferMediaTypeAndSize(t *testing.T) {
	h := newTransferHarness(t, func(c *transferConfig) { c.opts = func(o *Options) { o.MaxBodyBytes = 1024 } })
	for _, path := range []string{simulatePath, transfersPath} {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/jsonx"} {
			hdr := withKey(testKeyA)
			if ct != "" {
				hdr.Set("Content-Type", ct)
			}
			resp, body := h.do(t, http.MethodPost, path, hdr, usdcTransfer().String())
			assertProblem(t, resp, body, problem.UnsupportedMediaType, path)
		}
		resp, body := h.post(t, path, testKeyA, usdcTransfer().String(), "Content-Type", "application/json; charset=utf-8")
		if resp.StatusCode >= 300 {
			t.Fatalf("%s with charset: %d %s", path, resp.StatusCode, body)
		}
		big := usdcTransfer().with("callData", "0x"+strings.Repeat("ab", 1024)).String()
		resp, body = h.post(t, path, testKeyA, big)
		assertProblem(t, resp, body, problem.PayloadTooLarge, path)
	}
}

func TestChainNotAllowedForKeyEnvironment(t *testing.T) {
	h := newTransferHarness(t)
	cases := []struct {
		name    string
		key     string
		body    transferBody
		chainID float64
		keyEnv  string
	}{
		{"test key on mainnet", testKeyA, transferBody{"from": caip10(mainnet, aliceAddr), "to": caip10(mainnet, bobAddr),
			"asset": caip10(mainnet, usdcMainnet), "amount": "1"}, 1, "test"},
		{"test key bridging to mainnet", testKeyA, usdcTransfer().with("to", caip10(mainnet, bobAddr)), 1, "test"},
		{"live key on Sepolia", testLiveKey, usdcTransfer(), 11155111, "live"},
	}
	for _, path := range []string{simulatePath, transfersPath} {
		for _, tc := range cases {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				resp, body := h.post(t, path, tc.key, tc.body.String())
				p := assertProblem(t, resp, body, problem.ChainNotAllowedForKeyEnvironment, path)
				if p.Details["chainId"] != tc.chainID || p.Details["keyEnv"] != tc.keyEnv {
					t.Fatalf("details %v, want chainId %v keyEnv %s", p.Details, tc.chainID, tc.keyEnv)
				}
				if !strings.Contains(string(body), fmt.Sprintf(`"chainId":%d`, int64(tc.chainID))) {
					t.Fatalf("chainId is not a JSON number: %s", body)
				}
			})
		}
	}
}

// Every string member of the field lists has its place in a request: stringField panics on one
// that has none, and a request that named it would answer 500.
func TestEveryStringMemberHasAField(t *testing.T) {
	var req intent.Request
	seen := map[*string]string{}
	for _, name := range slices.Concat(transferRequestFields, createOnlyFields) {
		if name == "asset" || name == "slippageBps" || name == "gasOnArrival" || name == "fee" {
			continue
		}
		p := stringField(&req, name)
		if other, dup := seen[p]; dup {
			t.Errorf("%s and %s share a field", name, other)
		}
		seen[p] = name
	}
}

// A string member is read as encoding/json reads it, escapes and all.
func TestJSONString(t *testing.T) {
	for raw, want := range map[string]string{`"abc"`: "abc", `""`: "", `"a\"b"`: `a"b`, `"\u00e9"`: "é", `"é"`: "é"} {
		if got, ok := jsonString(json.RawMessage(raw)); !ok || got != want {
			t.Errorf("jsonString(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
	for _, raw := range []string{`1`, `null`, `{}`, `"`, `["a"]`} {
		if got, ok := jsonString(json.RawMessage(raw)); ok {
			t.Errorf("jsonString(%s) = %q; want not a string", raw, got)
		}
	}
}
