package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log"
	"math/big"
	"os"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

// The local chains of `make run` are the Chain samples local-dev (eip155:1337, spec.rpc
// http://127.0.0.1:8545) and local-dev-2 (eip155:1338, http://127.0.0.1:8546), for swaps on one and
// bridges between the two. Each is set up the same way by the well-known development account #0
// of Hardhat and Anvil (its key is PUBLIC: for these local chains only), so each contract lands at
// the same address on both, the one the samples record: the demo USDC first, at
// 0x5FbDB2315678afecb367f032d93F642f64180aa3 (TokenDefinitions local-dev-usdc and
// local-dev-2-usdc), then the settlement contract, deployed as on any chain by
// internal/chain/deploy (through the deterministic deployment proxy with CREATE2, at
// deploy.LocalAddress(), each Chain's settlementAddress, attested by the well-known account #3),
// and, after the funding, two TestPriceFeeds (8 decimals, owned by account #0): ETH/USD at
// 0x0165878A594ca255338adfa4d48449f69242Eb8F (each Chain's priceFeed) and USDC/USD at
// 0xa513E6E4b8f2a923D98304ec87F64353C4D5C853 (each local USDC's priceFeed).
const (
	devChainID       = 1337
	secondChainID    = 1338
	devBlockInterval = time.Second
	// demoAPIKey is the public demo key of config/samples (README: never outside make run).
	demoAPIKey = "sk_test_mVsphOaVGPhcbEOVc2v47gmRCBTSZXBU56XcQobdo66SADUeMmrStQJ5ByKQ19ns"
	// demoFillerKey is the public filler key of config/samples (ApiKey demo-filler-key, role
	// filler, of the Account demo-filler; never outside make run): the reference fillers read the
	// signed gasless orders of GET /v2/orders with it, and open them, and fetch their bridge
	// fills' attestations with it (600 requests a minute; the demo key's 50 are the user's).
	demoFillerKey = "sk_test_COzRsCK61aJDrOGAPXbUqIQ8e2qyu3wOKvz1dsbkGHqBB0MPP1IF0VojLOPifZu4"
)

// The addresses the samples record.
var (
	sampleUSDC     = common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	sampleETHFeed  = common.HexToAddress("0x0165878A594ca255338adfa4d48449f69242Eb8F")
	sampleUSDCFeed = common.HexToAddress("0xa513E6E4b8f2a923D98304ec87F64353C4D5C853")
)

// The price feeds' first answers, in their 8 decimals: the samples' typed prices.
var (
	devETHPrice  = big.NewInt(3000_00000000)
	devUSDCPrice = big.NewInt(1_00000000)
)

var (
	devWalletEther = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))
	devWalletUSDC  = big.NewInt(10_000 * 1_000_000)
	// Each market filler's inventory on each chain (fillers.go).
	fillerEther = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))
	fillerUSDC  = big.NewInt(100_000 * 1_000_000)
)

// localChain is one running local chain.
type localChain struct {
	*devchain.Chain
	addr string
}

// devChains are the local chains and the attester key of the settlement demo; stop stops them and
// closes their databases.
type devChains struct {
	chains   []*localChain
	attester *ecdsa.PrivateKey
	stop     func()
}

