package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const (
	simulatePath  = "/v2/transfers/simulate"
	transfersPath = "/v2/transfers"
)

// Inference and resolvedPath (docs/decisions.md) through simulation and creation.
func TestTransferTypesThroughTheAPI(t *testing.T) {
	native := registry.NativeTokenAddress
	cases := []struct {
		name    string
		body    transferBody
		typ     string
		path    []string
		txTo    string
		txValue string
	}{
		{"ERC-20 transfer", usdcTransfer(), "transfer", []string{"transfer"}, eip55(usdcSepolia), "0"},
		{"native transfer", usdcTransfer().with("asset", caip10(sepolia, native), "amount", "0.5"),
			"transfer", []string{"transfer"}, eip55(bobAddr), "500000000000000000"},
		{"same-asset pair is a transfer", usdcTransfer().with("asset", map[string]string{"in": caip10(sepolia, usdcSepolia), "out": caip10(sepolia, usdcSepolia)}),
			"transfer", []string{"transfer"}, eip55(usdcSepolia), "0"},
		{"swap", usdcTransfer().with("asset", map[string]string{"in": caip10(sepolia, usdcSepolia), "out": caip10(sepolia, wethSepolia)}),
			"swap", []string{"swap"}, settleA, "0"},
		{"bridge", usdcTransfer().with("to", caip10(baseSepolia, bobAddr)),
			"bridge", []string{"bridge"}, settleA, "0"},
		{"swap and bridge", usdcTransfer().with("to", caip10(baseSepolia, bobAddr),
			"asset", map[string]string{"in": caip10(sepolia, usdcSepolia), "out": caip10(baseSepolia, native)}),
			"bridge", []string{"swap", "bridge"}, settleA, "0"},
	}
	h := newTransferHarness(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.post(t, simulatePath, testKeyA, tc.body.String())
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("simulate: %d %s", resp.StatusCode, body)
			}
			sim := decodeJSON[intent.SimulationResult](t, body)
			if !sim.Valid || len(sim.Errors) != 0 || sim.Tx == nil {
				t.Fatalf("simulation not valid: %s", body)
			}
			if got := stepsOf(sim.ResolvedPath); !slices.Equal(got, tc.path) {
				t.Fatalf("resolvedPath %v, want %v", got, tc.path)
			}
			if sim.Tx.To != tc.txTo || sim.Tx.Value != tc.txValue || sim.Tx.ChainID != 11155111 {
				t.Fatalf("tx %+v, want to %s value %s on 11155111", sim.Tx, tc.txTo, tc.txValue)
			}

			resp, body = h.post(t, transfersPath, testKeyA, tc.body.String())
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("create: %d %s", resp.StatusCode, body)
			}
			rec := decodeJSON[transferIntentJSON](t, body)
			if string(rec.Type) != tc.typ || rec.Status != v1alpha1.IntentPhasePending || rec.Environment != v1alpha1.EnvironmentTest {
				t.Fatalf("record type %s status %s env %s", rec.Type, rec.Status, rec.Environment)
			}
			if got := typesOf(rec.ResolvedPath); !slices.Equal(got, tc.path) {
				t.Fatalf("record resolvedPath %v, want %v", got, tc.path)
			}
			if rec.Tx.To != tc.txTo || rec.Tx.Value != tc.txValue || rec.Metadata.ChainID != sepolia {
				t.Fatalf("record tx %+v metadata %+v", rec.Tx, rec.Metadata)
			}
			if loc := resp.Header.Get("Location"); loc != testBaseURL+"/v2/transfers/"+rec.ID {
				t.Fatalf("Location %q", loc)
			}

			resp, got := h.do(t, http.MethodGet, "/v2/transfers/"+rec.ID, withKey(testKeyA), "")
			if resp.StatusCode != http.StatusOK || string(got) != string(body) {
				t.Fatalf("GET after create: %d\n%s\nwant\n%s", resp.StatusCode, got, body)
			}
		})
	}
}

