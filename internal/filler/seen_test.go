package filler

import (
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// The filler's sets of orders it is done with forget an order past its deadline, and never hold
// more than their bound: a book stuffed with far-dated orders evicts those that end first.
func TestSeenIsBounded(t *testing.T) {
	now := time.Now()
	s := newSeen(3)
	id := func(i int) common.Hash { return common.Hash{byte(i)} }
	s.add(id(1), now.Add(-time.Second)) // already past
	s.add(id(2), now.Add(time.Hour))
	s.add(id(3), now.Add(3*time.Hour))
	s.add(id(4), now.Add(2*time.Hour)) // full: the past one goes
	if s.has(id(1)) || !s.has(id(2)) || !s.has(id(3)) || !s.has(id(4)) || s.len() != 3 {
		t.Fatalf("after a fourth order: %v", s.until)
	}
	s.add(id(5), now.Add(4*time.Hour)) // full of live orders: the first to end goes
	if s.has(id(2)) || !s.has(id(5)) || s.len() != 3 {
		t.Fatalf("after a fifth order: %v", s.until)
	}
	s.add(id(5), now.Add(5*time.Hour)) // known: nothing evicted
	if s.len() != 3 || !s.has(id(3)) || !s.has(id(4)) {
		t.Fatalf("after re-adding a known order: %v", s.until)
	}
	s.prune(now.Add(150 * time.Minute))
	if s.has(id(4)) || !s.has(id(3)) || s.len() != 2 {
		t.Fatalf("after pruning: %v", s.until)
	}
}
