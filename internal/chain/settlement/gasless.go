package settlement

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// A gasless order (ERC-7683 openFor): the user signs, through Permit2, a transfer of the order's
// input to the settlement contract whose witness is the whole GaslessCrossChainOrder; a filler
// submits the signature with openFor and pays the gas. Permit2 checks the signature (ECDSA, or
// EIP-1271 for a contract account), spends the nonce and enforces the deadline.

// GaslessOrder is ERC-7683's GaslessCrossChainOrder, as the bindings generate it.
type GaslessOrder = contracts.GaslessCrossChainOrder

// Permit2's EIP-712 domain: a name and no version.
const permit2DomainName = "Permit2"

// permitTypes are the EIP-712 types of Permit2's PermitWitnessTransferFrom with the settlement
// contract's witness: the contract's WITNESS_TYPE_STRING spelled as go-ethereum's typed data, so
// that a wallet shows each field. A test compares the type hash with the deployed contract's.
var permitTypes = apitypes.Types{
	"EIP712Domain": {
		{Name: "name", Type: "string"}, {Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
	},
	"PermitWitnessTransferFrom": {
		{Name: "permitted", Type: "TokenPermissions"}, {Name: "spender", Type: "address"},
		{Name: "nonce", Type: "uint256"}, {Name: "deadline", Type: "uint256"},
		{Name: "witness", Type: "GaslessCrossChainOrder"},
	},
	"TokenPermissions": {{Name: "token", Type: "address"}, {Name: "amount", Type: "uint256"}},
	"GaslessCrossChainOrder": {
		{Name: "originSettler", Type: "address"}, {Name: "user", Type: "address"},
		{Name: "nonce", Type: "uint256"}, {Name: "originChainId", Type: "uint256"},
		{Name: "openDeadline", Type: "uint32"}, {Name: "fillDeadline", Type: "uint32"},
		{Name: "orderDataType", Type: "bytes32"}, {Name: "orderData", Type: "Order"},
	},
	"Order": {
		{Name: "account", Type: "bytes32"}, {Name: "originSettler", Type: "address"},
		{Name: "originChainId", Type: "uint256"}, {Name: "user", Type: "address"},
		{Name: "destinationChainId", Type: "uint256"}, {Name: "recipient", Type: "address"},
		{Name: "tokenIn", Type: "address"}, {Name: "tokenOut", Type: "address"},
		{Name: "amountIn", Type: "uint256"}, {Name: "startAmountOut", Type: "uint256"},
		{Name: "minAmountOut", Type: "uint256"}, {Name: "decayStart", Type: "uint64"},
		{Name: "decayEnd", Type: "uint64"}, {Name: "exclusiveFiller", Type: "address"},
		{Name: "exclusivityDeadline", Type: "uint64"}, {Name: "exclusivityOverrideBps", Type: "uint256"},
		{Name: "feeAmount", Type: "uint256"}, {Name: "feeRecipient", Type: "address"},
		{Name: "nativeDropAmount", Type: "uint256"},
		{Name: "deadline", Type: "uint64"}, {Name: "nonce", Type: "bytes32"},
		{Name: "destinationSettler", Type: "address"},
	},
}

// Gasless is the ERC-7683 gasless order that carries o: its Permit2 nonce is o's nonce read as a
// uint256 (the contract requires both to agree, so each signature opens one orderId), and it can
// be opened until openDeadline, which must not be after o's deadline.
func Gasless(o Order, openDeadline uint64) (GaslessOrder, error) {
	if o.Deadline > 1<<32-1 {
		return GaslessOrder{}, errDeadline
	}
	if openDeadline > o.Deadline {
		return GaslessOrder{}, errors.New("the open deadline is after the order's deadline")
	}
	if o.TokenIn == Native {
		return GaslessOrder{}, errors.New("a gasless order pulls an ERC-20 through Permit2, not the native token")
	}
	enc, err := Encode(o)
	if err != nil {
		return GaslessOrder{}, err
	}
	return GaslessOrder{
		OriginSettler: o.OriginSettler,
		User:          o.User,
		Nonce:         new(big.Int).SetBytes(o.Nonce[:]),
		OriginChainId: new(big.Int).Set(o.OriginChainId),
		OpenDeadline:  uint32(openDeadline),
		FillDeadline:  uint32(o.Deadline),
		OrderDataType: OrderDataType,
		OrderData:     enc,
	}, nil
}

// PermitTypedData is the EIP-712 typed data the user of g signs: Permit2's
// PermitWitnessTransferFrom of g's input to g's settlement contract (the spender), with g as the
// witness, in the domain of Permit2 at permit2 on g's origin chain. It is what a wallet's
// eth_signTypedData_v4 takes, and what the API answers for a gasless intent.
func PermitTypedData(g GaslessOrder, permit2 common.Address) (apitypes.TypedData, error) {
	o, err := Decode(g.OrderData)
	if err != nil {
		return apitypes.TypedData{}, err
	}
	return apitypes.TypedData{
		Types:       permitTypes,
		PrimaryType: "PermitWitnessTransferFrom",
		Domain: apitypes.TypedDataDomain{
			Name:              permit2DomainName,
			ChainId:           (*math.HexOrDecimal256)(new(big.Int).Set(g.OriginChainId)),
			VerifyingContract: permit2.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]any{"token": o.TokenIn.Hex(), "amount": o.AmountIn.String()},
			"spender":   g.OriginSettler.Hex(),
			"nonce":     g.Nonce.String(),
			"deadline":  fmt.Sprint(g.OpenDeadline),
			"witness": map[string]any{
				"originSettler": g.OriginSettler.Hex(),
				"user":          g.User.Hex(),
				"nonce":         g.Nonce.String(),
				"originChainId": g.OriginChainId.String(),
				"openDeadline":  fmt.Sprint(g.OpenDeadline),
				"fillDeadline":  fmt.Sprint(g.FillDeadline),
				"orderDataType": hexutil.Encode(g.OrderDataType[:]),
				"orderData":     orderMessage(o),
			},
		},
	}, nil
}