func stepsOf(path []intent.Step) []string {
	out := []string{}
	for _, s := range path {
		out = append(out, string(s))
	}
	return out
}

func typesOf(path []v1alpha1.IntentType) []string {
	out := []string{}
	for _, s := range path {
		out = append(out, string(s))
	}
	return out
}

func TestCreatedIntentIsStoredWithItsLabelsAndSpec(t *testing.T) {
	h := newTransferHarness(t)
	deadline := h.clock.Now().Add(10 * time.Minute)
	resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().with("deadline", deadline.Format(time.RFC3339)).String())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	rec := decodeJSON[transferIntentJSON](t, body)
	name, _ := intent.ObjectNameFromID(rec.ID)
	var obj v1alpha1.TransferIntent
	if err := h.kube.Get(context.Background(), client.ObjectKey{Namespace: testNamespace, Name: name}, &obj); err != nil {
		t.Fatal(err)
	}
	wantLabels := map[string]string{v1alpha1.LabelAccount: "alice", v1alpha1.LabelType: "transfer", v1alpha1.LabelStatus: "pending"}
	for k, v := range wantLabels {
		if obj.Labels[k] != v {
			t.Fatalf("label %s=%q, want %q (labels %v)", k, obj.Labels[k], v, obj.Labels)
		}
	}
	s := obj.Spec
	if s.ID != rec.ID || s.AccountRef.Name != "alice" || s.APIKeyRef == nil || s.APIKeyRef.Name != "key-a" ||
		s.Environment != v1alpha1.EnvironmentTest || s.Type != v1alpha1.IntentTypeTransfer ||
		s.FromChain != sepolia || s.ToChain != sepolia || s.OrderID != rec.OrderID || s.Tx == nil ||
		!s.ExpiresAt.Time.Equal(deadline) || s.Request.Deadline == nil || !s.Request.Deadline.Time.Equal(deadline) ||
		!regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(s.RequestHash) || s.IdempotencyKeyHash != "" {
		t.Fatalf("spec %+v", s)
	}
	if rec.ExpiresAt != deadline.Format(time.RFC3339Nano) || rec.Request.Deadline != deadline.Format(time.RFC3339) {
		t.Fatalf("record expiresAt %s deadline %s, want %s", rec.ExpiresAt, rec.Request.Deadline, deadline)
	}

	// Without a deadline the intent expires after the default TTL.
	_, body = h.post(t, transfersPath, testKeyA, usdcTransfer().String())
	rec = decodeJSON[transferIntentJSON](t, body)
	if want := h.clock.Now().Add(intent.DefaultIntentTTL).Format(time.RFC3339Nano); rec.ExpiresAt != want {
		t.Fatalf("expiresAt %s, want %s", rec.ExpiresAt, want)
	}
}

// valid:false is for a well-formed request the client can fix; creation refuses such an intent.
func TestInvalidIntentsAreValidFalseAndNotStored(t *testing.T) {
	h := newTransferHarness(t)
	cases := map[string]transferBody{
		"swap without a route": usdcTransfer().with("from", caip10(arbSepolia, aliceAddr), "to", caip10(arbSepolia, bobAddr),
			"asset", map[string]string{"in": caip10(arbSepolia, usdcArbSepolia), "out": caip10(arbSepolia, registry.NativeTokenAddress)}),
		"callData on an ERC-20 transfer": usdcTransfer().with("callData", "0xcafe"),
		"deadline before settlement":     usdcTransfer().with("deadline", h.clock.Now().Add(5*time.Second).Format(time.RFC3339)),
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			resp, got := h.post(t, simulatePath, testKeyA, body.String())
			sim := decodeJSON[intent.SimulationResult](t, got)
			if resp.StatusCode != http.StatusOK || sim.Valid || len(sim.Errors) == 0 || sim.Tx != nil {
				t.Fatalf("%d %s", resp.StatusCode, got)
			}
			resp, got = h.post(t, transfersPath, testKeyA, body.String())
			p := assertProblem(t, resp, got, problem.ValidationFailed, transfersPath)
			if errs, _ := p.Details["errors"].([]any); len(errs) != len(sim.Errors) {
				t.Fatalf("details %v, want the simulation's errors %v", p.Details, sim.Errors)
			}
		})
	}
	if items, _ := h.store.List(intentstore.Owner{Account: "alice", Environment: v1alpha1.EnvironmentTest}, "", "", 100); len(items) != 0 {
		t.Fatalf("invalid intents were stored: %v", items)
	}
}

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

