// Package deploy puts the settlement contract on a chain at an address that depends only on the
// release (the contract's init code) and its constructor arguments: through the deterministic
// deployment proxy (contracts.DeploymentProxy) with CREATE2 and a fixed salt, so that the same
// release and arguments land at the same address on every chain. It checks the chain and the
// arguments before it sends anything, answers the address without a transaction when the chain
// already holds this release's contract there, and deploys the proxy itself, with its presigned
// transaction, on a chain that lacks it. `manager settlement deploy` and make run's local chains
// (hack/localcluster) both deploy through it.
package deploy

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// Salt is the CREATE2 salt of every deployment: zero. The address already commits to the code and
// to every constructor argument (the init code's hash), so a salt adds no protection; zero hides
// no input from someone who recomputes the address (docs/decisions.md, "One address on every
// chain").
var Salt = [32]byte{}

// Args are the settlement contract's constructor arguments.
type Args struct {
	// Attester is the only key whose signatures release bridge escrows (the manager's
	// --attester-key-file).
	Attester common.Address
	// Guardian may pause and allow early refunds; never the attester.
	Guardian common.Address
	// RefundDelay is the seconds after an order's deadline before its user may refund it.
	RefundDelay uint64
	// Permit2 is the chain's Permit2, which pulls gasless orders' inputs.
	Permit2 common.Address
}

// ConstructorArgs is the ABI encoding of the arguments: what a block explorer asks for to verify
// the contract's source.
func (a Args) ConstructorArgs() []byte {
	return contracts.NewSettlement().PackConstructor(a.Attester, a.Guardian, a.RefundDelay, a.Permit2)
}

// InitCode is the creation code of this release's Settlement with the arguments appended.
func (a Args) InitCode() []byte {
	return append(common.FromHex(contracts.SettlementMetaData.Bin), a.ConstructorArgs()...)
}

// Calldata is what the deployment sends to the proxy: the salt, then the init code.
func (a Args) Calldata() []byte { return append(Salt[:], a.InitCode()...) }

// Address is where this release's Settlement with the arguments lives on every chain it was
// deployed to through the proxy.
func Address(a Args) common.Address {
	return crypto.CreateAddress2(contracts.DeploymentProxy, Salt, crypto.Keccak256(a.InitCode()))
}

// The refusals, each before any transaction; errors.Is tells them apart.
var (
	ErrInvalidArgs         = errors.New("invalid constructor arguments")
	ErrGuardianIsAttester  = errors.New("the guardian is the attester")
	ErrRefundDelayTooShort = errors.New("refund delay too short")
	ErrWrongChain          = errors.New("the node serves another chain")
	ErrNoPermit2           = errors.New("no Permit2 on the chain")
	ErrInsufficientFunds   = errors.New("the deployer cannot pay for the deployment")
	ErrNoProxy             = errors.New("the deployment proxy cannot be deployed on this chain")
	ErrForeignCode         = errors.New("another contract holds the address")
)

// Backend is the node, as go-ethereum's ethclient.Client (and a devchain's client) serve it.
type Backend interface {
	ethereum.ChainIDReader
	ethereum.ChainStateReader
	ethereum.PendingStateReader
	ethereum.GasEstimator
	ethereum.GasPricer
	ethereum.GasPricer1559
	ethereum.TransactionSender
	ethereum.TransactionReader
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
}

// Request is one deployment.
type Request struct {
	// ChainID is the EIP-155 id the node must serve.
	ChainID *big.Int
	Args    Args
	// Key is the deployer's: it pays for the deployment (and funds the proxy's deployment where
	// the chain lacks the proxy). It gets no power over the contract.
	Key *ecdsa.PrivateKey
	// MinRefundDelay is the least refund delay the environment needs (its slowest bridge finality
	// and the attestation's latency); the contract's own MIN_REFUND_DELAY applies on top.
	MinRefundDelay time.Duration
	// DryRun checks and estimates, and sends nothing.
	DryRun bool
	// Poll is how often a receipt is looked for (default a second).
	Poll time.Duration
}

