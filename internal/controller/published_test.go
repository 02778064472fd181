package controller

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// Readiness waits until the projections have handled every object present when it started, and
// only those: an object whose projection failed counts as handled.
var _ = Describe("Published", func() {
	It("waits until the projections handled every object present at the start, and only those", func() {
		t := GinkgoTB()
		scheme := runtime.NewScheme()
		if err := v1alpha1.AddToScheme(scheme); err != nil {
			t.Fatal(err)
		}
		objs := []client.Object{
			&v1alpha1.Chain{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"}},
			&v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "k"}},
			&v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "not-ours"}},
		}
		reader := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
		p := NewPublished()
		w := &writer{project: true, published: p}
		failing := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, context.DeadlineExceeded
		})
		chains, keys := w.recording("Chain", failing), w.recording("ApiKey", failing)

		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if p.WaitFor(reader, "ns")(ctx) {
			t.Fatal("ready before any projection ran")
		}
		_, _ = chains.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "c"}})
		ready := make(chan bool, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			ready <- p.WaitFor(reader, "ns")(ctx)
		}()
		select {
		case <-ready:
			t.Fatal("ready before the ApiKey's projection ran")
		case <-time.After(200 * time.Millisecond):
		}
		_, _ = keys.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "k"}})
		if !<-ready {
			t.Fatal("not ready once every object present at the start was handled")
		}
		if _, wrapped := (&writer{project: false, published: p}).recording("ApiKey", failing).(publishing); wrapped {
			t.Error("a leader's reconciler must not record: only projections fill the read models")
		}
	})
})
