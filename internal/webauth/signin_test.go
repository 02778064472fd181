package webauth

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/transferintent/transfer-intent-service/internal/problem"
)

func signInJSON(email, password string) request {
	return jsonRequest(http.MethodPost, "/auth/sign-in", fmt.Sprintf(`{"email":%q,"password":%q}`, email, password), "")
}

func TestBruteForceIsThrottled(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")

	var throttled *http.Response
	for i := 1; i <= 20; i++ {
		resp, body := h.do(signInJSON(alice.email, fmt.Sprintf("guess-%d", i)))
		switch {
		case i <= 5:
			assertProblem(t, resp, body, problem.Unauthorized)
		default:
			assertProblem(t, resp, body, problem.RateLimited)
			throttled = resp
		}
		if resp.Header.Get("Set-Cookie") != "" {
			t.Fatalf("attempt %d set a cookie", i)
		}
	}
	retry, err := strconv.Atoi(throttled.Header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 15*60 {
		t.Fatalf("Retry-After %q, want whole seconds in 1..900", throttled.Header.Get("Retry-After"))
	}

	// The right password is refused while throttled: the throttle answers before checking it.
	resp, body := h.do(signInJSON(alice.email, alice.password))
	assertProblem(t, resp, body, problem.RateLimited)
	// The email is matched without case, so changing it does not escape the throttle.
	resp, body = h.do(signInJSON(strings.ToUpper(alice.email), alice.password))
	assertProblem(t, resp, body, problem.RateLimited)

	// After Retry-After seconds, the right password works, and it clears the count.
	h.clock.Step(time.Duration(retry) * time.Second)
	h.signIn(alice)
	if logs := h.logs.String(); strings.Contains(logs, alice.password) || strings.Contains(logs, "guess-") {
		t.Fatalf("a password reached the log:\n%s", logs)
	}
	if !strings.Contains(h.logs.String(), "sign-in throttled") {
		t.Fatal("throttling left no trace in the log")
	}
	for i := 1; i <= 5; i++ {
		resp, body := h.do(signInJSON(alice.email, "wrong"))
		assertProblem(t, resp, body, problem.Unauthorized)
	}
}

func TestThrottleIsPerClientAndPerAddress(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.addAccount("alice"), h.addAccount("bob")
	for range 5 {
		h.do(signInJSON(alice.email, "wrong"))
	}
	resp, body := h.do(signInJSON(alice.email, alice.password))
	assertProblem(t, resp, body, problem.RateLimited)
	// Another account from the same address still signs in.
	h.signIn(bob)

	// One address guessing at many emails: 20 failures in 15 minutes, then 429 for any email.
	for i := range 14 { // 5 on alice above, 14 more on other emails, then one on bob
		resp, body := h.do(signInJSON(fmt.Sprintf("nobody%d@example.com", i), "wrong"))
		assertProblem(t, resp, body, problem.Unauthorized)
	}
	resp, body = h.do(signInJSON(bob.email, "wrong"))
	assertProblem(t, resp, body, problem.Unauthorized)
	resp, body = h.do(signInJSON(bob.email, bob.password))
	assertProblem(t, resp, body, problem.RateLimited)
}

// Every failure looks the same, and costs the same bcrypt work.
func TestFailedSignInsAreIndistinguishable(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice", bcrypt.DefaultCost)
	disabled := h.addAccount("dora")
	acct, _ := h.accounts.Get("dora")
	acct.Disabled = true
	h.accounts.Upsert(acct)
	nopw := h.addAccount("nopw")
	acct, _ = h.accounts.Get("nopw")
	acct.PasswordSecret = nil
	h.accounts.Upsert(acct)

	attempts := []struct{ name, email, password string }{
		{"unknown email", "nobody@example.com", "whatever"},
		{"wrong password", alice.email, "wrong"},
		{"disabled account, right password", disabled.email, disabled.password},
		{"account without password", nopw.email, nopw.password},
	}
	var details []string
	for _, a := range attempts {
		resp, body := h.do(signInJSON(a.email, a.password))
		p := assertProblem(t, resp, body, problem.Unauthorized)
		details = append(details, p.Detail)
	}
	for i, d := range details {
		if d != details[0] {
			t.Fatalf("%s answers %q, %s answers %q: failures must not say which part was wrong",
				attempts[i].name, d, attempts[0].name, details[0])
		}
	}

	// Timing: an unknown email runs a bcrypt comparison of the default cost like a wrong
	// password does. The two are measured in turns and each keeps its least time (load only adds
	// time, and in turns a busy spell falls on both), then compared loosely.
	var unknown, wrong time.Duration
	for i := range 10 {
		email, least := "nobody@example.com", &unknown
		if i%2 == 1 {
			email, least = alice.email, &wrong
		}
		start := time.Now()
		if _, _, _, err := h.web.checkPassword(t.Context(), email, "wrong"); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); *least == 0 || took < *least {
			*least = took
		}
	}
	if unknown < wrong/5 || unknown > wrong*5 {
		t.Fatalf("unknown email took %s, wrong password %s: the difference tells which emails exist", unknown, wrong)
	}
}

