package apiserver

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// Explorers of the link tests; Arbitrum Sepolia has none.
const (
	sepoliaExplorer     = "https://sepolia.etherscan.io"
	baseSepoliaExplorer = "https://sepolia.basescan.org"
)

// upperHash is txHash(b) with upper-case hex digits.
func upperHash(b byte) string { return "0x" + strings.ToUpper(txHash(b)[2:]) }

func txHash(b byte) string {
	return "0x" + strings.Repeat(string("0123456789abcdef"[b%16])+string("0123456789abcdef"[b/16%16]), 32)
}

// filterFixture is five intents of alice's, oldest first: ids[1] submitted, ids[2] a confirmed
// bridge filled on Base Sepolia, ids[3] from bob's address and refunded (failed), ids[0] and
// ids[4] pending. Sepolia and Base Sepolia have explorers.
type filterFixture struct {
	h       *transferHarness
	ids     []string
	orders  []string
	created []time.Time
}

func newFilterFixture(t *testing.T) *filterFixture {
	h := newTransferHarness(t)
	for id, explorer := range map[string]string{sepolia: sepoliaExplorer, baseSepolia: baseSepoliaExplorer} {
		c, _ := h.catalog.Chains.Get(id)
		c.ExplorerURL = explorer
		h.catalog.Chains.Upsert("chain-"+id[len("eip155:"):], c)
	}
	f := &filterFixture{h: h}
	bodies := []transferBody{
		usdcTransfer(),
		usdcTransfer().with("amount", "1"),
		usdcTransfer().with("to", caip10(baseSepolia, bobAddr)),
		usdcTransfer().with("from", caip10(sepolia, bobAddr), "to", caip10(sepolia, aliceAddr)),
		usdcTransfer().with("amount", "2"),
	}
	for _, b := range bodies {
		h.clock.Step(time.Second)
		resp, body := h.post(t, transfersPath, testKeyA, b.String())
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		rec := decodeJSON[transferIntentJSON](t, body)
		f.ids, f.orders = append(f.ids, rec.ID), append(f.orders, rec.OrderID)
		created, _ := time.Parse(time.RFC3339Nano, rec.CreatedAt)
		f.created = append(f.created, created)
	}
	f.setStatus(t, 1, func(s *v1alpha1.TransferIntentStatus) {
		s.Phase, s.Hash = v1alpha1.IntentPhaseSubmitted, txHash(1)
	})
	f.setStatus(t, 2, func(s *v1alpha1.TransferIntentStatus) {
		s.Phase, s.Hash = v1alpha1.IntentPhaseConfirmed, txHash(2)
		s.Fill = &v1alpha1.FillStatus{ChainID: baseSepolia, Hash: txHash(0x22), BlockNumber: 5, BlockHash: txHash(0x23),
			Filler: settleB, AmountOut: "1"}
	})
	f.setStatus(t, 3, func(s *v1alpha1.TransferIntentStatus) {
		// An upper-case hash, as the CRD allows: looked up without regard to case.
		s.Phase, s.Hash, s.RefundHash = v1alpha1.IntentPhaseFailed, txHash(3), upperHash(0x33)
	})
	return f
}

// setStatus gives ids[i] a status, through the informer's update event.
func (f *filterFixture) setStatus(t *testing.T, i int, edit func(*v1alpha1.TransferIntentStatus)) {
	t.Helper()
	name, _ := intent.ObjectNameFromID(f.ids[i])
	var obj v1alpha1.TransferIntent
	if err := f.h.kube.Get(context.Background(), client.ObjectKey{Namespace: testNamespace, Name: name}, &obj); err != nil {
		t.Fatal(err)
	}
	updated := obj.DeepCopy()
	edit(&updated.Status)
	at := metav1.NewTime(f.created[i].Add(time.Minute))
	updated.Status.UpdatedAt = &at
	f.h.store.EventHandler().OnUpdate(&obj, updated)
}

// pick is ids by index, newest first.
func (f *filterFixture) pick(is ...int) []string {
	out := []string{}
	for _, i := range slices.Backward(is) {
		out = append(out, f.ids[i])
	}
	return out
}

