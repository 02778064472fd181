package apiserver

import (
	"context"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
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
}

func (f *fakeBook) Nonce(context.Context, string, common.Address) ([32]byte, error) {
	f.nonces++
	return intent.NewNonce()
}

func (f *fakeBook) Sign(_ context.Context, ti *v1alpha1.TransferIntent, sig []byte) (*v1alpha1.TransferIntent, error) {
	f.signed = append(f.signed, sig)
	return ti, f.signErr
}

func (f *fakeBook) Cancel(_ context.Context, ti *v1alpha1.TransferIntent) (*v1alpha1.TransferIntent, error) {
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

	cancel := "/v2/transfers/" + id + "/cancel"
	resp, body = h.post(t, cancel, testKeyA, `{"reason":"changed my mind"}`)
	assertProblem(t, resp, body, problem.BadRequest, cancel)
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
