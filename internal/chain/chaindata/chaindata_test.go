package chaindata

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/sony/gobreaker/v2"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const devChainID = 31337

// world is a dev chain with a token, a funded holder and the registry rows that describe them.
type world struct {
	chain  *devchain.Chain
	row    registry.Chain
	native registry.Token
	token  registry.Token
	other  registry.Token // a second ERC-20, for swaps
	holder *ecdsa.PrivateKey
	// extraChains and extraTokens join the catalog: a bridge's destination.
	extraChains []registry.Chain
	extraTokens []registry.Token
}

func newWorld(t testing.TB) *world {
	t.Helper()
	c := devchain.Start(t, devChainID)
	holder, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	tokenAddr := c.DeployTestToken(t, "Test USD", "TUSD", 6)
	otherAddr := c.DeployTestToken(t, "Test EUR", "TEUR", 6)
	// An order's simulation checks that the settlement contract holds code.
	settler, err := c.DeploySettlement(crypto.PubkeyToAddress(holder.PublicKey), settlement.MinRefundDelay)
	if err != nil {
		t.Fatal(err)
	}
	caip2 := "eip155:31337"
	return &world{
		chain: c,
		row: registry.Chain{ID: caip2, NumericID: big.NewInt(devChainID), Environment: registry.EnvironmentTest,
			DisplayName: "dev", NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 1,
			DefaultGasPriceWei: big.NewInt(7), NativeTokenPriceUSD: "3000", RPCURL: c.URL,
			SettlementAddress: settler.Hex(), SettlementVerified: true},
		native: registry.Token{Symbol: "ETH", ChainID: caip2, Address: caip2 + ":" + registry.NativeTokenAddress, Decimals: 18, PriceUSD: "3000"},
		token:  registry.Token{Name: "tusd", Symbol: "TUSD", ChainID: caip2, Address: caip2 + ":" + tokenAddr.Hex(), Decimals: 6, PriceUSD: "1"},
		other:  registry.Token{Name: "teur", Symbol: "TEUR", ChainID: caip2, Address: caip2 + ":" + otherAddr.Hex(), Decimals: 6, PriceUSD: "1.1"},
		holder: holder,
	}
}

func (w *world) holderAddr() common.Address { return crypto.PubkeyToAddress(w.holder.PublicKey) }

// testCallTimeout bounds a node round trip in the tests that are not about that bound: the
// production default (DefaultCallTimeout) was exceeded on a loaded machine (make flake-hunt under
// other builds), and the reader then rightly falls back to typed prices, which such a test reads
// as a wrong answer. The tests of the bound set their own.
const testCallTimeout = 10 * time.Second

