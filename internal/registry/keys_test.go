package registry

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestHashKey(t *testing.T) {
	// sha256 of the empty string, a well-known vector.
	if got, want := HashKey(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; got != want {
		t.Errorf("HashKey(\"\") = %s, want %s", got, want)
	}
	// The stored form: the CRD's keyHash pattern.
	if got := HashKey("sk_test_abc"); !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(got) {
		t.Errorf("HashKey = %s, not sha256:<64 lowercase hex>", got)
	}
}

func TestKeyIndexAuthenticate(t *testing.T) {
	now := t0.Add(time.Hour)
	tests := []struct {
		name  string
		setup func(x *KeyIndex, hash string)
		at    time.Time
		want  bool
	}{
		{"valid", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
		}, now, true},
		{"unknown hash", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(HashKey("other"), Key{ID: "k", Account: "acme"})
		}, now, false},
		{"disabled key", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme", Disabled: true})
		}, now, false},
		{"one nanosecond before expiry", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme", ExpiresAt: now.Add(time.Nanosecond)})
		}, now, true},
		{"at expiry", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme", ExpiresAt: now})
		}, now, false},
		{"after expiry", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme", ExpiresAt: now.Add(-time.Second)})
		}, now, false},
		{"account unknown", func(x *KeyIndex, h string) {
			x.Upsert(h, Key{ID: "k", Account: "acme"})
		}, now, false},
		{"account disabled", func(x *KeyIndex, h string) {
			x.SetAccount("acme", true)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
		}, now, false},
		{"account re-enabled", func(x *KeyIndex, h string) {
			x.SetAccount("acme", true)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
			x.SetAccount("acme", false)
		}, now, true},
		{"account deleted", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
			x.DeleteAccount("acme")
		}, now, false},
		{"another account deleted", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.SetAccount("other", false)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
			x.DeleteAccount("other")
		}, now, true},
		{"key deleted", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
			x.Delete("k")
		}, now, false},
		{"key disabled by an update", func(x *KeyIndex, h string) {
			x.SetAccount("acme", false)
			x.Upsert(h, Key{ID: "k", Account: "acme"})
			x.Upsert(h, Key{ID: "k", Account: "acme", Disabled: true})
		}, now, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewKeyIndex()
			hash := HashKey("sk_test_" + tt.name)
			tt.setup(x, hash)
			k, ok := x.Authenticate(hash, tt.at)
			if ok != tt.want {
				t.Fatalf("Authenticate = %v, want %v", ok, tt.want)
			}
			if ok && (k.ID != "k" || k.Account != "acme") {
				t.Errorf("Authenticate returned %+v", k)
			}
			if !ok && k != (Key{}) {
				t.Errorf("a refusal returned key data: %+v", k)
			}
		})
	}
}

func TestKeyIndexDuplicateHash(t *testing.T) {
	for _, olderFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("older first %v", olderFirst), func(t *testing.T) {
			x := NewKeyIndex()
			x.SetAccount("a", false)
			x.SetAccount("b", false)
			hash := HashKey("sk_test_same")
			older := Key{ID: "older", Account: "a", CreatedAt: t0}
			newer := Key{ID: "newer", Account: "b", CreatedAt: t0.Add(time.Second)}
			if olderFirst {
				if c := x.Upsert(hash, older); c != "" {
					t.Errorf("older conflict = %q", c)
				}
				if c := x.Upsert(hash, newer); c != "older" {
					t.Errorf("newer conflict = %q, want older", c)
				}
			} else {
				x.Upsert(hash, newer)
				if c := x.Upsert(hash, older); c != "" {
					t.Errorf("older conflict = %q", c)
				}
			}
			if k, _ := x.Authenticate(hash, t0); k.ID != "older" {
				t.Errorf("authenticated as %q, want older", k.ID)
			}
			x.Delete("older")
			if k, _ := x.Authenticate(hash, t0); k.ID != "newer" {
				t.Errorf("after deleting older: authenticated as %q, want newer", k.ID)
			}
			if x.Len() != 1 {
				t.Errorf("Len = %d, want 1", x.Len())
			}
		})
	}
}

func TestKeyIndexByAccount(t *testing.T) {
	x := NewKeyIndex()
	for _, id := range []string{"k3", "k1", "k2"} {
		x.Upsert(HashKey(id), Key{ID: id, Account: "acme"})
	}
	x.Upsert(HashKey("o1"), Key{ID: "o1", Account: "other"})
	x.Upsert(HashKey("k2"), Key{ID: "k2", Account: "acme", DisplayName: "renamed"})
	ids := func(keys []Key) []string {
		var out []string
		for _, k := range keys {
			out = append(out, k.ID)
		}
		return out
	}
	if got := ids(x.ByAccount("acme")); !slices.Equal(got, []string{"k1", "k2", "k3"}) {
		t.Errorf("ByAccount(acme) = %v", got)
	}
	if x.ByAccount("acme")[1].DisplayName != "renamed" {
		t.Error("ByAccount shows a stale key")
	}
	x.Delete("k1")
	x.Delete("k404")
	if got := ids(x.ByAccount("acme")); !slices.Equal(got, []string{"k2", "k3"}) {
		t.Errorf("ByAccount(acme) after delete = %v", got)
	}
	if x.Len() != 3 {
		t.Errorf("Len = %d, want 3", x.Len())
	}
	x.Delete("o1")
	if got := x.ByAccount("other"); len(got) != 0 {
		t.Errorf("ByAccount(other) = %v", got)
	}
}