// TestListTransfersFilters runs every filter alone and several together, each in pages of one
// (the Link of the next page must carry the filters) and in one page, against the intents that
// meet them written out by hand.
func TestListTransfersFilters(t *testing.T) {
	f := newFilterFixture(t)
	rfc := func(i int) string { return url.QueryEscape(f.created[i].Format(time.RFC3339Nano)) }
	for q, want := range map[string][]string{
		"hash=" + txHash(1):                             f.pick(1),
		"hash=" + txHash(0x22):                          f.pick(2),
		"hash=" + txHash(0x33):                          f.pick(3),
		"status=pending":                                f.pick(0, 4),
		"status=submitted,confirmed":                    f.pick(1, 2),
		"status=failed":                                 f.pick(3),
		"status=expired":                                f.pick(),
		"orderId=" + f.orders[2]:                        f.pick(2),
		"orderId=0x" + strings.ToUpper(f.orders[2][2:]): f.pick(2),
		"from=" + url.QueryEscape(strings.ToLower(caip10(sepolia, bobAddr))):                    f.pick(3),
		"from=" + url.QueryEscape(caip10(sepolia, aliceAddr)):                                   f.pick(0, 1, 2, 4),
		"from=" + url.QueryEscape(caip10(baseSepolia, aliceAddr)):                               f.pick(),
		"createdAfter=" + rfc(1):                                                                f.pick(2, 3, 4),
		"createdBefore=" + rfc(3):                                                               f.pick(0, 1, 2),
		"createdAfter=" + rfc(1) + "&createdBefore=" + rfc(3):                                   f.pick(2),
		"status=pending&from=" + url.QueryEscape(caip10(sepolia, aliceAddr)) + "&type=transfer": f.pick(0, 4),
		"status=pending,failed&createdAfter=" + rfc(0):                                          f.pick(3, 4),
		"type=bridge&hash=" + txHash(0x22):                                                      f.pick(2),
		"type=swap&hash=" + txHash(0x22):                                                        f.pick(),
		"hash=" + txHash(1) + "&status=confirmed":                                               f.pick(),
	} {
		if got := pageThrough(t, f.h, transfersPath+"?limit=1&"+q, testKeyA); !slices.Equal(got, want) {
			t.Errorf("%s, in pages of one: %v, want %v", q, got, want)
		}
		if got := pageThrough(t, f.h, transfersPath+"?"+q, testKeyA); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
		// A page that holds every match names no next page.
		path := transfersPath + "?limit=" + strconv.Itoa(max(len(want), 1)) + "&" + q
		if resp, body := f.h.do(t, http.MethodGet, path, withKey(testKeyA), ""); resp.Header.Get("Link") != "" {
			t.Errorf("%s: a next page after all %d matches: %s", path, len(want), body)
		}
	}
	// Another account does not find alice's intent by its hash.
	if _, body := f.h.do(t, http.MethodGet, transfersPath+"?hash="+txHash(1), withKey(testKeyB), ""); string(body) != "[]" {
		t.Fatalf("bob by alice's hash: %s", body)
	}
}

// A client polls with the hash it just broadcast: before the service saw it, the answer is an
// empty list (200), not 404; once the intent has it, the intent.
func TestListTransfersUnseenHashIsAnEmptyList(t *testing.T) {
	f := newFilterFixture(t)
	unseen := txHash(0x99)
	resp, body := f.h.do(t, http.MethodGet, transfersPath+"?hash="+unseen, withKey(testKeyA), "")
	if resp.StatusCode != http.StatusOK || string(body) != "[]" || resp.Header.Get("Link") != "" {
		t.Fatalf("an unseen hash: %d %s (Link %q), want 200 []", resp.StatusCode, body, resp.Header.Get("Link"))
	}
	f.setStatus(t, 4, func(s *v1alpha1.TransferIntentStatus) { s.Phase, s.Hash = v1alpha1.IntentPhaseSubmitted, unseen })
	if got := pageThrough(t, f.h, transfersPath+"?hash="+unseen, testKeyA); !slices.Equal(got, f.pick(4)) {
		t.Fatalf("once seen: %v", got)
	}
}

