package registry

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// KeyHashPrefix starts every key hash: "sha256:" and 64 lowercase hex digits of SHA-256 of the
// whole key string.
const KeyHashPrefix = "sha256:"

// HashKey returns the hash under which a plaintext API key is indexed and stored in an ApiKey's
// spec.keyHash.
// It runs on every /v2 request (the auth gate), so it builds the string in one allocation.
func HashKey(plaintext string) string {
	sum := sha256.Sum256([]byte(plaintext))
	var out [len(KeyHashPrefix) + 2*sha256.Size]byte
	copy(out[:], KeyHashPrefix)
	hex.Encode(out[len(KeyHashPrefix):], sum[:])
	return string(out[:])
}

// KeyIndex is the hashed API key index the authentication gate asks on every /v2 request.
//
// It holds every published key and every known account. Authenticate decides at request time,
// so expiry is exact to the instant, and a key is refused as soon as its account is disabled or
// deleted, before any reconcile of the key itself. Reads are lock-free; see the package comment.
// The zero value is ready to use.
type KeyIndex struct {
	mu sync.Mutex // serialises writers
	// Writer state, guarded by mu.
	byID      map[string]keyEntry
	idsByHash map[string][]string

	byHash    shardedMap[Key]
	byAccount shardedMap[[]Key] // every key of an account by ID, sorted by ID
	accounts  shardedMap[bool]  // account name -> disabled
	keyCount  atomic.Int64
	// deleted remembers the UIDs of the last deleted keys, so that a write from a stale cache
	// cannot publish a deleted key again. Bounded: the oldest are forgotten first.
	deleted      map[string]struct{}
	deletedOrder []string
	// changed is closed and replaced by every change (Changed).
	changed atomic.Pointer[chan struct{}]
}

// maxDeletedUIDs bounds the memory of deleted keys; a stale write arrives within moments of a
// delete, long before this many other keys are deleted.
const maxDeletedUIDs = 4096

type keyEntry struct {
	hash string
	key  Key
}

// NewKeyIndex returns an empty index.
func NewKeyIndex() *KeyIndex { return &KeyIndex{} }

// Authenticate returns the key with the hash when it may be used at now: it exists, is not
// disabled, has not expired (a key is expired from its ExpiresAt on), and its account is known
// and not disabled. Every refusal looks the same to the caller, as it must to a client.
func (x *KeyIndex) Authenticate(hash string, now time.Time) (Key, bool) {
	k, ok := x.byHash.get(hash)
	if !ok || k.Disabled || k.OverLimit || (!k.ExpiresAt.IsZero() && !now.Before(k.ExpiresAt)) {
		return Key{}, false
	}
	if disabled, ok := x.accounts.get(k.Account); !ok || disabled {
		return Key{}, false
	}
	return k, true
}

// Refusal says why a key that authenticated once is refused now ("" while it is not). The event
// streams send it to their client when they close (GET /v2/transfers/{id}/events).
type Refusal string

// The refusals of Recheck.
const (
	RefusalKeyDeleted      Refusal = "key_deleted"
	RefusalKeyDisabled     Refusal = "key_disabled"
	RefusalKeyExpired      Refusal = "key_expired"
	RefusalAccountDisabled Refusal = "account_disabled"
	RefusalAccountDeleted  Refusal = "account_deleted"
)

// Recheck tells whether the key keyID, which authenticated with hash, would still authenticate
// at now, and if not, why: deleted (or its hash now names another key), disabled (or past its
// account's bound of keys), expired, its account disabled or deleted. It decides exactly as
// Authenticate, lock-free.
func (x *KeyIndex) Recheck(hash, keyID string, now time.Time) Refusal {
	k, ok := x.byHash.get(hash)
	switch {
	case !ok || k.ID != keyID:
		return RefusalKeyDeleted
	case k.Disabled || k.OverLimit:
		return RefusalKeyDisabled
	case !k.ExpiresAt.IsZero() && !now.Before(k.ExpiresAt):
		return RefusalKeyExpired
	}
	disabled, ok := x.accounts.get(k.Account)
	switch {
	case !ok:
		return RefusalAccountDeleted
	case disabled:
		return RefusalAccountDisabled
	}
	return ""
}

// Changed returns a channel closed at the index's next change (a key or an account published,
// changed or removed): a holder of a long-lived grant, such as an event stream, waits on it and
// rechecks. Take the channel before the check, so that no change falls between the two.
func (x *KeyIndex) Changed() <-chan struct{} {
	for {
		if ch := x.changed.Load(); ch != nil {
			return *ch
		}
		ch := make(chan struct{})
		x.changed.CompareAndSwap(nil, &ch)
	}
}

// notifyLocked wakes every waiter of Changed; a writer calls it after its change is published.
func (x *KeyIndex) notifyLocked() {
	next := make(chan struct{})
	if old := x.changed.Swap(&next); old != nil {
		close(*old)
	}
}

// ByAccount returns every key of an account, usable or not, sorted by ID. The slice is shared: do
// not modify it.
func (x *KeyIndex) ByAccount(name string) []Key {
	keys, _ := x.byAccount.get(name)
	return keys
}

