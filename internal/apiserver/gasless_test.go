package apiserver

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/orderbook"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// fakeBook records what the handlers ask of the gasless book and answers as told.
type fakeBook struct {
	orders  []orderbook.Order
	listed  []v1alpha1.Environment
	filters []orderbook.Filter
	afters  []*orderbook.Position
	signErr error
	signed  [][]byte
	nonces  int
	// cancelled lists the reasons of the cancels that reached the book.
	cancelled []string
}

func (f *fakeBook) Nonce(context.Context, string, common.Address) ([32]byte, error) {
	f.nonces++
	return intent.NewNonce()
}

func (f *fakeBook) Sign(_ context.Context, ti *v1alpha1.TransferIntent, sig []byte) (*v1alpha1.TransferIntent, error) {
	f.signed = append(f.signed, sig)
	return ti, f.signErr
}

func (f *fakeBook) Cancel(_ context.Context, ti *v1alpha1.TransferIntent, reason string) (*v1alpha1.TransferIntent, error) {
	f.cancelled = append(f.cancelled, reason)
	return ti, nil
}

func (f *fakeBook) List(env v1alpha1.Environment, filter orderbook.Filter, after *orderbook.Position, limit int) ([]orderbook.Order, bool) {
	f.listed, f.filters, f.afters = append(f.listed, env), append(f.filters, filter), append(f.afters, after)
	if len(f.orders) > limit {
		return f.orders[:limit], true
	}
	return f.orders, false
}

var testFillerKey = testKey("test", "F")

// sampleOrder is a well-formed book entry (the handler passes the book's entries through).
func sampleOrder(fill, n string) orderbook.Order {
	addr := common.HexToAddress("0x" + strings.Repeat(fill, 20)).Hex()
	return orderbook.Order{
		OrderID: "0x" + strings.Repeat(fill, 32), Status: v1alpha1.IntentPhaseSigned,
		Type: v1alpha1.IntentTypeBridge, OriginChainID: "eip155:1337", DestinationChainID: "eip155:1338",
		Order: transferrecord.OrderJSON{OriginSettler: addr, User: addr, Nonce: "7", OriginChainID: "1337", OpenDeadline: 1_900_000_000,
			FillDeadline: 1_900_000_100, OrderDataType: "0x" + strings.Repeat("ab", 32), OrderData: "0x00"},
		Signature: "0x" + strings.Repeat("11", 65),
		OpenFor:   v1alpha1.TransactionPayload{To: addr, Data: "0x1234", Value: "0", ChainID: 1337},
		CreatedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(len(n)) * time.Millisecond),
	}
}

func gaslessHarness(t *testing.T, book *fakeBook) *transferHarness {
	t.Helper()
	h := newTransferHarness(t, func(c *transferConfig) { c.gasless = book })
	h.keys.keys[hashOf(testFillerKey)] = registry.Key{ID: "key-f", Account: "filler", Environment: registry.EnvironmentTest,
		RateLimitPerMinute: 1000, Filler: true}
	return h
}

// Only a filler key reads the order book, and it reads its own environment's, filtered and paged.
func TestOrderBookIsForFillerKeysOfTheirEnvironment(t *testing.T) {
	book := &fakeBook{orders: []orderbook.Order{sampleOrder("01", "2"), sampleOrder("02", "1")}}
	h := gaslessHarness(t, book)

	resp, body := h.do(t, http.MethodGet, "/v2/orders", withKey(testKeyA), "")
	assertProblem(t, resp, body, problem.FillerKeyRequired, "/v2/orders")
	if len(book.listed) != 0 {
		t.Fatal("a client key's request reached the book")
	}

	resp, body = h.do(t, http.MethodGet, "/v2/orders?limit=1&chainId=eip155:1337", withKey(testFillerKey), "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("filler key: %d %s", resp.StatusCode, body)
	}
	got := decodeJSON[[]orderbook.Order](t, body)
	if len(got) != 1 || got[0].OrderID != book.orders[0].OrderID {
		t.Errorf("page = %+v", got)
	}
	if link := resp.Header.Get("Link"); !strings.Contains(link, `rel="next"`) || !strings.Contains(link, "cursor=") {
		t.Errorf("Link = %q, want the next page", link)
	}
	if book.listed[0] != v1alpha1.EnvironmentTest || book.filters[0] != (orderbook.Filter{Status: v1alpha1.IntentPhaseSigned, Chain: "eip155:1337"}) {
		t.Errorf("asked the book for %v %+v", book.listed[0], book.filters[0])
	}
	// An entry names no intent (issue 47, item 8), and the next page starts after the last
	// entry's position (createdAt, orderId): the cursor carries nothing the entry does not.
	if strings.Contains(string(body), "intentId") || strings.Contains(string(body), "int_transfer_") {
		t.Errorf("the entry names its intent: %s", body)
	}
	next := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Link"), "<"+testBaseURL), `>; rel="next"`)
	resp, body = h.do(t, http.MethodGet, next, withKey(testFillerKey), "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("next page %s: %d %s", next, resp.StatusCode, body)
	}
	if after := book.afters[1]; after == nil || *after != orderbook.PositionOf(book.orders[0]) {
		t.Errorf("the next page was asked after %+v, want %+v", after, orderbook.PositionOf(book.orders[0]))
	}
	if book.afters[0] != nil {
		t.Errorf("the first page was asked after %+v", book.afters[0])
	}

	for _, bad := range []string{"status=confirmed", "chainId=1337", "token=0x12", "status=signed&status=submitted", "cursor=zz"} {
		resp, body = h.do(t, http.MethodGet, "/v2/orders?"+bad, withKey(testFillerKey), "")
		assertProblem(t, resp, body, problem.BadRequest, "/v2/orders?"+bad)
	}
}