func TestTransferAuthentication(t *testing.T) {
	h := newTransferHarness(t)
	requests := []struct{ method, path string }{
		{http.MethodPost, simulatePath}, {http.MethodPost, transfersPath},
		{http.MethodGet, transfersPath}, {http.MethodGet, "/v2/transfers/int_transfer_01J9Z3Q0S4M8V6X2T7K5N1R3PB"},
	}
	for _, rq := range requests {
		hdr := http.Header{"Content-Type": {"application/json"}}
		resp, body := h.do(t, rq.method, rq.path, hdr, usdcTransfer().String())
		assertProblem(t, resp, body, problem.MissingAPIKey, rq.path)
		hdr.Set(APIKeyHeader, testKey("test", "Z"))
		resp, body = h.do(t, rq.method, rq.path, hdr, usdcTransfer().String())
		assertProblem(t, resp, body, problem.InvalidAPIKey, rq.path)
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

func TestTransferDomainFailures(t *testing.T) {
	h := newTransferHarness(t)
	cases := []struct {
		name  string
		body  transferBody
		want  problem.Type
		field string
	}{
		{"unknown token", usdcTransfer().with("asset", caip10(sepolia, bobAddr)), problem.ValidationFailed, "asset"},
		{"unknown chain", usdcTransfer().with("to", "eip155:999999:"+eip55(bobAddr)), problem.ValidationFailed, "to"},
		{"unsupported namespace", usdcTransfer().with("to", "cosmos:cosmoshub-4:cosmos1abc"), problem.ValidationFailed, "to"},
		{"asset on another chain", usdcTransfer().with("asset", caip10(baseSepolia, usdcBaseSepolia)), problem.ValidationFailed, "asset"},
		{"too many decimals", usdcTransfer().with("amount", "1.0000001"), problem.ValidationFailed, "amount"},
		{"zero amount", usdcTransfer().with("amount", "0"), problem.ValidationFailed, "amount"},
		{"deadline passed", usdcTransfer().with("deadline", "2020-01-01T00:00:00Z"), problem.ValidationFailed, "deadline"},
		{"bridge without a route", usdcTransfer().with("to", caip10(arbSepolia, bobAddr)), problem.CurrencyError, ""},
	}
	for _, path := range []string{simulatePath, transfersPath} {
		for _, tc := range cases {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				resp, body := h.post(t, path, testKeyA, tc.body.String())
				p := assertProblem(t, resp, body, tc.want, path)
				if tc.field != "" && p.Details["field"] != tc.field {
					t.Fatalf("details %v, want field %s", p.Details, tc.field)
				}
			})
		}
	}
}

