package devchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// Permit has owner approve spender for value of a TestToken with an EIP-2612 permit that owner
// signs and the Funder sends and pays for: the owner needs no ether. The permit never expires.
func (c *Chain) Permit(token common.Address, owner *ecdsa.PrivateKey, spender common.Address, value *big.Int) error {
	binding := contracts.NewTestToken()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	read := func(data []byte) ([]byte, error) {
		return c.Backend.Client().CallContract(ctx, ethereum.CallMsg{To: &token, Data: data}, nil)
	}
	out, err := read(binding.PackName())
	if err != nil {
		return fmt.Errorf("reading the token's name: %w", err)
	}
	name, err := binding.UnpackName(out)
	if err != nil {
		return err
	}
	if out, err = read(binding.PackNonces(ownerAddr)); err != nil {
		return fmt.Errorf("reading the owner's permit nonce: %w", err)
	}
	nonce, err := binding.UnpackNonces(out)
	if err != nil {
		return err
	}
	deadline := math.MaxBig256
	digest, _, err := apitypes.TypedDataAndHash(apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"Permit": {
				{Name: "owner", Type: "address"}, {Name: "spender", Type: "address"}, {Name: "value", Type: "uint256"},
				{Name: "nonce", Type: "uint256"}, {Name: "deadline", Type: "uint256"},
			},
		},
		PrimaryType: "Permit",
		Domain: apitypes.TypedDataDomain{
			Name: name, Version: "1", ChainId: (*math.HexOrDecimal256)(c.ID), VerifyingContract: token.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"owner": ownerAddr.Hex(), "spender": spender.Hex(), "value": value.String(),
			"nonce": nonce.String(), "deadline": deadline.String(),
		},
	})
	if err != nil {
		return err
	}
	sig, err := crypto.Sign(digest, owner)
	if err != nil {
		return err
	}
	_, err = c.transact(c.Funder, token, binding.PackPermit(ownerAddr, spender, value, deadline,
		sig[64]+27, [32]byte(sig[:32]), [32]byte(sig[32:64])))
	return err
}
