// Package browser drives the /keys page in a real, headless Chromium with chromedp, against the
// whole service (envtest API server, controllers, HTTP API) on 127.0.0.1.
//
// Chromium is installed by hack/chromium.sh (make test runs it first). Without it the test fails
// and says so: it is never skipped.
package browser

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// chromiumPath is where Debian's chromium package puts the browser; CHROMIUM_PATH overrides it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CHROMIUM_PATH")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("Chromium is not installed at %s (%v). Install it with hack/chromium.sh "+
			"(Debian's chromium package; `make test` runs it first), or set CHROMIUM_PATH.", p, err)
	}
	return p
}

var keyPattern = regexp.MustCompile(`^sk_test_[0-9A-Za-z]{64}$`)

// browserFailures collects what the page reports that a person would not see: uncaught
// exceptions and Content-Security-Policy violations.
type browserFailures struct {
	mu    sync.Mutex
	items []string
}

func (b *browserFailures) add(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items = append(b.items, s)
}

func (b *browserFailures) list() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.items...)
}

func TestKeysPageInChromium(t *testing.T) {
	chromium := chromiumPath(t)
	stack := servicetest.Start(t)
	account := stack.CreateAccount(t, "Browser Tester")
	artifacts := filepath.Join(testenv.RepoRoot(t), "test", "artifacts")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	api := &http.Client{Transport: openapitest.NewValidator(t).Transport(t, nil)}

	ctx, failures := startChromium(t, chromium, filepath.Join(artifacts, "keys-page-failure.png"))
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			shot(t, ctx, filepath.Join(artifacts, "keys-page-failure.png"))
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string { t.Helper(); return textOf(t, ctx, sel) }
	location := func() string { t.Helper(); return locationOf(t, ctx) }

	// The confirm() dialogs of the page, which a person accepts.
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	var confirmed sync.Map
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			confirmed.Store(ev.Message, true)
			if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
				failures.add("answering a dialog: " + err.Error())
			}
		}
	}()

	// /keys without a session goes to /sign-in.
	step("opening /keys", chromedp.Navigate(stack.URL+"/keys"), chromedp.WaitVisible(chromedp.ID("sign-in-form")))
	if l := location(); l != stack.URL+"/sign-in" {
		t.Fatalf("/keys without a session landed on %s, want /sign-in", l)
	}

	// A wrong password shows the problem's detail on the page.
	step("signing in with a wrong password",
		chromedp.SendKeys(chromedp.ID("email"), account.Email),
		chromedp.SendKeys(chromedp.ID("password"), "not the password"),
		chromedp.Click(chromedp.ID("sign-in-button")),
		chromedp.WaitVisible(chromedp.ID("sign-in-error")),
	)
	if got := text("#sign-in-error"); got != "The email or password is not correct." {
		t.Fatalf("sign-in error shown: %q", got)
	}
	shot(t, ctx, filepath.Join(artifacts, "sign-in-error.png"))

	step("signing in",
		chromedp.Evaluate[chromedp.Void](`document.getElementById('password').value = ''`),
		chromedp.SendKeys(chromedp.ID("password"), account.Password),
		chromedp.Click(chromedp.ID("sign-in-button")),
		chromedp.WaitVisible(chromedp.ID("create-form")),
	)
	if l := location(); l != stack.URL+"/keys" {
		t.Fatalf("after sign-in the page is %s, want /keys", l)
	}
	if got := text("#account-name"); got != "Browser Tester" {
		t.Fatalf("signed in as %q", got)
	}
	if got := text("#no-keys"); !strings.Contains(got, "No keys yet") {
		t.Fatalf("empty state: %q", got)
	}

	// Create a key and read it from the page.
	step("creating a key",
		chromedp.SendKeys(chromedp.ID("key-name"), "browser-test"),
		chromedp.Click(chromedp.ID("create-button")),
		chromedp.WaitVisible(chromedp.ID("new-key")),
		chromedp.WaitVisible(chromedp.CSS(`#keys-body tr`)),
	)
	key := text("#new-key-value")
	if !keyPattern.MatchString(key) {
		t.Fatalf("the page shows %q, not a test key", key)
	}
	if warning := text("#new-key .warning"); !strings.Contains(warning, "you will not see it again") {
		t.Fatalf("the new key has no clear warning: %q", warning)
	}
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#keys-body tr').dataset.id`))
	if err != nil {
		t.Fatal(err)
	}
	if row := text(`#keys-body tr[data-id="` + id + `"]`); !strings.Contains(row, "browser-test") || !strings.Contains(row, key[:12]) ||
		!strings.Contains(row, "Active") || strings.Contains(row, key[12:]) {
		t.Fatalf("table row %q: want the name, the display prefix, Active, and not the key", row)
	}
	shot(t, ctx, filepath.Join(artifacts, "keys-page.png"))

	// The key from the page works on /v2.
	if status := v2Status(t, api, stack.URL, key); status != http.StatusOK {
		t.Fatalf("GET /v2/tokens with the key from the page: %d, want 200", status)
	}

	// Delete it from the page: the row goes, and /v2 refuses the key at once.
	step("deleting the key",
		chromedp.Click(chromedp.CSS(`#keys-body tr[data-id="`+id+`"] button[data-action="delete"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`#keys-body tr[data-id="`+id+`"]`)),
		chromedp.WaitVisible(chromedp.ID("no-keys")),
	)
	asked := false
	confirmed.Range(func(msg, _ any) bool {
		asked = asked || strings.Contains(msg.(string), "Delete the key")
		return true
	})
	if !asked {
		t.Fatal("the page deleted the key without asking for confirmation")
	}
	if status := v2Status(t, api, stack.URL, key); status != http.StatusForbidden {
		t.Fatalf("GET /v2/tokens with the deleted key: %d, want 403", status)
	}
	err = stack.Client.Get(context.Background(), types.NamespacedName{Namespace: stack.Namespace, Name: id}, &v1alpha1.ApiKey{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("the ApiKey %s after deletion from the page: %v, want NotFound", id, err)
	}

	// Sign out: back to /sign-in, and /keys asks for a session again.
	step("signing out", chromedp.Click(chromedp.ID("sign-out")), chromedp.WaitVisible(chromedp.ID("sign-in-form")))
	step("opening /keys after sign-out", chromedp.Navigate(stack.URL+"/keys"), chromedp.WaitVisible(chromedp.ID("sign-in-form")))
	if l := location(); l != stack.URL+"/sign-in" {
		t.Fatalf("/keys after sign-out landed on %s", l)
	}

	if f := failures.list(); len(f) > 0 {
		t.Fatalf("the browser reported problems:\n%s", strings.Join(f, "\n"))
	}
}

// startChromium starts a headless Chromium for the test and listens to what the page reports that
// a person would not see: uncaught exceptions and Content-Security-Policy violations. The browser
// stops when the test ends; the context ends after 2 minutes.
func startChromium(t *testing.T, chromium, failureShot string) (context.Context, *browserFailures) {
	t.Helper()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	ctx, cancel := context.WithTimeout(browserCtx, 2*time.Minute)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		shot(t, ctx, failureShot)
		t.Fatalf("starting Chromium: %v", err)
	}
	failures := &browserFailures{}
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	logEntries := chromedp.Events(ctx, log.EntryAdded)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			failures.add("exception: " + ev.ExceptionDetails.Text)
		}
	}()
	go func() {
		for ev, err := range logEntries {
			if err != nil {
				return
			}
			if strings.Contains(ev.Entry.Text, "Content Security Policy") {
				failures.add("CSP: " + ev.Entry.Text)
			}
		}
	}()
	return ctx, failures
}

// textOf is the trimmed text of the element sel.
func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("reading %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// locationOf is the page's URL.
func locationOf(t *testing.T, ctx context.Context) string {
	t.Helper()
	l, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// v2Status calls GET /v2/tokens with the key, as a client program would.
func v2Status(t *testing.T, c *http.Client, base, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/v2/tokens", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("api-key", key)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// shot saves a full-page PNG screenshot as a test artifact.
func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Logf("writing %s: %v", path, err)
		return
	}
	t.Logf("screenshot: %s", path)
}
