package gasless

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/redis/go-redis/v9"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/defaults"
)

// Permit2's nonces are unordered: bit b of word w of the owner's nonceBitmap is nonce w<<8 | b. A
// nonce in a word the owner already used is cheaper for a filler to spend than one in a fresh word
// (a storage slot rewritten rather than created: an SSTORE of 2,900 gas instead of 20,000 by the
// EVM's pricing; not measured here), so the service hands out a
// user's nonces in sequence, 256 to a word: the n-th is bit n%256 of word base+n/256, where base
// is derived from the chain and the user (so that another application's sequential nonces, from
// word 0, never meet ours). The count n is shared by the replicas in Redis (INCR), and every
// nonce is checked against the user's nonceBitmap before it is handed out.

// noncesKeyTTL is how long a user's count is kept after its last use. A count that expired (or
// that Redis lost) starts again at zero; the bitmap check then skips the nonces used before.
const noncesKeyTTL = 90 * 24 * time.Hour

// maxNonceRounds bounds the work of one allocation: each round reads one word of the bitmap and
// moves past every used nonce in it, so a user whose count was lost after k words of orders
// needs k rounds; past that, a random nonce is handed out (see Next).
const maxNonceRounds = 8

// advanceScript moves the count to at least ARGV[1], then takes the next one (INCR), and keeps the
// key for ARGV[2] seconds: atomic, so two replicas never take the same count.
var advanceScript = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return n
`)

// Nonces hands out Permit2 nonces for users' gasless orders.
type Nonces struct {
	// Redis holds the counts; nil hands out random nonces (see Next).
	Redis redis.UniversalClient
	// Prefix is put before every key (the service's key prefix, so that two installations sharing
	// a Redis keep apart).
	Prefix string
	// Timeout bounds each Redis call; a slow Redis is treated as gone. DefaultRedisTimeout when
	// zero.
	Timeout time.Duration
}

// DefaultRedisTimeout bounds a Redis call of Nonces.
const DefaultRedisTimeout = 500 * time.Millisecond

// ErrNonceSpace is returned when every nonce tried was already used (see maxNonceRounds).
var ErrNonceSpace = errors.New("no unused Permit2 nonce found")

// Next returns a Permit2 nonce of user on chain that is not in the user's nonceBitmap and that no
// other call of Next (on any replica sharing the Redis) returned. shared is false when Redis could
// not be used: the nonce is then random (256 bits, so unique without coordination, but in a fresh
// word of the bitmap: dearer for the filler) and still checked against the bitmap. An error is the
// node's: without the bitmap no nonce is handed out.
//
// held reports a nonce an unfinished intent of the user already holds (created, signed, not yet
// opened: not in the bitmap yet); such a nonce is never handed out again, even when Redis lost
// the count that had moved past it. nil holds none.
func (n *Nonces) Next(ctx context.Context, node Batcher, permit2 common.Address, chainID *big.Int, user common.Address, held func(*big.Int) bool) (nonce *big.Int, shared bool, err error) {
	if held == nil {
		held = func(*big.Int) bool { return false }
	}
	if n.Redis != nil {
		nonce, err = n.sequential(ctx, node, permit2, chainID, user, held)
		if err == nil || !errors.Is(err, errRedis) {
			return nonce, err == nil, err
		}
	}
	nonce, err = randomNonce(ctx, node, permit2, user, held)
	return nonce, false, err
}

// errRedis marks a Redis failure, after which Next hands out a random nonce.
var errRedis = errors.New("redis")

func (n *Nonces) sequential(ctx context.Context, node Batcher, permit2 common.Address, chainID *big.Int, user common.Address, held func(*big.Int) bool) (*big.Int, error) {
	key := fmt.Sprintf("%sgasless:permit2-nonce:%s:%s", n.Prefix, chainID, user.Hex())
	base := baseWord(chainID, user)
	atLeast := int64(0)
	for range maxNonceRounds {
		count, err := n.take(ctx, key, atLeast)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errRedis, err)
		}
		i := count - 1 // INCR counts from 1
		word := new(big.Int).Add(base, big.NewInt(i/256))
		bit := uint(i % 256)
		bitmap, err := readWord(ctx, node, permit2, user, word)
		if err != nil {
			return nil, err
		}
		nonceAt := func(b int) *big.Int { return new(big.Int).Or(new(big.Int).Lsh(word, 8), big.NewInt(int64(b))) }
		if bitmap.Bit(int(bit)) == 0 && !held(nonceAt(int(bit))) {
			return nonceAt(int(bit)), nil
		}
		// Used or held: the count was lost, or the user spent our nonces from another wallet.
		// Move past every used or held nonce of this word at once.
		next := int(bit)
		for next < 256 && (bitmap.Bit(next) == 1 || held(nonceAt(next))) {
			next++
		}
		atLeast = i - int64(bit) + int64(next)
	}
	return nil, ErrNonceSpace
}

func (n *Nonces) take(ctx context.Context, key string, atLeast int64) (int64, error) {
	timeout := n.Timeout
	defaults.Positive(&timeout, DefaultRedisTimeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return advanceScript.Run(ctx, n.Redis, []string{key}, atLeast, int64(noncesKeyTTL/time.Second)).Int64()
}

// baseWord is the first word of user's nonces on chain: 64 bits of a hash, so the words of every
// user fit far below Permit2's 2^248 and far above the words other applications count from 0.
func baseWord(chainID *big.Int, user common.Address) *big.Int {
	h := crypto.Keccak256([]byte("transfer-intent-service/permit2-nonces"), common.LeftPadBytes(chainID.Bytes(), 32), user.Bytes())
	base := new(big.Int).SetBytes(h[:8])
	return base.Or(base, new(big.Int).Lsh(big.NewInt(1), 63)) // at least 2^63: never word 0
}

func randomNonce(ctx context.Context, node Batcher, permit2, user common.Address, held func(*big.Int) bool) (*big.Int, error) {
	for range maxNonceRounds {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		nonce := new(big.Int).SetBytes(b[:])
		if held(nonce) {
			continue
		}
		word, bit := settlement.NonceBit(nonce)
		bitmap, err := readWord(ctx, node, permit2, user, word)
		if err != nil {
			return nil, err
		}
		if bitmap.Bit(int(bit)) == 0 {
			return nonce, nil
		}
	}
	return nil, ErrNonceSpace
}

// readWord is word of user's nonceBitmap.
func readWord(ctx context.Context, node Batcher, permit2, user common.Address, word *big.Int) (*big.Int, error) {
	var out hexutil.Bytes
	data := permit2ABI.PackNonceBitmap(user, word)
	batch := []rpc.BatchElem{{Method: "eth_call", Args: []any{map[string]any{"to": permit2, "data": hexutil.Bytes(data)}, "latest"}, Result: &out}}
	if err := node.Batch(ctx, batch, nil); err != nil {
		return nil, err
	}
	if batch[0].Error != nil {
		return nil, fmt.Errorf("nonceBitmap: %w", batch[0].Error)
	}
	return permit2ABI.UnpackNonceBitmap(out)
}
