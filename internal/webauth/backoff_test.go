package webauth

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

// signInFrom signs in as the client at address (the harness's peer is a trusted proxy), with the
// cookies given (name=value pairs), and returns the answer.
func (h *harness) signInFrom(address, email, password string, cookies ...string) (*http.Response, []byte) {
	h.t.Helper()
	r := signInJSON(email, password)
	r.header = http.Header{"X-Forwarded-For": {address}}
	for _, c := range cookies {
		r.header.Add("Cookie", c)
	}
	return h.do(r)
}

func trustLoopbackProxy(o *Options) {
	o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}

// Failed sign-ins from one client do not lock the owner, at another client, out (the defect: five
// wrong passwords from anywhere made the right one 429 for 15 minutes).
func TestFailuresElsewhereDoNotLockTheOwnerOut(t *testing.T) {
	h := newHarness(t, trustLoopbackProxy)
	alice := h.addAccount("alice")
	for range 5 {
		resp, body := h.signInFrom("203.0.113.7", alice.email, "guess")
		assertProblem(t, resp, body, problem.Unauthorized)
	}
	resp, body := h.signInFrom("203.0.113.7", alice.email, alice.password)
	assertProblem(t, resp, body, problem.RateLimited) // that client is done for the window
	if resp, body := h.signInFrom("198.51.100.1", alice.email, alice.password); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the owner at another address after 5 failures elsewhere: %d %s", resp.StatusCode, body)
	}
}

// Guessing spread over many addresses meets a growing delay on the account: few guesses get
// through in a window, while the owner's browser (its device cookie) signs in at once and a new
// browser waits at most the delay's cap.
func TestGuessingFromManyAddressesIsSlowedWithoutLockingTheOwnerOut(t *testing.T) {
	h := newHarness(t, trustLoopbackProxy)
	alice := h.addAccount("alice")
	resp, body := h.signInFrom("198.51.100.1", alice.email, alice.password)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("owner's first sign-in: %d %s", resp.StatusCode, body)
	}
	var deviceCookie string
	for _, c := range resp.Cookies() {
		if c.Name == DeviceCookieName {
			deviceCookie = c.Name + "=" + c.Value
		}
	}
	if deviceCookie == "" {
		t.Fatal("no device cookie after a sign-in")
	}

	// An attacker with a fresh address for every guess, waiting out every closure, for one window.
	policy := DefaultOptions().AccountBackoff
	guesses, longest := 0, time.Duration(0)
	for start := h.clock.Now(); h.clock.Since(start) < policy.Window && guesses <= 100; {
		resp, body := h.signInFrom(fmt.Sprintf("10.0.%d.%d", guesses/250, guesses%250+1), alice.email, "guess")
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			guesses++
		case http.StatusTooManyRequests:
			wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			longest = max(longest, time.Duration(wait)*time.Second)
			h.clock.Step(time.Duration(wait) * time.Second)
		default:
			t.Fatalf("guess %d: %d %s", guesses, resp.StatusCode, body)
		}
	}
	t.Logf("%d guesses in %s from fresh addresses; longest closure %s", guesses, policy.Window, longest)
	if guesses > 25 {
		t.Errorf("%d guesses got through in one window: the account's delay does not hold", guesses)
	}
	if longest > policy.Max {
		t.Errorf("closed for %s, more than the cap %s", longest, policy.Max)
	}

	// Guess on until the account is closed: the owner's browser is not kept out, though the
	// owner's address without that cookie is.
	for i := 0; resp.StatusCode != http.StatusTooManyRequests; i++ {
		if i == 20 {
			t.Fatal("20 more guesses did not close the account")
		}
		resp, _ = h.signInFrom(fmt.Sprintf("10.9.9.%d", i+1), alice.email, "guess")
	}
	resp, body = h.signInFrom("198.51.100.1", alice.email, alice.password)
	assertProblem(t, resp, body, problem.RateLimited)
	if resp, body := h.signInFrom("198.51.100.1", alice.email, alice.password, deviceCookie); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the owner's browser while the account is closed: %d %s", resp.StatusCode, body)
	}
}

