package apiserver

import (
	"context"
	"fmt"
	"net/http"
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
)

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
