package registry

import (
	"hash/maphash"
	"maps"
	"sync/atomic"
)

// shardCount splits a copy-on-write map so that a write copies 1/shardCount of it. The key index
// and the account directory grow with customers, and at start-up every entry is written once:
// copying a whole map per write would make that quadratic.
const shardCount = 256

var shardSeed = maphash.MakeSeed()

// shardedMap is a copy-on-write map with lock-free reads. Writers must be serialised by the
// caller (the owning read model's mutex).
type shardedMap[V any] struct {
	shards [shardCount]atomic.Pointer[map[string]V]
}

func shardOf(key string) int { return int(maphash.String(shardSeed, key) % shardCount) }

func (m *shardedMap[V]) get(key string) (V, bool) {
	if p := m.shards[shardOf(key)].Load(); p != nil {
		v, ok := (*p)[key]
		return v, ok
	}
	var zero V
	return zero, false
}

// set publishes a copy of key's shard with key set to v. The caller serialises writers.
func (m *shardedMap[V]) set(key string, v V) {
	shard := &m.shards[shardOf(key)]
	next := map[string]V{}
	if p := shard.Load(); p != nil {
		next = maps.Clone(*p)
	}
	next[key] = v
	shard.Store(&next)
}

// delete publishes a copy of key's shard without key. The caller serialises writers.
func (m *shardedMap[V]) delete(key string) {
	shard := &m.shards[shardOf(key)]
	p := shard.Load()
	if p == nil {
		return
	}
	if _, ok := (*p)[key]; !ok {
		return
	}
	next := maps.Clone(*p)
	delete(next, key)
	shard.Store(&next)
}