// Len returns the number of keys in the index.
func (x *KeyIndex) Len() int { return int(x.keyCount.Load()) }

// Upsert publishes a key, keyed by k.ID, under its hash. It returns the ID of an older key with
// the same hash that is used instead of it, or "" when k is the one a request with the hash
// authenticates as.
func (x *KeyIndex) Upsert(hash string, k Key) (conflictWith string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.byID == nil {
		x.byID, x.idsByHash = map[string]keyEntry{}, map[string][]string{}
	}
	old, existed := x.byID[k.ID]
	if x.stale(k, old, existed) {
		if cur, ok := x.byHash.get(hash); ok && cur.ID != k.ID {
			return cur.ID
		}
		return ""
	}
	x.byID[k.ID] = keyEntry{hash: hash, key: k}
	if !existed {
		x.keyCount.Add(1)
	}
	if existed && old.hash != hash {
		x.idsByHash[old.hash] = slices.DeleteFunc(x.idsByHash[old.hash], func(id string) bool { return id == k.ID })
		x.publishHashLocked(old.hash)
	}
	if !slices.Contains(x.idsByHash[hash], k.ID) {
		x.idsByHash[hash] = append(x.idsByHash[hash], k.ID)
	}
	winner := x.publishHashLocked(hash)
	if existed && old.key.Account != k.Account {
		x.publishAccountKeysLocked(old.key.Account, k.ID, nil)
	}
	x.publishAccountKeysLocked(k.Account, k.ID, &k)
	x.notifyLocked()
	if winner != k.ID {
		return winner
	}
	return ""
}

// Delete removes the key with the ID.
func (x *KeyIndex) Delete(keyID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.byID[keyID]
	if !ok {
		return
	}
	delete(x.byID, keyID)
	x.rememberDeletedLocked(e.key.UID)
	x.keyCount.Add(-1)
	x.idsByHash[e.hash] = slices.DeleteFunc(x.idsByHash[e.hash], func(id string) bool { return id == keyID })
	x.publishHashLocked(e.hash)
	x.publishAccountKeysLocked(e.key.Account, keyID, nil)
	x.notifyLocked()
}

// stale reports whether k is an older version of what the index holds, or of a deleted key.
func (x *KeyIndex) stale(k Key, cur keyEntry, existed bool) bool {
	if k.UID == "" {
		return false
	}
	if _, gone := x.deleted[k.UID]; gone {
		return true
	}
	return existed && cur.key.UID == k.UID && k.Generation < cur.key.Generation
}

func (x *KeyIndex) rememberDeletedLocked(uid string) {
	if uid == "" {
		return
	}
	if x.deleted == nil {
		x.deleted = map[string]struct{}{}
	}
	if _, ok := x.deleted[uid]; ok {
		return
	}
	x.deleted[uid] = struct{}{}
	x.deletedOrder = append(x.deletedOrder, uid)
	if len(x.deletedOrder) > maxDeletedUIDs {
		delete(x.deleted, x.deletedOrder[0])
		x.deletedOrder = x.deletedOrder[1:]
	}
}

// SetAccount records that an account exists, and whether it is disabled.
func (x *KeyIndex) SetAccount(name string, disabled bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if cur, ok := x.accounts.get(name); ok && cur == disabled {
		return
	}
	x.accounts.set(name, disabled)
	x.notifyLocked()
}

// DeleteAccount forgets an account: its keys are refused from now on, whether or not they are
// still in the index.
func (x *KeyIndex) DeleteAccount(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.accounts.delete(name)
	x.notifyLocked()
}

// publishHashLocked serves, under hash, the oldest key that has it (then the smallest ID), and
// returns its ID ("" when none has it).
func (x *KeyIndex) publishHashLocked(hash string) string {
	ids := x.idsByHash[hash]
	if len(ids) == 0 {
		delete(x.idsByHash, hash)
		x.byHash.delete(hash)
		return ""
	}
	winner := x.byID[ids[0]].key
	for _, id := range ids[1:] {
		k := x.byID[id].key
		if compareAge(k.CreatedAt, k.ID, winner.CreatedAt, winner.ID) < 0 {
			winner = k
		}
	}
	if cur, ok := x.byHash.get(hash); !ok || cur != winner {
		x.byHash.set(hash, winner)
	}
	return winner.ID
}

// publishAccountKeysLocked replaces (k != nil) or removes (k == nil) the key id in the account's
// key list.
func (x *KeyIndex) publishAccountKeysLocked(account, id string, k *Key) {
	cur, _ := x.byAccount.get(account)
	next := slices.DeleteFunc(slices.Clone(cur), func(e Key) bool { return e.ID == id })
	if k != nil {
		i, _ := slices.BinarySearchFunc(next, id, func(e Key, id string) int { return cmp.Compare(e.ID, id) })
		next = slices.Insert(next, i, *k)
	}
	if len(next) == 0 {
		x.byAccount.delete(account)
		return
	}
	x.byAccount.set(account, slices.Clip(next))
}