// startDevChains runs a local chain for each id on its address, keeping its blocks and state in
// dir/eip155-<id>. A chain found there continues from its last block, with the contracts, balances
// and transactions of earlier runs; a new one is set up (see setUpChain) with the attester key in
// attesterKeyPath, written there with the first chains: the contracts name the attester for good.
// Every start gives each market filler (fillers.go) its inventory where it holds none
// (fundFillers). Every chain makes a block a second until ctx ends.
func startDevChains(ctx context.Context, dir, attesterKeyPath string, ids []int64, addrs []string) (*devChains, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	d := &devChains{}
	attester, err := loadDevAttester(attesterKeyPath)
	if err != nil {
		return nil, err
	}
	d.attester = attester.key
	heads := make([]uint64, len(ids))
	progress := make([]uint64, len(ids))
	for i, id := range ids {
		c, head, err := openDevChain(id, chainDataDir(dir, id), addrs[i])
		if err == nil {
			d.chains = append(d.chains, &localChain{Chain: c, addr: addrs[i]})
			heads[i] = head
			progress[i], err = setUpProgress(c)
		}
		if err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", id, err)
		}
	}
	// Written before any chain uses it.
	if err := attester.save(); err != nil {
		d.close()
		return nil, err
	}
	for i, c := range d.chains {
		if err := setUpChain(c.Chain, progress[i], marketFillers[0].address()); err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", ids[i], err)
		}
		// A chain kept from before the contract moved to its CREATE2 address (or from before a
		// change of contracts/src/Settlement.sol, which moves it) gets this release's contract
		// there; the old one stays where it was, unused.
		if redeployed, err := c.DeployLocalSettlement(); err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", ids[i], err)
		} else if redeployed && progress[i] == setUpTxs {
			log.Printf("local chain eip155:%d: kept from an earlier run without this release's settlement contract; deployed it at %s (orders of the earlier contract are not followed any more)",
				ids[i], deploy.LocalAddress().Hex())
		}
		if err := checkChain(c.Chain, chainDataDir(dir, ids[i])); err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", ids[i], err)
		}
		if err := refreshPrices(c.Chain); err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", ids[i], err)
		}
		if err := fundFillers(c.Chain); err != nil {
			d.close()
			return nil, fmt.Errorf("local chain eip155:%d: %w", ids[i], err)
		}
		if progress[i] > 0 && progress[i] < setUpTxs {
			log.Printf("local chain eip155:%d: its set-up had stopped after %d of %d transactions (a killed localcluster); completed it",
				ids[i], progress[i], setUpTxs)
		}
		if progress[i] == setUpTxs {
			log.Printf("local chain eip155:%d on %s: continues at block %d from %s (USDC at %s, settlement contract at %s)",
				ids[i], c.URL, heads[i], chainDataDir(dir, ids[i]), sampleUSDC.Hex(), deploy.LocalAddress().Hex())
		} else {
			log.Printf("local chain eip155:%d on %s (set up, kept in %s): USDC at %s, settlement contract at %s; demo wallet %s holds 100 ETH and 10000 USDC (its key is public: local use only)",
				ids[i], c.URL, chainDataDir(dir, ids[i]), sampleUSDC.Hex(), deploy.LocalAddress().Hex(), devWallet().Hex())
		}
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
					if !aheadOfTheClock(blocks, c.Chain) {
						c.Commit()
					}
				}
			}
		}
	}()
	d.stop = func() {
		cancel()
		<-done
		d.close()
	}
	return d, nil
}

// aheadOfTheClock says whether c's head is stamped at or after the current second: a block made now
// would be stamped a second after it (go-ethereum's simulated beacon never repeats a block time),
// so the chain would run ahead of the clock. The set-up's blocks, mined back to back, put a new
// chain some 20 s ahead; at one block a second it would stay that far ahead, and an order's
// exclusivity and decay, set by the service's clock and enforced in block time, would be that
// much shorter on the chain (a 10 s exclusivity over before the order is opened). So the chain
// makes no block until the clock has caught up with it. A head that cannot be read is not ahead.
func aheadOfTheClock(ctx context.Context, c *devchain.Chain) bool {
	head, err := c.Backend.Client().HeaderByNumber(ctx, nil)
	return err == nil && int64(head.Time) >= time.Now().Unix() //nolint:gosec // block times are far below 2^63
}

// close stops the nodes; go-ethereum writes what it holds in memory to the database on the way.
func (d *devChains) close() {
	for _, c := range d.chains {
		if err := c.Close(); err != nil {
			log.Printf("closing local chain eip155:%s: %v", c.ID, err)
		}
	}
}

// resetHint is the way out of local data that cannot be used.
const resetHint = "`make run-reset` starts the local chains and the control plane afresh"

// setUpTxs is the number of transactions that set up a local chain, all sent by the funder
// (development account #0) in this order: the demo USDC (nonce 0), the settlement contract (1,
// through the deployment proxy: its address does not depend on the nonce, the later ones do),
// USDC and ether for the demo wallet (2, 3), and for a filler (4, 5: the first market filler,
// filler-a), the ETH/USD and USDC/USD price feeds (6, 7), then USDC for the gasless wallet and its
// EIP-2612 permit of Permit2 (8, 9). Their addresses follow from the funder's nonces, which is why
// the samples can name them. The other market fillers are funded after it (fundFillers), since a
// kept chain's funder has sent more transactions since (refreshPrices at every start).
const setUpTxs = 10

