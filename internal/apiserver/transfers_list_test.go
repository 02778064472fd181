package apiserver

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

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
