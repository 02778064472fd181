package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log"
	"math/big"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr/funcr"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/filler"
)

// The local chains of `make run` are the Chain samples local-dev (eip155:1337, spec.rpc
// http://127.0.0.1:8545) and local-dev-2 (eip155:1338, http://127.0.0.1:8546), for swaps on one and
// bridges between the two. Each is deployed the same way by the well-known development account #0
// of Hardhat and Anvil (its key is PUBLIC: for these local chains only), so each contract lands at
// the same address on both, the one the samples record: the demo USDC first, at
// 0x5FbDB2315678afecb367f032d93F642f64180aa3 (TokenDefinitions local-dev-usdc and
// local-dev-2-usdc), then the settlement contract at 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512
// (each Chain's settlementAddress).
const (
	devChainID       = 1337
	secondChainID    = 1338
	devBlockInterval = time.Second
	// devRefundDelay is the settlement contracts' delay between an order's deadline and its refund:
	// short, for a demo.
	devRefundDelay = 60
	// demoAPIKey is the public demo key of config/samples (README: never outside make run); the
	// reference filler uses it to fetch attestations.
	demoAPIKey = "sk_test_mVsphOaVGPhcbEOVc2v47gmRCBTSZXBU56XcQobdo66SADUeMmrStQJ5ByKQ19ns"
)

// The addresses the samples record.
var (
	sampleUSDC       = common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	sampleSettlement = common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")
)

var (
	devWalletEther = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))
	devWalletUSDC  = big.NewInt(10_000 * 1_000_000)
	// The filler's inventory on each chain.
	fillerEther = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))
	fillerUSDC  = big.NewInt(100_000 * 1_000_000)
)

// localChain is one running local chain.
type localChain struct {
	*devchain.Chain
	addr string
}

// devChains are the local chains and the keys of the settlement demo, all gone when stop returns.
type devChains struct {
	chains   []*localChain
	attester *ecdsa.PrivateKey
	filler   *ecdsa.PrivateKey
	stop     func()
	// stopFiller stops the filler and waits for it, before the chains it reads close.
	stopFiller func()
}

// startDevChains runs a local chain for each id on its address, deploys the demo USDC and the
// settlement contract on each (attested by a key made for this run), funds the demo wallet and a
// filler key made for this run, and makes a block a second on each until ctx ends.
func startDevChains(ctx context.Context, ids []int64, addrs []string) (*devChains, error) {
	d := &devChains{}
	var err error
	if d.attester, err = crypto.GenerateKey(); err != nil {
		return nil, err
	}
	if d.filler, err = crypto.GenerateKey(); err != nil {
		return nil, err
	}
	for i, id := range ids {
		c, err := startDevChain(id, addrs[i], crypto.PubkeyToAddress(d.attester.PublicKey), crypto.PubkeyToAddress(d.filler.PublicKey))
		if err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", id, err)
		}
		d.chains = append(d.chains, c)
	}
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
				for _, c := range d.chains {
					c.Backend.Commit()
				}
			}
		}
	}()
	d.stopFiller = func() {}
	d.stop = func() {
		d.stopFiller()
		cancel()
		<-done
		d.close()
	}
	return d, nil
}

func (d *devChains) close() {
	for _, c := range d.chains {
		_ = c.Close()
	}
}

// startDevChain runs one local chain and deploys and funds what the samples expect on it.
func startDevChain(id int64, addr string, attester, fillerAddr common.Address) (*localChain, error) {
	funder, err := crypto.HexToECDSA(devchain.WellKnownFunderKey)
	if err != nil {
		return nil, err
	}
	chain, err := devchain.New(id, funder, addr)
	if err != nil {
		return nil, err
	}
	usdc, err := chain.Deploy("Local USD Coin", "USDC", 6)
	if err != nil {
		_ = chain.Close()
		return nil, err
	}
	settler, err := chain.DeploySettlement(attester, devRefundDelay)
	if err != nil {
		_ = chain.Close()
		return nil, err
	}
	if usdc != sampleUSDC || settler != sampleSettlement {
		_ = chain.Close()
		return nil, fmt.Errorf("USDC landed at %s and the settlement contract at %s, not where the samples expect them", usdc.Hex(), settler.Hex())
	}
	wallet := devWallet()
	err = errors.Join(chain.MintTo(usdc, wallet, devWalletUSDC), chain.Fund(wallet, devWalletEther),
		chain.MintTo(usdc, fillerAddr, fillerUSDC), chain.Fund(fillerAddr, fillerEther))
	if err != nil {
		_ = chain.Close()
		return nil, fmt.Errorf("funding: %w", err)
	}
	log.Printf("local chain eip155:%d on %s: USDC at %s, settlement contract at %s; demo wallet %s holds 100 ETH and 10000 USDC (its key is public: local use only)",
		id, chain.URL, usdc.Hex(), settler.Hex(), wallet.Hex())
	return &localChain{Chain: chain, addr: addr}, nil
}

// writeAttesterKey writes the run's attester key for the manager's --attester-key-file.
func (d *devChains) writeAttesterKey(path string) error {
	return writePrivateFile(path, []byte(common.Bytes2Hex(crypto.FromECDSA(d.attester))))
}

// runFiller runs the reference filler on every local chain until ctx ends, claiming bridge
// escrows with attestations from the API at apiURL.
func (d *devChains) runFiller(ctx context.Context, apiURL string) error {
	f := &filler.Filler{
		Key: d.filler, Chains: map[uint64]*filler.Chain{}, Quote: filler.AtMinimum,
		API: apiURL, APIKey: demoAPIKey,
		Log: funcr.New(func(prefix, args string) { log.Println(prefix, args) }, funcr.Options{}).WithName("filler"),
	}
	closeClients := func() {
		for _, c := range f.Chains {
			c.Client.Close()
		}
	}
	dialCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, c := range d.chains {
		fc, err := filler.Dial(dialCtx, c.ID.Uint64(), c.URL, sampleSettlement)
		if err != nil {
			closeClients()
			return err
		}
		f.Chains[c.ID.Uint64()] = fc
	}
	log.Printf("reference filler %s fills orders on the local chains (%s of USDC and 100 ETH on each)",
		crypto.PubkeyToAddress(d.filler.PublicKey).Hex(), formatUSDC(fillerUSDC))
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.Run(runCtx, devBlockInterval)
	}()
	d.stopFiller = func() {
		stop()
		<-done
		closeClients()
	}
	return nil
}

func formatUSDC(v *big.Int) string {
	return new(big.Int).Quo(v, big.NewInt(1_000_000)).String()
}

// devWallet is the demo wallet's address: the well-known development account #1.
func devWallet() common.Address {
	key, _ := crypto.HexToECDSA(devchain.WellKnownWalletKey)
	return crypto.PubkeyToAddress(key.PublicKey)
}

// removeIfExists removes a file the run wrote, saying so only when that fails.
func removeIfExists(path string) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Printf("removing %s: %v", path, err)
	}
}