func TestTransferRateLimited(t *testing.T) {
	h := newTransferHarness(t)
	h.keys.keys[hashOf(testKeyA)] = registry.Key{ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1}
	for _, path := range []string{simulatePath, transfersPath} {
		h.clock.Step(time.Minute)
		if resp, body := h.post(t, path, testKeyA, usdcTransfer().String()); resp.StatusCode >= 300 {
			t.Fatalf("first request: %d %s", resp.StatusCode, body)
		}
		resp, body := h.post(t, path, testKeyA, usdcTransfer().String())
		assertProblem(t, resp, body, problem.RateLimited, path)
		if resp.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
}

func TestTransferServiceFailure(t *testing.T) {
	h := newTransferHarness(t, func(c *transferConfig) {
		c.transfers = func(*intent.Service) TransferService { return failingTransfers{errors.New("chain node unreachable")} }
	})
	for _, path := range []string{simulatePath, transfersPath} {
		resp, body := h.post(t, path, testKeyA, usdcTransfer().String())
		p := assertProblem(t, resp, body, problem.TransferServiceFailure, path)
		if strings.Contains(p.Detail, "unreachable") {
			t.Fatalf("detail leaks the internal error: %q", p.Detail)
		}
	}

	// A store that cannot write is the transfer service failing too.
	h = newTransferHarness(t, func(c *transferConfig) {
		c.funcs = &interceptor.Funcs{Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
			return errors.New("etcdserver: request timed out")
		}}
	})
	resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().String())
	assertProblem(t, resp, body, problem.TransferServiceFailure, transfersPath)
	resp, body = h.post(t, transfersPath, testKeyA, usdcTransfer().String(), IdempotencyKeyHeader, "k1")
	assertProblem(t, resp, body, problem.TransferServiceFailure, transfersPath)
}

func TestGetTransfer(t *testing.T) {
	h := newTransferHarness(t)
	_, body := h.post(t, transfersPath, testKeyA, usdcTransfer().String())
	id := decodeJSON[transferIntentJSON](t, body).ID

	resp, got := h.do(t, http.MethodGet, "/v2/transfers/"+strings.ToLower(id[:len(intent.IntentIDPrefix)])+strings.ToLower(id[len(intent.IntentIDPrefix):]), withKey(testKeyA), "")
	if resp.StatusCode != http.StatusOK || decodeJSON[transferIntentJSON](t, got).ID != id {
		t.Fatalf("lower-case id: %d %s", resp.StatusCode, got)
	}
	for _, tc := range []struct {
		name, key, id string
		want          problem.Type
	}{
		{"another account's intent", testKeyB, id, problem.NotFound},
		{"unknown id", testKeyA, "int_transfer_01J9Z3Q0S4M8V6X2T7K5N1R3PB", problem.NotFound},
		{"malformed id", testKeyA, "int_transfer_nope", problem.BadRequest},
		{"an order id is not an intent id", testKeyA, "0x" + strings.Repeat("ab", 32), problem.BadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/v2/transfers/" + tc.id
			resp, body := h.do(t, http.MethodGet, path, withKey(tc.key), "")
			p := assertProblem(t, resp, body, tc.want, path)
			if tc.want == problem.BadRequest && p.Details["parameter"] != "id" {
				t.Fatalf("details %v", p.Details)
			}
		})
	}
}

