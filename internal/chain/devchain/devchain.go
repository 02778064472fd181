// Package devchain runs an in-process Ethereum development chain for tests: go-ethereum's
// simulated backend with every fork active, any chain id, and real JSON-RPC over HTTP on
// loopback, so that code under test meets a node exactly as it would in production. Blocks are
// made by Commit. A funded account (Funder) pays for deployments and test transactions; its key is
// generated per chain and never leaves the test.
package devchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/txnonce"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
)

// The well-known development accounts #0 and #1 of Hardhat and Anvil. Their keys are PUBLIC: for
// local development chains only (make run's eip155:1337), never for value.
const (
	// WellKnownFunderKey is account #0, 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266.
	WellKnownFunderKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	// WellKnownWalletKey is account #1, 0x70997970C51812dc3A010C7d01b50e0d17dc79C8.
	WellKnownWalletKey = "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
	// WellKnownGaslessWalletKey is account #2, 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC: make
	// run's wallet that holds USDC and no ether, for gasless orders.
	WellKnownGaslessWalletKey = "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
	// WellKnownAttesterKey is account #3, 0x90F79bf6EB2c4f870365E785982E1f101E93b906: make run's
	// attester. Its settlement contracts are deployed with CREATE2, whose address depends on the
	// constructor's arguments, so the samples can name it only if the attester is fixed too
	// (internal/chain/deploy.LocalArgs).
	WellKnownAttesterKey = "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"
)

// FunderBalance is the Funder's balance at genesis: 1,000,000 ether.
var FunderBalance = new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))

// Chain is a running development chain.
type Chain struct {
	// Backend makes blocks (Commit) and can fork or roll back the chain.
	Backend *simulated.Backend
	// URL is the node's JSON-RPC endpoint, http://127.0.0.1:<port>.
	URL string
	// ID is the EIP-155 chain id.
	ID *big.Int
	// Funder holds FunderBalance at genesis.
	Funder *ecdsa.PrivateKey
	// Nonces hands out the nonces of transactions sent to this chain: tests that send several
	// transactions without a block between them take theirs here (a node's pending nonce trails
	// what it has just accepted).
	Nonces txnonce.Tracker

	// commitMu serialises Commit: the simulated beacon's own Commit races with itself when a
	// block-making loop and a test's transaction both make a block.
	commitMu sync.Mutex
}

// Commit makes a block; safe to call from several goroutines (use it, not Backend.Commit, where a
// loop makes blocks while transactions are mined).
func (c *Chain) Commit() {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.Backend.Commit()
}