// setUpProgress is how many of the set-up transactions a chain holds: the funder's nonce, capped.
// A new chain holds none; a localcluster killed in its first seconds can leave a chain part way,
// with the blocks go-ethereum had written.
func setUpProgress(c *devchain.Chain) (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	nonce, err := c.Backend.Client().NonceAt(ctx, crypto.PubkeyToAddress(c.Funder.PublicKey), nil)
	if err != nil {
		return 0, fmt.Errorf("reading the funder's nonce: %w", err)
	}
	return min(nonce, setUpTxs), nil
}

// setUpChain sends the set-up transactions a chain does not hold yet, from number done on, each
// mined before the next: deploying the contracts, funding the demo wallet and fillerAddr.
func setUpChain(c *devchain.Chain, done uint64, fillerAddr common.Address) error {
	deployed := func(name string, want common.Address, deploy func() (common.Address, error)) func() error {
		return func() error {
			got, err := deploy()
			if err != nil {
				return err
			}
			if got != want {
				return fmt.Errorf("%s landed at %s, not at %s where the samples expect it", name, got.Hex(), want.Hex())
			}
			return nil
		}
	}
	wallet := devWallet()
	steps := [setUpTxs]func() error{
		deployed("USDC", sampleUSDC, func() (common.Address, error) { return c.Deploy("Local USD Coin", "USDC", 6) }),
		func() error { _, err := c.DeployLocalSettlement(); return err },
		func() error { return c.MintTo(sampleUSDC, wallet, devWalletUSDC) },
		func() error { return c.Fund(wallet, devWalletEther) },
		func() error { return c.MintTo(sampleUSDC, fillerAddr, fillerUSDC) },
		func() error { return c.Fund(fillerAddr, fillerEther) },
		deployed("the ETH/USD price feed", sampleETHFeed, func() (common.Address, error) {
			return c.DeployPriceFeed(8, "ETH / USD", devETHPrice)
		}),
		deployed("the USDC/USD price feed", sampleUSDCFeed, func() (common.Address, error) {
			return c.DeployPriceFeed(8, "USDC / USD", devUSDCPrice)
		}),
		// The gasless wallet: USDC, no ether, and its one approval of Permit2 as an EIP-2612
		// permit it signs and the funder sends.
		func() error { return c.MintTo(sampleUSDC, gaslessWallet(), devWalletUSDC) },
		func() error { return c.Permit(sampleUSDC, gaslessWalletKey(), contracts.CanonicalPermit2, maxUint256) },
	}
	for i := done; i < setUpTxs; i++ {
		if err := steps[i](); err != nil {
			return fmt.Errorf("setting up: %w", err)
		}
	}
	return nil
}

// checkChain makes sure that a chain is the one the samples describe: the demo USDC and the price
// feeds at the samples' addresses, and this release's settlement contract at deploy.LocalAddress()
// (whose address commits to its code, the attester and the other constructor arguments).
func checkChain(chain *devchain.Chain, dataDir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := chain.Backend.Client()
	for _, addr := range []common.Address{sampleUSDC, sampleETHFeed, sampleUSDCFeed} {
		code, err := client.CodeAt(ctx, addr, nil)
		if err != nil {
			return fmt.Errorf("reading the code at %s: %w", addr.Hex(), err)
		}
		if len(code) == 0 {
			return fmt.Errorf("%s holds a chain without a contract at %s, where the samples expect one; %s", dataDir, addr.Hex(), resetHint)
		}
	}
	code, err := client.CodeAt(ctx, deploy.LocalAddress(), nil)
	if err != nil {
		return fmt.Errorf("reading the code at %s: %w", deploy.LocalAddress().Hex(), err)
	}
	if !contracts.IsSettlementCode(code) {
		return fmt.Errorf("%s holds a chain without this release's settlement contract at %s; %s", dataDir, deploy.LocalAddress().Hex(), resetHint)
	}
	return nil
}

// priceFeeds are the local chains' price feeds; every start posts each one's answer again, one
// transaction of the funder's apiece after the set-up.
var priceFeeds = []common.Address{sampleETHFeed, sampleUSDCFeed}