func TestIdempotentCreate(t *testing.T) {
	h := newTransferHarness(t)
	body := usdcTransfer().String()
	resp, first := h.post(t, transfersPath, testKeyA, body, IdempotencyKeyHeader, "order-42")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("%d %s", resp.StatusCode, first)
	}
	id := decodeJSON[transferIntentJSON](t, first).ID

	// The same body, spelled differently (lower-case addresses, other member order): a replay.
	respelled := fmt.Sprintf(`{"amount":"12.5","asset":%q,"to":%q,"from":%q}`,
		strings.ToLower(caip10(sepolia, usdcSepolia)), strings.ToLower(caip10(sepolia, bobAddr)), caip10(sepolia, aliceAddr))
	h.clock.Step(time.Second)
	resp, again := h.post(t, transfersPath, testKeyA, respelled, IdempotencyKeyHeader, "order-42")
	if resp.StatusCode != http.StatusOK || string(again) != string(first) {
		t.Fatalf("replay: %d\n%s\nwant\n%s", resp.StatusCode, again, first)
	}
	if resp.Header.Get("Location") != testBaseURL+"/v2/transfers/"+id {
		t.Fatalf("replay Location %q", resp.Header.Get("Location"))
	}

	// Another body under the same key.
	resp, got := h.post(t, transfersPath, testKeyA, usdcTransfer().with("amount", "13").String(), IdempotencyKeyHeader, "order-42")
	p := assertProblem(t, resp, got, problem.ValidationFailed, transfersPath)
	if p.Details["header"] != IdempotencyKeyHeader {
		t.Fatalf("details %v", p.Details)
	}

	// Keys are per account: bob's order-42 is another intent.
	resp, got = h.post(t, transfersPath, testKeyB, body, IdempotencyKeyHeader, "order-42")
	if resp.StatusCode != http.StatusCreated || decodeJSON[transferIntentJSON](t, got).ID == id {
		t.Fatalf("bob: %d %s", resp.StatusCode, got)
	}

	// A replay is answered from the stored intent even when the request would now fail: the
	// client only learns what happened to its first request.
	past := usdcTransfer().with("deadline", h.clock.Now().Add(time.Hour).Format(time.RFC3339))
	resp, created := h.post(t, transfersPath, testKeyA, past.String(), IdempotencyKeyHeader, "with-deadline")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("%d %s", resp.StatusCode, created)
	}
	h.clock.Step(2 * time.Hour)
	resp, got = h.post(t, transfersPath, testKeyA, past.String(), IdempotencyKeyHeader, "with-deadline")
	if resp.StatusCode != http.StatusOK || decodeJSON[transferIntentJSON](t, got).ID != decodeJSON[transferIntentJSON](t, created).ID {
		t.Fatalf("replay after the deadline: %d %s", resp.StatusCode, got)
	}

	for _, bad := range []string{strings.Repeat("k", 256), "tab\there"} {
		resp, got := h.post(t, transfersPath, testKeyA, body, IdempotencyKeyHeader, bad)
		p := assertProblem(t, resp, got, problem.BadRequest, transfersPath)
		if p.Details["header"] != IdempotencyKeyHeader {
			t.Fatalf("details %v", p.Details)
		}
	}
}