// A signature body is exactly {"signature": "0x..."}; the book's refusal kind is the problem type.
func TestSignatureBodyAndRefusals(t *testing.T) {
	book := &fakeBook{}
	h := gaslessHarness(t, book)
	resp, body := h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	id := decodeJSON[struct {
		ID string `json:"id"`
	}](t, body).ID
	path := "/v2/transfers/" + id + "/signature"
	sig := "0x" + hex.EncodeToString(make([]byte, 65))
	for _, bad := range []string{`{}`, `{"signature":"zz"}`, `{"signature":"0x"}`, `{"signature":12}`, `{"signature":"0x00","more":1}`,
		`{"signature":"0x` + strings.Repeat("00", maxSignatureBytes+1) + `"}`} {
		resp, body := h.post(t, path, testKeyA, bad)
		assertProblem(t, resp, body, problem.BadRequest, path)
	}
	if len(book.signed) != 0 {
		t.Fatal("a malformed body reached the book")
	}
	// Another account's intent is unknown to this one.
	resp, body = h.post(t, path, testKeyB, `{"signature":"`+sig+`"}`)
	assertProblem(t, resp, body, problem.NotFound, path)

	book.signErr = &intent.Problem{Kind: "nonce-used", Field: "signature", Detail: "Permit2 nonce 7 is already used"}
	resp, body = h.post(t, path, testKeyA, `{"signature":"`+sig+`"}`)
	p := assertProblem(t, resp, body, problem.NonceUsed, path)
	if p.Details["field"] != "signature" {
		t.Errorf("details = %v", p.Details)
	}
	book.signErr = nil
	if resp, body := h.post(t, path, testKeyA, `{"signature":"`+sig+`"}`); resp.StatusCode != http.StatusOK {
		t.Errorf("accepted signature: %d %s", resp.StatusCode, body)
	}

}

// cancelBook is fakeBook with the real book's Cancel over the harness's Kubernetes client, so
// that a cancel's reason is written to the intent and read back in its record.
type cancelBook struct {
	*fakeBook
	real *orderbook.Book
}

func (b *cancelBook) Cancel(ctx context.Context, ti *v1alpha1.TransferIntent, reason string) (*v1alpha1.TransferIntent, error) {
	b.cancelled = append(b.cancelled, reason)
	return b.real.Cancel(ctx, ti, reason)
}

// cancelHarness is the API with a cancelBook over a fake Kubernetes client that, like the API
// server, writes status through its subresource (the book's writer does).
func cancelHarness(t *testing.T) (*transferHarness, *cancelBook) {
	t.Helper()
	kube := fake.NewClientBuilder().WithScheme(testScheme()).
		WithIndex(&v1alpha1.TransferIntent{}, intentstore.AccountIndexField, intentstore.IndexByAccount).
		WithStatusSubresource(&v1alpha1.TransferIntent{}).Build()
	book := &cancelBook{fakeBook: &fakeBook{}}
	h := transferHarnessOver(t, kube, transferConfig{gasless: book})
	// The store learns the write as its informer would (the harness runs none).
	written := func(ti *v1alpha1.TransferIntent) { h.store.EventHandler().OnUpdate(ti, ti) }
	book.real = &orderbook.Book{Writer: &intentstatus.Writer{Client: h.kube, APIReader: h.kube, Clock: h.clock, Written: written}}
	return h, book
}