// Result is what the deployment did, or in a dry run would do.
type Result struct {
	// Address is the contract's address (Address(Args)).
	Address common.Address
	// AlreadyDeployed says that the chain held this release's contract there: nothing was sent.
	AlreadyDeployed bool
	// ConstructorArgs is Args.ConstructorArgs(), for a block explorer's verification.
	ConstructorArgs []byte
	// ProxyMissing says that the chain lacks the proxy: the deployment first funds the proxy's
	// one-time deployer (ProxyFunding wei) and sends its presigned transaction.
	ProxyMissing bool
	ProxyFunding *big.Int
	// GasLimit and MaxFeePerGas are the deployment transaction's; MaxCost is the most the deployer
	// pays for everything, the proxy's funding included.
	GasLimit     uint64
	MaxFeePerGas *big.Int
	MaxCost      *big.Int
	// Calldata is what the deployment sends to the proxy.
	Calldata []byte
	// After a deployment: the transactions, the gas the contract's deployment used, and what the
	// deployer paid in all (wei).
	FundingTx, ProxyTx, Tx common.Hash
	GasUsed                uint64
	GasPaid                *big.Int
}

// CheckArgs refuses arguments the contract would refuse, or that the environment cannot use.
func CheckArgs(a Args, minRefundDelay time.Duration) error {
	if a.Attester == (common.Address{}) || a.Guardian == (common.Address{}) || a.Permit2 == (common.Address{}) {
		return fmt.Errorf("%w: the attester, the guardian and Permit2 must be set (the contract refuses the zero address)", ErrInvalidArgs)
	}
	if a.Guardian == a.Attester {
		return fmt.Errorf("%w: %s holds both roles; the contract refuses that (a leaked attester key would also pause and open refunds): give the guardian its own key",
			ErrGuardianIsAttester, a.Guardian.Hex())
	}
	if a.RefundDelay < settlement.MinRefundDelay {
		return fmt.Errorf("%w: %s is under the contract's MIN_REFUND_DELAY of %s",
			ErrRefundDelayTooShort, seconds(a.RefundDelay), seconds(settlement.MinRefundDelay))
	}
	if minRefundDelay > 0 && time.Duration(a.RefundDelay)*time.Second < minRefundDelay { //nolint:gosec // checked above to be a sane number of seconds
		return fmt.Errorf("%w: %s is under the %s this environment needs (its slowest bridge finality plus the attestation's latency): the Chain controller would refuse the contract (RefundDelayTooShort)",
			ErrRefundDelayTooShort, seconds(a.RefundDelay), minRefundDelay)
	}
	return nil
}

func seconds(s uint64) time.Duration { return time.Duration(s) * time.Second } //nolint:gosec // a refund delay