func orderMessage(o Order) map[string]any {
	return map[string]any{
		"account":                hexutil.Encode(o.Account[:]),
		"originSettler":          o.OriginSettler.Hex(),
		"originChainId":          o.OriginChainId.String(),
		"user":                   o.User.Hex(),
		"destinationChainId":     o.DestinationChainId.String(),
		"recipient":              o.Recipient.Hex(),
		"tokenIn":                o.TokenIn.Hex(),
		"tokenOut":               o.TokenOut.Hex(),
		"amountIn":               o.AmountIn.String(),
		"startAmountOut":         o.StartAmountOut.String(),
		"minAmountOut":           o.MinAmountOut.String(),
		"decayStart":             fmt.Sprint(o.DecayStart),
		"decayEnd":               fmt.Sprint(o.DecayEnd),
		"exclusiveFiller":        o.ExclusiveFiller.Hex(),
		"exclusivityDeadline":    fmt.Sprint(o.ExclusivityDeadline),
		"exclusivityOverrideBps": o.ExclusivityOverrideBps.String(),
		"feeAmount":              o.FeeAmount.String(),
		"feeRecipient":           o.FeeRecipient.Hex(),
		"nativeDropAmount":       o.NativeDropAmount.String(),
		"deadline":               fmt.Sprint(o.Deadline),
		"nonce":                  hexutil.Encode(o.Nonce[:]),
		"destinationSettler":     o.DestinationSettler.Hex(),
	}
}