func TestListTransfersBadFilters(t *testing.T) {
	h := newTransferHarness(t)
	for q, param := range map[string]string{
		"status=done": "status", "status=": "status", "status=pending,": "status", "status=Pending": "status",
		"status=pending&status=failed": "status",
		"hash=0x12":                    "hash", "hash=" + strings.Repeat("ab", 33): "hash", "hash=0x" + strings.Repeat("zz", 32): "hash",
		"hash=" + txHash(1) + "&hash=" + txHash(2): "hash",
		"orderId=42": "orderId", "orderId=0x" + strings.Repeat("g", 64): "orderId",
		"from=alice": "from", "from=" + url.QueryEscape("eip155:11155111:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"): "from",
		"from=" + url.QueryEscape("eip155:11155111:0x1234"): "from",
		"createdAfter=yesterday":                            "createdAfter", "createdAfter=2026-11-21": "createdAfter",
		"createdBefore=2026-13-01T00:00:00Z": "createdBefore", "createdBefore=1700000000": "createdBefore",
	} {
		path := transfersPath + "?" + q
		resp, body := h.do(t, http.MethodGet, path, withKey(testKeyA), "")
		p := assertProblem(t, resp, body, problem.BadRequest, path)
		if p.Details["parameter"] != param {
			t.Errorf("%s: details %v, want parameter %s", q, p.Details, param)
		}
	}
}

// TestTransferLinks checks the explorer links of the list and of GET /v2/transfers/{id}: present
// for each transaction that exists on a chain with an explorer, the fill's on the fill's chain,
// and absent otherwise.
func TestTransferLinks(t *testing.T) {
	f := newFilterFixture(t)
	linksOfList := func() map[string]any {
		_, body := f.h.do(t, http.MethodGet, transfersPath, withKey(testKeyA), "")
		out := map[string]any{}
		for _, it := range decodeJSON[[]map[string]any](t, body) {
			out[it["id"].(string)] = it["links"]
		}
		return out
	}
	linksOfGet := func(id string) any {
		_, body := f.h.do(t, http.MethodGet, transfersPath+"/"+id, withKey(testKeyA), "")
		return decodeJSON[map[string]any](t, body)["links"]
	}
	want := map[string]any{
		f.ids[0]: nil,
		f.ids[1]: map[string]any{"open": sepoliaExplorer + "/tx/" + txHash(1)},
		f.ids[2]: map[string]any{"open": sepoliaExplorer + "/tx/" + txHash(2), "fill": baseSepoliaExplorer + "/tx/" + txHash(0x22)},
		f.ids[3]: map[string]any{"open": sepoliaExplorer + "/tx/" + txHash(3), "refund": sepoliaExplorer + "/tx/" + upperHash(0x33)},
		f.ids[4]: nil,
	}
	list := linksOfList()
	for id, w := range want {
		if got := list[id]; !equalJSON(got, w) {
			t.Errorf("list: %s links %v, want %v", id, got, w)
		}
		if got := linksOfGet(id); !equalJSON(got, w) {
			t.Errorf("get: %s links %v, want %v", id, got, w)
		}
	}
	// Base Sepolia loses its explorer: the fill has no link, the open keeps its own.
	c, _ := f.h.catalog.Chains.Get(baseSepolia)
	c.ExplorerURL = ""
	f.h.catalog.Chains.Upsert("chain-84532", c)
	only := map[string]any{"open": sepoliaExplorer + "/tx/" + txHash(2)}
	if got := linksOfList()[f.ids[2]]; !equalJSON(got, only) {
		t.Errorf("list without Base's explorer: %v", got)
	}
	if got := linksOfGet(f.ids[2]); !equalJSON(got, only) {
		t.Errorf("get without Base's explorer: %v", got)
	}
	// A created intent has no transaction yet, so no links.
	resp, body := f.h.post(t, transfersPath, testKeyA, usdcTransfer().String())
	if resp.StatusCode != http.StatusCreated || strings.Contains(string(body), `"links"`) {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
}

func equalJSON(a, b any) bool {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		return a == nil && b == nil
	}
	if len(am) != len(bm) {
		return false
	}
	for k, v := range am {
		if bm[k] != v {
			return false
		}
	}
	return true
}
