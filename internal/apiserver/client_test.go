package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/pkg/client"
)

// The generated client (pkg/client) against the real handler: it lists tokens, simulates,
// creates (and replays the creation with its Idempotency-Key), gets and lists a transfer, and
// decodes a problem. Every exchange is also validated against the document.
func TestGeneratedClient(t *testing.T) {
	h := newTransferHarness(t)
	h.tokens.set(sampleTokens())
	httpClient := &http.Client{Transport: openapitest.NewValidator(t).Transport(t, h.http.Client().Transport)}
	c, err := client.NewClientWithResponses(h.http.URL, client.WithHTTPClient(httpClient), client.WithAPIKey(testKeyA))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	tokens, err := c.ListTokensWithResponse(ctx, nil)
	if err != nil || tokens.JSON200 == nil || len(*tokens.JSON200) != len(sampleTokens()) {
		t.Fatalf("list tokens: %v, %d %s", err, tokens.StatusCode(), tokens.Body)
	}

	var req client.TransferRequest
	req.From, req.To, req.Amount = caip10(sepolia, aliceAddr), caip10(sepolia, bobAddr), "12.5"
	if err := req.Asset.FromCaip10AccountId(caip10(sepolia, usdcSepolia)); err != nil {
		t.Fatal(err)
	}
	sim, err := c.SimulateTransferWithResponse(ctx, req)
	if err != nil || sim.JSON200 == nil || !sim.JSON200.Valid || sim.JSON200.Tx == nil {
		t.Fatalf("simulate: %v, %d %s", err, sim.StatusCode(), sim.Body)
	}

	// The create keeps the simulation's quote (a firm quote, issue 27).
	create := client.CreateTransferRequest{From: req.From, To: req.To, Amount: req.Amount, SimulationId: &sim.JSON200.SimulationId}
	if err := create.Asset.FromCaip10AccountId(caip10(sepolia, usdcSepolia)); err != nil {
		t.Fatal(err)
	}
	key := "client-test-1"
	params := &client.CreateTransferParams{IdempotencyKey: &key}
	created, err := c.CreateTransferWithResponse(ctx, params, create)
	if err != nil || created.JSON201 == nil || created.JSON201.Status != client.Pending {
		t.Fatalf("create: %v, %d %s", err, created.StatusCode(), created.Body)
	}
	replayed, err := c.CreateTransferWithResponse(ctx, params, create)
	if err != nil || replayed.JSON200 == nil || replayed.JSON200.Id != created.JSON201.Id {
		t.Fatalf("replayed create: %v, %d %s", err, replayed.StatusCode(), replayed.Body)
	}

	got, err := c.GetTransferWithResponse(ctx, created.JSON201.Id)
	if err != nil || got.JSON200 == nil || got.JSON200.Tx != created.JSON201.Tx {
		t.Fatalf("get: %v, %d %s", err, got.StatusCode(), got.Body)
	}
	list, err := c.ListTransfersWithResponse(ctx, nil)
	if err != nil || list.JSON200 == nil || len(*list.JSON200) != 1 || (*list.JSON200)[0].Id != created.JSON201.Id {
		t.Fatalf("list: %v, %d %s", err, list.StatusCode(), list.Body)
	}

	unknown, err := c.GetTransferWithResponse(ctx, "int_transfer_01J9Z3Q0S4M8V6X2T7K5N1R3PB")
	if err != nil || unknown.ApplicationproblemJSON404 == nil || !strings.HasSuffix(unknown.ApplicationproblemJSON404.Type, "/not-found") {
		t.Fatalf("unknown transfer: %v, %d %s", err, unknown.StatusCode(), unknown.Body)
	}
}

// The generated client's cancel sends a body ({} without a reason): the handler takes it, and
// a reason given through the client comes back in the record. Every exchange is validated against
// the document.
func TestGeneratedClientCancels(t *testing.T) {
	h, book := cancelHarness(t)
	httpClient := &http.Client{Transport: openapitest.NewValidator(t).Transport(t, h.http.Client().Transport)}
	c, err := client.NewClientWithResponses(h.http.URL, client.WithHTTPClient(httpClient), client.WithAPIKey(testKeyA))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	plain, err := c.CancelTransferWithResponse(ctx, gaslessBridge(t, h), client.CancelRequest{})
	if err != nil || plain.JSON200 == nil || plain.JSON200.Status != client.Cancelled {
		t.Fatalf("cancel without a reason: %v, %d %s", err, plain.StatusCode(), plain.Body)
	}
	if g := plain.JSON200.Gasless; g == nil || g.CancelReason != nil || g.CancelledAt == nil {
		t.Errorf("cancel without a reason: %s", plain.Body)
	}

	reason := "changed my mind"
	withReason, err := c.CancelTransferWithResponse(ctx, gaslessBridge(t, h), client.CancelRequest{Reason: &reason})
	if err != nil || withReason.JSON200 == nil {
		t.Fatalf("cancel with a reason: %v, %d %s", err, withReason.StatusCode(), withReason.Body)
	}
	if g := withReason.JSON200.Gasless; g == nil || g.CancelReason == nil || *g.CancelReason != reason {
		t.Errorf("cancel with a reason: %s", withReason.Body)
	}
	if fmt.Sprint(book.cancelled) != "[ changed my mind]" {
		t.Errorf("the book was asked with %q", book.cancelled)
	}
}
