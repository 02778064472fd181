package intentstore

import (
	"context"
	"errors"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// A store without an archive (NoArchive, Options.Archive left nil) answers every read that would
// ask the archive as "not there", and creates as if nothing was ever archived: every intent is a
// resource.
var _ = It("finds nothing archived without PostgreSQL (NoArchive)", func() {
	t := GinkgoTB()
	c := fake.NewClientBuilder().WithScheme(testenv.Scheme()).Build()
	store, err := New(c, c, c, Options{Namespace: "ns"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	alice := Owner{Account: "alice"}
	live := testIntent("alice", 1, v1alpha1.IntentTypeTransfer)
	store.EventHandler().OnAdd(live, false)

	items, more, err := store.List(ctx, alice, Filter{}, "", 10)
	if err != nil || more || len(items) != 1 || items[0].ID != live.Spec.ID {
		t.Fatalf("List: %v, more %v, %v; want the live intent alone", items, more, err)
	}
	finished := Filter{Statuses: []v1alpha1.IntentPhase{v1alpha1.IntentPhaseConfirmed}}
	if items, more, err := store.List(ctx, alice, finished, "", 10); err != nil || more || len(items) != 0 {
		t.Fatalf("List of confirmed intents: %v, more %v, %v; want none", items, more, err)
	}
	// Not live, and minted long ago: only the archive could have it.
	gone := testIntent("alice", 2, v1alpha1.IntentTypeTransfer).Spec.ID
	if obj, found, err := store.Get(ctx, alice, gone); err != nil || found || obj != nil {
		t.Fatalf("Get of an intent not live: %v, %v, %v; want not found", obj, found, err)
	}
	if obj, found, err := store.AttestedOrder(ctx, live.Spec.OrderID); err != nil || found || obj != nil {
		t.Fatalf("AttestedOrder of an order not attested: %v, %v, %v; want not found", obj, found, err)
	}

	hash := "sha256:" + strings.Repeat("ab", 32)
	build := func(context.Context) (*v1alpha1.TransferIntent, error) {
		return testIntent("alice", 3, v1alpha1.IntentTypeTransfer), nil
	}
	created, err := store.Create(ctx, CreateRequest{Owner: alice, IdempotencyKey: "new", RequestHash: hash, Build: build})
	if err != nil || !created.New {
		t.Fatalf("Create with a key never used: %+v, %v; want a new intent", created, err)
	}
	// A fresh claim whose intent is neither in the API server nor archived is a request still
	// running.
	keyHash := IdempotencyKeyHash(alice, "running")
	holder, now := gone, metav1.NewMicroTime(time.Now())
	claim := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: ClaimName(keyHash), Namespace: "ns",
			Annotations: map[string]string{AnnotationRequestHash: hash, AnnotationAccount: alice.Account}},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, AcquireTime: &now},
	}
	if err := c.Create(ctx, claim); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Create(ctx, CreateRequest{Owner: alice, IdempotencyKey: "running", RequestHash: hash, Build: build}); !errors.Is(err, ErrIdempotencyInProgress) {
		t.Fatalf("Create under a running claim: %v; want ErrIdempotencyInProgress", err)
	}
})
