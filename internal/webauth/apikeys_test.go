package webauth

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

var keyPattern = regexp.MustCompile(`^sk_test_[0-9A-Za-z]{64}$`)

// The whole promise of create: a session makes a key that works on /v2 at once, and the key is
// stored, logged and announced nowhere.
func TestCreatedKeyWorksOnV2AtOnceAndIsStoredOnlyAsHash(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	cookie := h.signIn(alice)

	resp, body := h.do(jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"CI pipeline"}`, cookie))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("Cache-Control %q, want no-store", cc)
	}
	var c created
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	if !keyPattern.MatchString(c.Key) || c.Environment != "test" || c.Name != "CI pipeline" ||
		c.DisplayPrefix != c.Key[:12] || c.ExpiresAt != nil || c.CreatedAt == "" {
		t.Fatalf("created key %+v", c)
	}
	if !strings.HasPrefix(c.ID, "alice-ci-pipeline-") {
		t.Fatalf("id %q, want alice-ci-pipeline-<hash>", c.ID)
	}

	// /v2 accepts it at once, on this replica, without any controller having run.
	if got := h.v2Status(c.Key); got != http.StatusOK {
		t.Fatalf("GET /v2/tokens with the new key: %d, want 200", got)
	}

	// The object: owned by the Account, holding the hash and never the key.
	var obj v1alpha1.ApiKey
	if err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: c.ID}, &obj); err != nil {
		t.Fatal(err)
	}
	if obj.Spec.KeyHash != registry.HashKey(c.Key) || obj.Spec.AccountRef.Name != "alice" ||
		obj.Spec.Environment != v1alpha1.EnvironmentTest || obj.Spec.DisplayPrefix != c.DisplayPrefix || obj.Spec.DisplayName != "CI pipeline" {
		t.Fatalf("spec %+v", obj.Spec)
	}
	refs := obj.OwnerReferences
	if len(refs) != 1 || refs[0].Kind != "Account" || refs[0].Name != "alice" || refs[0].UID != alice.uid ||
		refs[0].APIVersion != v1alpha1.GroupVersion.String() || refs[0].BlockOwnerDeletion == nil || !*refs[0].BlockOwnerDeletion {
		t.Fatalf("ownerReferences %+v, want the Account alice (uid %s) with blockOwnerDeletion", refs, alice.uid)
	}
	serialized, err := json.Marshal(&obj)
	if err != nil {
		t.Fatal(err)
	}
	secretPart := c.Key[len("sk_test_"):]
	if strings.Contains(string(serialized), secretPart) {
		t.Fatalf("the ApiKey object holds the plaintext key: %s", serialized)
	}

	evs := h.drainEvents()
	if len(evs) == 0 || !strings.Contains(strings.Join(evs, "\n"), "Created") {
		t.Fatalf("no creation event: %v", evs)
	}
	for _, e := range evs {
		if strings.Contains(e, secretPart) {
			t.Fatalf("an event holds the key: %s", e)
		}
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "API key created") {
		t.Fatalf("the creation was not logged; log:\n%s", logs)
	}
	if strings.Contains(logs, secretPart) {
		t.Fatalf("the log holds the key:\n%s", logs)
	}

	// Listing never shows it either.
	_, list := h.do(request{method: http.MethodGet, path: "/auth/api-keys", cookie: cookie})
	if strings.Contains(string(list), secretPart) || strings.Contains(string(list), "sha256:") {
		t.Fatalf("the list shows the key or its hash: %s", list)
	}
}

func TestCreateLiveKeyWithExpiry(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	expires := h.clock.Now().Add(48 * time.Hour).Format(time.RFC3339)
	c := h.createKey(cookie, `{"name":"wallet","environment":"live","expiresAt":"`+expires+`"}`)
	if !strings.HasPrefix(c.Key, "sk_live_") || c.Environment != "live" || c.ExpiresAt == nil || *c.ExpiresAt != expires {
		t.Fatalf("created %+v, want a live key expiring at %s", c, expires)
	}
	if got := h.v2Status(c.Key); got != http.StatusOK {
		t.Fatalf("before expiry: %d", got)
	}
	h.clock.Step(48 * time.Hour)
	if got := h.v2Status(c.Key); got != http.StatusForbidden {
		t.Fatalf("at expiry: %d, want 403", got)
	}
}

func TestCreateRequiresSession(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	good := h.signIn(alice)
	forged := sealSession([]byte("another key, not the server's, 32+ bytes"), newSession("alice", []byte("hash"), h.clock.Now(), time.Hour))
	tampered := strings.Replace(good, "v1.", "v1.x", 1)

	cases := []struct{ name, cookie string }{
		{"no cookie", ""},
		{"garbage", "hello"},
		{"signed with another key", forged},
		{"tampered payload", tampered},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.do(jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"x"}`, tc.cookie))
			assertProblem(t, resp, body, problem.Unauthorized)
			resp, body = h.do(request{method: http.MethodGet, path: "/auth/api-keys", cookie: tc.cookie})
			assertProblem(t, resp, body, problem.Unauthorized)
		})
	}
	var list v1alpha1.ApiKeyList
	if err := h.client.List(context.Background(), &list); err != nil || len(list.Items) != 0 {
		t.Fatalf("keys were created without a session: %d (%v)", len(list.Items), err)
	}
	// The real session works, which shows the refusals above were about the session.
	h.createKey(good, `{"name":"x"}`)
}

