package webauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

// testNames names the test's counters in Redis as the handler does, under the test session key.
var testNames = keyNamer{prefix: "signin:", keys: StaticSessionKeys{testSessionKey}}

// Two replicas sharing Redis count one account's failed sign-ins together, keep emails out of
// Redis, and fall back to their own count within the deadline when Redis is gone.
func TestSharedAttemptsCountAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	client := srv.Client()
	defer func() { _ = client.Close() }()
	store := &ratelimit.RedisStore{Client: client, Prefix: "test:", Timeout: 100 * time.Millisecond}
	policy := ThrottlePolicy{Limit: 5, Window: 15 * time.Minute}
	replicas := []Attempts{
		NewSharedAttempts(store, policy, testNames),
		NewSharedAttempts(store, policy, testNames),
	}
	ctx, now := context.Background(), time.Now()
	const key = "email:alice@example.com"
	var slots []Slot
	for i := range 5 {
		_, slot, ok := replicas[i%2].Acquire(ctx, key, now)
		if !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
		slots = append(slots, slot)
	}
	for i, r := range replicas {
		if wait, _, ok := r.Acquire(ctx, key, now); ok || wait <= 0 || wait > policy.Window {
			t.Fatalf("replica %d: a 6th attempt: ok %v, wait %s; want refused with a wait in the window", i, ok, wait)
		}
	}
	replicas[1].Release(ctx, key, slots[0]) // a slot taken on replica 0, given back on replica 1
	if _, _, ok := replicas[0].Acquire(ctx, key, now); !ok {
		t.Fatal("a released slot was not freed")
	}
	replicas[1].Reset(ctx, key)
	if _, _, ok := replicas[0].Acquire(ctx, key, now); !ok {
		t.Fatal("a reset account is still throttled")
	}
	for _, k := range client.Keys(ctx, "*").Val() {
		if strings.Contains(k, "alice") || strings.Contains(k, "example.com") {
			t.Errorf("Redis key %q holds the email", k)
		}
		// Not a plain hash either: guessing emails and hashing them must not find the key.
		sum := sha256.Sum256([]byte(key))
		if strings.Contains(k, hex.EncodeToString(sum[:16])) {
			t.Errorf("Redis key %q is the plain SHA-256 of the email", k)
		}
	}

	srv.Stop()
	start := time.Now()
	_, _, ok := replicas[0].Acquire(ctx, key, now)
	if took := time.Since(start); !ok || took > time.Second {
		t.Fatalf("with Redis gone: ok %v after %s; want the replica's own count within the deadline", ok, took)
	}
}