// Deploy deploys this release's Settlement with req.Args on the node, or answers where it already
// is. Every refusal comes before the first transaction.
func Deploy(ctx context.Context, node Backend, req Request) (*Result, error) {
	a := req.Args
	if err := CheckArgs(a, req.MinRefundDelay); err != nil {
		return nil, err
	}
	res := &Result{Address: Address(a), ConstructorArgs: a.ConstructorArgs(), Calldata: a.Calldata()}
	id, err := node.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the node's chain id: %w", err)
	}
	if req.ChainID == nil || id.Cmp(req.ChainID) != 0 {
		return nil, fmt.Errorf("%w: the node answers chain id %s, not %v: wrong RPC URL or wrong Chain", ErrWrongChain, id, req.ChainID)
	}
	code, err := node.CodeAt(ctx, a.Permit2, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the code at Permit2's address %s: %w", a.Permit2.Hex(), err)
	}
	if !contracts.IsPermit2Code(code) {
		what := "no code"
		if len(code) > 0 {
			what = "code that is not Permit2's"
		}
		return nil, fmt.Errorf("%w: %s holds %s; the contract pulls gasless orders through it, and its address is immutable: deploy Permit2 there first (or name the chain's Permit2 in the Chain's permit2Address)",
			ErrNoPermit2, a.Permit2.Hex(), what)
	}
	code, err = node.CodeAt(ctx, res.Address, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the code at %s: %w", res.Address.Hex(), err)
	}
	if contracts.IsSettlementCode(code) {
		res.AlreadyDeployed = true
		return res, nil
	}
	if len(code) > 0 {
		// CREATE2 cannot put other code at this address: only a chain's genesis could.
		return nil, fmt.Errorf("%w: %s holds code that is not this release's settlement contract", ErrForeignCode, res.Address.Hex())
	}
	from := crypto.PubkeyToAddress(req.Key.PublicKey)
	head, err := node.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the head block: %w", err)
	}
	proxy, err := node.CodeAt(ctx, contracts.DeploymentProxy, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the code at the deployment proxy's address: %w", err)
	}
	res.ProxyMissing = len(proxy) == 0
	res.ProxyFunding = new(big.Int)
	if res.ProxyMissing {
		if res.ProxyFunding, err = proxyFunding(ctx, node, head); err != nil {
			return nil, err
		}
	} else if !equalCode(proxy, contracts.DeploymentProxyCode()) {
		return nil, fmt.Errorf("%w: %s holds other code than the deterministic deployment proxy's", ErrNoProxy, contracts.DeploymentProxy.Hex())
	}
	if res.GasLimit, err = estimate(ctx, node, from, a, res.ProxyMissing); err != nil {
		return nil, err
	}
	tip, feeCap, err := fees(ctx, node, head)
	if err != nil {
		return nil, err
	}
	res.MaxFeePerGas = feeCap
	res.MaxCost = new(big.Int).Mul(new(big.Int).SetUint64(res.GasLimit), feeCap)
	if res.ProxyFunding.Sign() > 0 {
		transfer := new(big.Int).Mul(big.NewInt(21_000), feeCap)
		res.MaxCost.Add(res.MaxCost, transfer.Add(transfer, res.ProxyFunding))
	}
	balance, err := node.BalanceAt(ctx, from, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the deployer's balance: %w", err)
	}
	if balance.Cmp(res.MaxCost) < 0 {
		return nil, fmt.Errorf("%w: %s holds %s wei, the deployment may cost up to %s wei (%d gas at up to %s wei%s): fund it first",
			ErrInsufficientFunds, from.Hex(), balance, res.MaxCost, res.GasLimit, feeCap, proxyNote(res))
	}
	if req.DryRun {
		return res, nil
	}
	w := waiter{node: node, poll: req.Poll}
	paid := new(big.Int)
	if res.ProxyMissing {
		if err := deployProxy(ctx, node, w, req, head, tip, feeCap, res, paid); err != nil {
			return res, err
		}
	}
	nonce, err := node.PendingNonceAt(ctx, from)
	if err != nil {
		return res, fmt.Errorf("reading the deployer's nonce: %w", err)
	}
	to := contracts.DeploymentProxy
	tx, err := sign(req, head, nonce, tip, feeCap, res.GasLimit, &to, nil, res.Calldata)
	if err != nil {
		return res, err
	}
	if err := w.send(ctx, tx); err != nil {
		return res, fmt.Errorf("sending the deployment: %w", err)
	}
	res.Tx = tx.Hash()
	receipt, err := w.mined(ctx, tx.Hash())
	if err != nil {
		return res, err
	}
	res.GasUsed = receipt.GasUsed
	paid.Add(paid, fee(receipt))
	res.GasPaid = paid
	if receipt.Status != types.ReceiptStatusSuccessful {
		return res, fmt.Errorf("the deployment %s reverted (%d gas used)", tx.Hash().Hex(), receipt.GasUsed)
	}
	code, err = node.CodeAt(ctx, res.Address, nil)
	if err != nil {
		return res, fmt.Errorf("reading the deployed code: %w", err)
	}
	if !contracts.IsSettlementCode(code) {
		return res, fmt.Errorf("the deployment %s succeeded but %s does not hold the settlement contract", tx.Hash().Hex(), res.Address.Hex())
	}
	return res, nil
}

