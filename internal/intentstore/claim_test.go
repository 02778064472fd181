package intentstore

import (
	"context"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// A Create whose outcome is unknown (the API server stored the intent but the answer was lost)
// must keep the idempotency claim, so that the client's retry returns that intent instead of
// creating a second one.
var _ = Describe("a Create whose outcome is unknown", func() {
	for _, tc := range []struct {
		name        string
		fail        error
		stored      bool // whether the failed Create stored the intent anyway
		wantIntents int
	}{
		{"timeout after storing", apierrors.NewTimeoutError("request did not complete", 1), true, 1},
		{"refused as invalid", apierrors.NewInvalid(v1alpha1.GroupVersion.WithKind("TransferIntent").GroupKind(), "x", nil), false, 1},
	} {
		It("keeps the claim: "+tc.name, func() {
			t := GinkgoTB()
			var intentCreates atomic.Int32
			c := fake.NewClientBuilder().WithScheme(testenv.Scheme()).WithInterceptorFuncs(interceptor.Funcs{
				Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
					if _, ok := obj.(*v1alpha1.TransferIntent); ok && intentCreates.Add(1) == 1 {
						if tc.stored {
							if err := c.Create(ctx, obj, opts...); err != nil {
								return err
							}
						}
						return tc.fail
					}
					return c.Create(ctx, obj, opts...)
				},
			}).Build()
			store, err := New(c, c, c, Options{Namespace: "ns"})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			req := CreateRequest{Owner: Owner{Account: "alice"}, IdempotencyKey: "order-1", RequestHash: "sha256:" + strings.Repeat("ab", 32),
				Build: func(context.Context) (*v1alpha1.TransferIntent, error) {
					n++
					return testIntent("alice", n, v1alpha1.IntentTypeTransfer), nil
				}}

			if _, err := store.Create(context.Background(), req); err == nil {
				t.Fatal("the first attempt's error was swallowed")
			}
			retry, err := store.Create(context.Background(), req)
			if err != nil {
				t.Fatalf("retry: %v", err)
			}
			var list v1alpha1.TransferIntentList
			if err := c.List(context.Background(), &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != tc.wantIntents {
				t.Fatalf("%d intents stored after a retry, want %d", len(list.Items), tc.wantIntents)
			}
			if retry.Intent.Spec.ID != list.Items[0].Spec.ID {
				t.Fatalf("retry returned %s, stored is %s", retry.Intent.Spec.ID, list.Items[0].Spec.ID)
			}
		})
	}
})
