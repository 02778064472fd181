package filler

import (
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// seen is a set of orders the filler is done with (filled, opened or refused for good), each
// remembered until a moment past which it cannot come back: an order past its deadline can be
// neither opened nor filled, so forgetting it then changes nothing. The set holds at most max
// entries: a book stuffed with far-dated orders evicts those that end first rather than grow.
type seen struct {
	until map[common.Hash]time.Time
	max   int
}

// seenMax bounds each set of the reference filler.
const seenMax = 10_000

// junkMemory is how long an entry of the book that is not an order at all is remembered (so that
// it is logged once an hour, not at every step).
const junkMemory = time.Hour

func newSeen(limit int) *seen { return &seen{until: map[common.Hash]time.Time{}, max: limit} }

// add remembers id until `until`.
func (s *seen) add(id common.Hash, until time.Time) {
	if _, ok := s.until[id]; !ok && len(s.until) >= s.max {
		s.prune(time.Now())
		if len(s.until) >= s.max {
			s.evictFirstEnding()
		}
	}
	s.until[id] = until
}

func (s *seen) has(id common.Hash) bool {
	_, ok := s.until[id]
	return ok
}

// prune forgets what ended before now.
func (s *seen) prune(now time.Time) {
	for id, until := range s.until {
		if until.Before(now) {
			delete(s.until, id)
		}
	}
}

func (s *seen) evictFirstEnding() {
	var first common.Hash
	var at time.Time
	for id, until := range s.until {
		if at.IsZero() || until.Before(at) {
			first, at = id, until
		}
	}
	delete(s.until, first)
}

func (s *seen) len() int { return len(s.until) }

// deadlineTime is an order's deadline in unix seconds as a time.
func deadlineTime(deadline uint64) time.Time {
	return time.Unix(int64(min(deadline, 1<<62)), 0) //nolint:gosec // bounded just above
}
