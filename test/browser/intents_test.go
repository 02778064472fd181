package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// A signed-in person opens /intents from /keys, sees the account's intents with their status
// (and no other account's), filters them by status, and opens one intent's timeline.
func TestIntentsPageInChromium(t *testing.T) {
	chromium := chromiumPath(t)
	stack := servicetest.Start(t)
	account := stack.CreateAccount(t, "Intents Tester")
	other := stack.CreateAccount(t, "Someone Else")
	artifacts := filepath.Join(testenv.RepoRoot(t), "test", "artifacts")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}

	// Four intents of the account, oldest first, in four statuses, and one of another account.
	name := account.Object.Name
	pending := createIntent(t, stack, name, 4)
	submitted := createIntent(t, stack, name, 3, v1alpha1.IntentPhaseSubmitted)
	confirmed := createIntent(t, stack, name, 2, v1alpha1.IntentPhaseSubmitted, v1alpha1.IntentPhaseConfirmed)
	failed := createIntent(t, stack, name, 1, v1alpha1.IntentPhaseSubmitted, v1alpha1.IntentPhaseFailed)
	others := createIntent(t, stack, other.Object.Name, 0, v1alpha1.IntentPhaseSubmitted)
	want := fmt.Sprintf("%s:failed %s:confirmed %s:submitted %s:pending", // newest first
		failed.Spec.ID, confirmed.Spec.ID, submitted.Spec.ID, pending.Spec.ID)
	waitForStore(t, stack, name, want)

	ctx, failures := startChromium(t, chromium, filepath.Join(artifacts, "intents-page-failure.png"))
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			shot(t, ctx, filepath.Join(artifacts, "intents-page-failure.png"))
			t.Fatalf("%s: %v", what, err)
		}
	}
	rows := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](
			`Array.from(document.querySelectorAll('#intents-body tr')).map(r => r.dataset.id + ':' + r.dataset.status).join(' ')`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	// Without a session /intents goes to /sign-in; signing in lands on /keys, which links /intents.
	step("opening /intents", chromedp.Navigate(stack.URL+"/intents"), chromedp.WaitVisible(chromedp.ID("sign-in-form")))
	if l := locationOf(t, ctx); l != stack.URL+"/sign-in" {
		t.Fatalf("/intents without a session landed on %s, want /sign-in", l)
	}
	step("signing in",
		chromedp.SendKeys(chromedp.ID("email"), account.Email),
		chromedp.SendKeys(chromedp.ID("password"), account.Password),
		chromedp.Click(chromedp.ID("sign-in-button")),
		chromedp.WaitVisible(chromedp.ID("create-form")),
	)
	step("following the link to /intents", chromedp.Click(chromedp.ID("nav-intents")), chromedp.WaitVisible(chromedp.ID("intents-table")))
	if l := locationOf(t, ctx); l != stack.URL+"/intents" {
		t.Fatalf("the Intents link opened %s", l)
	}
	if got := rows(); got != want {
		t.Fatalf("the page's rows (id:status) are\n%s\nwant\n%s", got, want)
	}
	if row := textOf(t, ctx, `#intents-body tr[data-id="`+confirmed.Spec.ID+`"]`); !strings.Contains(row, "confirmed") ||
		!strings.Contains(row, confirmed.Status.Hash[:10]) {
		t.Fatalf("the confirmed intent's row reads %q", row)
	}
	if body := textOf(t, ctx, "main"); strings.Contains(body, others.Spec.ID) {
		t.Fatal("the page shows another account's intent")
	}
	shot(t, ctx, filepath.Join(artifacts, "intents-page.png"))

	// Filter by status: only the confirmed one, and the filter shows as chosen.
	step("filtering by confirmed",
		chromedp.Click(chromedp.CSS(`#status-filter a[data-status="confirmed"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#status-filter a[data-status="confirmed"][aria-current="true"]`)),
	)
	if got, want := rows(), confirmed.Spec.ID+":confirmed"; got != want {
		t.Fatalf("confirmed rows %q, want %q", got, want)
	}
	shot(t, ctx, filepath.Join(artifacts, "intents-page-confirmed.png"))
	step("filtering by expired",
		chromedp.Click(chromedp.CSS(`#status-filter a[data-status="expired"]`)),
		chromedp.WaitVisible(chromedp.ID("no-intents")),
	)
	if got := rows(); got != "" {
		t.Fatalf("expired rows %q, want none", got)
	}
	step("back to all",
		chromedp.Click(chromedp.CSS(`#status-filter a[data-status="all"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#status-filter a[data-status="all"][aria-current="true"]`)),
	)
	if got := rows(); got != want {
		t.Fatalf("all rows again %q", got)
	}

	// The confirmed intent's timeline: created, submitted with its transaction and block, confirmed.
	step("opening the confirmed intent",
		chromedp.Click(chromedp.CSS(`#intents-body tr[data-id="`+confirmed.Spec.ID+`"] a`)),
		chromedp.WaitVisible(chromedp.ID("timeline")),
	)
	steps, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`Array.from(document.querySelectorAll('#timeline li')).map(s => s.dataset.step + ':' + s.dataset.state).join(' ')`))
	if err != nil {
		t.Fatal(err)
	}
	if steps != "Created:done Submitted:done Confirmed:done" {
		t.Fatalf("timeline %q", steps)
	}
	if tl := textOf(t, ctx, "#timeline"); !strings.Contains(tl, confirmed.Status.Hash) || !strings.Contains(tl, "Block") {
		t.Fatalf("the timeline lacks the transaction and its block: %q", tl)
	}
	shot(t, ctx, filepath.Join(artifacts, "intent-timeline.png"))

	// Another account's intent is not found, and the account bar goes back to /keys.
	step("opening another account's intent", chromedp.Navigate(stack.URL+"/intents/"+others.Spec.ID))
	if body := textOf(t, ctx, "body"); strings.Contains(body, others.Status.Hash) || !strings.Contains(body, "not-found") {
		t.Fatalf("another account's intent answered %q", body)
	}
	step("back to /keys", chromedp.Navigate(stack.URL+"/intents"), chromedp.WaitVisible(chromedp.ID("nav-keys")),
		chromedp.Click(chromedp.ID("nav-keys")), chromedp.WaitVisible(chromedp.ID("create-form")))

	if f := failures.list(); len(f) > 0 {
		t.Fatalf("the browser reported problems:\n%s", strings.Join(f, "\n"))
	}
}

