package gasless_test

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

func (w *world) next(n *gasless.Nonces, user common.Address) (*big.Int, bool) {
	w.t.Helper()
	return w.nextHeld(n, user, nil)
}

func (w *world) nextHeld(n *gasless.Nonces, user common.Address, held func(*big.Int) bool) (*big.Int, bool) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	nonce, shared, err := n.Next(ctx, w.node, contracts.CanonicalPermit2, w.chain.ID, user, held)
	if err != nil {
		w.t.Fatal(err)
	}
	return nonce, shared
}

// A user's nonces come in sequence within one word of the bitmap (cheaper for the filler), from a
// word far from 0; another user's come from another word.
func TestNoncesInSequence(t *testing.T) {
	w := newWorld(t)
	n := &gasless.Nonces{Redis: redistest.Start(t).Client()}
	first, shared := w.next(n, w.userAddr)
	if !shared {
		t.Fatal("the nonce did not come from the shared count")
	}
	second, _ := w.next(n, w.userAddr)
	if new(big.Int).Sub(second, first).Cmp(big.NewInt(1)) != 0 {
		t.Errorf("nonces %s then %s; want consecutive", first, second)
	}
	word, _ := settlement.NonceBit(first)
	if word.BitLen() < 64 {
		t.Errorf("word %s is among the low words other applications count from", word)
	}
	other, _ := w.next(n, common.HexToAddress("0x00000000000000000000000000000000000a770c"))
	if otherWord, _ := settlement.NonceBit(other); otherWord.Cmp(word) == 0 {
		t.Errorf("two users share word %s", word)
	}
}

// Two replicas sharing a Redis never hand out the same nonce.
func TestNoncesAcrossReplicas(t *testing.T) {
	w := newWorld(t)
	redis := redistest.Start(t)
	replicas := []*gasless.Nonces{{Redis: redis.Client()}, {Redis: redis.Client()}}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for _, r := range replicas {
		for range 25 {
			wg.Go(func() {
				nonce, _ := w.next(r, w.userAddr)
				mu.Lock()
				defer mu.Unlock()
				if seen[nonce.String()] {
					t.Errorf("nonce %s handed out twice", nonce)
				}
				seen[nonce.String()] = true
			})
		}
	}
	wg.Wait()
	if len(seen) != 50 {
		t.Errorf("%d distinct nonces; want 50", len(seen))
	}
}

// A count Redis lost starts again, and the nonces the user already spent are skipped: the bitmap
// is the truth.
func TestNoncesSkipWhatTheBitmapHolds(t *testing.T) {
	w := newWorld(t)
	redis := redistest.Start(t)
	n := &gasless.Nonces{Redis: redis.Client()}
	var used []*big.Int
	for range 3 {
		nonce, _ := w.next(n, w.userAddr)
		used = append(used, nonce)
		w.chain.Transact(t, w.user, contracts.CanonicalPermit2, settlement.CancelData(nonce)) // spent on chain
	}
	if err := redis.Client().FlushAll(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	next, shared := w.next(n, w.userAddr)
	if !shared {
		t.Fatal("the nonce did not come from the shared count")
	}
	for _, u := range used {
		if next.Cmp(u) == 0 {
			t.Fatalf("nonce %s handed out again after Redis lost the count", next)
		}
	}
	if want := new(big.Int).Add(used[2], big.NewInt(1)); next.Cmp(want) != 0 {
		t.Errorf("nonce %s; want %s, the first unused one after the spent ones", next, want)
	}
}

// A nonce an unfinished intent holds (created or signed, not yet opened: not in the bitmap) is
// never handed out again, even after Redis lost the count that had moved past it; nor at random.
func TestNoncesSkipWhatUnfinishedIntentsHold(t *testing.T) {
	w := newWorld(t)
	redis := redistest.Start(t)
	n := &gasless.Nonces{Redis: redis.Client()}
	holds := map[string]bool{}
	held := func(x *big.Int) bool { return holds[x.String()] }
	var taken []*big.Int
	for range 3 {
		nonce, _ := w.nextHeld(n, w.userAddr, held)
		holds[nonce.String()] = true // an intent was created with it, and waits for its signature
		taken = append(taken, nonce)
	}
	if err := redis.Client().FlushAll(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	next, _ := w.nextHeld(n, w.userAddr, held)
	if holds[next.String()] {
		t.Fatalf("nonce %s, held by an unfinished intent, handed out again after Redis lost the count", next)
	}
	if want := new(big.Int).Add(taken[2], big.NewInt(1)); next.Cmp(want) != 0 {
		t.Errorf("nonce %s; want %s, the first one not held", next, want)
	}

	gone := &gasless.Nonces{Redis: redis.Client(), Timeout: 200 * time.Millisecond}
	redis.Stop()
	calls := 0
	random, _ := w.nextHeld(gone, w.userAddr, func(x *big.Int) bool { calls++; return calls == 1 }) // the first draw is held
	if calls < 2 || random == nil {
		t.Errorf("the random nonce was not checked against the held ones (%d checks)", calls)
	}
}

// Without Redis the nonce is random, still unused on chain; the caller is told it is not shared.
func TestNoncesWithRedisGone(t *testing.T) {
	w := newWorld(t)
	redis := redistest.Start(t)
	n := &gasless.Nonces{Redis: redis.Client(), Timeout: 200 * time.Millisecond}
	redis.Stop()
	a, sharedA := w.next(n, w.userAddr)
	b, _ := w.next(n, w.userAddr)
	if sharedA || a.Cmp(b) == 0 {
		t.Errorf("nonces %s and %s (shared %v); want two random ones", a, b, sharedA)
	}
}
