package settlement

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// The EIP-712 domain of the contract (its constructor's EIP712 arguments).
const (
	DomainName    = "TransferIntentSettlement"
	DomainVersion = "1"
)

// Domain is the contract a fill attestation is for: the origin chain's settlement contract, whose
// settle verifies it. An attestation for one contract is worthless on every other.
type Domain struct {
	ChainID  *big.Int
	Contract common.Address
}

// Attestation is the attester's statement that Filler filled OrderID with AmountOut on the
// destination chain, final there; settle releases the escrow to Filler on it.
type Attestation struct {
	OrderID   common.Hash
	Filler    common.Address
	AmountOut *big.Int
	// Signature is 65 bytes r || s || v, v in {27, 28}.
	Signature []byte
}

// FillDigest is the EIP-712 digest of Fill(orderId, filler, amountOut) in the domain, computed by
// go-ethereum's typed-data encoder; a test compares it with the contract's fillDigest.
func FillDigest(d Domain, orderID common.Hash, filler common.Address, amountOut *big.Int) (common.Hash, error) {
	if d.ChainID == nil || amountOut == nil {
		return common.Hash{}, errors.New("fill digest: chain id and amount are required")
	}
	typed := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"Fill": {{Name: "orderId", Type: "bytes32"}, {Name: "filler", Type: "address"}, {Name: "amountOut", Type: "uint256"}},
		},
		PrimaryType: "Fill",
		Domain: apitypes.TypedDataDomain{
			Name: DomainName, Version: DomainVersion,
			ChainId: (*math.HexOrDecimal256)(d.ChainID), VerifyingContract: d.Contract.Hex(),
		},
		Message: apitypes.TypedDataMessage{"orderId": orderID.Hex(), "filler": filler.Hex(), "amountOut": amountOut.String()},
	}
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		return common.Hash{}, err
	}
	return common.BytesToHash(digest), nil
}

// Attester holds the key whose signatures release bridge escrows. The key never leaves it: it
// has no accessor, and the type prints as its address only.
type Attester struct {
	key     *ecdsa.PrivateKey
	address common.Address
}

// NewAttester wraps key.
func NewAttester(key *ecdsa.PrivateKey) *Attester {
	return &Attester{key: key, address: crypto.PubkeyToAddress(key.PublicKey)}
}

// LoadAttester reads a hex private key (with or without 0x, surrounding space ignored) from a
// file, the mounted Secret. Errors never quote the file's content.
func LoadAttester(path string) (*Attester, error) {
	raw, err := os.ReadFile(path) //nolint:gosec // the path is the operator's flag
	if err != nil {
		return nil, fmt.Errorf("reading the attester key: %w", err)
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	if err != nil {
		return nil, fmt.Errorf("the attester key file %s does not hold a hex secp256k1 private key", path)
	}
	return NewAttester(key), nil
}

// Address is the attester's address, the one the contract was deployed with.
func (a *Attester) Address() common.Address { return a.address }

// String prints the address only, so that logging an Attester cannot leak its key.
func (a *Attester) String() string { return "attester " + a.address.Hex() }

// Attest signs that filler filled orderID with amountOut, for the origin contract d. With tracing
// on, the signing is a span ("settlement attest"), a child of ctx's span or a trace of its own.
func (a *Attester) Attest(ctx context.Context, d Domain, orderID common.Hash, filler common.Address, amountOut *big.Int) (Attestation, error) {
	if !tracing.Enabled() {
		return a.attest(d, orderID, filler, amountOut)
	}
	_, span := tracer.Start(ctx, "settlement attest", trace.WithAttributes(
		attribute.String("transferintent.order_id", orderID.Hex()),
		attribute.String("transferintent.settlement.chain_id", d.ChainID.String()),
		attribute.String("transferintent.settlement.contract", d.Contract.Hex()),
		attribute.String("transferintent.attester", a.address.Hex()),
	))
	att, err := a.attest(d, orderID, filler, amountOut)
	tracing.End(span, err)
	return att, err
}

var tracer = tracing.NewScope("github.com/transferintent/transfer-intent-service/internal/chain/settlement")

func (a *Attester) attest(d Domain, orderID common.Hash, filler common.Address, amountOut *big.Int) (Attestation, error) {
	digest, err := FillDigest(d, orderID, filler, amountOut)
	if err != nil {
		return Attestation{}, err
	}
	sig, err := crypto.Sign(digest[:], a.key)
	if err != nil {
		return Attestation{}, err
	}
	sig[crypto.RecoveryIDOffset] += 27 // Ethereum's v, which OpenZeppelin's ECDSA expects
	return Attestation{OrderID: orderID, Filler: filler, AmountOut: new(big.Int).Set(amountOut), Signature: sig}, nil
}
