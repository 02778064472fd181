package webauth

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

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
	aliceAccount, _ := h.accounts.Get("alice")
	forged := DeviceCookieName + "=" + seal([]byte("not the server's key, but 32+ bytes long"), deviceVersion,
		device{Account: "alice", Created: aliceAccount.CreatedAt.Unix(), ExpiresAt: h.clock.Now().Add(time.Hour).Unix(), Nonce: "x"})
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
	a, b := NewSharedBackoff(store, policy, testNames), NewSharedBackoff(store, policy, testNames)
	ctx, now := context.Background(), time.Now()
	const key = "account:alice@example.com"
	for i, r := range []Attempts{a, b, a} { // the third, over two replicas, closes the account
		if _, _, ok := r.Acquire(ctx, key, now); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	wait, _, ok := b.Acquire(ctx, key, now)
	if ok || wait <= time.Second || wait > 2*time.Second {
		t.Fatalf("the other replica: ok %v, wait %s; want refused for about 2s", ok, wait)
	}
	b.Reset(ctx, key)
	if _, _, ok := a.Acquire(ctx, key, now); !ok {
		t.Fatal("refused after a reset")
	}
	srv.Stop()
	start := time.Now()
	for range 3 {
		a.Acquire(ctx, key, now)
	}
	if wait, _, ok := a.Acquire(ctx, key, now); ok || wait != 2*time.Second || time.Since(start) > 2*time.Second {
		t.Fatalf("with Redis gone: ok %v, wait %s after %s; want the replica's own 2s closure, quickly", ok, wait, time.Since(start))
	}
}

// Parallel guesses cannot outrun the account's count: once the free attempts are used, at most
// one attempt gets through per closure, here and across replicas sharing Redis.
func TestParallelGuessesMeetTheAccountDelay(t *testing.T) {
	srv := redistest.Start(t)
	client := srv.Client()
	defer func() { _ = client.Close() }()
	store := &ratelimit.RedisStore{Client: client, Prefix: "test:", Timeout: time.Second}
	policy := DefaultOptions().AccountBackoff
	for name, replicas := range map[string][]Attempts{
		"one replica":    {newLocalBackoff(policy)},
		"three replicas": {NewSharedBackoff(store, policy, testNames), NewSharedBackoff(store, policy, testNames), NewSharedBackoff(store, policy, testNames)},
	} {
		t.Run(name, func(t *testing.T) {
			var admitted atomic.Int32
			var wg sync.WaitGroup
			now := time.Now()
			for i := range 200 {
				wg.Go(func() {
					if _, _, ok := replicas[i%len(replicas)].Acquire(context.Background(), "account:"+name, now); ok {
						admitted.Add(1)
					}
				})
			}
			wg.Wait()
			if got := int(admitted.Load()); got != policy.Free+1 {
				t.Fatalf("%d of 200 parallel attempts admitted; want the %d free ones and one more", got, policy.Free)
			}
		})
	}
}

// The owner's browser, behind the same address as the guesser (a NAT), is not locked out by the
// guesser's failures; a device cookie stops counting as known once the password changes; and a
// session cookie is no device cookie, nor the reverse.
func TestDeviceCookieOwnerBehindSharedAddress(t *testing.T) {
	h := newHarness(t, trustLoopbackProxy)
	alice := h.addAccount("alice")
	resp, body := h.signInFrom("192.0.2.10", alice.email, alice.password)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("sign-in: %d %s", resp.StatusCode, body)
	}
	var deviceCookie, sessionValue, deviceValue string
	for _, c := range resp.Cookies() {
		switch c.Name {
		case DeviceCookieName:
			deviceCookie, deviceValue = c.Name+"="+c.Value, c.Value
		case CookieName:
			sessionValue = c.Value
		}
	}
	for range 20 { // the guesser, behind the same address, uses up that address's limits
		h.signInFrom("192.0.2.10", alice.email, "guess")
	}
	resp, body = h.signInFrom("192.0.2.10", alice.email, alice.password)
	assertProblem(t, resp, body, problem.RateLimited)
	if resp, body := h.signInFrom("192.0.2.10", alice.email, alice.password, deviceCookie); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the owner's browser behind the guesser's address: %d %s", resp.StatusCode, body)
	}
	// Swapped cookies are not taken for each other.
	if _, ok := openSession([][]byte{testSessionKey}, deviceValue, h.clock.Now()); ok {
		t.Error("a device cookie opened as a session")
	}
	var d device
	if open([][]byte{testSessionKey}, deviceVersion, sessionValue, &d) {
		t.Error("a session cookie opened as a device cookie")
	}
	// A new password: the cookie no longer exempts the browser.
	var secret corev1.Secret
	key := types.NamespacedName{Namespace: testNamespace, Name: "alice-password"}
	if err := h.client.Get(context.Background(), key, &secret); err != nil {
		t.Fatal(err)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte("another password"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	secret.Data["passwordHash"] = hash
	if err := h.client.Update(context.Background(), &secret); err != nil {
		t.Fatal(err)
	}
	resp, body = h.signInFrom("192.0.2.10", alice.email, "another password", deviceCookie)
	assertProblem(t, resp, body, problem.RateLimited)
}
