// Package settlement is the Go side of contracts/src/Settlement.sol: it encodes orders, computes
// their ids, builds the calls of the contract and decodes its events, all through the generated
// bindings (internal/chain/contracts), and signs and checks the attester's EIP-712 fill
// attestations. The service, the chain watcher and the reference filler share it, so that none of
// them encodes an order by hand.
package settlement

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// Order is the contract's Order struct, as the bindings generate it.
type Order = contracts.Order

// Native is the contract's pseudo-address for a chain's native token.
var Native = common.HexToAddress("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")

// OrderType is the EIP-712 type string of the contract's Order.
const OrderType = "Order(bytes32 account,address originSettler,uint256 originChainId," +
	"address user,uint256 destinationChainId,address recipient,address tokenIn,address tokenOut,uint256 amountIn," +
	"uint256 startAmountOut,uint256 minAmountOut,uint64 decayStart,uint64 decayEnd,address exclusiveFiller," +
	"uint64 exclusivityDeadline,uint256 exclusivityOverrideBps,uint256 feeAmount,address feeRecipient," +
	"uint256 nativeDropAmount,uint64 deadline,bytes32 nonce,address destinationSettler)"

// OrderDataType is the contract's ORDER_DATA_TYPE: ERC-7683's orderDataType of Order, the EIP-712
// type hash of its type string. A test compares it with the deployed contract's constant.
var OrderDataType = crypto.Keccak256Hash([]byte(OrderType))

// MinRefundDelay is the contract's MIN_REFUND_DELAY, in seconds: it refuses to be deployed with a
// shorter refundDelay. A test compares it with the deployed contract's constant.
const MinRefundDelay = 3600

// orderLength is the length of abi.encode(order): twenty-two static words.
const orderLength = 22 * 32

// binding is the contract's ABI; its methods are safe for concurrent use.
var binding = contracts.NewSettlement()

// orderArguments is the Order tuple of the ABI (settle's first input), so that abi.encode(order)
// follows the contract's own declaration rather than a copy of it.
var orderArguments = abi.Arguments{{Type: binding.GetABI().Methods["settle"].Inputs[0].Type}}

// maxUint256 bounds the amounts: the ABI packer would silently wrap larger ones.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// Plain is o with the terms it leaves unset made explicit: no decay (startAmountOut is
// minAmountOut), no override, no fee, no native drop. Every encoding of an order goes through it,
// so an order built before those terms existed means what it meant then.
func Plain(o Order) Order {
	if o.StartAmountOut == nil {
		o.StartAmountOut = o.MinAmountOut
	}
	zero := func(v **big.Int) {
		if *v == nil {
			*v = new(big.Int)
		}
	}
	zero(&o.ExclusivityOverrideBps)
	zero(&o.FeeAmount)
	zero(&o.NativeDropAmount)
	return o
}

// Encode is abi.encode(order): the ERC-7683 orderData and originData, twenty-two 32-byte words.
// Every field is static, so the words are written in place, in the order of the contract's
// declaration: the ABI packer's reflection cost a simulation a seventh of its CPU (issue 28).
// A test compares the two encodings.
func Encode(o Order) ([]byte, error) {
	o = Plain(o)
	for _, v := range []*big.Int{o.OriginChainId, o.DestinationChainId, o.AmountIn, o.StartAmountOut, o.MinAmountOut,
		o.ExclusivityOverrideBps, o.FeeAmount, o.NativeDropAmount} {
		if v == nil || v.Sign() < 0 || v.Cmp(maxUint256) > 0 {
			return nil, fmt.Errorf("order value %v is not a uint256", v)
		}
	}
	out := make([]byte, orderLength)
	word := func(i int) []byte { return out[i*32 : (i+1)*32] }
	address := func(i int, a common.Address) { copy(word(i)[12:], a[:]) }
	uint64At := func(i int, v uint64) { binary.BigEndian.PutUint64(word(i)[24:], v) }
	copy(word(0), o.Account[:])
	address(1, o.OriginSettler)
	o.OriginChainId.FillBytes(word(2))
	address(3, o.User)
	o.DestinationChainId.FillBytes(word(4))
	address(5, o.Recipient)
	address(6, o.TokenIn)
	address(7, o.TokenOut)
	o.AmountIn.FillBytes(word(8))
	o.StartAmountOut.FillBytes(word(9))
	o.MinAmountOut.FillBytes(word(10))
	uint64At(11, o.DecayStart)
	uint64At(12, o.DecayEnd)
	address(13, o.ExclusiveFiller)
	uint64At(14, o.ExclusivityDeadline)
	o.ExclusivityOverrideBps.FillBytes(word(15))
	o.FeeAmount.FillBytes(word(16))
	address(17, o.FeeRecipient)
	o.NativeDropAmount.FillBytes(word(18))
	uint64At(19, o.Deadline)
	copy(word(20), o.Nonce[:])
	address(21, o.DestinationSettler)
	return out, nil
}

// encodeByABI is abi.encode(order) by go-ethereum's ABI packer, from the contract's declaration:
// the reference Encode is tested against.
func encodeByABI(o Order) ([]byte, error) { return orderArguments.Pack(Plain(o)) }

// Decode reads abi.encode(order) back, refusing any other length (as the contract does).
func Decode(data []byte) (Order, error) {
	if len(data) != orderLength {
		return Order{}, fmt.Errorf("an encoded order is %d bytes, not %d", orderLength, len(data))
	}
	values, err := orderArguments.Unpack(data)
	if err != nil {
		return Order{}, err
	}
	return *abi.ConvertType(values[0], new(Order)).(*Order), nil
}

// ID is the orderId: keccak256(abi.encode(order)), as the contract computes it.
func ID(o Order) (common.Hash, error) {
	enc, err := Encode(o)
	if err != nil {
		return common.Hash{}, err
	}
	return crypto.Keccak256Hash(enc), nil
}

