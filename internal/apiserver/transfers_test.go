package apiserver

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

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
	wantLabels := map[string]string{v1alpha1.LabelAccount: "alice", v1alpha1.LabelType: "transfer"}
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
	if items, _, _ := h.store.List(context.Background(), intentstore.Owner{Account: "alice", Environment: v1alpha1.EnvironmentTest}, intentstore.Filter{}, "", 100); len(items) != 0 {
		t.Fatalf("invalid intents were stored: %v", items)
	}
}

// A bridge whose destination's settlement contract the Chain controller has not verified (no
// node, or a False SettlementContract condition) is simulated as valid:false, without a tx, and
// its creation is refused with the same reason: nothing goes to an address nobody checked.
func TestBridgeThroughAnUnverifiedSettlementIsRefused(t *testing.T) {
	h := newTransferHarness(t)
	row, _ := h.catalog.Chains.Get(baseSepolia)
	row.SettlementVerified = false
	h.catalog.Chains.Upsert(row.Name, row)
	bridge := usdcTransfer().with("to", caip10(baseSepolia, bobAddr)).String()

	resp, got := h.post(t, simulatePath, testKeyA, bridge)
	sim := decodeJSON[intent.SimulationResult](t, got)
	if resp.StatusCode != http.StatusOK || sim.Valid || sim.Tx != nil || len(sim.Errors) != 1 ||
		!strings.Contains(sim.Errors[0], settleB+" on "+baseSepolia+" is not verified on chain") {
		t.Fatalf("simulate: %d %s; want valid:false, no tx, the unverified contract named", resp.StatusCode, got)
	}
	resp, got = h.post(t, transfersPath, testKeyA, bridge)
	p := assertProblem(t, resp, got, problem.ValidationFailed, transfersPath)
	if errs, _ := p.Details["errors"].([]any); len(errs) != 1 || errs[0] != sim.Errors[0] {
		t.Fatalf("details %v, want the simulation's errors %v", p.Details, sim.Errors)
	}
	if items, _, _ := h.store.List(context.Background(), intentstore.Owner{Account: "alice", Environment: v1alpha1.EnvironmentTest}, intentstore.Filter{}, "", 100); len(items) != 0 {
		t.Fatalf("the refused bridge was stored: %v", items)
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