// TypedDataJSON is typed as the API answers it and as wallets take it (eth_signTypedData_v4's
// JSON; viem's and ethers' signTypedData arguments): go-ethereum's encoding, except for the domain.
// go-ethereum writes every domain field, the unused ones empty ("version": "", "salt": ""), and
// ethers, which builds the domain's type from the fields present, then refuses the empty salt or,
// without it, hashes the empty version in and signs another digest. So the domain carries only the
// fields its EIP712Domain type names, and the chain id as a JSON number, as wallets expect it.
func TypedDataJSON(typed apitypes.TypedData) ([]byte, error) {
	present := typed.Domain.Map()
	domain := make(map[string]any, len(typed.Types["EIP712Domain"]))
	for _, field := range typed.Types["EIP712Domain"] {
		v, ok := present[field.Name]
		if !ok {
			return nil, fmt.Errorf("the typed data's domain has no %s", field.Name)
		}
		domain[field.Name] = v
	}
	if _, ok := domain["chainId"]; ok {
		id := (*big.Int)(typed.Domain.ChainId)
		if id.Sign() < 0 || id.Cmp(big.NewInt(maxSafeInteger)) > 0 {
			return nil, fmt.Errorf("chain id %s is not a number JavaScript holds exactly", id)
		}
		domain["chainId"] = json.Number(id.String())
	}
	return json.Marshal(map[string]any{
		"types": typed.Types, "primaryType": typed.PrimaryType, "domain": domain, "message": typed.Message,
	})
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, 2^53 - 1.
const maxSafeInteger = 1<<53 - 1

// PermitDigest is the EIP-712 digest of typed data (what an ECDSA signer signs, and what Permit2
// passes to an EIP-1271 account's isValidSignature), computed by go-ethereum's encoder.
func PermitDigest(typed apitypes.TypedData) (common.Hash, error) {
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		return common.Hash{}, err
	}
	return common.BytesToHash(digest), nil
}

// RecoverSigner is the address whose ECDSA key made signature (65 bytes r || s || v, v in {27,
// 28} or {0, 1}) over digest. Permit2 accepts the same, and a 64-byte EIP-2098 compact form this
// does not; a contract account's signature is checked with EIP-1271 instead.
func RecoverSigner(digest common.Hash, signature []byte) (common.Address, error) {
	if len(signature) != crypto.SignatureLength {
		return common.Address{}, fmt.Errorf("an ECDSA signature is %d bytes, not %d", crypto.SignatureLength, len(signature))
	}
	sig := append([]byte(nil), signature...)
	if sig[64] >= 27 {
		sig[64] -= 27
	}
	pub, err := crypto.SigToPub(digest[:], sig)
	if err != nil {
		return common.Address{}, err
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// OpenForData is the calldata of openFor(order, signature, originFillerData), sent by a filler;
// originFillerData is always empty (the contract refuses anything else).
func OpenForData(g GaslessOrder, signature []byte) ([]byte, error) {
	return binding.TryPackOpenFor(g, signature, []byte{})
}

// permit2Binding is Permit2's ABI.
var permit2Binding = contracts.NewPermit2()

// NonceBit is where Permit2 keeps an unordered nonce: bit `bit` of word `word` of the owner's
// nonceBitmap.
func NonceBit(nonce *big.Int) (word *big.Int, bit uint) {
	return new(big.Int).Rsh(nonce, 8), uint(new(big.Int).And(nonce, big.NewInt(0xff)).Uint64())
}

// NonceUsed reports whether nonce is spent (or cancelled) in bitmap, the owner's nonceBitmap
// word that holds it.
func NonceUsed(nonce, bitmap *big.Int) bool {
	_, bit := NonceBit(nonce)
	return bitmap.Bit(int(bit)) == 1
}

// NonceBitmapData is the calldata of Permit2's nonceBitmap(owner, word) for nonce's word.
func NonceBitmapData(owner common.Address, nonce *big.Int) []byte {
	word, _ := NonceBit(nonce)
	return permit2Binding.PackNonceBitmap(owner, word)
}

// CancelData is the calldata of Permit2's invalidateUnorderedNonces for nonce alone: sent by the
// order's user, it makes the signed order impossible to open (a hard cancel).
func CancelData(nonce *big.Int) []byte {
	word, bit := NonceBit(nonce)
	return permit2Binding.PackInvalidateUnorderedNonces(word, new(big.Int).Lsh(big.NewInt(1), bit))
}