// refreshPrices posts each price feed's current answer again, as of now: a chain kept for longer
// than the samples' maxAgeSeconds (a day) would otherwise start with stale prices. A real feed's
// heartbeat does the same; within one run, `manager devwallet price` moves or refreshes them.
func refreshPrices(c *devchain.Chain) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	feed := contracts.NewTestPriceFeed()
	for _, addr := range priceFeeds {
		out, err := c.Backend.Client().CallContract(ctx, ethereum.CallMsg{To: &addr, Data: feed.PackLatestRoundData()}, nil)
		if err != nil {
			return fmt.Errorf("reading the price feed at %s: %w", addr.Hex(), err)
		}
		round, err := feed.UnpackLatestRoundData(out)
		if err != nil {
			return fmt.Errorf("reading the price feed at %s: %w", addr.Hex(), err)
		}
		if err := c.SetPrice(addr, round.Answer, time.Time{}); err != nil {
			return fmt.Errorf("refreshing the price feed at %s: %w", addr.Hex(), err)
		}
	}
	return nil
}

func formatUSDC(v *big.Int) string {
	return new(big.Int).Quo(v, big.NewInt(1_000_000)).String()
}

// devWallet is the demo wallet's address: the well-known development account #1.
// gaslessWalletKey is the well-known development account #2: make run's wallet with USDC and no
// ether, whose orders are opened by the filler (gasless).
func gaslessWalletKey() *ecdsa.PrivateKey {
	key, _ := crypto.HexToECDSA(devchain.WellKnownGaslessWalletKey)
	return key
}

func gaslessWallet() common.Address { return crypto.PubkeyToAddress(gaslessWalletKey().PublicKey) }

// maxUint256 is an allowance that never runs out.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

func devWallet() common.Address {
	key, _ := crypto.HexToECDSA(devchain.WellKnownWalletKey)
	return crypto.PubkeyToAddress(key.PublicKey)
}

// devKey is a key of the settlement demo, read from its file or made for a new set of chains.
type devKey struct {
	key  *ecdsa.PrivateKey
	path string
	// made says that the file did not exist: the key is new and not written yet.
	made bool
}

// loadDevAttester is make run's attester, the well-known development account #3
// (devchain.WellKnownAttesterKey, PUBLIC: local chains only), written to path for the manager's
// --attester-key-file when the file is missing. The settlement contracts' CREATE2 address commits
// to their attester, so the samples can name it only with this key; a file holding another key
// (an earlier make run made one of its own) is refused.
func loadDevAttester(path string) (*devKey, error) {
	wellKnown, err := crypto.HexToECDSA(devchain.WellKnownAttesterKey)
	if err != nil {
		return nil, err
	}
	k, err := loadOrMakeKey(path)
	if err != nil {
		return nil, err
	}
	if k.made {
		return &devKey{key: wellKnown, path: path, made: true}, nil
	}
	if k.address() != crypto.PubkeyToAddress(wellKnown.PublicKey) {
		return nil, fmt.Errorf("%s holds the attester %s an earlier make run made; the local settlement contracts are now attested by the development account #3 (%s), whose key the samples' address depends on: delete the file (the local chains keep their data) or %s",
			path, k.address().Hex(), crypto.PubkeyToAddress(wellKnown.PublicKey).Hex(), resetHint)
	}
	return k, nil
}

// loadOrMakeKey reads the hex secp256k1 key in path (as the manager's --attester-key-file reads
// it), or makes a new one when there is no such file.
func loadOrMakeKey(path string) (*devKey, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key, err := crypto.GenerateKey()
		if err != nil {
			return nil, err
		}
		return &devKey{key: key, path: path, made: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	key, err := crypto.HexToECDSA(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("%s does not hold a hex secp256k1 private key: %w", path, err)
	}
	return &devKey{key: key, path: path}, nil
}

func (k *devKey) address() common.Address { return crypto.PubkeyToAddress(k.key.PublicKey) }

// save writes a key that was made, readable by its owner only.
func (k *devKey) save() error {
	if !k.made {
		return nil
	}
	if err := writePrivateFile(k.path, []byte(common.Bytes2Hex(crypto.FromECDSA(k.key)))); err != nil {
		return err
	}
	k.made = false
	return nil
}