// A new browser of the owner waits at most the cap, and a device cookie of another account, or a
// forged one, does not open the account.
func TestDeviceCookieIsPerAccountAndSigned(t *testing.T) {
	h := newHarness(t, trustLoopbackProxy)
	alice, bob := h.addAccount("alice"), h.addAccount("bob")
	resp, _ := h.signInFrom("198.51.100.2", bob.email, bob.password)
	var bobDevice string
	for _, c := range resp.Cookies() {
		if c.Name == DeviceCookieName {
			bobDevice = c.Name + "=" + c.Value
		}
	}
	for i := range 11 {
		h.signInFrom(fmt.Sprintf("10.1.0.%d", i+1), alice.email, "guess")
	}
	forged := DeviceCookieName + "=" + seal([]byte("not the server's key, but 32+ bytes long"), deviceVersion,
		device{Account: "alice", ExpiresAt: h.clock.Now().Add(time.Hour).Unix(), Nonce: "x"})
	for _, cookie := range []string{bobDevice, forged} {
		resp, body := h.signInFrom("198.51.100.3", alice.email, alice.password, cookie)
		assertProblem(t, resp, body, problem.RateLimited)
		if wait, _ := strconv.Atoi(resp.Header.Get("Retry-After")); wait < 1 || time.Duration(wait)*time.Second > DefaultOptions().AccountBackoff.Max {
			t.Fatalf("Retry-After %q: want within the cap", resp.Header.Get("Retry-After"))
		}
	}
	h.clock.Step(DefaultOptions().AccountBackoff.Max)
	if resp, body := h.signInFrom("198.51.100.3", alice.email, alice.password); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("a new browser after the cap: %d %s", resp.StatusCode, body)
	}
}

func TestBackoffDelays(t *testing.T) {
	p := BackoffPolicy{Free: 10, Base: time.Second, Max: 5 * time.Minute}
	for n, want := range map[int]time.Duration{1: 0, 10: 0, 11: time.Second, 12: 2 * time.Second, 15: 16 * time.Second, 19: 256 * time.Second, 20: 5 * time.Minute, 1000: 5 * time.Minute} {
		if got := p.delay(n); got != want {
			t.Errorf("delay(%d) = %s, want %s", n, got, want)
		}
	}
}

// Two replicas sharing Redis see one account's closure; with Redis gone, the replica's own count
// answers within the deadline.
func TestSharedBackoffAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	client := srv.Client()
	defer func() { _ = client.Close() }()
	store := &ratelimit.RedisStore{Client: client, Prefix: "test:", Timeout: 100 * time.Millisecond}
	policy := BackoffPolicy{Free: 2, Window: time.Minute, Base: 2 * time.Second, Max: time.Minute}
	a, b := NewSharedBackoff(store, policy, "signin:"), NewSharedBackoff(store, policy, "signin:")
	ctx, now := context.Background(), time.Now()
	const key = "account:alice@example.com"
	a.Failed(ctx, key, now)
	b.Failed(ctx, key, now)
	if d := a.Closed(ctx, key, now); d != 0 {
		t.Fatalf("closed for %s within the free failures", d)
	}
	a.Failed(ctx, key, now) // the third, over two replicas
	if d := b.Closed(ctx, key, now); d <= time.Second || d > 2*time.Second {
		t.Fatalf("the other replica sees a closure of %s; want about 2s", d)
	}
	b.Reset(ctx, key)
	if d := a.Closed(ctx, key, now); d != 0 {
		t.Fatalf("closed for %s after a reset", d)
	}
	srv.Stop()
	start := time.Now()
	for range 3 {
		a.Failed(ctx, key, now)
	}
	if d := a.Closed(ctx, key, now); d != 2*time.Second || time.Since(start) > 2*time.Second {
		t.Fatalf("with Redis gone: closed for %s after %s; want the replica's own 2s, quickly", d, time.Since(start))
	}
}