// gaslessBridge creates a gasless bridge of alice's through the API (Sepolia's Permit2 verified)
// and answers its id.
func gaslessBridge(t *testing.T, h *transferHarness) string {
	t.Helper()
	origin, _ := h.catalog.Chains.Get(sepolia)
	if !origin.Permit2Verified {
		origin.Permit2Address, origin.Permit2Verified = "0x000000000022D473030F116dDEE9F6B43aC78BA3", true
		h.catalog.Chains.Upsert("chain-11155111", origin)
	}
	resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().with("to", caip10(baseSepolia, bobAddr), "execution", "gasless").String())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	return decodeJSON[struct {
		ID string `json:"id"`
	}](t, body).ID
}

// A cancel takes no body, an empty one, {} (what generated clients send), or {"reason": ...}: the
// reason is kept and shown in the record (which the transfer.cancelled webhook carries). A reason
// too long, empty, not a string or with control characters, an unknown member, a body that is
// not one JSON object, or another media type is refused before the book is asked.
func TestCancelBodies(t *testing.T) {
	h, book := cancelHarness(t)

	type cancelled struct {
		Status  string `json:"status"`
		Gasless struct {
			CancelReason string `json:"cancelReason"`
			CancelledAt  string `json:"cancelledAt"`
		} `json:"gasless"`
		StatusDetail string `json:"statusDetail"`
	}
	for _, tc := range []struct {
		name, contentType, body, wantReason string
	}{
		{"no body", "", "", ""},
		{"an empty body with its media type", "application/json", "", ""},
		{"an empty object", "application/json", `{}`, ""},
		{"a reason", "application/json", `{"reason":"changed my mind"}`, "changed my mind"},
		{"a reason of 200 characters", "application/json; charset=utf-8", `{"reason":"` + strings.Repeat("é", 200) + `"}`, strings.Repeat("é", 200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := gaslessBridge(t, h)
			path := "/v2/transfers/" + id + "/cancel"
			hdr := withKey(testKeyA)
			if tc.contentType != "" {
				hdr.Set("Content-Type", tc.contentType)
			}
			resp, body := h.do(t, http.MethodPost, path, hdr, tc.body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("cancel: %d %s", resp.StatusCode, body)
			}
			got := decodeJSON[cancelled](t, body)
			if got.Status != string(v1alpha1.IntentPhaseCancelled) || got.Gasless.CancelReason != tc.wantReason || got.Gasless.CancelledAt == "" {
				t.Fatalf("cancel answered %s; want cancelled with reason %q", body, tc.wantReason)
			}
			if tc.wantReason != "" && !strings.Contains(got.StatusDetail, tc.wantReason) {
				t.Errorf("statusDetail %q does not quote the reason", got.StatusDetail)
			}
			// The reason is stored: the record read again shows it, and a second cancel keeps it.
			_, body = h.do(t, http.MethodGet, "/v2/transfers/"+id, withKey(testKeyA), "")
			if again := decodeJSON[cancelled](t, body); again.Status != string(v1alpha1.IntentPhaseCancelled) || again.Gasless.CancelReason != tc.wantReason {
				t.Errorf("record read again: %s", body)
			}
			resp, body = h.post(t, path, testKeyA, `{"reason":"another"}`)
			if again := decodeJSON[cancelled](t, body); resp.StatusCode != http.StatusOK || again.Gasless.CancelReason != tc.wantReason {
				t.Errorf("second cancel: %d %s", resp.StatusCode, body)
			}
		})
	}

	id := gaslessBridge(t, h)
	path := "/v2/transfers/" + id + "/cancel"
	asked := len(book.cancelled)
	for _, bad := range []string{`{"reason":""}`, `{"reason":"` + strings.Repeat("a", 201) + `"}`, `{"reason":12}`, `{"reason":null}`,
		`{"reason":"line\nbreak"}`, `{"reason":"tab\tin"}`, `{"reason":"bell\u0007"}`, `{"reason":"c1\u0085"}`,
		`{"why":"no"}`, `{"reason":"ok","more":1}`, `[]`, `"reason"`, `null`, `{}{}`, `{"reason":"a","reason":"b"}`} {
		resp, body := h.post(t, path, testKeyA, bad)
		assertProblem(t, resp, body, problem.BadRequest, path)
	}
	hdr := withKey(testKeyA)
	hdr.Set("Content-Type", "text/plain")
	resp, body := h.do(t, http.MethodPost, path, hdr, `{"reason":"x"}`)
	assertProblem(t, resp, body, problem.UnsupportedMediaType, path)
	if len(book.cancelled) != asked {
		t.Fatalf("refused bodies reached the book: %q", book.cancelled[asked:])
	}
	_, body = h.do(t, http.MethodGet, "/v2/transfers/"+id, withKey(testKeyA), "")
	if rec := decodeJSON[cancelled](t, body); rec.Status != string(v1alpha1.IntentPhaseUnsigned) {
		t.Fatalf("after refused cancels: %s", body)
	}
}