func proxyNote(res *Result) string {
	if res.ProxyFunding.Sign() == 0 {
		return ""
	}
	return fmt.Sprintf(", plus %s wei for the deployment proxy's one-time deployer", res.ProxyFunding)
}

func equalCode(a, b []byte) bool { return string(a) == string(b) }

// proxyFunding is what the proxy's one-time deployer lacks to pay for its presigned transaction,
// after checking that the chain can take it.
func proxyFunding(ctx context.Context, node Backend, head *types.Header) (*big.Int, error) {
	nonce, err := node.NonceAt(ctx, contracts.DeploymentProxyDeployer, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the deployment proxy's deployer's nonce: %w", err)
	}
	if nonce != 0 {
		return nil, fmt.Errorf("%w: its one-time deployer %s has sent %d transactions here without deploying it, so the proxy can never be at %s on this chain (docs/runbooks.md, \"Deploying the settlement contract\")",
			ErrNoProxy, contracts.DeploymentProxyDeployer.Hex(), nonce, contracts.DeploymentProxy.Hex())
	}
	price := big.NewInt(contracts.DeploymentProxyGasPrice)
	if head.BaseFee != nil && head.BaseFee.Cmp(price) > 0 {
		return nil, fmt.Errorf("%w: its presigned transaction pays %s wei a gas, under this chain's base fee of %s wei; wait for a cheaper block, or ask the chain's operators to preinstall it",
			ErrNoProxy, price, head.BaseFee)
	}
	need := new(big.Int).Mul(big.NewInt(contracts.DeploymentProxyGas), price)
	have, err := node.BalanceAt(ctx, contracts.DeploymentProxyDeployer, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the deployment proxy's deployer's balance: %w", err)
	}
	if have.Cmp(need) >= 0 {
		return new(big.Int), nil
	}
	return need.Sub(need, have), nil
}

// estimate is the deployment's gas limit: the node's estimate plus a fifth. Without the proxy
// there is nothing to estimate the call through yet, so the plain creation of the same init code
// is estimated, plus what the proxy adds: the salt's calldata, hashing the init code for CREATE2,
// and the 1/64 of the gas that a call keeps back from the creation it makes.
func estimate(ctx context.Context, node Backend, from common.Address, a Args, proxyMissing bool) (uint64, error) {
	to := contracts.DeploymentProxy
	msg := ethereum.CallMsg{From: from, To: &to, Data: a.Calldata()}
	if proxyMissing {
		msg = ethereum.CallMsg{From: from, Data: a.InitCode()}
	}
	gas, err := node.EstimateGas(ctx, msg)
	if err != nil {
		return 0, fmt.Errorf("estimating the deployment's gas (a constructor that reverts does so here): %w", err)
	}
	if proxyMissing {
		words := uint64(len(a.InitCode())+31) / 32
		gas += gas/64 + 6*words + 32*16 + 10_000
	}
	return gas + gas/5, nil
}

// fees are the tip and the fee cap of an EIP-1559 transaction (twice the base fee plus the tip),
// or the legacy gas price twice on a chain without a base fee.
func fees(ctx context.Context, node Backend, head *types.Header) (tip, feeCap *big.Int, err error) {
	if head.BaseFee == nil {
		price, err := node.SuggestGasPrice(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the gas price: %w", err)
		}
		return price, price, nil
	}
	if tip, err = node.SuggestGasTipCap(ctx); err != nil {
		return nil, nil, fmt.Errorf("reading the gas tip: %w", err)
	}
	feeCap = new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	return tip, feeCap, nil
}