// Concurrent retries of one request reach two replicas (two intent stores over one API server).
// Each replica deduplicates its own retries, so only the claim in the API server can stop the
// second replica from creating a second intent. A barrier on the first two claim reads makes both
// replicas see "no claim" before either writes one: the race the claim exists for, every run.
func TestIdempotentCreateConcurrentRetries(t *testing.T) {
	claimReads := newBarrier(2)
	h := newTransferHarness(t, func(c *transferConfig) {
		c.funcs = &interceptor.Funcs{Get: func(ctx context.Context, kube client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			err := kube.Get(ctx, key, obj, opts...)
			if _, isClaim := obj.(*coordinationv1.Lease); isClaim {
				claimReads.arrive()
			}
			return err
		}}
	})
	replicas := []*transferHarness{h, h.replica(t)}
	body := usdcTransfer().String()
	var wg sync.WaitGroup
	statuses := make([]int, 20)
	ids := make([]string, 20)
	for i := range statuses {
		wg.Go(func() {
			r := replicas[i%len(replicas)]
			// A client retries a 409 (the first attempt is still creating), as Retry-After says;
			// bounded in time, not in tries, so that a slow (race-instrumented) run still ends.
			for deadline := time.Now().Add(10 * time.Second); ; {
				resp, got := r.post(t, transfersPath, testKeyA, body, IdempotencyKeyHeader, "burst")
				statuses[i] = resp.StatusCode
				if resp.StatusCode != http.StatusConflict {
					ids[i] = decodeJSON[transferIntentJSON](t, got).ID
					return
				}
				if time.Now().After(deadline) {
					return
				}
			}
		})
	}
	wg.Wait()
	if !claimReads.met() {
		t.Fatal("the two replicas never read the claim concurrently: the race was not recreated")
	}
	created := 0
	for i, s := range statuses {
		if s == http.StatusCreated {
			created++
		} else if s != http.StatusOK {
			t.Fatalf("retry %d: status %d", i, s)
		}
		if ids[i] != ids[0] {
			t.Fatalf("retries returned different intents: %v", ids)
		}
	}
	var list v1alpha1.TransferIntentList
	if err := h.kube.List(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	if created != 1 || len(list.Items) != 1 {
		t.Fatalf("%d created answers, %d stored intents; want 1 and 1", created, len(list.Items))
	}
}

// barrier holds its first n arrivals until all n have arrived (or a bounded wait has passed, so
// a test that never reaches n fails on its assertions instead of hanging); later arrivals pass.
type barrier struct {
	mu      sync.Mutex
	waiting int
	all     chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{waiting: n, all: make(chan struct{})} }

func (b *barrier) arrive() {
	b.mu.Lock()
	if b.waiting == 0 {
		b.mu.Unlock()
		return
	}
	b.waiting--
	if b.waiting == 0 {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.all:
	case <-time.After(5 * time.Second):
	}
}

func (b *barrier) met() bool {
	select {
	case <-b.all:
		return true
	default:
		return false
	}
}

// A claim whose intent does not exist is in progress (409) until ClaimTimeout, then abandoned and
// taken over.
func TestIdempotencyClaimInProgressThenAbandoned(t *testing.T) {
	h := newTransferHarness(t)
	parsed, err := intent.ParseRequest(intent.Request{From: caip10(sepolia, aliceAddr), To: caip10(sepolia, bobAddr),
		Asset: intent.Asset{ID: caip10(sepolia, usdcSepolia)}, Amount: "12.5"})
	if err != nil {
		t.Fatal(err)
	}
	holder := intent.NewIntentID(h.clock.Now())
	now := metav1.NewMicroTime(h.clock.Now())
	claim := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: testNamespace, Name: intentstore.ClaimName(intentstore.IdempotencyKeyHash(intentstore.Owner{Account: "alice", Environment: v1alpha1.EnvironmentTest}, "stuck")),
			Annotations: map[string]string{intentstore.AnnotationRequestHash: intentstore.RequestHash(parsed), intentstore.AnnotationAccount: "alice"},
		},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, AcquireTime: &now},
	}
	if err := h.kube.Create(context.Background(), claim); err != nil {
		t.Fatal(err)
	}
	resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().String(), IdempotencyKeyHeader, "stuck")
	assertProblem(t, resp, body, problem.Conflict, transfersPath)
	// The claim was made just now: the client is told to come back when it may be taken over.
	if want := strconv.Itoa(int(intentstore.DefaultClaimTimeout / time.Second)); resp.Header.Get("Retry-After") != want {
		t.Fatalf("409 Retry-After %q, want %s", resp.Header.Get("Retry-After"), want)
	}
	h.clock.Step(intentstore.DefaultClaimTimeout)
	resp, body = h.post(t, transfersPath, testKeyA, usdcTransfer().String(), IdempotencyKeyHeader, "stuck")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("after the claim timeout: %d %s", resp.StatusCode, body)
	}
	id := decodeJSON[transferIntentJSON](t, body).ID
	if err := h.kube.Get(context.Background(), client.ObjectKeyFromObject(claim), claim); err != nil {
		t.Fatal(err)
	}
	if *claim.Spec.HolderIdentity != id || len(claim.OwnerReferences) != 1 || claim.OwnerReferences[0].Kind != "TransferIntent" {
		t.Fatalf("claim after take-over: holder %s owners %+v, want %s", *claim.Spec.HolderIdentity, claim.OwnerReferences, id)
	}
}