func TestSignInFormSetsSessionCookieAndRedirects(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	form := url.Values{"email": {alice.email}, "password": {alice.password}}.Encode()
	resp, body := h.do(request{method: http.MethodPost, path: "/auth/sign-in", body: form, contentType: "application/x-www-form-urlencoded"})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/keys" {
		t.Fatalf("form sign-in: %d Location=%q %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	c := sessionCookie(t, resp)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.MaxAge != 8*60*60 || c.Secure {
		t.Fatalf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/, Max-Age=28800, not Secure over http", c)
	}
	s, ok := openSession([][]byte{testSessionKey}, c.Value, h.clock.Now())
	if !ok || s.Account != "alice" || s.IssuedAt != h.clock.Now().Unix() ||
		s.ExpiresAt != h.clock.Now().Add(8*time.Hour).Unix() || len(s.Nonce) < 16 {
		t.Fatalf("session %+v ok=%v", s, ok)
	}
	// Two sign-ins in the same second get different sessions.
	if other := h.signIn(alice); other == c.Value {
		t.Fatal("two sessions are identical: the nonce is missing")
	}

	resp, body = h.do(request{method: http.MethodPost, path: "/auth/sign-in", body: "email=x%40example.com&password=", contentType: "application/x-www-form-urlencoded"})
	assertProblem(t, resp, body, problem.BadRequest)
	resp, body = h.do(request{method: http.MethodPost, path: "/auth/sign-in", body: "{}", contentType: "text/plain"})
	assertProblem(t, resp, body, problem.UnsupportedMediaType)
	resp, body = h.do(jsonRequest(http.MethodPost, "/auth/sign-in", `{"email":"a@b.c","password":"x","remember":true}`, ""))
	assertProblem(t, resp, body, problem.BadRequest)
}

func TestSessionCookieIsSecureForHTTPSBaseURL(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.BaseURL = "https://keys.example.test/api" })
	alice := h.addAccount("alice")
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/auth/sign-in", strings.NewReader(`{"email":"`+alice.email+`","password":"`+alice.password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	h.web.ServeHTTP(rec, req)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("sign-in: %d %s", rec.Code, rec.Body)
	}
	c := sessionCookie(t, rec.Result())
	if !c.Secure || c.Path != "/api/" {
		t.Fatalf("cookie %+v: want Secure and Path=/api/ under https://keys.example.test/api", c)
	}
}

func TestSignOutClearsCookie(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	resp, _ := h.do(request{method: http.MethodPost, path: "/auth/sign-out", body: "", contentType: "application/x-www-form-urlencoded", cookie: cookie})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/sign-in" {
		t.Fatalf("form sign-out: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if c := sessionCookie(t, resp); c.Value != "" || c.MaxAge >= 0 {
		t.Fatalf("sign-out cookie %+v: want it cleared", c)
	}
	resp, _ = h.do(request{method: http.MethodPost, path: "/auth/sign-out"})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("script sign-out: %d", resp.StatusCode)
	}
}

func TestClientAddress(t *testing.T) {
	h := &Handler{opts: Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	cases := []struct {
		name, remote, xff, want string
	}{
		{"direct client", "203.0.113.7:5555", "", "203.0.113.7"},
		{"untrusted peer's header is ignored", "203.0.113.7:5555", "198.51.100.1", "203.0.113.7"},
		{"trusted proxy", "10.1.2.3:5555", "198.51.100.1", "198.51.100.1"},
		{"client-supplied entries left of ours are ignored", "10.1.2.3:5555", "1.2.3.4, 198.51.100.1, 10.9.9.9", "198.51.100.1"},
		{"IPv6 per /64", "[2001:db8:1:2:3:4:5:6]:443", "", "2001:db8:1:2::/64"},
		{"IPv4-mapped IPv6", "[::ffff:203.0.113.7]:1", "", "203.0.113.7"},
	}
	for _, tc := range cases {
		r := httptest.NewRequest(http.MethodPost, "/auth/sign-in", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := h.clientAddress(r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies(" 10.0.0.0/8, 192.0.2.10 ,fd00::/8,::ffff:198.51.100.1,")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "192.0.2.10/32", "fd00::/8", "198.51.100.1/32"}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("%v, want %v", got, want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8,proxy.local"); err == nil {
		t.Fatal("a host name was accepted")
	}
	if got, err := ParseTrustedProxies(""); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, err)
	}
}

// A sign-in body that names the password twice is refused, not read as whichever came last.
func TestSignInRefusesDuplicateMembers(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	resp, body := h.do(jsonRequest(http.MethodPost, "/auth/sign-in",
		fmt.Sprintf(`{"email":%q,"password":"wrong","password":%q}`, alice.email, alice.password), ""))
	p := assertProblem(t, resp, body, problem.BadRequest)
	if !strings.Contains(p.Detail, "duplicate") {
		t.Errorf("detail %q does not say duplicate", p.Detail)
	}
}
