package registry

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestAccounts(t *testing.T) {
	d := NewAccounts()
	if c := d.Upsert(Account{Name: "alice", Email: "Alice@Example.com", CreatedAt: t0,
		PasswordSecret: &SecretRef{Name: "alice-pw", Key: "passwordHash"}}); c != "" {
		t.Fatalf("conflict = %q", c)
	}
	if c := d.Upsert(Account{Name: "impostor", Email: "alice@example.COM", CreatedAt: t0.Add(time.Second)}); c != "alice" {
		t.Errorf("same email, newer: conflict = %q, want alice", c)
	}
	d.Upsert(Account{Name: "bob", Email: "bob@example.com", Disabled: true, CreatedAt: t0})

	tests := []struct {
		email, want string
	}{
		{"alice@example.com", "alice"},
		{" ALICE@EXAMPLE.COM ", "alice"},
		{"bob@example.com", "bob"},
		{"carol@example.com", ""},
	}
	for _, tt := range tests {
		a, ok := d.ByEmail(tt.email)
		if a.Name != tt.want || ok != (tt.want != "") {
			t.Errorf("ByEmail(%q) = %q, %v; want %q", tt.email, a.Name, ok, tt.want)
		}
	}
	if a, _ := d.Get("alice"); a.PasswordSecret == nil || a.PasswordSecret.Name != "alice-pw" {
		t.Errorf("Get(alice) = %+v", a)
	}
	if a, _ := d.Get("bob"); !a.Disabled {
		t.Error("bob is not disabled")
	}
	if d.Len() != 3 {
		t.Errorf("Len = %d, want 3", d.Len())
	}

	d.Delete("alice")
	if a, _ := d.ByEmail("alice@example.com"); a.Name != "impostor" {
		t.Errorf("after deleting alice, ByEmail = %q, want impostor", a.Name)
	}
	// An email change frees the old email.
	d.Upsert(Account{Name: "impostor", Email: "imp@example.com", CreatedAt: t0.Add(time.Second)})
	if _, ok := d.ByEmail("alice@example.com"); ok {
		t.Error("old email still found")
	}
	if a, _ := d.ByEmail("imp@example.com"); a.Name != "impostor" {
		t.Errorf("new email: %q", a.Name)
	}
	d.Delete("nobody")
	if _, ok := d.Get("alice"); ok || d.Len() != 2 {
		t.Errorf("alice still there or Len = %d", d.Len())
	}
}

func TestAccountsConcurrentReaders(t *testing.T) {
	d := NewAccounts()
	d.Upsert(Account{Name: "stable", Email: "stable@example.com"})
	readDuringWrites(t, 500, func() error {
		if _, ok := d.ByEmail("stable@example.com"); !ok {
			return errors.New("stable account missing")
		}
		return nil
	}, func(i int) {
		name := fmt.Sprintf("a%d", i%30)
		d.Upsert(Account{Name: name, Email: name + "@example.com"})
		if i%3 == 0 {
			d.Delete(name)
		}
	})
}