// errDeadline: ERC-7683 carries deadlines as uint32.
var errDeadline = errors.New("the order's deadline does not fit ERC-7683's uint32 seconds")

// OpenData is the calldata of open(OnchainCrossChainOrder) for the order, sent by its user with
// value amountIn when tokenIn is Native.
func OpenData(o Order) ([]byte, error) {
	if o.Deadline > 1<<32-1 {
		return nil, errDeadline
	}
	enc, err := Encode(o)
	if err != nil {
		return nil, err
	}
	return binding.TryPackOpen(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: OrderDataType, OrderData: enc,
	})
}

// OrderOfOpenData reads the order back out of open's calldata (the stored transaction of an
// intent), so that settle and refund calls can be built from what the service stored.
func OrderOfOpenData(data []byte) (Order, error) {
	method, ok := binding.GetABI().Methods["open"]
	if !ok || len(data) < 4 || string(data[:4]) != string(method.ID) {
		return Order{}, errors.New("not a call of open")
	}
	values, err := method.Inputs.Unpack(data[4:])
	if err != nil {
		return Order{}, err
	}
	cco := *abi.ConvertType(values[0], new(contracts.OnchainCrossChainOrder)).(*contracts.OnchainCrossChainOrder)
	return Decode(cco.OrderData)
}

// FillData is the calldata of fill(orderId, originData, fillerData) on the destination chain:
// the filler pays amountOut of tokenOut and is repaid to repayTo.
func FillData(o Order, amountOut *big.Int, repayTo common.Address) ([]byte, error) {
	enc, err := Encode(o)
	if err != nil {
		return nil, err
	}
	fillerData, err := fillerArguments.Pack(amountOut, repayTo)
	if err != nil {
		return nil, err
	}
	return binding.TryPackFill(crypto.Keccak256Hash(enc), enc, fillerData)
}

// fillerArguments is fill's fillerData: abi.encode(uint256 amountOut, address repayTo).
var fillerArguments = abi.Arguments{{Type: mustType("uint256")}, {Type: mustType("address")}}

func mustType(t string) abi.Type {
	typ, err := abi.NewType(t, "", nil)
	if err != nil {
		panic(err)
	}
	return typ
}

// SettleData is the calldata of settle(order, filler, amountOut, signature) on the origin chain.
func SettleData(o Order, a Attestation) ([]byte, error) {
	return binding.TryPackSettle(Plain(o), a.Filler, a.AmountOut, a.Signature)
}

// RefundData is the calldata of refund(order) on the origin chain.
func RefundData(o Order) ([]byte, error) {
	return binding.TryPackRefund(Plain(o))
}

// Event is a decoded log of the settlement contract.
type Event struct {
	// Kind is the event's name: Opened, Filled, Settled, Refunded or RefundAllowed.
	Kind    string
	OrderID common.Hash
	// Party is the user (Opened, Refunded) or the filler (Filled, Settled); zero for
	// RefundAllowed.
	Party common.Address
	// Amount is amountOut (Filled) or amountIn (Settled, Refunded); nil for Opened and
	// RefundAllowed.
	Amount *big.Int
	// Order is set for Opened.
	Order *Order
	Log   types.Log
}

// Event kinds.
const (
	EventOpened   = "Opened"
	EventFilled   = "Filled"
	EventSettled  = "Settled"
	EventRefunded = "Refunded"
	// EventRefundAllowed is the guardian's allowRefund(orderId): the order may be refunded before
	// its deadline and refund delay.
	EventRefundAllowed = "RefundAllowed"
)

// Topics are the first topics of the events Parse decodes, for an eth_getLogs filter.
func Topics() []common.Hash {
	events := binding.GetABI().Events
	return []common.Hash{events[EventOpened].ID, events[EventFilled].ID, events[EventSettled].ID, events[EventRefunded].ID,
		events[EventRefundAllowed].ID}
}

// Parse decodes a log of the contract; ok is false for a log it does not follow (ERC-7683's Open
// repeats Opened).
func Parse(l types.Log) (Event, bool, error) {
	if len(l.Topics) == 0 {
		return Event{}, false, nil
	}
	events := binding.GetABI().Events
	e := Event{Log: l}
	switch l.Topics[0] {
	case events[EventOpened].ID:
		ev, err := binding.UnpackOpenedEvent(&l)
		if err != nil {
			return Event{}, false, err
		}
		e.Kind, e.OrderID, e.Party, e.Order = EventOpened, ev.OrderId, ev.User, &ev.Order
	case events[EventFilled].ID:
		ev, err := binding.UnpackFilledEvent(&l)
		if err != nil {
			return Event{}, false, err
		}
		e.Kind, e.OrderID, e.Party, e.Amount = EventFilled, ev.OrderId, ev.Filler, ev.AmountOut
	case events[EventSettled].ID:
		ev, err := binding.UnpackSettledEvent(&l)
		if err != nil {
			return Event{}, false, err
		}
		e.Kind, e.OrderID, e.Party, e.Amount = EventSettled, ev.OrderId, ev.Filler, ev.AmountIn
	case events[EventRefunded].ID:
		ev, err := binding.UnpackRefundedEvent(&l)
		if err != nil {
			return Event{}, false, err
		}
		e.Kind, e.OrderID, e.Party, e.Amount = EventRefunded, ev.OrderId, ev.User, ev.AmountIn
	case events[EventRefundAllowed].ID:
		ev, err := binding.UnpackRefundAllowedEvent(&l)
		if err != nil {
			return Event{}, false, err
		}
		e.Kind, e.OrderID = EventRefundAllowed, ev.OrderId
	default:
		return Event{}, false, nil
	}
	return e, true, nil
}
