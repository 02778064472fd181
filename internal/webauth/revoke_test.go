package webauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// A copy of the cookie saved before sign-out is refused afterwards: by this replica, by another
// replica (its own handler over the same API server), and by a replica started after it.
func TestSignOutEndsTheSessionEverywhere(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	saved := h.signIn(alice)
	other := h.signIn(alice) // a second browser
	h.createKey(saved, `{"name":"before"}`)

	resp, _ := h.do(request{method: http.MethodPost, path: "/auth/sign-out", cookie: saved})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("sign-out: %d", resp.StatusCode)
	}
	resp, body := h.do(jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"after"}`, saved))
	assertProblem(t, resp, body, problem.Unauthorized)

	// A replica that did not handle the sign-out (a new handler: nothing in memory) refuses it too.
	restarted := h.newReplica(t)
	if status := restarted.status(t, saved); status != http.StatusUnauthorized {
		t.Fatalf("another replica accepted the signed-out cookie: %d", status)
	}
	// Sign-out ends that session only: the other browser stays signed in.
	if status := restarted.status(t, other); status != http.StatusOK {
		t.Fatalf("the other browser's session: %d, want 200", status)
	}
	var acct v1alpha1.Account
	if err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: "alice"}, &acct); err != nil {
		t.Fatal(err)
	}
	if n := len(acct.Status.SignedOutSessions); n != 1 {
		t.Fatalf("%d signed-out sessions recorded, want 1: %+v", n, acct.Status)
	}
}

// When the sign-out cannot be recorded, the answer says so and the cookie is kept: 503 with
// Retry-After when the API server did not answer in time, 500 when it refused.
func TestSignOutThatCannotBeRecorded(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want problem.Type
	}{
		{fmt.Errorf("patching: %w", context.DeadlineExceeded), problem.ServiceUnavailable},
		{apierrors.NewForbidden(schema.GroupResource{Resource: "accounts/status"}, "alice", errors.New("rbac")), problem.InternalError},
	} {
		h := newHarness(t, withInterceptor(interceptor.Funcs{
			SubResourcePatch: func(context.Context, client.Client, string, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
				return tc.err
			},
		}))
		cookie := h.signIn(h.addAccount("alice"))
		resp, body := h.do(request{method: http.MethodPost, path: "/auth/sign-out", cookie: cookie})
		assertProblem(t, resp, body, tc.want)
		if (tc.want == problem.ServiceUnavailable) != (resp.Header.Get("Retry-After") != "") || len(resp.Cookies()) != 0 {
			t.Fatalf("%v: Retry-After %q, cookies %v: want Retry-After only with 503, and the cookie kept", tc.err, resp.Header.Get("Retry-After"), resp.Cookies())
		}
		if _, status := h.useSession(cookie); status != http.StatusOK {
			t.Fatalf("the session after a failed sign-out: %d, want still 200", status)
		}
	}
}

// Signing out with a cookie gone idle still ends the session: a copy kept in use elsewhere stops.
func TestSignOutOfAnIdleCookieEndsItsCopies(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.SessionIdleTimeout = 10 * time.Minute })
	cookie := h.signIn(h.addAccount("alice"))
	h.clock.Step(5 * time.Minute)
	copyInUse, _ := h.useSession(cookie) // refreshed elsewhere
	h.clock.Step(6 * time.Minute)        // the original is idle now, the copy is not
	if _, status := h.useSession(cookie); status != http.StatusUnauthorized {
		t.Fatalf("the idle original: %d, want 401", status)
	}
	resp, _ := h.do(request{method: http.MethodPost, path: "/auth/sign-out", cookie: cookie})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("sign-out: %d", resp.StatusCode)
	}
	if status := h.newReplica(t).status(t, copyInUse); status != http.StatusUnauthorized {
		t.Fatalf("the copy in use after the sign-out: %d, want 401", status)
	}
}

// The Account CRD bounds signedOutSessions and the shape of a session id as the code does.
func TestSignedOutSessionsMatchTheCRD(t *testing.T) {
	crd, err := os.ReadFile("../../config/crd/bases/intents.transferintent.io_accounts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("maxItems: %d", maxSignedOutSessions), "pattern: ^[0-9a-f]{32}$"} {
		if !strings.Contains(string(crd), want) {
			t.Errorf("the Account CRD lacks %q", want)
		}
	}
	if id := sessionID(Session{Nonce: "x"}); !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
		t.Errorf("session id %q does not match the CRD's pattern", id)
	}
}

// A new password ends every session signed in with the old one, on every replica.
func TestPasswordChangeEndsSessions(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	cookie := h.signIn(alice)
	var secret corev1.Secret
	key := types.NamespacedName{Namespace: testNamespace, Name: "alice-password"}
	if err := h.client.Get(context.Background(), key, &secret); err != nil {
		t.Fatal(err)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte("a new password"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	secret.Data["passwordHash"] = hash
	if err := h.client.Update(context.Background(), &secret); err != nil {
		t.Fatal(err)
	}
	if _, status := h.useSession(cookie); status != http.StatusUnauthorized {
		t.Fatalf("old password's session after the change: %d, want 401", status)
	}
	alice.password = "a new password"
	if _, status := h.useSession(h.signIn(alice)); status != http.StatusOK {
		t.Fatalf("a session with the new password: %d", status)
	}
}

// A session unused for the idle timeout ends; one used within it lives on, its cookie refreshed.
func TestSessionIdleTimeout(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.SessionIdleTimeout = 10 * time.Minute })
	alice := h.addAccount("alice")
	cookie := h.signIn(alice)
	h.clock.Step(9 * time.Minute)
	refreshed, status := h.useSession(cookie)
	if status != http.StatusOK || refreshed == cookie {
		t.Fatalf("used after 9 min: %d, refreshed %v", status, refreshed != cookie)
	}
	h.clock.Step(9 * time.Minute)
	if _, status := h.useSession(refreshed); status != http.StatusOK {
		t.Fatalf("refreshed cookie 9 min after its last use: %d, want 200", status)
	}
	if _, status := h.useSession(cookie); status != http.StatusUnauthorized {
		t.Fatalf("the unrefreshed cookie 18 min after its last use: %d, want 401", status)
	}
	h.clock.Step(10 * time.Minute)
	if _, status := h.useSession(refreshed); status != http.StatusUnauthorized {
		t.Fatalf("10 min idle: %d, want 401", status)
	}
}

// More sign-outs than the status holds end every session of the account instead.
func TestRecordSignOutBounded(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var st v1alpha1.AccountStatus
	for i := range maxSignedOutSessions {
		if !recordSignOut(&st, fmt.Sprintf("%032x", i), now.Add(time.Hour), now) {
			t.Fatalf("entry %d not recorded", i)
		}
	}
	if recordSignOut(&st, fmt.Sprintf("%032x", 3), now.Add(time.Hour), now) {
		t.Fatal("a session signed out twice was written twice")
	}
	if !recordSignOut(&st, "ff", now.Add(time.Hour), now) || st.SessionsNotBefore == nil || len(st.SignedOutSessions) != 0 {
		t.Fatalf("full list: notBefore %v, %d entries; want every session ended", st.SessionsNotBefore, len(st.SignedOutSessions))
	}
	// Expired entries are dropped as new ones come.
	st = v1alpha1.AccountStatus{}
	recordSignOut(&st, "aa", now.Add(time.Minute), now)
	recordSignOut(&st, "bb", now.Add(3*time.Hour), now.Add(2*time.Minute))
	if len(st.SignedOutSessions) != 1 || st.SignedOutSessions[0].Session != "bb" {
		t.Fatalf("entries %+v: want only the unexpired one", st.SignedOutSessions)
	}
}

// replica is another handler over the harness's API server: a second replica, or this one after a
// restart (nothing in memory but what the API server holds).
type replica struct {
	h   *harness
	web *Handler
}

func (h *harness) newReplica(t *testing.T) replica {
	t.Helper()
	o := DefaultOptions()
	o.BaseURL, o.ProblemBaseURL = h.srv.URL, testProblemURL
	web, err := New(o, Deps{
		Accounts: h.accounts, Keys: h.keys, Cache: h.client, APIReader: h.client, Writer: h.client,
		Status: h.client.Status(), Namespace: testNamespace, SessionKeys: StaticSessionKeys{testSessionKey}, Clock: h.clock,
	}, logr.Discard())
	if err != nil {
		t.Fatal(err)
	}
	return replica{h: h, web: web}
}

// status lists keys through this replica with the cookie.
func (r replica) status(t *testing.T, cookie string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, r.h.srv.URL+"/auth/api-keys", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: CookieName, Value: cookie})
	rec := httptest.NewRecorder()
	r.web.ServeHTTP(rec, req)
	return rec.Code
}

// A stalled Kubernetes API costs a key's creation, disabling, deletion or a sign-out its write
// timeout and a 503 with Retry-After, never a hang or a 500 (the defect: 15–41 s, then 500).
func TestStalledAPIServerIs503OnAuthWrites(t *testing.T) {
	var stalled atomic.Bool
	wait := func(ctx context.Context) error {
		if stalled.Load() {
			<-ctx.Done() // a stalled API server: nothing comes back before the deadline
			return ctx.Err()
		}
		return nil
	}
	h := newHarness(t, func(o *Options) { o.WriteTimeout = 300 * time.Millisecond }, withInterceptor(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := wait(ctx); err != nil {
				return err
			}
			return c.Create(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			if err := wait(ctx); err != nil {
				return err
			}
			return c.Patch(ctx, obj, p, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			if err := wait(ctx); err != nil {
				return err
			}
			return c.Delete(ctx, obj, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			if err := wait(ctx); err != nil {
				return err
			}
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	}))
	cookie := h.signIn(h.addAccount("alice"))
	key := h.createKey(cookie, `{"name":"k"}`)
	stalled.Store(true)
	for _, r := range []request{
		jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"x"}`, cookie),
		jsonRequest(http.MethodPost, "/auth/api-keys/"+key.ID+"/disable", "", cookie),
		{method: http.MethodDelete, path: "/auth/api-keys/" + key.ID, cookie: cookie},
		{method: http.MethodPost, path: "/auth/sign-out", cookie: cookie},
	} {
		start := time.Now()
		resp, body := h.do(r)
		took := time.Since(start)
		assertProblem(t, resp, body, problem.ServiceUnavailable)
		if resp.Header.Get("Retry-After") == "" || took > 2*time.Second {
			t.Errorf("%s %s: Retry-After %q after %s; want one within the 300ms write timeout", r.method, r.path, resp.Header.Get("Retry-After"), took)
		}
	}
}