func TestSessionEndsWithAccountAndExpiry(t *testing.T) {
	t.Run("lifetime: a session used every 20 minutes ends after 8 hours", func(t *testing.T) {
		h := newHarness(t)
		cookie := h.signIn(h.addAccount("alice"))
		for elapsed := time.Duration(0); elapsed < 8*time.Hour-20*time.Minute; elapsed += 20 * time.Minute {
			h.clock.Step(20 * time.Minute)
			var status int
			if cookie, status = h.useSession(cookie); status != http.StatusOK {
				t.Fatalf("used after %s: %d", elapsed+20*time.Minute, status)
			}
		}
		h.clock.Step(20 * time.Minute) // 8 h after sign-in
		if _, status := h.useSession(cookie); status != http.StatusUnauthorized {
			t.Fatalf("8 h after sign-in: %d, want 401", status)
		}
	})
	t.Run("account disabled", func(t *testing.T) {
		h := newHarness(t)
		cookie := h.signIn(h.addAccount("alice"))
		acct, _ := h.accounts.Get("alice")
		acct.Disabled = true
		h.accounts.Upsert(acct)
		resp, body := h.do(jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"x"}`, cookie))
		assertProblem(t, resp, body, problem.Unauthorized)
	})
	t.Run("account deleted", func(t *testing.T) {
		h := newHarness(t)
		cookie := h.signIn(h.addAccount("alice"))
		h.accounts.Delete("alice")
		resp, body := h.do(request{method: http.MethodGet, path: "/auth/api-keys", cookie: cookie})
		assertProblem(t, resp, body, problem.Unauthorized)
	})
	t.Run("account deleted and created again under the same name", func(t *testing.T) {
		h := newHarness(t)
		cookie := h.signIn(h.addAccount("alice"))
		acct, _ := h.accounts.Get("alice")
		h.clock.Step(2 * time.Second)
		acct.CreatedAt = h.clock.Now()
		h.accounts.Upsert(acct)
		resp, body := h.do(request{method: http.MethodGet, path: "/auth/api-keys", cookie: cookie})
		assertProblem(t, resp, body, problem.Unauthorized)
	})
}

// A session cookie never replaces the api-key header.
func TestSessionCookieIsNotAnAPIKey(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	h.createKey(cookie, `{"name":"x"}`)
	resp, body := h.do(request{method: http.MethodGet, path: "/v2/tokens", cookie: cookie})
	assertProblem(t, resp, body, problem.MissingAPIKey)
}

func TestCrossSiteRequestsAreRefused(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	cookie := h.signIn(alice)
	victim := h.createKey(cookie, `{"name":"victim"}`)

	crossSite := []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Sec-Fetch-Site": {"same-site"}}, // a sibling subdomain is another origin too
		{"Origin": {"https://evil.example"}},
	}
	endpoints := []request{
		jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"x"}`, cookie),
		{method: http.MethodPost, path: "/auth/api-keys/" + victim.ID + "/disable", cookie: cookie},
		{method: http.MethodDelete, path: "/auth/api-keys/" + victim.ID, cookie: cookie},
		{method: http.MethodPost, path: "/auth/sign-out", cookie: cookie},
		jsonRequest(http.MethodPost, "/auth/sign-in", `{"email":"`+alice.email+`","password":"`+alice.password+`"}`, ""),
	}
	for _, hdr := range crossSite {
		for _, r := range endpoints {
			r.header = hdr
			resp, body := h.do(r)
			assertProblem(t, resp, body, problem.Forbidden)
			if resp.Header.Get("Set-Cookie") != "" {
				t.Fatalf("%s %s cross-site set a cookie", r.method, r.path)
			}
		}
	}
	// Nothing changed: one key, still enabled and working.
	if keys := h.keys.ByAccount("alice"); len(keys) != 1 || keys[0].Disabled {
		t.Fatalf("keys after cross-site attempts: %+v", keys)
	}
	if got := h.v2Status(victim.Key); got != http.StatusOK {
		t.Fatalf("victim key: %d", got)
	}
	// The same requests from the site's own pages pass.
	r := jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"y"}`, cookie)
	r.header = http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {h.srv.URL}}
	if resp, body := h.do(r); resp.StatusCode != http.StatusCreated {
		t.Fatalf("same-origin create: %d %s", resp.StatusCode, body)
	}
}

func TestCreateValidation(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	past := h.clock.Now().Add(-time.Minute).Format(time.RFC3339)
	cases := []struct {
		name, contentType, body string
		want                    problem.Type
		detail                  string
	}{
		{"not JSON", "text/plain", `{"name":"x"}`, problem.UnsupportedMediaType, "application/json"},
		{"form", "application/x-www-form-urlencoded", `name=x`, problem.UnsupportedMediaType, "application/json"},
		{"malformed JSON", "application/json", `{"name":`, problem.BadRequest, "JSON object"},
		{"array", "application/json", `["x"]`, problem.BadRequest, "JSON object"},
		{"unknown field", "application/json", `{"name":"x","scope":"all"}`, problem.BadRequest, `"scope"`},
		{"field in another case", "application/json", `{"Name":"x"}`, problem.BadRequest, `"Name"`},
		{"name missing", "application/json", `{}`, problem.BadRequest, `"name"`},
		{"name blank", "application/json", `{"name":"   "}`, problem.BadRequest, `"name"`},
		{"name too long", "application/json", `{"name":"` + strings.Repeat("n", 64) + `"}`, problem.BadRequest, "63"},
		{"name with control characters", "application/json", `{"name":"a\u0007b"}`, problem.BadRequest, "control"},
		{"name not a string", "application/json", `{"name":5}`, problem.BadRequest, `"name"`},
		{"unknown environment", "application/json", `{"name":"x","environment":"prod"}`, problem.BadRequest, `"environment"`},
		{"expiresAt malformed", "application/json", `{"name":"x","expiresAt":"tomorrow"}`, problem.BadRequest, "RFC 3339"},
		{"expiresAt in the past", "application/json", `{"name":"x","expiresAt":"` + past + `"}`, problem.ValidationFailed, "future"},
		{"too large", "application/json", `{"name":"` + strings.Repeat("n", 70<<10) + `"}`, problem.PayloadTooLarge, "bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.do(request{method: http.MethodPost, path: "/auth/api-key/create", body: tc.body, contentType: tc.contentType, cookie: cookie})
			p := assertProblem(t, resp, body, tc.want)
			if !strings.Contains(p.Detail, tc.detail) {
				t.Fatalf("detail %q does not mention %q", p.Detail, tc.detail)
			}
		})
	}
	if n := len(h.keys.ByAccount("alice")); n != 0 {
		t.Fatalf("%d keys created by invalid requests", n)
	}
}

func TestListDisableDeleteOwnKeysOnly(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.addAccount("alice"), h.addAccount("bob")
	aliceCookie, bobCookie := h.signIn(alice), h.signIn(bob)
	first := h.createKey(aliceCookie, `{"name":"first"}`)
	h.clock.Step(time.Minute)
	second := h.createKey(aliceCookie, `{"name":"second","environment":"live"}`)
	bobs := h.createKey(bobCookie, `{"name":"bobs"}`)

	resp, body := h.do(request{method: http.MethodGet, path: "/auth/api-keys", cookie: aliceCookie})
	var list []map[string]any
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &list) != nil {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	if len(list) != 2 || list[0]["id"] != second.ID || list[1]["id"] != first.ID {
		t.Fatalf("list %s, want second then first (newest first)", body)
	}
	for _, item := range list {
		if _, has := item["key"]; has || len(item) != 7 {
			t.Fatalf("list item %v: want exactly id, name, environment, displayPrefix, createdAt, expiresAt, disabled", item)
		}
	}

	// bob can neither see, disable nor delete alice's keys; the answer is the same as for a key
	// that does not exist.
	for _, r := range []request{
		{method: http.MethodPost, path: "/auth/api-keys/" + first.ID + "/disable", cookie: bobCookie},
		{method: http.MethodDelete, path: "/auth/api-keys/" + first.ID, cookie: bobCookie},
		{method: http.MethodDelete, path: "/auth/api-keys/no-such-key", cookie: aliceCookie},
	} {
		resp, body := h.do(r)
		assertProblem(t, resp, body, problem.NotFound)
	}
	if got := h.v2Status(first.Key); got != http.StatusOK {
		t.Fatalf("alice's key after bob's attempts: %d", got)
	}

	// Disable: refused on /v2 at once, and recorded in the object.
	resp, body = h.do(request{method: http.MethodPost, path: "/auth/api-keys/" + first.ID + "/disable", cookie: aliceCookie})
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"disabled":true`) {
		t.Fatalf("disable: %d %s", resp.StatusCode, body)
	}
	if got := h.v2Status(first.Key); got != http.StatusForbidden {
		t.Fatalf("disabled key on /v2: %d, want 403", got)
	}
	var obj v1alpha1.ApiKey
	if err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: first.ID}, &obj); err != nil || !obj.Spec.Disabled {
		t.Fatalf("object after disable: disabled=%v err=%v", obj.Spec.Disabled, err)
	}

	// Delete: refused on /v2 at once, object gone, a second delete is 404.
	resp, body = h.do(request{method: http.MethodDelete, path: "/auth/api-keys/" + second.ID, cookie: aliceCookie})
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
		t.Fatalf("delete: %d %s", resp.StatusCode, body)
	}
	if got := h.v2Status(second.Key); got != http.StatusForbidden {
		t.Fatalf("deleted key on /v2: %d, want 403", got)
	}
	err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: second.ID}, &obj)
	if err == nil {
		t.Fatal("the ApiKey object still exists after delete")
	}
	resp, body = h.do(request{method: http.MethodDelete, path: "/auth/api-keys/" + second.ID, cookie: aliceCookie})
	assertProblem(t, resp, body, problem.NotFound)

	// bob's key was never touched.
	if got := h.v2Status(bobs.Key); got != http.StatusOK {
		t.Fatalf("bob's key: %d", got)
	}
}

// An account holds at most its Account's maxApiKeys keys: each key would otherwise multiply every
// per-key bound (rate limit, event streams). Another account is not affected.
func TestCreateRefusedPastTheAccountsKeyLimit(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	var acct v1alpha1.Account
	if err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: "alice"}, &acct); err != nil {
		t.Fatal(err)
	}
	limit := int32(2)
	acct.Spec.MaxAPIKeys = &limit
	if err := h.client.Update(context.Background(), &acct); err != nil {
		t.Fatal(err)
	}
	cookie := h.signIn(alice)
	h.createKey(cookie, `{"name":"one","environment":"test"}`)
	h.createKey(cookie, `{"name":"two","environment":"test"}`)
	resp, body := h.do(jsonRequest(http.MethodPost, "/auth/api-key/create", `{"name":"three","environment":"test"}`, cookie))
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "validation-failed") ||
		!strings.Contains(string(body), `"limit":2`) {
		t.Fatalf("a third key past maxApiKeys 2: %d %s, want 422 validation-failed with details.limit", resp.StatusCode, body)
	}
	bob := h.signIn(h.addAccount("bob"))
	h.createKey(bob, `{"name":"one","environment":"test"}`)
}