// Start runs a chain with the chain id and a fresh Funder on a free loopback port; it is closed
// when the test ends.
func Start(t testing.TB, chainID int64) *Chain {
	t.Helper()
	funder, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(chainID, funder, freeport.MustAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// StartWithoutDeploymentProxy is Start on a chain whose genesis lacks the deterministic deployment
// proxy, as some public chains do: for tests of its presigned deployment, which the node accepts
// (every devchain takes unprotected transactions, see New).
func StartWithoutDeploymentProxy(t testing.TB, chainID int64) *Chain {
	t.Helper()
	funder, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	alloc := GenesisAlloc(crypto.PubkeyToAddress(funder.PublicKey))
	// The caller's alloc wins over the system contracts the simulated node adds: an empty account.
	alloc[contracts.DeploymentProxy] = types.Account{Balance: new(big.Int)}
	c, err := newChain(chainID, funder, freeport.MustAddr(t), alloc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// New runs a chain with the chain id whose genesis gives funder FunderBalance, serving JSON-RPC on
// httpAddr (a loopback host:port). Close it when done. Its node takes transactions without a chain
// id (pre-EIP-155, as most public nodes still do when asked to): the deterministic deployment
// proxy's presigned deployment is one.
func New(chainID int64, funder *ecdsa.PrivateKey, httpAddr string) (*Chain, error) {
	return newChain(chainID, funder, httpAddr, GenesisAlloc(crypto.PubkeyToAddress(funder.PublicKey)))
}

func newChain(chainID int64, funder *ecdsa.PrivateKey, httpAddr string, alloc types.GenesisAlloc) (*Chain, error) {
	host, portText, err := net.SplitHostPort(httpAddr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("port of %s: %w", httpAddr, err)
	}
	config := *params.AllDevChainProtocolChanges
	config.ChainID = big.NewInt(chainID)
	backend := simulated.NewBackend(alloc, func(nodeConf *node.Config, ethConf *ethconfig.Config) {
		ethConf.Genesis.Config = &config
		nodeConf.AllowUnprotectedTxs = true
		nodeConf.HTTPHost = host
		nodeConf.HTTPPort = port
		nodeConf.HTTPModules = []string{"eth", "net", "web3"}
	})
	return &Chain{Backend: backend, URL: "http://" + httpAddr, ID: config.ChainID, Funder: funder}, nil
}

// GenesisAlloc is a development chain's genesis state: FunderBalance for funder, and Uniswap's
// Permit2 at its canonical address (contracts.CanonicalPermit2), as on every public chain. The
// deterministic deployment proxy (contracts.DeploymentProxy) is there too without being named:
// go-ethereum's simulated node puts it in every genesis as a system contract (EIP-7997), as chains
// that preinstall it hold it (the OP Stack's, among others).
func GenesisAlloc(funder common.Address) types.GenesisAlloc {
	return types.GenesisAlloc{
		funder:                     {Balance: FunderBalance},
		contracts.CanonicalPermit2: {Code: contracts.Permit2GenesisCode(), Balance: new(big.Int)},
	}
}

// Close stops the node; a client then meets a closed port.
func (c *Chain) Close() error { return c.Backend.Close() }

// Transactor signs transactions of key on this chain.
func (c *Chain) Transactor(key *ecdsa.PrivateKey) *bind.TransactOpts {
	return bind.NewKeyedTransactor(key, c.ID)
}

// Mine commits a block and waits for tx's receipt, failing the test if it reverted.
func (c *Chain) Mine(t testing.TB, tx *types.Transaction) *types.Receipt {
	t.Helper()
	receipt, err := c.mine(tx)
	if err != nil {
		t.Fatal(err)
	}
	return receipt
}

func (c *Chain) mine(tx *types.Transaction) (*types.Receipt, error) {
	c.Commit()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	receipt, err := bind.WaitMined(ctx, c.Backend.Client(), tx.Hash())
	if err != nil {
		return nil, fmt.Errorf("waiting for %s: %w", tx.Hash(), err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return nil, fmt.Errorf("transaction %s reverted", tx.Hash())
	}
	return receipt, nil
}

// DeployTestToken deploys contracts/src/TestToken.sol and returns its address.
func (c *Chain) DeployTestToken(t testing.TB, name, symbol string, decimals uint8) common.Address {
	t.Helper()
	addr, err := c.Deploy(name, symbol, decimals)
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// Deploy deploys a TestToken from the Funder and mines it.
func (c *Chain) Deploy(name, symbol string, decimals uint8) (common.Address, error) {
	return c.deploy("TestToken", contracts.TestTokenMetaData.Bin, contracts.NewTestToken().PackConstructor(name, symbol, decimals))
}

// DeployPriceFeed deploys contracts/src/TestPriceFeed.sol (an AggregatorV3 whose owner, the
// Funder, sets the answer) with an answer in decimals, updated now, and mines it.
func (c *Chain) DeployPriceFeed(decimals uint8, description string, answer *big.Int) (common.Address, error) {
	opts := c.Transactor(c.Funder)
	opts.GasLimit = 1_500_000 // see feedGas
	addr, tx, err := bind.DeployContract(opts, common.FromHex(contracts.TestPriceFeedMetaData.Bin), c.Backend.Client(),
		contracts.NewTestPriceFeed().PackConstructor(decimals, description, answer))
	if err != nil {
		return common.Address{}, fmt.Errorf("deploying TestPriceFeed: %w", err)
	}
	_, err = c.mine(tx)
	return addr, err
}

// SetPrice sets a TestPriceFeed's answer as of updatedAt (the zero time means the block's time),
// from the Funder, and mines it.
func (c *Chain) SetPrice(feed common.Address, answer *big.Int, updatedAt time.Time) error {
	at := new(big.Int)
	if !updatedAt.IsZero() {
		at.SetInt64(updatedAt.Unix())
	}
	bound := bind.NewBoundContract(feed, contracts.NewTestPriceFeed().GetABI(), c.Backend.Client(), c.Backend.Client(), c.Backend.Client())
	opts := c.Transactor(c.Funder)
	opts.GasLimit = FeedGas
	tx, err := bind.Transact(bound, opts, contracts.NewTestPriceFeed().PackSetAnswer(answer, at))
	if err != nil {
		return fmt.Errorf("setting the price of %s: %w", feed, err)
	}
	_, err = c.mine(tx)
	return err
}

// FeedGas is the gas limit of a TestPriceFeed's setAnswer, which spends about 35,000. It is not
// estimated: the node estimates against the latest block, whose timestamp is often the one the
// feed holds, so that writing "now" looks free there (an unchanged slot) and costs 2,800 more in
// the next block, which then runs out of gas. The constructor, estimated on a genesis of time 0,
// comes out short the same way.
const FeedGas = 100_000

// DeploySettlement deploys contracts/src/Settlement.sol from the Funder and mines it: bridge
// escrows are released on attester's signature, refunds allowed refundDelay seconds after a
// deadline (at least the contract's MIN_REFUND_DELAY, one hour); gasless orders pulled through the
// genesis Permit2. The Funder is the contract's guardian (it may pause and allow early refunds): a
// development key, like the Funder itself.
func (c *Chain) DeploySettlement(attester common.Address, refundDelay uint64) (common.Address, error) {
	return c.DeploySettlementWithPermit2(attester, refundDelay, contracts.CanonicalPermit2)
}

// DeploySettlementWithPermit2 is DeploySettlement pulling gasless orders through permit2 instead.
func (c *Chain) DeploySettlementWithPermit2(attester common.Address, refundDelay uint64, permit2 common.Address) (common.Address, error) {
	guardian := crypto.PubkeyToAddress(c.Funder.PublicKey)
	return c.deploy("Settlement", contracts.SettlementMetaData.Bin,
		contracts.NewSettlement().PackConstructor(attester, guardian, refundDelay, permit2))
}

// DeployForgingSettlement deploys the hostile look-alike contracts/src/ForgingSettlement.sol
// (attester() answers attester, refundDelay() a week; forgeFill emits Filled and pays nothing)
// from the Funder and mines it: for tests that nothing trusts it.
func (c *Chain) DeployForgingSettlement(attester common.Address) (common.Address, error) {
	return c.deploy("ForgingSettlement", contracts.ForgingSettlementMetaData.Bin,
		contracts.NewForgingSettlement().PackConstructor(attester, uint64(7*24*time.Hour/time.Second)))
}

func (c *Chain) deploy(name, bin string, constructorInput []byte) (common.Address, error) {
	addr, tx, err := bind.DeployContract(c.Transactor(c.Funder), common.FromHex(bin), c.Backend.Client(), constructorInput)
	if err != nil {
		return common.Address{}, fmt.Errorf("deploying %s: %w", name, err)
	}
	_, err = c.mine(tx)
	return addr, err
}

// Transact sends calldata to a contract from key and mines it.
func (c *Chain) Transact(t testing.TB, key *ecdsa.PrivateKey, to common.Address, calldata []byte) *types.Receipt {
	t.Helper()
	receipt, err := c.transact(key, to, calldata)
	if err != nil {
		t.Fatal(err)
	}
	return receipt
}

func (c *Chain) transact(key *ecdsa.PrivateKey, to common.Address, calldata []byte) (*types.Receipt, error) {
	bound := bind.NewBoundContract(to, contracts.NewTestToken().GetABI(), c.Backend.Client(), c.Backend.Client(), c.Backend.Client())
	tx, err := bind.Transact(bound, c.Transactor(key), calldata)
	if err != nil {
		return nil, fmt.Errorf("transacting with %s: %w", to, err)
	}
	return c.mine(tx)
}

// Mint creates amount base units of token for to.
func (c *Chain) Mint(t testing.TB, token, to common.Address, amount *big.Int) {
	t.Helper()
	if err := c.MintTo(token, to, amount); err != nil {
		t.Fatal(err)
	}
}

// MintTo creates amount base units of token for to, paid by the Funder.
func (c *Chain) MintTo(token, to common.Address, amount *big.Int) error {
	_, err := c.transact(c.Funder, token, contracts.NewTestToken().PackMint(to, amount))
	return err
}

// SendValue sends wei from the Funder to to and mines it.
func (c *Chain) SendValue(t testing.TB, to common.Address, wei *big.Int) {
	t.Helper()
	if err := c.Fund(to, wei); err != nil {
		t.Fatal(err)
	}
}

// Fund sends wei from the Funder to to and mines it.
func (c *Chain) Fund(to common.Address, wei *big.Int) error {
	ctx := context.Background()
	client := c.Backend.Client()
	from := crypto.PubkeyToAddress(c.Funder.PublicKey)
	nonce, err := c.Nonces.Next(ctx, client, from)
	if err != nil {
		return err
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		return err
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		return err
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	tx, err := types.SignNewTx(c.Funder, types.LatestSignerForChainID(c.ID), &types.DynamicFeeTx{
		ChainID: c.ID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: 21_000, To: &to, Value: wei,
	})
	if err != nil {
		return err
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		return err
	}
	_, err = c.mine(tx)
	return err
}

// ethereumCall is an eth_call of calldata on to.
func ethereumCall(to common.Address, calldata []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: calldata}
}

// MineEvery makes a block every interval until the returned stop is called (stop waits for the
// last block in progress): for code under test that waits for its transactions to be mined.
func (c *Chain) MineEvery(interval time.Duration) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				c.Commit()
			}
		}
	}()
	return func() { close(quit); <-done }
}