func TestListTransfers(t *testing.T) {
	h := newTransferHarness(t)
	bodies := []transferBody{
		usdcTransfer(),
		usdcTransfer().with("asset", map[string]string{"in": caip10(sepolia, usdcSepolia), "out": caip10(sepolia, wethSepolia)}),
		usdcTransfer().with("to", caip10(baseSepolia, bobAddr)),
		usdcTransfer().with("amount", "1"),
		usdcTransfer().with("amount", "2"),
	}
	var ids []string // oldest first
	for _, b := range bodies {
		h.clock.Step(time.Second)
		resp, body := h.post(t, transfersPath, testKeyA, b.String())
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		ids = append(ids, decodeJSON[transferIntentJSON](t, body).ID)
	}
	newestFirst := slices.Clone(ids)
	slices.Reverse(newestFirst)

	resp, body := h.do(t, http.MethodGet, transfersPath, withKey(testKeyA), "")
	items := decodeJSON[[]map[string]any](t, body)
	if resp.StatusCode != http.StatusOK || len(items) != 5 || resp.Header.Get("Link") != "" {
		t.Fatalf("%d %s (Link %q)", resp.StatusCode, body, resp.Header.Get("Link"))
	}
	for i, it := range items {
		if it["id"] != newestFirst[i] || it["status"] != "pending" || it["metadata"].(map[string]any)["chainId"] != sepolia {
			t.Fatalf("item %d: %v, want id %s", i, it, newestFirst[i])
		}
		for _, f := range []string{"type", "orderId", "createdAt", "updatedAt"} {
			if it[f] == nil {
				t.Fatalf("item %d lacks %s: %v", i, f, it)
			}
		}
	}

	// Paging: 2 + 2 + 1, by the Link header.
	if got := pageThrough(t, h, transfersPath+"?limit=2", testKeyA); !slices.Equal(got, newestFirst) {
		t.Fatalf("paged %v, want %v", got, newestFirst)
	}
	// Filtered.
	for typ, want := range map[string][]string{"transfer": {ids[4], ids[3], ids[0]}, "swap": {ids[1]}, "bridge": {ids[2]}} {
		if got := pageThrough(t, h, transfersPath+"?limit=1&type="+typ, testKeyA); !slices.Equal(got, want) {
			t.Fatalf("type=%s: %v, want %v", typ, got, want)
		}
	}
	// Another account sees none of them.
	if _, body := h.do(t, http.MethodGet, transfersPath, withKey(testKeyB), ""); string(body) != "[]" {
		t.Fatalf("bob's list: %s", body)
	}

	// A status change reaches the list through the informer's update event.
	name, _ := intent.ObjectNameFromID(ids[0])
	var obj v1alpha1.TransferIntent
	if err := h.kube.Get(context.Background(), client.ObjectKey{Namespace: testNamespace, Name: name}, &obj); err != nil {
		t.Fatal(err)
	}
	updated := obj.DeepCopy()
	updated.Status.Phase = v1alpha1.IntentPhaseExpired
	at := metav1.NewTime(h.clock.Now().Add(time.Minute))
	updated.Status.UpdatedAt = &at
	h.store.EventHandler().OnUpdate(&obj, updated)
	_, body = h.do(t, http.MethodGet, transfersPath+"?type=transfer", withKey(testKeyA), "")
	last := decodeJSON[[]map[string]any](t, body)[2]
	if last["id"] != ids[0] || last["status"] != "expired" || last["updatedAt"] != at.UTC().Format(time.RFC3339Nano) {
		t.Fatalf("after the update: %v", last)
	}
	h.store.EventHandler().OnDelete(updated)
	_, body = h.do(t, http.MethodGet, transfersPath+"?type=transfer", withKey(testKeyA), "")
	if n := len(decodeJSON[[]map[string]any](t, body)); n != 2 {
		t.Fatalf("after the delete: %d items", n)
	}
}

