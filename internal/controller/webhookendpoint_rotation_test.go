package controller

import (
	"context"
	"reflect"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// The rotation of an endpoint's signing secret on a controlled clock: the previous secret signs for
// a day after the change, and is forgotten at the reconcile the controller asks for then.
var _ = Describe("The rotation of a webhook signing secret", func() {
	It("lasts one day", func() {
		t := GinkgoTB()
		now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
		clk := clocktesting.NewFakeClock(now)
		account := &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: testNamespace, UID: "acme-uid"},
			Spec:       v1alpha1.AccountSpec{DisplayName: "Acme", Email: "ops@acme.example"},
		}
		ep := &v1alpha1.WebhookEndpoint{
			ObjectMeta: metav1.ObjectMeta{Name: "hooks", Namespace: testNamespace, Generation: 1, UID: "hooks-uid"},
			Spec: v1alpha1.WebhookEndpointSpec{
				AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
				URL: "http://127.0.0.1:9999/hooks", EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferCreated},
			},
		}
		c := fakeClient(t, account, ep)
		recorder := events.NewFakeRecorder(10)
		r := &WebhookEndpointReconciler{writer: writer{Client: c, Recorder: recorder, Clock: clk}}
		ctx := context.Background()
		reconcileOnce := func() time.Duration {
			t.Helper()
			res, err := r.Reconcile(ctx, request("hooks"))
			if err != nil {
				t.Fatal(err)
			}
			return res.RequeueAfter
		}
		secretKey := client.ObjectKey{Namespace: testNamespace, Name: "hooks-webhook-secret"}
		readSecret := func() *corev1.Secret {
			t.Helper()
			var s corev1.Secret
			if err := c.Get(ctx, secretKey, &s); err != nil {
				t.Fatal(err)
			}
			return &s
		}

		// First reconcile generates the Secret, owned by the endpoint.
		if after := reconcileOnce(); after != 0 {
			t.Fatalf("requeue after %v with no rotation under way", after)
		}
		generated := readSecret()
		first := string(generated.Data["secret"])
		if _, err := signing.ParseSecret(first); err != nil {
			t.Fatalf("generated secret: %v", err)
		}
		if !metav1.IsControlledBy(generated, ep) {
			t.Fatalf("the generated Secret is not controlled by the endpoint: %v", generated.OwnerReferences)
		}
		reconcileOnce()
		if cond := readyOf(t, c, ep); cond == nil || cond.Reason != v1alpha1.ReasonValid || strings.Contains(cond.Message, first) {
			t.Fatalf("Ready = %+v", cond)
		}

		// Someone writes a new secret: the old one signs too, for a day.
		second, _ := signing.NewSecret(nil)
		generated.Data["secret"] = []byte(second)
		if err := c.Update(ctx, generated); err != nil {
			t.Fatal(err)
		}
		clk.Step(time.Hour)
		if after := reconcileOnce(); after < signing.RotationGrace || after > signing.RotationGrace+time.Second {
			t.Fatalf("requeue after %v, want the end of the rotation (%v)", after, signing.RotationGrace)
		}
		rotated := readSecret()
		if got := signing.ActiveSecrets(rotated.Data, "secret", clk.Now()); !reflect.DeepEqual(got, []string{second, first}) {
			t.Fatalf("signing secrets during the rotation: %d of them, want the new then the old", len(got))
		}
		if err := c.Get(ctx, client.ObjectKeyFromObject(ep), ep); err != nil {
			t.Fatal(err)
		}
		if until := ep.Status.PreviousSecretExpiresAt; until == nil || !until.Equal(&metav1.Time{Time: clk.Now().Add(signing.RotationGrace)}) {
			t.Fatalf("status.previousSecretExpiresAt = %v", until)
		}
		for len(recorder.Events) > 0 {
			if e := <-recorder.Events; strings.Contains(e, first) || strings.Contains(e, second) {
				t.Fatalf("an event carries the secret: %s", e)
			}
		}

		// A day later the previous secret is forgotten.
		clk.Step(signing.RotationGrace)
		if after := reconcileOnce(); after != 0 {
			t.Fatalf("requeue after %v once the rotation is over", after)
		}
		done := readSecret()
		if got := signing.ActiveSecrets(done.Data, "secret", clk.Now()); !reflect.DeepEqual(got, []string{second}) {
			t.Fatalf("signing secrets after the rotation: %d, want the new one alone", len(got))
		}
		if _, kept := done.Data[signing.SecretKeyPrevious]; kept {
			t.Fatal("the previous secret is still in the Secret")
		}
		if err := c.Get(ctx, client.ObjectKeyFromObject(ep), ep); err != nil {
			t.Fatal(err)
		}
		if ep.Status.PreviousSecretExpiresAt != nil {
			t.Fatalf("status.previousSecretExpiresAt = %v after the rotation", ep.Status.PreviousSecretExpiresAt)
		}
	})
})
