package registry

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Accounts is the account directory browser sign-in reads: account by name and by email.
//
// Emails compare without case (people type them both ways). When two accounts have the same
// email, the older (CreatedAt, then name) is the one ByEmail finds. Reads are lock-free; see the
// package comment. The zero value is ready to use.
type Accounts struct {
	mu sync.Mutex // serialises writers
	// Writer state, guarded by mu.
	entries     map[string]Account
	namesByMail map[string][]string

	byName  shardedMap[Account]
	byEmail shardedMap[Account]
	count   atomic.Int64
}

// NewAccounts returns an empty directory.
func NewAccounts() *Accounts { return &Accounts{} }

func emailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// Get returns the account with the object name.
func (d *Accounts) Get(name string) (Account, bool) { return d.byName.get(name) }

// FeePolicy is the integrator fee policy of the account with the object name; nil when it has
// none or is not known.
func (d *Accounts) FeePolicy(name string) *FeePolicy {
	if d == nil {
		return nil
	}
	a, ok := d.byName.get(name)
	if !ok {
		return nil
	}
	return a.Fees
}

// ByEmail returns the account that signs in with the email.
func (d *Accounts) ByEmail(email string) (Account, bool) { return d.byEmail.get(emailKey(email)) }

// Len returns the number of accounts.
func (d *Accounts) Len() int { return int(d.count.Load()) }

// Upsert publishes an account, keyed by a.Name. It returns the name of an older account with the
// same email, which ByEmail finds instead of a, or "" when ByEmail finds a.
func (d *Accounts) Upsert(a Account) (conflictWith string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries == nil {
		d.entries, d.namesByMail = map[string]Account{}, map[string][]string{}
	}
	old, existed := d.entries[a.Name]
	d.entries[a.Name] = a
	if !existed {
		d.count.Add(1)
	}
	d.byName.set(a.Name, a)
	if existed && emailKey(old.Email) != emailKey(a.Email) {
		d.removeEmailLocked(old.Email, a.Name)
	}
	key := emailKey(a.Email)
	if !slices.Contains(d.namesByMail[key], a.Name) {
		d.namesByMail[key] = append(d.namesByMail[key], a.Name)
	}
	if winner := d.publishEmailLocked(key); winner != a.Name {
		return winner
	}
	return ""
}

// Delete removes the account with the object name.
func (d *Accounts) Delete(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, ok := d.entries[name]
	if !ok {
		return
	}
	delete(d.entries, name)
	d.count.Add(-1)
	d.byName.delete(name)
	d.removeEmailLocked(a.Email, name)
}

func (d *Accounts) removeEmailLocked(email, name string) {
	key := emailKey(email)
	d.namesByMail[key] = slices.DeleteFunc(d.namesByMail[key], func(n string) bool { return n == name })
	d.publishEmailLocked(key)
}

// publishEmailLocked serves, under the email key, the oldest account that has it and returns its
// name ("" when none has it).
func (d *Accounts) publishEmailLocked(key string) string {
	names := d.namesByMail[key]
	if len(names) == 0 {
		delete(d.namesByMail, key)
		d.byEmail.delete(key)
		return ""
	}
	winner := d.entries[names[0]]
	for _, n := range names[1:] {
		a := d.entries[n]
		if compareAge(a.CreatedAt, a.Name, winner.CreatedAt, winner.Name) < 0 {
			winner = a
		}
	}
	d.byEmail.set(key, winner)
	return winner.Name
}
