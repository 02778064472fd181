package chaindata

import (
	"bytes"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// A simulation's gas estimate is derived, not asked (docs/decisions.md, "A simulation's own
// calls (issue 46, item 3)"), when the node estimated a transaction of the same shape at the same
// block: what the transaction executes then differs only in the request's own state, which the
// batch reads anyway (balances, allowance, the recipient's balance), and in its calldata's bytes,
// whose intrinsic gas is computed exactly. Two kinds of transaction are derived, those whose code
// the service knows to be the same for everyone: an ERC-20 transfer(to, amount) of a token of the
// request, and an order to the chain's settlement contract (q.Contract). Anything else, and any
// request whose own reads say it would not run as the measured one did, is estimated by the node.

// transferSelector is ERC-20 transfer(address,uint256).
var transferSelector = []byte{0xa9, 0x05, 0x9c, 0xbb}

// shape is what a derivable transaction's gas depends on besides its calldata's bytes. The first
// six fields are known before the batch; the last two from its answers.
type shape struct {
	kind     intent.Type    // the service's kind of transaction: one path through the contract's code
	asset    common.Address // the ERC-20 it moves (zero: the native token)
	to       common.Address
	selector [4]byte
	size     int
	value    bool
	// emptyRecipient: an ERC-20 transfer to a holder of none of the token, whose balance slot goes
	// from zero to non-zero (22,100 gas, against 5,000 for a slot that holds a balance).
	emptyRecipient bool
	// maxAllowance: an order whose allowance is unlimited, which an OpenZeppelin ERC-20 does not
	// write down on transferFrom (2,900 gas less than one it decreases).
	maxAllowance bool
}

// partial is the shape as known before the batch.
func (s shape) partial() shape {
	s.emptyRecipient, s.maxAllowance = false, false
	return s
}

// derivation is a request whose estimate may be derived: its shape, and what its own reads must
// show for its transaction to run as the measured one did.
type derivation struct {
	shape shape
	data  []byte
	value *big.Int
	asset *registry.Token // the ERC-20 the transaction takes from the holder; nil for the native token
	// recipient of an ERC-20 transfer, whose balance of asset the batch reads.
	recipient        *common.Address
	recipientBalance *big.Int
}

// derivable is q's derivation, nil when its estimate must be asked: no transaction or amount, or
// a transaction that is neither an ERC-20 transfer of a token of q (to another holder than q's)
// nor an order to q's settlement contract.
func derivable(q intent.ChainQuery) *derivation {
	if q.Tx == nil || q.Amount == nil || q.Kind == "" {
		return nil
	}
	to := common.HexToAddress(q.Tx.To)
	data := common.FromHex(q.Tx.Data)
	value, ok := new(big.Int).SetString(q.Tx.Value, 10)
	if !ok {
		value = new(big.Int)
	}
	d := &derivation{data: data, value: value, shape: shape{kind: q.Kind, to: to, size: len(data), value: value.Sign() > 0}}
	if len(data) >= 4 {
		copy(d.shape.selector[:], data)
	}
	switch {
	case q.Contract != nil && *q.Contract == to: // an order: open() on the settlement contract
		if a := q.Allowance; a != nil {
			d.asset, d.shape.asset = &a.Token, tokenAddress(a.Token)
		}
		return d
	case len(data) == 4+2*32 && bytes.Equal(data[:4], transferSelector) && !d.shape.value:
		for i := range q.Tokens {
			if tokenAddress(q.Tokens[i]) != to {
				continue
			}
			recipient := common.BytesToAddress(data[4+12 : 4+32])
			if recipient == q.Holder { // a self-transfer writes one slot twice: cheaper, not a measure of others
				return nil
			}
			d.asset, d.shape.asset, d.recipient = &q.Tokens[i], to, &recipient
			return d
		}
	}
	return nil
}

// complete fills the shape from the batch's answers and says whether the request runs as a
// measured one: its balances cover what the transaction takes (and its allowance, for an order).
// A request that would revert is estimated by the node, whose refusal names the error; and
// nothing is learnt from it, so that a token that fails without reverting is never measured on
// its cheaper failure.
func (d *derivation) complete(state intent.ChainState, q intent.ChainQuery) bool {
	if d.shape.value {
		native := nativeBalance(state, q)
		if native == nil || native.Cmp(d.value) < 0 {
			return false
		}
	}
	if d.asset != nil {
		balance := state.Balances[d.asset.Address]
		if balance == nil || balance.Cmp(q.Amount) < 0 {
			return false
		}
	}
	if q.Allowance != nil {
		if state.Allowance == nil || state.Allowance.Cmp(q.Amount) < 0 {
			return false
		}
		d.shape.maxAllowance = state.Allowance.Cmp(math.MaxBig256) == 0
	}
	if d.recipient != nil {
		if d.recipientBalance == nil {
			return false
		}
		d.shape.emptyRecipient = d.recipientBalance.Sign() == 0
	}
	return true
}

// nativeBalance is the holder's balance of the native token, when q read it.
func nativeBalance(state intent.ChainState, q intent.ChainQuery) *big.Int {
	for _, tok := range q.Tokens {
		if tokenAddress(tok) == common.HexToAddress(registry.NativeTokenAddress) {
			return state.Balances[tok.Address]
		}
	}
	return nil
}

// tokenAddress is tok's contract (the zero-like native address for the native token).
func tokenAddress(tok registry.Token) common.Address {
	_, address, _ := registry.SplitCAIP10(tok.Address)
	return common.HexToAddress(address)
}

// byteGas bounds what turning a zero byte of calldata into another costs: 12 gas of intrinsic
// gas (4 against 16, EIP-2028), or 30 when the transaction pays the EIP-7623 floor (10 a token, a
// zero byte one token and another four). EIP-7976's floor counts every byte alike. Transactions
// of one shape have calldata of one length, and what they execute does not depend on its bytes
// (the copies and hashes cost by length), so two of a shape differ by at most this much a byte.
const byteGas = (params.TxTokenPerNonZeroByte - 1) * params.TxCostFloorPerToken

// nonZero counts data's bytes that are not zero.
func nonZero(data []byte) uint64 {
	return uint64(len(data) - bytes.Count(data, []byte{0}))
}

// measured is what a view learnt of a shape at a block: the most the node estimated, and the
// most of an estimate less byteGas a non-zero byte of its calldata.
type measured struct {
	most, base uint64
}

// estimates are the node's estimates a view learnt at one block, by shape.
type estimates struct {
	block  uint64
	byKind map[shape]int // by partial shape: how many were learnt (the batch need not ask)
	shapes map[shape]measured
}

// learn records the node's estimate units of d's transaction at block.
func (e *estimates) learn(block uint64, d *derivation, units uint64) {
	switch {
	case block < e.block:
		return // a slow simulation's: the view moved on
	case block > e.block || e.shapes == nil:
		e.block, e.byKind, e.shapes = block, map[shape]int{}, map[shape]measured{}
	}
	m := e.shapes[d.shape]
	m.most = max(m.most, units)
	if bytesGas := byteGas * nonZero(d.data); units > bytesGas {
		m.base = max(m.base, units-bytesGas)
	}
	e.shapes[d.shape] = m
	e.byKind[d.shape.partial()]++
}

// knows says whether a transaction of d's partial shape was measured at block.
func (e *estimates) knows(block uint64, d *derivation) bool {
	return e.block == block && e.byKind[d.shape.partial()] > 0
}

// derive is d's estimate at block from the measured ones of its shape (before the margin), and
// whether there was one. Measured i bounds d's need by its estimate when d's calldata has no more
// non-zero bytes, and by base_i + byteGas a non-zero byte of d's otherwise: the larger of the
// most estimated and the largest base plus d's bytes covers both.
func (e *estimates) derive(block uint64, d *derivation) (uint64, bool) {
	if e.block != block {
		return 0, false
	}
	m, ok := e.shapes[d.shape]
	if !ok {
		return 0, false
	}
	return max(m.most, m.base+byteGas*nonZero(d.data)), true
}