func newReader(t testing.TB, opts Options) *Reader {
	t.Helper()
	if opts.CallTimeout == 0 {
		opts.CallTimeout = testCallTimeout
	}
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// One read returns the holder's balances, the gas price the node suggests and the node's
// estimate of the exact transaction with the documented margin.
func TestReadMatchesWhatTheNodeReports(t *testing.T) {
	w := newWorld(t)
	w.chain.SendValue(t, w.holderAddr(), big.NewInt(1e18))
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	w.chain.Mint(t, common.HexToAddress(tokenAddr), w.holderAddr(), big.NewInt(250_000_000))

	bob := common.HexToAddress("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
	data, err := intent.ERC20TransferData(bob, big.NewInt(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	tx := intent.Tx{To: common.HexToAddress(tokenAddr).Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: devChainID}
	state, err := newReader(t, Options{}).Read(context.Background(), w.row,
		intent.ChainQuery{Holder: w.holderAddr(), Tokens: []registry.Token{w.token, w.native}, Tx: &tx})
	if err != nil {
		t.Fatal(err)
	}

	client, err := ethclient.Dial(w.chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	units, err := client.EstimateGas(ctx, ethereum.CallMsg{From: w.holderAddr(), To: ptr(common.HexToAddress(tokenAddr)), Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if got := state.Balances[w.token.Address]; got == nil || got.Int64() != 250_000_000 {
		t.Errorf("token balance %v, want 250000000", got)
	}
	if got := state.Balances[w.native.Address]; got == nil || got.Cmp(big.NewInt(1e18)) != 0 {
		t.Errorf("native balance %v, want 1e18", got)
	}
	if want := new(big.Int).Add(head.BaseFee, tip); state.GasPrice == nil || state.GasPrice.Cmp(want) != 0 {
		t.Errorf("gas price %v, want base fee %v + tip %v", state.GasPrice, head.BaseFee, tip)
	}
	if want := units * 120 / 100; state.GasUnits != want || state.EstimateError != nil {
		t.Errorf("gas units %d (%v), want the node's %d + 20%% = %d", state.GasUnits, state.EstimateError, units, want)
	}
}

func TestReadRefusesANodeOfAnotherChain(t *testing.T) {
	w := newWorld(t)
	w.row.ID, w.row.NumericID = "eip155:1337", big.NewInt(1337)
	_, err := newReader(t, Options{}).Read(context.Background(), w.row, intent.ChainQuery{Holder: w.holderAddr()})
	if !errors.Is(err, ErrWrongChain) {
		t.Fatalf("err = %v, want ErrWrongChain", err)
	}
}

// The reader runs its chains' clients with its breaker settings (the breaker itself is tested in
// internal/chain/jsonrpc): after Failures failed reads a chain's reads fail at once, and the error
// never quotes the URL.
func TestReadsOfADeadNodeOpenTheBreaker(t *testing.T) {
	url := "http://user:s3cret@" + freeport.MustAddr(t) // nothing listens there
	row := registry.Chain{ID: "eip155:31337", NumericID: big.NewInt(devChainID), RPCURL: url}
	r := newReader(t, Options{CallTimeout: 100 * time.Millisecond, Failures: 2, Cooldown: time.Minute})
	for i := range 2 {
		_, err := r.Read(context.Background(), row, intent.ChainQuery{})
		if err == nil || errors.Is(err, gobreaker.ErrOpenState) || strings.Contains(err.Error(), "s3cret") {
			t.Fatalf("read %d: err %v; want the node's failure, without the URL", i, err)
		}
	}
	if _, err := r.Read(context.Background(), row, intent.ChainQuery{}); !errors.Is(err, gobreaker.ErrOpenState) {
		t.Fatalf("after 2 failures: err %v; want the open breaker", err)
	}
}

func TestChainWithoutRPCAnswersItsDefaults(t *testing.T) {
	row := registry.Chain{ID: "eip155:1", NumericID: big.NewInt(1), DefaultGasPriceWei: big.NewInt(42)}
	state, err := newReader(t, Options{}).Read(context.Background(), row, intent.ChainQuery{})
	if err != nil || state.GasPrice.Int64() != 42 || state.Balances != nil {
		t.Fatalf("state %+v, %v; want the default gas price and nothing else", state, err)
	}
}

func ptr[T any](v T) *T { return &v }

// The node says which address holds code: a deployed contract does, an account does not.
func TestReadTellsAContractWithoutCode(t *testing.T) {
	w := newWorld(t)
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	reader := newReader(t, Options{})
	for _, tt := range []struct {
		name    string
		addr    common.Address
		missing bool
	}{
		{"a deployed contract", common.HexToAddress(tokenAddr), false},
		{"an account", w.holderAddr(), true},
	} {
		state, err := reader.Read(context.Background(), w.row, intent.ChainQuery{Holder: w.holderAddr(), Contract: &tt.addr})
		if err != nil {
			t.Fatal(err)
		}
		if state.ContractMissing != tt.missing {
			t.Errorf("%s: ContractMissing = %v, want %v", tt.name, state.ContractMissing, tt.missing)
		}
	}
}

// A transaction the node refuses to estimate because it would revert names the error in the
// simulation's warning: a token transfer from a holder without the token is
// ERC20InsufficientBalance with the balance and the amount needed.
func TestARevertingEstimateNamesTheError(t *testing.T) {
	w := newWorld(t)
	w.chain.SendValue(t, w.holderAddr(), big.NewInt(1e18)) // gas, no tokens
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	data, err := intent.ERC20TransferData(common.HexToAddress("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"), big.NewInt(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	tx := intent.Tx{To: common.HexToAddress(tokenAddr).Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: devChainID}
	state, err := newReader(t, Options{}).Read(context.Background(), w.row,
		intent.ChainQuery{Holder: w.holderAddr(), Tokens: []registry.Token{w.token, w.native}, Tx: &tx})
	if err != nil {
		t.Fatal(err)
	}
	want := "ERC20InsufficientBalance(sender: " + w.holderAddr().Hex() + ", balance: 0, needed: 1000000)"
	if state.EstimateError == nil || !strings.Contains(state.EstimateError.Error(), want) {
		t.Fatalf("estimate error %v; want it to name %s", state.EstimateError, want)
	}
}