// createIntent creates a test intent of the account, minutesAgo minutes old, and moves it through
// the phases as the chain watcher would.
func createIntent(t *testing.T, stack *servicetest.Stack, account string, minutesAgo int, phases ...v1alpha1.IntentPhase) *v1alpha1.TransferIntent {
	t.Helper()
	ctx := context.Background()
	created := time.Now().Add(-time.Duration(minutesAgo) * time.Minute)
	id := intent.NewIntentID(created)
	objName, err := intent.ObjectNameFromID(id)
	if err != nil {
		t.Fatal(err)
	}
	const chain = "eip155:11155111"
	ti := &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: objName, Namespace: stack.Namespace,
			Labels: v1alpha1.IntentLabels(account, v1alpha1.IntentTypeTransfer)},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			Type: v1alpha1.IntentTypeTransfer, FromChain: chain, ToChain: chain,
			OrderID: fmt.Sprintf("0x%064x", created.UnixNano()),
			Request: v1alpha1.TransferRequest{
				From: chain + ":0x1111111111111111111111111111111111111111", To: chain + ":0x2222222222222222222222222222222222222222",
				Asset: v1alpha1.TransferAsset{In: chain + ":0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"}, Amount: "1.5",
			},
			Tx:        &v1alpha1.TransactionPayload{To: "0x2222222222222222222222222222222222222222", Value: "1500000000000000000", ChainID: 11155111},
			ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour).Truncate(time.Second)),
		},
	}
	if err := stack.Client.Create(ctx, ti); err != nil {
		t.Fatal(err)
	}
	for _, phase := range phases {
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := stack.Client.Get(ctx, client.ObjectKeyFromObject(ti), ti); err != nil {
				return err
			}
			now := metav1.NewTime(time.Now().Truncate(time.Second))
			ti.Status.Phase, ti.Status.UpdatedAt = phase, &now
			ti.Status.Hash = fmt.Sprintf("0x%064x", created.UnixNano())
			if phase == v1alpha1.IntentPhaseConfirmed {
				ti.Status.BlockNumber, ti.Status.BlockHash = 7, fmt.Sprintf("0x%064x", 2)
			}
			return stack.Client.Status().Update(ctx, ti)
		})
		if err != nil {
			t.Fatalf("moving %s to %s: %v", id, phase, err)
		}
	}
	return ti
}

// waitForStore waits until the intent store serves the account's test intents as want (id:status,
// newest first).
func waitForStore(t *testing.T, stack *servicetest.Stack, account, want string) {
	t.Helper()
	testenv.WaitFor(t, 20*time.Second, "the intent store to serve "+want, func() error {
		items, _, err := stack.Service.Intents.List(context.Background(),
			intentstore.Owner{Account: account, Environment: v1alpha1.EnvironmentTest}, intentstore.Filter{}, "", 10)
		var got []string
		for _, s := range items {
			got = append(got, s.ID+":"+string(s.Status))
		}
		if err != nil {
			return fmt.Errorf("listing: %w", err)
		}
		if strings.Join(got, " ") != want {
			return fmt.Errorf("it serves %v", got)
		}
		return nil
	})
}
