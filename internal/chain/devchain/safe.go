package devchain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// Safe is a Safe smart account (@safe-global/safe-contracts 1.4.1, compiled by hack/contracts.sh)
// with one owner and a threshold of one, whose fallback handler answers EIP-1271's
// isValidSignature: a contract account, as Safe and ERC-4337 wallets are, for tests of contract
// signers.
type Safe struct {
	chain   *Chain
	owner   *ecdsa.PrivateKey
	handler common.Address
	// Address is the account's address (its proxy).
	Address common.Address
}

var (
	safeABI    = contracts.NewSafe()
	handlerABI = contracts.NewCompatibilityFallbackHandler()
	factoryABI = contracts.NewSafeProxyFactory()
)

// DeploySafe deploys Safe's singleton, proxy factory and fallback handler from the Funder, then a
// Safe owned by owner alone, and mines them.
func (c *Chain) DeploySafe(owner *ecdsa.PrivateKey) (*Safe, error) {
	singleton, err := c.deploy("Safe", contracts.SafeMetaData.Bin, nil)
	if err != nil {
		return nil, err
	}
	factory, err := c.deploy("SafeProxyFactory", contracts.SafeProxyFactoryMetaData.Bin, nil)
	if err != nil {
		return nil, err
	}
	handler, err := c.deploy("CompatibilityFallbackHandler", contracts.CompatibilityFallbackHandlerMetaData.Bin, nil)
	if err != nil {
		return nil, err
	}
	var zero common.Address
	setup := safeABI.PackSetup([]common.Address{crypto.PubkeyToAddress(owner.PublicKey)}, big.NewInt(1),
		zero, nil, handler, zero, new(big.Int), zero)
	receipt, err := c.transact(c.Funder, factory, factoryABI.PackCreateProxyWithNonce(singleton, setup, new(big.Int)))
	if err != nil {
		return nil, fmt.Errorf("creating the Safe: %w", err)
	}
	for _, l := range receipt.Logs {
		if ev, err := factoryABI.UnpackProxyCreationEvent(l); err == nil {
			return &Safe{chain: c, owner: owner, handler: handler, Address: ev.Proxy}, nil
		}
	}
	return nil, errors.New("the proxy factory did not report the Safe it created")
}

// Exec has the Safe call `to` with calldata (a Safe transaction signed by its owner, sent and paid
// for by the Funder) and mines it.
func (s *Safe) Exec(to common.Address, calldata []byte) error {
	var zero common.Address
	nonce, err := safeView(s, safeABI.PackNonce(), safeABI.UnpackNonce)
	if err != nil {
		return err
	}
	hash, err := safeView(s, safeABI.PackGetTransactionHash(to, new(big.Int), calldata, 0, new(big.Int), new(big.Int),
		new(big.Int), zero, zero, nonce), safeABI.UnpackGetTransactionHash)
	if err != nil {
		return err
	}
	sig, err := SignDigest(s.owner, hash[:])
	if err != nil {
		return err
	}
	receipt, err := s.chain.transact(s.chain.Funder, s.Address, safeABI.PackExecTransaction(to, new(big.Int), calldata, 0,
		new(big.Int), new(big.Int), new(big.Int), zero, zero, sig))
	if err != nil {
		return err
	}
	for _, l := range receipt.Logs {
		if _, err := safeABI.UnpackExecutionFailureEvent(l); err == nil {
			return fmt.Errorf("the Safe's call of %s failed", to)
		}
	}
	return nil
}

// Sign is the owner's EIP-1271 signature, as the Safe checks it, of digest (an EIP-712 digest a
// contract asks the Safe's isValidSignature about): the owner's ECDSA signature of the Safe's
// SafeMessage hash of the digest.
func (s *Safe) Sign(digest common.Hash) ([]byte, error) {
	ctx := context.Background()
	out, err := s.chain.Backend.Client().CallContract(ctx, ethereum.CallMsg{
		To: &s.handler, Data: handlerABI.PackGetMessageHashForSafe(s.Address, digest[:]),
	}, nil)
	if err != nil {
		return nil, err
	}
	messageHash, err := handlerABI.UnpackGetMessageHashForSafe(out)
	if err != nil {
		return nil, err
	}
	return SignDigest(s.owner, messageHash[:])
}

func safeView[T any](s *Safe, calldata []byte, unpack func([]byte) (T, error)) (T, error) {
	var zero T
	out, err := s.chain.Backend.Client().CallContract(context.Background(), ethereum.CallMsg{To: &s.Address, Data: calldata}, nil)
	if err != nil {
		return zero, err
	}
	return unpack(out)
}

// SignDigest is key's 65-byte r || s || v signature of hash (a 32-byte digest), v in {27, 28}: what
// Permit2, Safe and the settlement contract take.
func SignDigest(key *ecdsa.PrivateKey, hash []byte) ([]byte, error) {
	sig, err := crypto.Sign(hash, key)
	if err != nil {
		return nil, err
	}
	sig[64] += 27
	return sig, nil
}

// SignGasless is key's signature of the gasless order g as a wallet makes it: over the Permit2
// typed data the service hands out (settlement.PermitTypedData, permit2 the verifying contract).
func SignGasless(key *ecdsa.PrivateKey, g settlement.GaslessOrder, permit2 common.Address) ([]byte, error) {
	typed, err := settlement.PermitTypedData(g, permit2)
	if err != nil {
		return nil, err
	}
	digest, err := settlement.PermitDigest(typed)
	if err != nil {
		return nil, err
	}
	return SignDigest(key, digest[:])
}
