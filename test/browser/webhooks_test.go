package browser

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

var webhookSecretPattern = regexp.MustCompile(`^whsec_[A-Za-z0-9+/]{43}=$`)

// A person signs in, opens /webhooks from the account bar, creates an endpoint, reads its secret
// once, and after a reload sees the endpoint listed (Ready, once the operator checked it) and the
// secret nowhere; a URL the operator would refuse is refused on the page with the reason.
func TestWebhooksPageInChromium(t *testing.T) {
	chromium := chromiumPath(t)
	stack := servicetest.Start(t)
	account := stack.CreateAccount(t, "Webhook Tester")
	artifacts := filepath.Join(testenv.RepoRoot(t), "test", "artifacts")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	failureShot := filepath.Join(artifacts, "webhooks-page-failure.png")
	ctx, failures := startChromium(t, chromium, failureShot)
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			shot(t, ctx, failureShot)
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string { t.Helper(); return textOf(t, ctx, sel) }

	step("opening /webhooks", chromedp.Navigate(stack.URL+"/webhooks"), chromedp.WaitVisible(chromedp.ID("sign-in-form")))
	if l := locationOf(t, ctx); l != stack.URL+"/sign-in" {
		t.Fatalf("/webhooks without a session landed on %s, want /sign-in", l)
	}
	step("signing in",
		chromedp.SendKeys(chromedp.ID("email"), account.Email),
		chromedp.SendKeys(chromedp.ID("password"), account.Password),
		chromedp.Click(chromedp.ID("sign-in-button")),
		chromedp.WaitVisible(chromedp.ID("nav-webhooks")),
	)
	step("following the link to /webhooks", chromedp.Click(chromedp.ID("nav-webhooks")), chromedp.WaitVisible(chromedp.ID("no-webhooks")))
	if l := locationOf(t, ctx); l != stack.URL+"/webhooks" {
		t.Fatalf("the Webhooks link opened %s", l)
	}

	// An address of the service's own network is refused, with the reason, and the form keeps
	// what was typed.
	step("creating an endpoint to a private address",
		chromedp.SendKeys(chromedp.ID("webhook-name"), "orders"),
		chromedp.SendKeys(chromedp.ID("webhook-url"), "https://10.0.0.7/hooks"),
		chromedp.Click(chromedp.ID("create-button")),
		chromedp.WaitVisible(chromedp.ID("create-error")),
	)
	if got := text("#create-error"); !strings.Contains(got, "private address") {
		t.Fatalf("the refusal reads %q", got)
	}
	shot(t, ctx, filepath.Join(artifacts, "webhooks-page-error.png"))

	step("creating an endpoint",
		chromedp.Evaluate[chromedp.Void](`document.getElementById('webhook-url').value = ''`),
		chromedp.SendKeys(chromedp.ID("webhook-url"), "https://hooks.example.com/tis"),
		chromedp.Click(chromedp.CSS(`input[name="eventTypes"][value="transfer.created"]`)), // unchecked: not wanted
		chromedp.Click(chromedp.ID("create-button")),
		chromedp.WaitVisible(chromedp.ID("new-secret")),
	)
	secret := text("#new-secret-value")
	if !webhookSecretPattern.MatchString(secret) {
		t.Fatalf("the page shows %q, not a webhook secret", secret)
	}
	if warning := text("#new-secret .warning"); !strings.Contains(warning, "will not show it again") {
		t.Fatalf("the secret has no clear warning: %q", warning)
	}
	shot(t, ctx, filepath.Join(artifacts, "webhooks-page-secret.png"))

	// The endpoint is the account's, signed with the secret the page showed.
	var ep v1alpha1.WebhookEndpoint
	if err := stack.Client.Get(context.Background(), types.NamespacedName{Namespace: stack.Namespace, Name: "orders"}, &ep); err != nil {
		t.Fatal(err)
	}
	if ep.Spec.AccountRef.Name != account.Object.Name || len(ep.Spec.EventTypes) != 4 || ep.Spec.URL != "https://hooks.example.com/tis" {
		t.Fatalf("endpoint spec %+v", ep.Spec)
	}
	var s corev1.Secret
	if err := stack.Client.Get(context.Background(), types.NamespacedName{Namespace: stack.Namespace, Name: "orders-webhook-secret"}, &s); err != nil {
		t.Fatal(err)
	}
	if string(s.Data["secret"]) != secret {
		t.Fatal("the endpoint's Secret does not hold the secret the page showed")
	}

	// A reload lists the endpoint, Ready once the operator checked it, and shows no secret.
	deadline := time.Now().Add(30 * time.Second)
	for {
		step("opening /webhooks again", chromedp.Navigate(stack.URL+"/webhooks"), chromedp.WaitVisible(chromedp.CSS(`#webhooks-body tr[data-name="orders"]`)))
		if strings.Contains(text(`#webhooks-body tr[data-name="orders"]`), "Ready") || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	row := text(`#webhooks-body tr[data-name="orders"]`)
	if !strings.Contains(row, "https://hooks.example.com/tis") || !strings.Contains(row, "transfer.confirmed") ||
		strings.Contains(row, "transfer.created") || !strings.Contains(row, "Ready") {
		t.Fatalf("the endpoint's row reads %q", row)
	}
	if body := text("body"); strings.Contains(body, secret) || strings.Contains(body, "whsec_") {
		t.Fatal("the page shows the secret again")
	}
	shot(t, ctx, filepath.Join(artifacts, "webhooks-page.png"))

	// Delete it from the page: the first click only asks.
	sel := `#webhooks-body tr[data-name="orders"] `
	step("asking to delete the endpoint",
		chromedp.Click(chromedp.CSS(sel+`summary[data-action="delete"]`)),
		chromedp.WaitVisible(chromedp.CSS(sel+`button[data-action="confirm-delete"]`)),
	)
	if err := stack.Client.Get(context.Background(), types.NamespacedName{Namespace: stack.Namespace, Name: "orders"}, &v1alpha1.WebhookEndpoint{}); err != nil {
		t.Fatalf("the endpoint after the first click on Delete: %v; want it kept until confirmed", err)
	}
	shot(t, ctx, filepath.Join(artifacts, "webhooks-delete-confirm.png"))
	step("confirming the deletion",
		chromedp.Click(chromedp.CSS(sel+`button[data-action="confirm-delete"]`)),
		chromedp.WaitVisible(chromedp.ID("deleted")),
		chromedp.WaitVisible(chromedp.ID("no-webhooks")),
	)
	err := stack.Client.Get(context.Background(), types.NamespacedName{Namespace: stack.Namespace, Name: "orders"}, &v1alpha1.WebhookEndpoint{})
	if !apierrors.IsNotFound(err) {
		// The garbage collector is not part of envtest: only the endpoint's own deletion is checked.
		t.Fatalf("the endpoint after deletion from the page: %v, want NotFound", err)
	}

	if f := failures.list(); len(f) > 0 {
		t.Fatalf("the browser reported problems:\n%s", strings.Join(f, "\n"))
	}
}