// Without a book the gasless routes answer 503, as the transfer routes do without their store.
func TestGaslessRoutesWithoutABook(t *testing.T) {
	h := newTransferHarness(t)
	resp, body := h.do(t, http.MethodGet, "/v2/orders", withKey(testKeyA), "")
	assertProblem(t, resp, body, problem.ServiceUnavailable, "/v2/orders")
}

// A gasless create that is refused (here: a transfer, which has no order a filler could open; a
// deadline past) takes no Permit2 nonce: the nonce is allocated after the request is validated.
func TestGaslessCreateRefusedTakesNoNonce(t *testing.T) {
	book := &fakeBook{}
	h := gaslessHarness(t, book)
	for _, body := range []transferBody{
		usdcTransfer().with("execution", "gasless"),
		usdcTransfer().with("execution", "gasless", "deadline", "2020-01-01T00:00:00Z"),
		usdcTransfer().with("execution", "gasless", "amount", "-1"),
	} {
		resp, b := h.post(t, transfersPath, testKeyA, body.String())
		if resp.StatusCode != http.StatusUnprocessableEntity && resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s: %d %s, want a refusal", body, resp.StatusCode, b)
		}
	}
	if book.nonces != 0 {
		t.Fatalf("%d Permit2 nonces taken for refused creates, want none", book.nonces)
	}
}

// A simulation and a create that the user sends answer calls, an EIP-5792 wallet_sendCalls
// request built from the transactions they give: the simulation's tx (its approval first when the
// chain reported a short allowance; this chain reports none), the created bridge's approve of
// exactly its input to the settlement contract, then its open. A gasless one answers none. The
// harness validates every answer against the OpenAPI document.
func TestSimulateAndCreateAnswerWalletCalls(t *testing.T) {
	h := gaslessHarness(t, &fakeBook{})
	type answer struct {
		Tx    intent.Tx         `json:"tx"`
		Calls *intent.SendCalls `json:"calls"`
	}
	bridge := usdcTransfer().with("to", caip10(baseSepolia, bobAddr))
	resp, body := h.post(t, simulatePath, testKeyA, bridge.String())
	sim := decodeJSON[answer](t, body)
	if resp.StatusCode != http.StatusOK || sim.Calls == nil {
		t.Fatalf("simulate: %d %s", resp.StatusCode, body)
	}
	want := intent.SendCalls{Version: "2.0.0", ChainID: "0xaa36a7", From: eip55(aliceAddr), AtomicRequired: false,
		Calls: []intent.SendCall{{To: sim.Tx.To, Data: sim.Tx.Data, Value: "0x0"}}}
	if fmt.Sprint(*sim.Calls) != fmt.Sprint(want) {
		t.Errorf("simulate's calls %+v; want %+v", *sim.Calls, want)
	}

	resp, body = h.post(t, transfersPath, testKeyA, bridge.String())
	created := decodeJSON[answer](t, body)
	if resp.StatusCode != http.StatusCreated || created.Calls == nil || len(created.Calls.Calls) != 2 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	approve, open := created.Calls.Calls[0], created.Calls.Calls[1]
	if approve.To != eip55(usdcSepolia) || !strings.HasPrefix(approve.Data, "0x095ea7b3") || approve.Value != "0x0" ||
		open.To != created.Tx.To || open.Data != created.Tx.Data || created.Calls.ChainID != "0xaa36a7" {
		t.Errorf("create's calls %+v for tx %+v", created.Calls, created.Tx)
	}

	gaslessBridge(t, h) // Permit2 verified on the origin
	resp, body = h.post(t, simulatePath, testKeyA, bridge.with("execution", "gasless").String())
	if g := decodeJSON[answer](t, body); resp.StatusCode != http.StatusOK || g.Calls != nil {
		t.Errorf("a gasless simulation: %d %s", resp.StatusCode, body)
	}
}