// pageThrough follows Link rel="next" and returns the ids in order.
func pageThrough(t *testing.T, h *transferHarness, path, key string) []string {
	t.Helper()
	var ids []string
	for pages := 0; path != ""; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		resp, body := h.do(t, http.MethodGet, path, withKey(key), "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		for _, it := range decodeJSON[[]map[string]any](t, body) {
			ids = append(ids, it["id"].(string))
		}
		path = ""
		if link := resp.Header.Get("Link"); link != "" {
			u, err := url.Parse(strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`))
			if err != nil || !strings.HasPrefix(link, "<"+testBaseURL) {
				t.Fatalf("Link %q", link)
			}
			path = u.RequestURI()
		}
	}
	return ids
}

func TestListTransfersBadParameters(t *testing.T) {
	h := newTransferHarness(t)
	for q, param := range map[string]string{
		"type=payment": "type", "type=": "type", "type=swap&type=bridge": "type",
		"limit=0": "limit", "limit=101": "limit", "limit=ten": "limit",
		"cursor=%21%21": "cursor", "cursor=" + encodeCursor("not-an-id"): "cursor", "cursor=" + encodeCursor("a", "b"): "cursor",
	} {
		path := transfersPath + "?" + q
		resp, body := h.do(t, http.MethodGet, path, withKey(testKeyA), "")
		p := assertProblem(t, resp, body, problem.BadRequest, path)
		if p.Details["parameter"] != param {
			t.Fatalf("%s: details %v", q, p.Details)
		}
	}
}

func TestTransfersUnconfigured(t *testing.T) {
	h := newHarness(t)
	for _, rq := range []struct{ method, path string }{{http.MethodGet, transfersPath}, {http.MethodPost, simulatePath}} {
		hdr := withKey(testKeyA)
		hdr.Set("Content-Type", "application/json")
		resp, body := h.do(t, rq.method, rq.path, hdr, usdcTransfer().String())
		assertProblem(t, resp, body, problem.ServiceUnavailable, rq.path)
	}
}

// Test and live are kept apart as Stripe keeps its modes apart: an account's live key neither
// lists, reads nor idempotency-matches the intents its test key created, and the other way round.
func TestTestAndLiveIntentsAreApart(t *testing.T) {
	h := newTransferHarness(t)
	aliceLive := testKey("live", "D")
	h.keys.keys[hashOf(aliceLive)] = registry.Key{ID: "key-d", Account: "alice", Environment: registry.EnvironmentLive, RateLimitPerMinute: 1000}
	liveBody := transferBody{"from": caip10(mainnet, aliceAddr), "to": caip10(mainnet, bobAddr), "asset": caip10(mainnet, usdcMainnet), "amount": "1"}

	resp, raw := h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String(), "Idempotency-Key", "same-key")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("test create: %d %s", resp.StatusCode, raw)
	}
	testIntent := decodeJSON[struct{ ID string }](t, raw)
	resp, raw = h.post(t, "/v2/transfers", aliceLive, liveBody.String(), "Idempotency-Key", "same-key")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("live create under the test key's Idempotency-Key: %d %s; want a new intent", resp.StatusCode, raw)
	}
	liveIntent := decodeJSON[struct{ ID string }](t, raw)
	if liveIntent.ID == testIntent.ID {
		t.Fatal("the live key's request replayed the test key's intent")
	}

	for _, c := range []struct {
		key, sees, hidden string
	}{{testKeyA, testIntent.ID, liveIntent.ID}, {aliceLive, liveIntent.ID, testIntent.ID}} {
		resp, raw := h.do(t, http.MethodGet, "/v2/transfers", http.Header{APIKeyHeader: {c.key}}, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(raw), c.sees) || strings.Contains(string(raw), c.hidden) {
			t.Errorf("list: %d %s; want %s and not %s", resp.StatusCode, raw, c.sees, c.hidden)
		}
		if resp, _ := h.do(t, http.MethodGet, "/v2/transfers/"+c.hidden, http.Header{APIKeyHeader: {c.key}}, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("reading the other environment's intent: %d, want 404", resp.StatusCode)
		}
	}
}