// sign makes the deployer's transaction: EIP-1559 where the chain has a base fee, EIP-155 legacy
// otherwise.
func sign(req Request, head *types.Header, nonce uint64, tip, feeCap *big.Int, gas uint64, to *common.Address, value *big.Int, data []byte) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	var inner types.TxData
	if head.BaseFee != nil {
		inner = &types.DynamicFeeTx{ChainID: req.ChainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: to, Value: value, Data: data}
	} else {
		inner = &types.LegacyTx{Nonce: nonce, GasPrice: feeCap, Gas: gas, To: to, Value: value, Data: data}
	}
	tx, err := types.SignNewTx(req.Key, types.LatestSignerForChainID(req.ChainID), inner)
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	return tx, nil
}

// deployProxy funds the proxy's one-time deployer where it lacks funds and sends the proxy's
// presigned deployment.
func deployProxy(ctx context.Context, node Backend, w waiter, req Request, head *types.Header, tip, feeCap *big.Int, res *Result, paid *big.Int) error {
	if res.ProxyFunding.Sign() > 0 {
		nonce, err := node.PendingNonceAt(ctx, crypto.PubkeyToAddress(req.Key.PublicKey))
		if err != nil {
			return fmt.Errorf("reading the deployer's nonce: %w", err)
		}
		to := contracts.DeploymentProxyDeployer
		tx, err := sign(req, head, nonce, tip, feeCap, 21_000, &to, res.ProxyFunding, nil)
		if err != nil {
			return err
		}
		if err := w.send(ctx, tx); err != nil {
			return fmt.Errorf("funding the deployment proxy's deployer: %w", err)
		}
		res.FundingTx = tx.Hash()
		receipt, err := w.mined(ctx, tx.Hash())
		if err != nil {
			return err
		}
		paid.Add(paid, fee(receipt)).Add(paid, res.ProxyFunding)
	}
	tx, err := ProxyTransaction()
	if err != nil {
		return err
	}
	if err := w.send(ctx, tx); err != nil {
		return fmt.Errorf("%w: the node refused its presigned transaction (%w); a node that takes only EIP-155 transactions needs the chain's operators to preinstall it (docs/runbooks.md)", ErrNoProxy, err)
	}
	res.ProxyTx = tx.Hash()
	receipt, err := w.mined(ctx, tx.Hash())
	if err != nil {
		return err
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return fmt.Errorf("%w: its presigned deployment %s failed", ErrNoProxy, tx.Hash().Hex())
	}
	return nil
}

// ProxyTransaction is contracts.DeploymentProxyTx decoded.
func ProxyTransaction() (*types.Transaction, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(common.FromHex(contracts.DeploymentProxyTx)); err != nil {
		return nil, fmt.Errorf("decoding the deployment proxy's presigned transaction: %w", err)
	}
	return tx, nil
}

// fee is what a mined transaction cost its sender.
func fee(r *types.Receipt) *big.Int {
	if r.EffectiveGasPrice == nil {
		return new(big.Int)
	}
	return new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
}

// waiter waits for receipts.
type waiter struct {
	node Backend
	poll time.Duration
}

// send sends tx, again a few times while the node answers that its sender lacks the funds: a
// node's transaction pool can lag behind the block that funded the sender (the balance was
// checked before, at the head), and a load-balanced provider can ask another node than the one
// that answered the balance.
func (w waiter) send(ctx context.Context, tx *types.Transaction) error {
	for attempt := 1; ; attempt++ {
		err := w.node.SendTransaction(ctx, tx)
		if err == nil || attempt == 10 || !strings.Contains(err.Error(), "insufficient funds") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(w.interval()):
		}
	}
}

func (w waiter) interval() time.Duration {
	if w.poll <= 0 {
		return time.Second
	}
	return w.poll
}

func (w waiter) mined(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	t := time.NewTicker(w.interval())
	defer t.Stop()
	for {
		receipt, err := w.node.TransactionReceipt(ctx, hash)
		if err == nil {
			return receipt, nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			return nil, fmt.Errorf("waiting for %s: %w", hash.Hex(), err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s to be mined: %w", hash.Hex(), ctx.Err())
		case <-t.C:
		}
	}
}
