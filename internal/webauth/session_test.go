package webauth

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func TestSessionCodec(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	current := []byte(strings.Repeat("c", 32))
	previous := []byte(strings.Repeat("p", 32))
	s := newSession("alice", []byte("hash"), now, 12*time.Hour)
	value := sealSession(current, s)

	if got, ok := openSession([][]byte{current, previous}, value, now); !ok || got != s {
		t.Fatalf("round trip: %+v %v", got, ok)
	}
	// Rotation: a session signed with the key now in `previous` is still accepted...
	if _, ok := openSession([][]byte{[]byte(strings.Repeat("n", 32)), current}, value, now); !ok {
		t.Fatal("a session signed with the previous key is refused")
	}
	// ...and refused once that key is dropped.
	if _, ok := openSession([][]byte{[]byte(strings.Repeat("n", 32))}, value, now); ok {
		t.Fatal("a session signed with a removed key is accepted")
	}

	payload := base64.RawURLEncoding.EncodeToString([]byte(`{"acc":"mallory","iat":1893456000,"exp":1993456000,"nonce":"x"}`))
	parts := strings.Split(value, ".")
	refused := map[string]string{
		"other account, same MAC": parts[0] + "." + payload + "." + parts[2],
		"no MAC":                  parts[0] + "." + parts[1],
		"empty MAC":               parts[0] + "." + parts[1] + ".",
		"other version":           "v2." + parts[1] + "." + parts[2],
		"oversized":               value + strings.Repeat("A", maxCookieValue),
	}
	for name, v := range refused {
		if _, ok := openSession([][]byte{current}, v, now); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, ok := openSession([][]byte{current}, value, now.Add(12*time.Hour)); ok {
		t.Error("accepted at its expiry")
	}
	if _, ok := openSession([][]byte{current}, value, now.Add(-2*clockSkew)); ok {
		t.Error("accepted before it was issued")
	}
}

func TestSessionSecretCreatesAndRotates(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).Build()
	ctx := context.Background()
	ss := &SessionSecret{Cache: c, APIReader: c, Writer: c, Namespace: "ns", Name: DefaultSessionSecretName, Log: logr.Discard()}
	if _, err := ss.SessionKeys(ctx); err == nil {
		t.Fatal("keys before Start")
	}

	// A fresh install: Start creates the Secret with a random current key.
	if err := ss.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var secret corev1.Secret
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: DefaultSessionSecretName}, &secret); err != nil {
		t.Fatal(err)
	}
	first := secret.Data[SessionKeyCurrent]
	if len(first) != MinSessionKeyBytes {
		t.Fatalf("created current key of %d bytes", len(first))
	}
	keys, err := ss.SessionKeys(ctx)
	if err != nil || len(keys) != 1 || string(keys[0]) != string(first) {
		t.Fatalf("keys %q, %v", keys, err)
	}

	// Another replica starting later reads the same Secret rather than replacing it.
	other := &SessionSecret{Cache: c, APIReader: c, Writer: c, Namespace: "ns", Name: DefaultSessionSecretName, Log: logr.Discard()}
	if err := other.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if keys, _ := other.SessionKeys(ctx); string(keys[0]) != string(first) {
		t.Fatal("a second replica replaced the session key")
	}

	// Rotation without restart: current moves to previous.
	next := []byte(strings.Repeat("n", 40))
	secret.Data = map[string][]byte{SessionKeyCurrent: next, SessionKeyPrevious: first}
	if err := c.Update(ctx, &secret); err != nil {
		t.Fatal(err)
	}
	keys, err = ss.SessionKeys(ctx)
	if err != nil || len(keys) != 2 || string(keys[0]) != string(next) || string(keys[1]) != string(first) {
		t.Fatalf("after rotation: %q %v", keys, err)
	}

	// A malformed edit keeps the last good keys.
	secret.Data = map[string][]byte{SessionKeyCurrent: []byte("short")}
	if err := c.Update(ctx, &secret); err != nil {
		t.Fatal(err)
	}
	keys, err = ss.SessionKeys(ctx)
	if err != nil || string(keys[0]) != string(next) {
		t.Fatalf("after a malformed edit: %q %v", keys, err)
	}
}

func TestSessionSecretKeepsExistingKeys(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	existing := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "custom"},
		Data:       map[string][]byte{SessionKeyCurrent: []byte(strings.Repeat("k", 64))},
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(existing).Build()
	ss := &SessionSecret{Cache: c, APIReader: c, Writer: c, Namespace: "ns", Name: "custom", Log: logr.Discard()}
	if err := ss.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	keys, err := ss.SessionKeys(context.Background())
	if err != nil || string(keys[0]) != strings.Repeat("k", 64) {
		t.Fatalf("keys %q %v", keys, err)
	}
}

func TestThrottle(t *testing.T) {
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	th := NewThrottle(ThrottlePolicy{Limit: 3, Window: 15 * time.Minute})
	for i := range 3 {
		if _, _, ok := th.Acquire("k", start.Add(time.Duration(i)*time.Minute)); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	wait, _, ok := th.Acquire("k", start.Add(3*time.Minute))
	if ok || wait != 12*time.Minute {
		t.Fatalf("4th attempt: ok=%v wait=%s, want refused for 12m (until the first leaves the window)", ok, wait)
	}
	if _, _, ok := th.Acquire("other", start); !ok {
		t.Fatal("another key is throttled")
	}
	// The first attempt leaves the window at start+15m exactly.
	if _, _, ok := th.Acquire("k", start.Add(15*time.Minute-time.Millisecond)); ok {
		t.Fatal("admitted before a slot freed")
	}
	if _, _, ok := th.Acquire("k", start.Add(15*time.Minute)); !ok {
		t.Fatal("refused after a slot freed")
	}
	// Release gives a slot back; Reset clears all.
	at := start.Add(20 * time.Minute)
	th.Reset("k")
	for range 3 {
		th.Acquire("k", at)
	}
	th.Release("k", at)
	if _, _, ok := th.Acquire("k", at); !ok {
		t.Fatal("a released slot was not given back")
	}
	// Keys whose attempts have all expired are swept.
	th.Acquire("stale", at)
	th.Acquire("fresh", at.Add(time.Hour))
	if n := th.attempts.Len(); n != 1 {
		t.Fatalf("%d keys held, want only the fresh one: stale keys were not swept", n)
	}
}
