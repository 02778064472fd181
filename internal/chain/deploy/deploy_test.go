package deploy_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// autoMine makes a block every 50 ms until the test ends, as a real chain does: Deploy waits for
// its receipts.
func autoMine(t *testing.T, c *devchain.Chain) {
	t.Helper()
	t.Cleanup(c.MineEvery(50 * time.Millisecond))
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// fundedDeployer is a new key holding 10 ether on c.
func fundedDeployer(t *testing.T, c *devchain.Chain) *ecdsa.PrivateKey {
	t.Helper()
	k := newKey(t)
	c.SendValue(t, addr(k), new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18)))
	return k
}

func testArgs(t *testing.T) deploy.Args {
	t.Helper()
	return deploy.Args{Attester: addr(newKey(t)), Guardian: addr(newKey(t)), RefundDelay: settlement.MinRefundDelay, Permit2: contracts.CanonicalPermit2}
}

// account is what the deployer's state says about what it sent.
type account struct {
	nonce   uint64
	balance *big.Int
}

func accountOf(t *testing.T, c *devchain.Chain, a common.Address) account {
	t.Helper()
	ctx := context.Background()
	nonce, err := c.Backend.Client().NonceAt(ctx, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	balance, err := c.Backend.Client().BalanceAt(ctx, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return account{nonce, balance}
}

func deployOn(t *testing.T, c *devchain.Chain, key *ecdsa.PrivateKey, args deploy.Args) (*deploy.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return deploy.Deploy(ctx, c.Backend.Client(), deploy.Request{ChainID: c.ID, Args: args, Key: key, Poll: 20 * time.Millisecond})
}

func readSettlement(t *testing.T, c *devchain.Chain, at common.Address) (attester common.Address, delay uint64) {
	t.Helper()
	ctx := context.Background()
	b := contracts.NewSettlement()
	out, err := c.Backend.Client().CallContract(ctx, ethereum.CallMsg{To: &at, Data: b.PackAttester()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if attester, err = b.UnpackAttester(out); err != nil {
		t.Fatal(err)
	}
	out, err = c.Backend.Client().CallContract(ctx, ethereum.CallMsg{To: &at, Data: b.PackRefundDelay()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if delay, err = b.UnpackRefundDelay(out); err != nil {
		t.Fatal(err)
	}
	return attester, delay
}

func isSettlement(t *testing.T, c *devchain.Chain, at common.Address) bool {
	t.Helper()
	code, err := c.Backend.Client().CodeAt(context.Background(), at, nil)
	if err != nil {
		t.Fatal(err)
	}
	return contracts.IsSettlementCode(code)
}

// TestSameAddressOnTwoChains deploys one release with one set of arguments on two chains of
// different ids, from different deployers: one address, this release's code on both; a second run
// answers that address and sends nothing.
func TestSameAddressOnTwoChains(t *testing.T) {
	args := testArgs(t)
	var got []common.Address
	for _, id := range []int64{71001, 71002} {
		c := devchain.Start(t, id)
		autoMine(t, c)
		key := fundedDeployer(t, c)
		before := accountOf(t, c, addr(key))
		res, err := deployOn(t, c, key, args)
		if err != nil {
			t.Fatalf("eip155:%d: %v", id, err)
		}
		if res.AlreadyDeployed || res.ProxyMissing || res.Tx == (common.Hash{}) {
			t.Fatalf("eip155:%d: want one deployment through the preinstalled proxy, got already deployed %v, proxy missing %v, tx %s", id, res.AlreadyDeployed, res.ProxyMissing, res.Tx.Hex())
		}
		if res.Address != deploy.Address(args) {
			t.Fatalf("eip155:%d: deployed at %s, Address says %s", id, res.Address.Hex(), deploy.Address(args).Hex())
		}
		if !isSettlement(t, c, res.Address) {
			t.Fatalf("eip155:%d: %s does not hold this release's settlement contract", id, res.Address.Hex())
		}
		if a, d := readSettlement(t, c, res.Address); a != args.Attester || d != args.RefundDelay {
			t.Fatalf("eip155:%d: the contract has attester %s and refund delay %d, want %s and %d", id, a.Hex(), d, args.Attester.Hex(), args.RefundDelay)
		}
		after := accountOf(t, c, addr(key))
		if after.nonce != before.nonce+1 || new(big.Int).Sub(before.balance, after.balance).Cmp(res.GasPaid) != 0 {
			t.Fatalf("eip155:%d: the deployer sent %d transactions and paid %s, the result says one and %s",
				id, after.nonce-before.nonce, new(big.Int).Sub(before.balance, after.balance), res.GasPaid)
		}
		t.Logf("eip155:%d: deployed at %s by %s: %d gas used (limit %d), %s wei paid", id, res.Address.Hex(), res.Tx.Hex(), res.GasUsed, res.GasLimit, res.GasPaid)

		again, err := deployOn(t, c, key, args)
		if err != nil {
			t.Fatalf("eip155:%d: second run: %v", id, err)
		}
		if !again.AlreadyDeployed || again.Address != res.Address || again.Tx != (common.Hash{}) {
			t.Fatalf("eip155:%d: second run: want %s already deployed and nothing sent; got %s, already deployed %v, tx %s", id, res.Address.Hex(), again.Address.Hex(), again.AlreadyDeployed, again.Tx.Hex())
		}
		if now := accountOf(t, c, addr(key)); now.nonce != after.nonce || now.balance.Cmp(after.balance) != 0 {
			t.Fatalf("eip155:%d: second run: the deployer's nonce went %d -> %d, balance %s -> %s", id, after.nonce, now.nonce, after.balance, now.balance)
		}
		got = append(got, res.Address)
	}
	if got[0] != got[1] {
		t.Fatalf("the two chains hold the contract at %s and %s", got[0].Hex(), got[1].Hex())
	}
}

// TestTheProxyIsDeployedByItsPresignedTransaction starts a chain without the proxy: the
// deployment funds the proxy's one-time deployer, sends the presigned transaction, and lands at
// the address a chain with the proxy preinstalled gives.
func TestTheProxyIsDeployedByItsPresignedTransaction(t *testing.T) {
	tx, err := deploy.ProxyTransaction()
	if err != nil {
		t.Fatal(err)
	}
	if tx.Protected() {
		t.Fatal("the presigned transaction has a chain id: it would be valid on one chain only")
	}
	sender, err := types.Sender(types.HomesteadSigner{}, tx)
	if err != nil || sender != contracts.DeploymentProxyDeployer {
		t.Fatalf("the presigned transaction recovers to %s (%v), want %s", sender.Hex(), err, contracts.DeploymentProxyDeployer.Hex())
	}
	if created := crypto.CreateAddress(sender, tx.Nonce()); created != contracts.DeploymentProxy {
		t.Fatalf("the presigned transaction creates %s, want %s", created.Hex(), contracts.DeploymentProxy.Hex())
	}

	c := devchain.StartWithoutDeploymentProxy(t, 71003)
	autoMine(t, c)
	key := fundedDeployer(t, c)
	args := testArgs(t)
	dry, err := deploy.Deploy(context.Background(), c.Backend.Client(), deploy.Request{ChainID: c.ID, Args: args, Key: key, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !dry.ProxyMissing || dry.ProxyFunding.Cmp(big.NewInt(contracts.DeploymentProxyGas*contracts.DeploymentProxyGasPrice)) != 0 {
		t.Fatalf("dry run: want the proxy missing and its deployer funded with 0.01 ether, got proxy missing %v, funding %s", dry.ProxyMissing, dry.ProxyFunding)
	}
	res, err := deployOn(t, c, key, args)
	if err != nil {
		t.Fatal(err)
	}
	code, err := c.Backend.Client().CodeAt(context.Background(), contracts.DeploymentProxy, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(code) != string(contracts.DeploymentProxyCode()) {
		t.Fatalf("the proxy's code is %x, want %x", code, contracts.DeploymentProxyCode())
	}
	if res.ProxyTx != tx.Hash() || res.FundingTx == (common.Hash{}) {
		t.Fatalf("want the funding and the presigned transaction %s sent, got funding %s, proxy %s", tx.Hash().Hex(), res.FundingTx.Hex(), res.ProxyTx.Hex())
	}
	if res.Address != deploy.Address(args) || !isSettlement(t, c, res.Address) {
		t.Fatalf("the contract is not at %s", deploy.Address(args).Hex())
	}
	if res.GasLimit < res.GasUsed {
		t.Fatalf("the gas limit %d estimated without the proxy is under the %d used", res.GasLimit, res.GasUsed)
	}
	t.Logf("proxy deployed by %s; settlement at %s: %d gas used (limit %d), %s wei paid in all", res.ProxyTx.Hex(), res.Address.Hex(), res.GasUsed, res.GasLimit, res.GasPaid)
}

// TestRefusalsComeBeforeAnyTransaction breaks one precondition at a time: each is refused with
// its own error, and the deployer neither sent a transaction nor paid anything.
func TestRefusalsComeBeforeAnyTransaction(t *testing.T) {
	c := devchain.Start(t, 71004)
	autoMine(t, c)
	funded := fundedDeployer(t, c)
	empty := newKey(t)
	guardian := addr(newKey(t))
	for _, tc := range []struct {
		name    string
		key     *ecdsa.PrivateKey
		chainID int64
		args    func(*deploy.Args)
		minimum time.Duration
		want    error
	}{
		{name: "wrong chain id", key: funded, chainID: 1, want: deploy.ErrWrongChain},
		{name: "no Permit2", key: funded, args: func(a *deploy.Args) { a.Permit2 = addr(newKey(t)) }, want: deploy.ErrNoPermit2},
		{name: "Permit2 at an address holding other code", key: funded, args: func(a *deploy.Args) { a.Permit2 = contracts.DeploymentProxy }, want: deploy.ErrNoPermit2},
		{name: "no attester", key: funded, args: func(a *deploy.Args) { a.Attester = common.Address{} }, want: deploy.ErrInvalidArgs},
		{name: "guardian is the attester", key: funded, args: func(a *deploy.Args) { a.Guardian = a.Attester }, want: deploy.ErrGuardianIsAttester},
		{name: "refund delay under the contract's minimum", key: funded, args: func(a *deploy.Args) { a.RefundDelay = settlement.MinRefundDelay - 1 }, want: deploy.ErrRefundDelayTooShort},
		{name: "refund delay under the environment's finality", key: funded, minimum: 2 * time.Hour, want: deploy.ErrRefundDelayTooShort},
		{name: "empty deployer", key: empty, want: deploy.ErrInsufficientFunds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := testArgs(t)
			args.Guardian = guardian
			if tc.args != nil {
				tc.args(&args)
			}
			chainID := c.ID
			if tc.chainID != 0 {
				chainID = big.NewInt(tc.chainID)
			}
			before := accountOf(t, c, addr(tc.key))
			_, err := deploy.Deploy(context.Background(), c.Backend.Client(), deploy.Request{
				ChainID: chainID, Args: args, Key: tc.key, MinRefundDelay: tc.minimum, Poll: 20 * time.Millisecond,
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			t.Logf("refused: %v", err)
			c.Commit()
			if after := accountOf(t, c, addr(tc.key)); after.nonce != before.nonce || after.balance.Cmp(before.balance) != 0 {
				t.Fatalf("the deployer's nonce went %d -> %d and its balance %s -> %s", before.nonce, after.nonce, before.balance, after.balance)
			}
			if isSettlement(t, c, deploy.Address(args)) {
				t.Fatal("the contract was deployed")
			}
		})
	}
}

// TestDryRunSendsNothing estimates and plans, and the chain does not change.
func TestDryRunSendsNothing(t *testing.T) {
	c := devchain.Start(t, 71005)
	autoMine(t, c)
	key := fundedDeployer(t, c)
	args := testArgs(t)
	before := accountOf(t, c, addr(key))
	res, err := deploy.Deploy(context.Background(), c.Backend.Client(), deploy.Request{ChainID: c.ID, Args: args, Key: key, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.GasLimit == 0 || res.MaxCost.Sign() <= 0 || res.Tx != (common.Hash{}) || res.Address != deploy.Address(args) {
		t.Fatalf("want a plan and no transaction, got gas limit %d, cost %s, tx %s, address %s", res.GasLimit, res.MaxCost, res.Tx.Hex(), res.Address.Hex())
	}
	c.Commit()
	if after := accountOf(t, c, addr(key)); after.nonce != before.nonce || after.balance.Cmp(before.balance) != 0 {
		t.Fatalf("the dry run sent something: nonce %d -> %d", before.nonce, after.nonce)
	}
	if isSettlement(t, c, res.Address) {
		t.Fatal("the dry run deployed the contract")
	}
}

// TestLocalArgsAreTheDevelopmentKeys: make run's attester and guardian are the well-known keys
// devchain holds (the attester's key is the manager's --attester-key-file there).
func TestLocalArgsAreTheDevelopmentKeys(t *testing.T) {
	a := deploy.LocalArgs()
	for _, k := range []struct {
		name, hex string
		want      common.Address
	}{
		{"attester", devchain.WellKnownAttesterKey, a.Attester},
		{"guardian", devchain.WellKnownFunderKey, a.Guardian},
	} {
		key, err := crypto.HexToECDSA(k.hex)
		if err != nil {
			t.Fatal(err)
		}
		if addr(key) != k.want {
			t.Errorf("the local %s is %s, its well-known key's address is %s", k.name, k.want.Hex(), addr(key).Hex())
		}
	}
	if err := deploy.CheckArgs(a, 0); err != nil {
		t.Fatalf("the local arguments are refused: %v", err)
	}
}