func TestKeyIndexConcurrentReaders(t *testing.T) {
	x := NewKeyIndex()
	x.SetAccount("acme", false)
	stable := HashKey("stable")
	x.Upsert(stable, Key{ID: "stable", Account: "acme"})
	readDuringWrites(t, 1000, func() error {
		if _, ok := x.Authenticate(stable, t0); !ok {
			return errors.New("stable key refused during writes")
		}
		_ = x.ByAccount("acme")
		return nil
	}, func(i int) {
		id := fmt.Sprintf("k%d", i%50)
		x.Upsert(HashKey(id), Key{ID: id, Account: "acme"})
		x.SetAccount(fmt.Sprintf("acct%d", i%7), i%2 == 0)
		if i%3 == 0 {
			x.Delete(id)
			x.DeleteAccount(fmt.Sprintf("acct%d", i%7))
		}
	})
}

func BenchmarkKeyIndexAuthenticate(b *testing.B) {
	x := NewKeyIndex()
	const n = 10000
	hashes := make([]string, n)
	for i := range n {
		account := fmt.Sprintf("acct%d", i%100)
		x.SetAccount(account, false)
		hashes[i] = HashKey(fmt.Sprintf("sk_test_%064d", i))
		x.Upsert(hashes[i], Key{ID: fmt.Sprintf("k%d", i), Account: account, ExpiresAt: t0.Add(time.Hour)})
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, ok := x.Authenticate(hashes[i%n], t0); !ok {
				b.Fatal("refused")
			}
			i++
		}
	})
}

// Writers race: the key management API publishes a disabled or deleted key at once, while a
// reconcile working from a cache that has not seen the change yet may publish the old version.
func TestKeyIndexRefusesStaleWrites(t *testing.T) {
	x := NewKeyIndex()
	x.SetAccount("alice", false)
	hash := HashKey("sk_test_" + strings.Repeat("s", 64))
	v1 := Key{ID: "k", Account: "alice", UID: "uid-1", Generation: 1, RateLimitPerMinute: 50}
	v2 := v1
	v2.Generation, v2.Disabled = 2, true

	x.Upsert(hash, v1)
	x.Upsert(hash, v2) // disabled through the API
	x.Upsert(hash, v1) // a stale reconcile
	if _, ok := x.Authenticate(hash, time.Now()); ok {
		t.Fatal("a stale write re-enabled a disabled key")
	}

	x.Delete("k")      // deleted through the API
	x.Upsert(hash, v2) // a stale reconcile of the deleted object
	if len(x.ByAccount("alice")) != 0 || x.Len() != 0 {
		t.Fatal("a stale write brought a deleted key back")
	}

	// A new object with the same name is a different key, and is published.
	v3 := Key{ID: "k", Account: "alice", UID: "uid-2", Generation: 1, RateLimitPerMinute: 50}
	x.Upsert(hash, v3)
	if _, ok := x.Authenticate(hash, time.Now()); !ok {
		t.Fatal("a re-created key with a new UID is refused")
	}
}

func TestKeyIndexForgetsOldestDeletedUIDs(t *testing.T) {
	x := NewKeyIndex()
	for i := range maxDeletedUIDs + 10 {
		id := fmt.Sprintf("k%d", i)
		x.Upsert(HashKey(id), Key{ID: id, Account: "a", UID: "uid-" + id, Generation: 1})
		x.Delete(id)
	}
	if len(x.deleted) != maxDeletedUIDs || len(x.deletedOrder) != maxDeletedUIDs {
		t.Fatalf("remembers %d deleted UIDs, want %d", len(x.deleted), maxDeletedUIDs)
	}
	if _, ok := x.deleted["uid-k0"]; ok {
		t.Fatal("the oldest deleted UID was not forgotten")
	}
}

// Recheck names why a key that authenticated is refused now; Changed wakes its waiters on every
// change of the index, so that an event stream ends with its key.
func TestKeyIndexRecheckAndChanged(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	x := NewKeyIndex()
	hash := HashKey("sk_test_" + strings.Repeat("r", 64))
	k := Key{ID: "k", Account: "acct", ExpiresAt: now.Add(time.Hour), UID: "u", Generation: 1}
	changed := x.Changed()
	x.SetAccount("acct", false)
	select {
	case <-changed:
	default:
		t.Fatal("SetAccount did not close the Changed channel")
	}
	x.Upsert(hash, k)
	if got := x.Recheck(hash, "k", now); got != "" {
		t.Fatalf("a good key: %q", got)
	}
	if got := x.Recheck(hash, "k", now.Add(time.Hour)); got != RefusalKeyExpired {
		t.Fatalf("at expiry: %q", got)
	}
	if got := x.Recheck(hash, "other", now); got != RefusalKeyDeleted {
		t.Fatalf("the hash names another key: %q", got)
	}
	for _, c := range []struct {
		change func()
		want   Refusal
	}{
		{func() { d := k; d.Disabled, d.Generation = true, 2; x.Upsert(hash, d) }, RefusalKeyDisabled},
		{func() { o := k; o.OverLimit, o.Generation = true, 3; x.Upsert(hash, o) }, RefusalKeyDisabled},
		{func() {
			x.Upsert(hash, Key{ID: "k", Account: "acct", UID: "u", Generation: 4})
			x.SetAccount("acct", true)
		}, RefusalAccountDisabled},
		{func() { x.DeleteAccount("acct") }, RefusalAccountDeleted},
		{func() { x.SetAccount("acct", false); x.Delete("k") }, RefusalKeyDeleted},
	} {
		changed := x.Changed()
		c.change()
		select {
		case <-changed:
		default:
			t.Fatalf("%s: the change did not close the Changed channel", c.want)
		}
		if got := x.Recheck(hash, "k", now); got != c.want {
			t.Fatalf("recheck %q, want %q", got, c.want)
		}
		if _, ok := x.Authenticate(hash, now); ok {
			t.Fatalf("%s: Authenticate still accepts the key", c.want)
		}
	}
}
