package main

import (
	"context"
	"fmt"
	"log"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

// The local chain of `make run` is the Chain sample eip155:1337 (its spec.rpc is
// http://127.0.0.1:8545). Its accounts are the well-known development accounts #0 and #1 of
// Hardhat and Anvil: PUBLIC keys, for this local chain only. Account #0 deploys the demo token
// first, so it lands at 0x5FbDB2315678afecb367f032d93F642f64180aa3, the address of the sample
// TokenDefinition local-dev-usdc.
const (
	devChainID       = 1337
	devBlockInterval = time.Second
)

var (
	devWalletEther = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))
	devWalletUSDC  = big.NewInt(10_000 * 1_000_000)
)

// startDevChain runs the local chain on addr, deploys the demo USDC, funds the demo wallet and
// makes a block every second (a client's transactions land within one) until ctx ends.
func startDevChain(ctx context.Context, addr string) (stop func(), err error) {
	funder, err := crypto.HexToECDSA(devchain.WellKnownFunderKey)
	if err != nil {
		return nil, err
	}
	wallet, err := crypto.HexToECDSA(devchain.WellKnownWalletKey)
	if err != nil {
		return nil, err
	}
	chain, err := devchain.New(devChainID, funder, addr)
	if err != nil {
		return nil, err
	}
	walletAddr := crypto.PubkeyToAddress(wallet.PublicKey)
	token, err := chain.Deploy("Local USD Coin", "USDC", 6)
	if err == nil {
		err = chain.MintTo(token, walletAddr, devWalletUSDC)
	}
	if err == nil {
		err = chain.Fund(walletAddr, devWalletEther)
	}
	if err != nil {
		_ = chain.Close()
		return nil, fmt.Errorf("preparing the local chain: %w", err)
	}
	log.Printf("local chain eip155:%d on %s: USDC at %s; demo wallet %s holds 100 ETH and 10000 USDC (its key is public: local use only)",
		devChainID, chain.URL, token.Hex(), walletAddr.Hex())
	blocks, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(devBlockInterval)
		defer t.Stop()
		for {
			select {
			case <-blocks.Done():
				return
			case <-t.C:
				chain.Backend.Commit()
			}
		}
	}()
	return func() {
		cancel()
		<-done
		_ = chain.Close()
	}, nil
}

// devWallet is the demo wallet's address, for the banner.
func devWallet() common.Address {
	key, _ := crypto.HexToECDSA(devchain.WellKnownWalletKey)
	return crypto.PubkeyToAddress(key.PublicKey)
}
