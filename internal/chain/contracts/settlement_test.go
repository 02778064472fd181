package contracts_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

// These tests run contracts/src/Settlement.sol (through its generated binding) on devchain's
// simulated backend: one chain for swaps, two chains with different ids for bridges. Every refusal
// is asserted by the custom error's selector in the revert data (bind.Transact estimates gas
// first, so a transaction that would revert is refused with the contract's revert data).

var (
	settlementABI = contracts.NewSettlement()
	tokenABI      = contracts.NewTestToken()
	hostileABI    = contracts.NewReentrantToken()

	// orderType is the ABI type of Order: abi.encode(order) is what the service builds.
	orderType = settlementABI.GetABI().Methods["settle"].Inputs[0].Type

	// native is Settlement.NATIVE, the pseudo-address of the chain's native token.
	native = common.HexToAddress("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")

	// orderDataType is ERC-7683's orderDataType of Order: the EIP-712 type hash of its type string.
	orderDataType = crypto.Keccak256Hash([]byte("Order(bytes32 account,address originSettler,uint256 originChainId," +
		"address user,uint256 destinationChainId,address recipient,address tokenIn,address tokenOut,uint256 amountIn," +
		"uint256 startAmountOut,uint256 minAmountOut,uint64 decayStart,uint64 decayEnd,address exclusiveFiller," +
		"uint64 exclusivityDeadline,uint256 exclusivityOverrideBps,uint256 feeAmount,address feeRecipient," +
		"uint256 nativeDropAmount,uint64 deadline,bytes32 nonce,address destinationSettler)"))

	accountHash = crypto.Keccak256Hash([]byte("acme"))

	// bystander is an address that is no party to any order.
	bystander = common.HexToAddress("0x00000000000000000000000000000000000a770c")

	amountIn = big.NewInt(1_000_000)
	minOut   = big.NewInt(990_000)
)

// The values of Settlement.Status.
const (
	statusNone uint8 = iota
	statusOpened
	statusSettled
	statusRefunded
)

// refundDelay is every test deployment's refund delay, in seconds: the contract's minimum.
const refundDelay = 3600

// fixedGas is the gas limit of transactions sent without an estimate: a hostile token's re-entry
// gets as much gas as it could use, so a re-entry that fails fails for its reason, not for gas.
const fixedGas = 5_000_000

// ---- a chain with a Settlement ----

type testChain struct {
	*devchain.Chain
	t          *testing.T
	settlement common.Address
	// guardian holds the Settlement's GUARDIAN_ROLE (and DEFAULT_ADMIN_ROLE).
	guardian     *ecdsa.PrivateKey
	guardianAddr common.Address
}

// newChain starts a devchain with the chain id and deploys a Settlement whose attester is attester
// and whose guardian is a fresh key.
func newChain(t *testing.T, id int64, attester common.Address) *testChain {
	t.Helper()
	c := &testChain{Chain: devchain.Start(t, id), t: t}
	c.guardian, c.guardianAddr = c.newAccount()
	c.settlement = c.deploySettlement(attester)
	return c
}

func (c *testChain) deploySettlement(attester common.Address) common.Address {
	c.t.Helper()
	return c.deploy("Settlement", settlementBin(c.t), settlementABI.PackConstructor(attester, c.guardianAddr, refundDelay, contracts.CanonicalPermit2))
}

// settlementBinEnv names a file holding the Settlement creation bytecode (hex) to test instead of
// the binding's: hack/mutate runs these tests against mutants of Settlement.sol that way. The
// bytecode must keep the binding's ABI.
const settlementBinEnv = "SETTLEMENT_BIN_FILE"

func settlementBin(t *testing.T) string {
	t.Helper()
	path := os.Getenv(settlementBinEnv)
	if path == "" {
		return contracts.SettlementMetaData.Bin
	}
	bin, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", settlementBinEnv, err)
	}
	return strings.TrimSpace(string(bin))
}

// deployHostileToken deploys a ReentrantToken.
func (c *testChain) deployHostileToken() common.Address {
	c.t.Helper()
	return c.deploy("ReentrantToken", contracts.ReentrantTokenMetaData.Bin, nil)
}

func (c *testChain) deploy(name, bin string, constructorInput []byte) common.Address {
	c.t.Helper()
	addr, tx, err := bind.DeployContract(c.Transactor(c.Funder), common.FromHex(bin), c.Backend.Client(), constructorInput)
	if err != nil {
		c.t.Fatalf("deploying %s: %v", name, err)
	}
	c.Mine(c.t, tx)
	return addr
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// newAccount is a fresh key holding one ether for gas.
func (c *testChain) newAccount() (*ecdsa.PrivateKey, common.Address) {
	c.t.Helper()
	key := newKey(c.t)
	addr := crypto.PubkeyToAddress(key.PublicKey)
	c.SendValue(c.t, addr, big.NewInt(params.Ether))
	return key, addr
}

func (c *testChain) opts(key *ecdsa.PrivateKey, value *big.Int) *bind.TransactOpts {
	opts := c.Transactor(key)
	opts.Value = value
	return opts
}

func (c *testChain) bound(to common.Address) *bind.BoundContract {
	return settlementABI.Instance(c.Backend.Client(), to)
}

// transact sends calldata (and value, which may be nil) to `to` from key and mines it; the test
// fails if it is refused or reverts.
func (c *testChain) transact(key *ecdsa.PrivateKey, to common.Address, value *big.Int, calldata []byte) *types.Receipt {
	c.t.Helper()
	tx, err := bind.Transact(c.bound(to), c.opts(key, value), calldata)
	if err != nil {
		c.t.Fatalf("transaction to %s refused: %s", to, describe(err))
	}
	return c.Mine(c.t, tx)
}

// transactFixedGas is transact with a fixed gas limit of fixedGas instead of an estimate.
func (c *testChain) transactFixedGas(key *ecdsa.PrivateKey, to common.Address, calldata []byte) *types.Receipt {
	c.t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	if _, err := c.Backend.Client().CallContract(context.Background(),
		ethereum.CallMsg{From: from, To: &to, Gas: fixedGas, Data: calldata}, nil); err != nil {
		c.t.Fatalf("transaction to %s would revert: %s", to, describe(err))
	}
	opts := c.opts(key, nil)
	opts.GasLimit = fixedGas
	tx, err := bind.Transact(c.bound(to), opts, calldata)
	if err != nil {
		c.t.Fatalf("transaction to %s refused: %s", to, describe(err))
	}
	return c.Mine(c.t, tx)
}

// refusedAt asserts that sending calldata (and value, which may be nil) to the Settlement at `to`
// from key reverts with the Settlement's custom error `want`, and returns the error's ABI-encoded
// arguments. Nothing is mined: the refusal comes from the gas estimate's revert data.
func (c *testChain) refusedAt(to common.Address, key *ecdsa.PrivateKey, value *big.Int, calldata []byte, want string) []byte {
	c.t.Helper()
	wantErr, ok := settlementABI.GetABI().Errors[want]
	if !ok {
		c.t.Fatalf("Settlement has no error %s", want)
	}
	tx, err := bind.Transact(c.bound(to), c.opts(key, value), calldata)
	if err == nil {
		c.Backend.Commit()
		c.t.Fatalf("transaction %s was accepted; want revert %s", tx.Hash(), want)
	}
	data, ok := revertData(err)
	if !ok {
		c.t.Fatalf("refused without revert data (%v); want revert %s", err, want)
	}
	if len(data) < 4 || !bytes.Equal(data[:4], wantErr.ID[:4]) {
		c.t.Fatalf("reverted with %s; want %s", describe(err), want)
	}
	return data[4:]
}

// refused is refusedAt on the chain's Settlement.
func (c *testChain) refused(key *ecdsa.PrivateKey, value *big.Int, calldata []byte, want string) []byte {
	c.t.Helper()
	return c.refusedAt(c.settlement, key, value, calldata, want)
}

// revertData is the revert data carried by a JSON-RPC error.
func revertData(err error) ([]byte, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	switch d := de.ErrorData().(type) {
	case string:
		b, err := hexutil.Decode(d)
		return b, err == nil
	case []byte:
		return d, true
	}
	return nil, false
}

// describe names the Settlement error in err's revert data, if any.
func describe(err error) string {
	data, ok := revertData(err)
	if !ok || len(data) < 4 {
		return err.Error()
	}
	if decoded, decodeErr := settlementABI.UnpackError(data); decodeErr == nil {
		return fmt.Sprintf("%T%+v", decoded, decoded)
	}
	return fmt.Sprintf("%v (revert data %x)", err, data)
}

func (c *testChain) call(to common.Address, calldata []byte) []byte {
	c.t.Helper()
	out, err := c.Backend.Client().CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: calldata}, nil)
	if err != nil {
		c.t.Fatalf("call to %s: %s", to, describe(err))
	}
	return out
}

// get calls a view of a contract and unpacks its result.
func get[T any](c *testChain, to common.Address, calldata []byte, unpack func([]byte) (T, error)) T {
	c.t.Helper()
	v, err := unpack(c.call(to, calldata))
	if err != nil {
		c.t.Fatal(err)
	}
	return v
}

func (c *testChain) status(id [32]byte) uint8 {
	c.t.Helper()
	return get(c, c.settlement, settlementABI.PackOrders(id), settlementABI.UnpackOrders)
}

func (c *testChain) wantStatus(id [32]byte, want uint8) {
	c.t.Helper()
	if got := c.status(id); got != want {
		c.t.Errorf("orders(%x) = %d; want %d", id[:4], got, want)
	}
}

func (c *testChain) fillRecord(id [32]byte) contracts.FillsOutput {
	c.t.Helper()
	return get(c, c.settlement, settlementABI.PackFills(id), settlementABI.UnpackFills)
}

// balance is holder's balance of token (an ERC-20, or native).
func (c *testChain) balance(token, holder common.Address) *big.Int {
	c.t.Helper()
	if token == native {
		b, err := c.Backend.Client().BalanceAt(context.Background(), holder, nil)
		if err != nil {
			c.t.Fatal(err)
		}
		return b
	}
	return get(c, token, tokenABI.PackBalanceOf(holder), tokenABI.UnpackBalanceOf)
}

func (c *testChain) wantBalance(token, holder common.Address, want *big.Int, who string) {
	c.t.Helper()
	if got := c.balance(token, holder); got.Cmp(want) != 0 {
		c.t.Errorf("%s holds %s of %s; want %s", who, got, token, want)
	}
}

// now is the latest block's timestamp.
func (c *testChain) now() uint64 {
	c.t.Helper()
	head, err := c.Backend.Client().HeaderByNumber(context.Background(), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	return head.Time
}

// warpTo makes a block whose timestamp is ts, which must be later than the latest block's.
func (c *testChain) warpTo(ts uint64) {
	c.t.Helper()
	now := c.now()
	if ts <= now {
		c.t.Fatalf("cannot warp to %d: the chain is at %d", ts, now)
	}
	// AdjustTime refuses while the transaction pool still lists a transaction, which it may for a
	// moment after the block that included it (the pool resets to a new head asynchronously).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		err := c.Backend.AdjustTime(time.Duration(ts-now) * time.Second)
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "non-empty block") || time.Now().After(deadline) {
			c.t.Fatalf("warping to %d: %v", ts, err)
		}
	}
}

func (c *testChain) deployToken(symbol string) common.Address {
	c.t.Helper()
	return c.DeployTestToken(c.t, symbol, symbol, 6)
}

func (c *testChain) approve(key *ecdsa.PrivateKey, token common.Address, amount *big.Int) {
	c.t.Helper()
	c.transact(key, token, nil, tokenABI.PackApprove(c.settlement, amount))
}

// ---- orders ----

func encodeOrder(t *testing.T, o contracts.Order) []byte {
	t.Helper()
	data, err := abi.Arguments{{Type: orderType}}.Pack(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 22*32 {
		t.Fatalf("abi.encode(order) is %d bytes; want twenty-two words", len(data))
	}
	return data
}

func idOf(t *testing.T, o contracts.Order) [32]byte {
	t.Helper()
	return crypto.Keccak256Hash(encodeOrder(t, o))
}

// openCalldataOf is open(OnchainCrossChainOrder) of orderData as ERC-7683 wraps it.
func openCalldataOf(o contracts.Order, orderData []byte) []byte {
	return settlementABI.PackOpen(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: orderDataType, OrderData: orderData,
	})
}

func openCalldata(t *testing.T, o contracts.Order) []byte {
	t.Helper()
	return openCalldataOf(o, encodeOrder(t, o))
}

// fillerData is abi.encode(uint256 amountOut, address repayTo).
func fillerData(t *testing.T, amountOut *big.Int, repayTo common.Address) []byte {
	t.Helper()
	uint256, _ := abi.NewType("uint256", "", nil)
	address, _ := abi.NewType("address", "", nil)
	data, err := abi.Arguments{{Type: uint256}, {Type: address}}.Pack(amountOut, repayTo)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func fillCalldata(t *testing.T, o contracts.Order, amountOut *big.Int, repayTo common.Address) []byte {
	t.Helper()
	data := encodeOrder(t, o)
	return settlementABI.PackFill(crypto.Keccak256Hash(data), data, fillerData(t, amountOut, repayTo))
}

func randomNonce(t *testing.T) [32]byte {
	t.Helper()
	var n [32]byte
	if _, err := rand.Read(n[:]); err != nil {
		t.Fatal(err)
	}
	return n
}

// swapOrder is a same-chain order on c: amountIn of tokenIn for at least minOut of tokenOut, due
// in an hour.
func (c *testChain) swapOrder(user, recipient, tokenIn, tokenOut common.Address) contracts.Order {
	c.t.Helper()
	return contracts.Order{
		Account:            accountHash,
		OriginSettler:      c.settlement,
		OriginChainId:      c.ID,
		User:               user,
		DestinationChainId: c.ID,
		Recipient:          recipient,
		TokenIn:            tokenIn,
		TokenOut:           tokenOut,
		AmountIn:           new(big.Int).Set(amountIn),
		StartAmountOut:     new(big.Int).Set(minOut),
		MinAmountOut:       new(big.Int).Set(minOut),
		// No decay, exclusivity, fee or native drop: the tests of those set them.
		ExclusivityOverrideBps: new(big.Int),
		FeeAmount:              new(big.Int),
		NativeDropAmount:       new(big.Int),
		Deadline:               c.now() + 3600,
		Nonce:                  randomNonce(c.t),
		DestinationSettler:     c.settlement,
	}
}

// bridgeOrder is swapOrder to be filled by destSettler on chain destID.
func (c *testChain) bridgeOrder(user, recipient, tokenIn, tokenOut common.Address, destID *big.Int, destSettler common.Address) contracts.Order {
	c.t.Helper()
	o := c.swapOrder(user, recipient, tokenIn, tokenOut)
	o.DestinationChainId = destID
	o.DestinationSettler = destSettler
	return o
}

// open escrows the order from its user (approving an ERC-20 first) and returns its id and receipt.
func (c *testChain) open(user *ecdsa.PrivateKey, o contracts.Order) ([32]byte, *types.Receipt) {
	c.t.Helper()
	var value *big.Int
	if o.TokenIn == native {
		value = o.AmountIn
	} else {
		c.approve(user, o.TokenIn, o.AmountIn)
	}
	return idOf(c.t, o), c.transact(user, c.settlement, value, openCalldata(c.t, o))
}

// fill pays amountOut of the order's tokenOut from filler (approving an ERC-20 first).
func (c *testChain) fill(filler *ecdsa.PrivateKey, o contracts.Order, amountOut *big.Int, repayTo common.Address) *types.Receipt {
	c.t.Helper()
	var value *big.Int
	if o.TokenOut == native {
		value = amountOut
	} else {
		c.approve(filler, o.TokenOut, amountOut)
	}
	return c.transact(filler, c.settlement, value, fillCalldata(c.t, o, amountOut, repayTo))
}

// ---- attestations ----

// fillDigest is the EIP-712 digest of Fill(orderId, filler, amountOut) in the domain of the
// Settlement at verifyingContract on chainID, computed by go-ethereum's EIP-712 implementation.
func fillDigest(t *testing.T, chainID *big.Int, verifyingContract common.Address, id [32]byte, filler common.Address, amountOut *big.Int) []byte {
	t.Helper()
	typed := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"},
				{Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"},
				{Name: "verifyingContract", Type: "address"},
			},
			"Fill": {
				{Name: "orderId", Type: "bytes32"},
				{Name: "filler", Type: "address"},
				{Name: "amountOut", Type: "uint256"},
			},
		},
		PrimaryType: "Fill",
		Domain: apitypes.TypedDataDomain{
			Name:              "TransferIntentSettlement",
			Version:           "1",
			ChainId:           (*math.HexOrDecimal256)(new(big.Int).Set(chainID)),
			VerifyingContract: verifyingContract.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"orderId":   hexutil.Encode(id[:]),
			"filler":    filler.Hex(),
			"amountOut": new(big.Int).Set(amountOut),
		},
	}
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		t.Fatal(err)
	}
	return digest
}

// sign is key's 65-byte r||s||v signature of digest, v being 27 or 28.
func sign(t *testing.T, key *ecdsa.PrivateKey, digest []byte) []byte {
	t.Helper()
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

// attest is key's attestation that filler filled id with amountOut, for the Settlement at
// verifyingContract on chainID.
func attest(t *testing.T, key *ecdsa.PrivateKey, chainID *big.Int, verifyingContract common.Address, id [32]byte, filler common.Address, amountOut *big.Int) []byte {
	t.Helper()
	return sign(t, key, fillDigest(t, chainID, verifyingContract, id, filler, amountOut))
}

// attestHere is attest for c's Settlement.
func (c *testChain) attestHere(key *ecdsa.PrivateKey, o contracts.Order, filler common.Address, amountOut *big.Int) []byte {
	c.t.Helper()
	return attest(c.t, key, c.ID, c.settlement, idOf(c.t, o), filler, amountOut)
}

// ---- events ----

// eventsOf are the events of one kind that emitter logged in receipt.
func eventsOf[T any](t *testing.T, r *types.Receipt, emitter common.Address, unpack func(*types.Log) (*T, error)) []*T {
	t.Helper()
	var out []*T
	for _, l := range r.Logs {
		if l.Address != emitter {
			continue
		}
		ev, err := unpack(l)
		if errors.Is(err, bind.ErrEventSignatureMismatch) {
			continue
		}
		if err != nil {
			t.Fatalf("decoding log %d: %v", l.Index, err)
		}
		out = append(out, ev)
	}
	return out
}

// oneEventOf is the single event of one kind that emitter logged in receipt.
func oneEventOf[T any](t *testing.T, r *types.Receipt, emitter common.Address, unpack func(*types.Log) (*T, error)) *T {
	t.Helper()
	evs := eventsOf(t, r, emitter, unpack)
	if len(evs) != 1 {
		var zero T
		t.Fatalf("%d %T events; want 1", len(evs), zero)
	}
	return evs[0]
}

func wantNoEvent[T any](t *testing.T, r *types.Receipt, emitter common.Address, unpack func(*types.Log) (*T, error)) {
	t.Helper()
	if evs := eventsOf(t, r, emitter, unpack); len(evs) != 0 {
		t.Errorf("%d unexpected %T events", len(evs), *evs[0])
	}
}

func word(a common.Address) [32]byte { return common.BytesToHash(a.Bytes()) }

func plus(a *big.Int, b int64) *big.Int { return new(big.Int).Add(a, big.NewInt(b)) }

func times(a *big.Int, n int64) *big.Int { return new(big.Int).Mul(a, big.NewInt(n)) }

// ---- a same-chain swap world ----

// swapWorld is a chain with a Settlement, an attester, a user holding ten escrows' worth of
// tokenIn, a filler holding ten fills' worth of tokenOut, and a recipient that holds nothing.
type swapWorld struct {
	*testChain
	attester           *ecdsa.PrivateKey
	user, filler       *ecdsa.PrivateKey
	userAddr, fillAddr common.Address
	recipient          common.Address
	tokenIn, tokenOut  common.Address
}

func newSwapWorld(t *testing.T) *swapWorld {
	t.Helper()
	attester := newKey(t)
	w := &swapWorld{testChain: newChain(t, 1337, crypto.PubkeyToAddress(attester.PublicKey)), attester: attester}
	w.user, w.userAddr = w.newAccount()
	w.filler, w.fillAddr = w.newAccount()
	random := randomNonce(t)
	w.recipient = common.BytesToAddress(random[:20])
	w.tokenIn = w.deployToken("IN")
	w.tokenOut = w.deployToken("OUT")
	w.Mint(t, w.tokenIn, w.userAddr, times(amountIn, 10))
	w.Mint(t, w.tokenOut, w.fillAddr, times(amountIn, 10))
	return w
}

func (w *swapWorld) order() contracts.Order {
	w.t.Helper()
	return w.swapOrder(w.userAddr, w.recipient, w.tokenIn, w.tokenOut)
}

// ======== tests ========

// The Go side (orderId, orderDataType, EIP-712 digest) computes exactly what the contract does.
func TestGoAndContractAgreeOnOrderIdAndFillDigest(t *testing.T) {
	attesterAddr := crypto.PubkeyToAddress(newKey(t).PublicKey)
	c := newChain(t, 1337, attesterAddr)
	s := c.settlement

	if got := get(c, s, settlementABI.PackORDERDATATYPE(), settlementABI.UnpackORDERDATATYPE); got != orderDataType {
		t.Errorf("ORDER_DATA_TYPE = %x; want %x", got, orderDataType)
	}
	fillTypehash := crypto.Keccak256Hash([]byte("Fill(bytes32 orderId,address filler,uint256 amountOut)"))
	if got := get(c, s, settlementABI.PackFILLTYPEHASH(), settlementABI.UnpackFILLTYPEHASH); got != fillTypehash {
		t.Errorf("FILL_TYPEHASH = %x; want %x", got, fillTypehash)
	}
	if got := get(c, s, settlementABI.PackNATIVE(), settlementABI.UnpackNATIVE); got != native {
		t.Errorf("NATIVE = %s", got)
	}
	if got := get(c, s, settlementABI.PackAttester(), settlementABI.UnpackAttester); got != attesterAddr {
		t.Errorf("attester = %s; want %s", got, attesterAddr)
	}
	if got := get(c, s, settlementABI.PackRefundDelay(), settlementABI.UnpackRefundDelay); got != refundDelay {
		t.Errorf("refundDelay = %d", got)
	}
	if got := get(c, s, settlementABI.PackMINREFUNDDELAY(), settlementABI.UnpackMINREFUNDDELAY); got != 3600 {
		t.Errorf("MIN_REFUND_DELAY = %d; want one hour", got)
	}
	domain := get(c, s, settlementABI.PackEip712Domain(), settlementABI.UnpackEip712Domain)
	if domain.Fields != [1]byte{0x0f} || domain.Name != "TransferIntentSettlement" || domain.Version != "1" ||
		domain.ChainId.Cmp(c.ID) != 0 || domain.VerifyingContract != s {
		t.Errorf("eip712Domain = %+v", domain)
	}

	// orderId = keccak256(abi.encode(order)), as resolve reports it.
	o := c.bridgeOrder(common.HexToAddress("0x1111"), common.HexToAddress("0x2222"), native,
		common.HexToAddress("0x3333"), big.NewInt(31338), common.HexToAddress("0x4444"))
	data := encodeOrder(t, o)
	resolved := get(c, s, settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: orderDataType, OrderData: data,
	}), settlementABI.UnpackResolve)
	if resolved.OrderId != crypto.Keccak256Hash(data) {
		t.Errorf("resolve orderId = %x; want keccak256(orderData) %x", resolved.OrderId, crypto.Keccak256Hash(data))
	}
	if resolved.User != o.User || resolved.OriginChainId.Cmp(c.ID) != 0 || resolved.FillDeadline != uint32(o.Deadline) {
		t.Errorf("resolve = %+v", resolved)
	}
	if len(resolved.FillInstructions) != 1 || resolved.FillInstructions[0].DestinationChainId.Int64() != 31338 ||
		resolved.FillInstructions[0].DestinationSettler != word(o.DestinationSettler) ||
		!bytes.Equal(resolved.FillInstructions[0].OriginData, data) {
		t.Errorf("resolve fillInstructions = %+v", resolved.FillInstructions)
	}
	if len(resolved.MaxSpent) != 1 || resolved.MaxSpent[0].Token != word(o.TokenOut) ||
		resolved.MaxSpent[0].Amount.Cmp(o.MinAmountOut) != 0 || resolved.MaxSpent[0].Recipient != word(o.Recipient) ||
		resolved.MaxSpent[0].ChainId.Int64() != 31338 {
		t.Errorf("resolve maxSpent = %+v", resolved.MaxSpent)
	}
	// ERC-7683's Output names the native token bytes32(0).
	if len(resolved.MinReceived) != 1 || resolved.MinReceived[0].Token != ([32]byte{}) ||
		resolved.MinReceived[0].Amount.Cmp(o.AmountIn) != 0 || resolved.MinReceived[0].ChainId.Cmp(c.ID) != 0 {
		t.Errorf("resolve minReceived = %+v", resolved.MinReceived)
	}

	// fillDigest as go-ethereum's EIP-712 computes it.
	id := idOf(t, o)
	for _, tc := range []struct {
		filler    common.Address
		amountOut *big.Int
	}{
		{common.HexToAddress("0x00000000000000000000000000000000000000f1"), big.NewInt(990_000)},
		{common.HexToAddress("0xffffffffffffffffffffffffffffffffffffffff"), new(big.Int).Lsh(big.NewInt(1), 200)},
	} {
		want := fillDigest(t, c.ID, s, id, tc.filler, tc.amountOut)
		got := get(c, s, settlementABI.PackFillDigest(id, tc.filler, tc.amountOut), settlementABI.UnpackFillDigest)
		if !bytes.Equal(got[:], want) {
			t.Errorf("fillDigest(%s, %s) = %x; go-ethereum's EIP-712 gives %x", tc.filler, tc.amountOut, got, want)
		}
	}
	// The domain binds the chain and the contract.
	filler, amount := common.HexToAddress("0xf1"), big.NewInt(990_000)
	contractDigest := get(c, s, settlementABI.PackFillDigest(id, filler, amount), settlementABI.UnpackFillDigest)
	if bytes.Equal(contractDigest[:], fillDigest(t, big.NewInt(31338), s, id, filler, amount)) ||
		bytes.Equal(contractDigest[:], fillDigest(t, c.ID, common.HexToAddress("0x4444"), id, filler, amount)) {
		t.Error("fillDigest does not depend on the EIP-712 domain's chain id and verifying contract")
	}
}

// A same-chain swap with an ERC-20 escrow: the user opens, a filler pays the recipient and takes
// the escrow in the same transaction.
func TestSwapWithERC20Escrow(t *testing.T) {
	w := newSwapWorld(t)
	o := w.order()
	data := encodeOrder(t, o)
	id, openReceipt := w.open(w.user, o)
	if id != crypto.Keccak256Hash(data) {
		t.Fatal("orderId is not keccak256(orderData)")
	}

	w.wantStatus(id, statusOpened)
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 9), "user after open")
	w.wantBalance(w.tokenIn, w.settlement, amountIn, "settlement after open")
	opened := oneEventOf(t, openReceipt, w.settlement, settlementABI.UnpackOpenedEvent)
	if opened.OrderId != id || opened.User != w.userAddr || !bytes.Equal(encodeOrder(t, opened.Order), data) {
		t.Errorf("Opened = %+v", opened)
	}
	open := oneEventOf(t, openReceipt, w.settlement, settlementABI.UnpackOpenEvent)
	if open.OrderId != id || open.ResolvedOrder.OrderId != id || len(open.ResolvedOrder.FillInstructions) != 1 ||
		!bytes.Equal(open.ResolvedOrder.FillInstructions[0].OriginData, data) ||
		open.ResolvedOrder.FillInstructions[0].DestinationSettler != word(w.settlement) {
		t.Errorf("Open = %+v", open)
	}

	amountOut := plus(minOut, 5_000) // more than the minimum is fine
	fillReceipt := w.fill(w.filler, o, amountOut, common.Address{})

	w.wantStatus(id, statusSettled)
	if got := w.fillRecord(id); got.Filler != w.fillAddr || got.AmountOut.Cmp(amountOut) != 0 {
		t.Errorf("fills = %+v; want filler %s, amountOut %s", got, w.fillAddr, amountOut)
	}
	w.wantBalance(w.tokenOut, w.recipient, amountOut, "recipient")
	w.wantBalance(w.tokenOut, w.fillAddr, new(big.Int).Sub(times(amountIn, 10), amountOut), "filler (tokenOut)")
	w.wantBalance(w.tokenIn, w.fillAddr, amountIn, "filler (escrow)")
	w.wantBalance(w.tokenIn, w.settlement, new(big.Int), "settlement after fill")
	w.wantBalance(w.tokenOut, w.settlement, new(big.Int), "settlement (tokenOut)")
	filled := oneEventOf(t, fillReceipt, w.settlement, settlementABI.UnpackFilledEvent)
	if filled.OrderId != id || filled.Filler != w.fillAddr || filled.Recipient != w.recipient || filled.AmountOut.Cmp(amountOut) != 0 {
		t.Errorf("Filled = %+v", filled)
	}
	settled := oneEventOf(t, fillReceipt, w.settlement, settlementABI.UnpackSettledEvent)
	if settled.OrderId != id || settled.Filler != w.fillAddr || settled.AmountIn.Cmp(amountIn) != 0 {
		t.Errorf("Settled = %+v", settled)
	}
}

// A same-chain swap whose escrow is the native token (msg.value); the escrow goes to repayTo.
func TestSwapWithNativeEscrow(t *testing.T) {
	w := newSwapWorld(t)
	o := w.swapOrder(w.userAddr, w.recipient, native, w.tokenOut)
	o.AmountIn = big.NewInt(params.GWei)

	userBefore := w.balance(native, w.userAddr)
	id, openReceipt := w.open(w.user, o)
	gas := new(big.Int).Mul(new(big.Int).SetUint64(openReceipt.GasUsed), openReceipt.EffectiveGasPrice)
	w.wantBalance(native, w.userAddr, new(big.Int).Sub(new(big.Int).Sub(userBefore, o.AmountIn), gas), "user after open")
	w.wantBalance(native, w.settlement, o.AmountIn, "settlement after open")
	w.wantStatus(id, statusOpened)
	if ev := oneEventOf(t, openReceipt, w.settlement, settlementABI.UnpackOpenedEvent); ev.Order.TokenIn != native {
		t.Errorf("Opened order tokenIn = %s", ev.Order.TokenIn)
	}
	oneEventOf(t, openReceipt, w.settlement, settlementABI.UnpackOpenEvent)

	repayTo := common.HexToAddress("0x00000000000000000000000000000000000e5c40")
	fillReceipt := w.fill(w.filler, o, minOut, repayTo)

	w.wantStatus(id, statusSettled)
	w.wantBalance(native, repayTo, o.AmountIn, "repayTo")
	w.wantBalance(native, w.settlement, new(big.Int), "settlement after fill")
	w.wantBalance(w.tokenOut, w.recipient, minOut, "recipient")
	if got := w.fillRecord(id); got.Filler != repayTo || got.AmountOut.Cmp(minOut) != 0 {
		t.Errorf("fills = %+v; want repayTo %s", got, repayTo)
	}
	if ev := oneEventOf(t, fillReceipt, w.settlement, settlementABI.UnpackFilledEvent); ev.Filler != repayTo {
		t.Errorf("Filled filler = %s; want repayTo", ev.Filler)
	}
	if ev := oneEventOf(t, fillReceipt, w.settlement, settlementABI.UnpackSettledEvent); ev.Filler != repayTo || ev.AmountIn.Cmp(o.AmountIn) != 0 {
		t.Errorf("Settled = %+v", ev)
	}
}

// A fill of a native tokenOut pays msg.value to the recipient, and only exactly amountOut.
func TestFillWithNativeTokenOut(t *testing.T) {
	w := newSwapWorld(t)
	o := w.swapOrder(w.userAddr, w.recipient, w.tokenIn, native)
	id, _ := w.open(w.user, o)

	calldata := fillCalldata(t, o, minOut, common.Address{})
	w.refused(w.filler, plus(minOut, -1), calldata, "WrongValue")
	w.refused(w.filler, plus(minOut, 1), calldata, "WrongValue")
	w.refused(w.filler, nil, calldata, "WrongValue")

	w.transact(w.filler, w.settlement, minOut, calldata)
	w.wantStatus(id, statusSettled)
	w.wantBalance(native, w.recipient, minOut, "recipient")
	w.wantBalance(native, w.settlement, new(big.Int), "settlement")
	w.wantBalance(w.tokenIn, w.fillAddr, amountIn, "filler")
}

// A bridge: open on the origin chain, fill on the destination chain, settle on the origin chain
// with the attester's EIP-712 attestation of the fill.
func TestBridgeAcrossTwoChains(t *testing.T) {
	attester := newKey(t)
	attesterAddr := crypto.PubkeyToAddress(attester.PublicKey)
	origin := newChain(t, 1337, attesterAddr)
	dest := newChain(t, 31338, attesterAddr)

	user, userAddr := origin.newAccount()
	tokenIn := origin.deployToken("IN")
	origin.Mint(t, tokenIn, userAddr, amountIn)
	filler, fillerAddr := dest.newAccount()
	tokenOut := dest.deployToken("OUT")
	dest.Mint(t, tokenOut, fillerAddr, amountIn)
	recipient := common.HexToAddress("0x000000000000000000000000000000000000bEEF")
	relayer, _ := origin.newAccount() // anyone may submit the attestation

	o := origin.bridgeOrder(userAddr, recipient, tokenIn, tokenOut, dest.ID, dest.settlement)
	id, openReceipt := origin.open(user, o)
	origin.wantStatus(id, statusOpened)
	origin.wantBalance(tokenIn, origin.settlement, amountIn, "origin settlement")
	open := oneEventOf(t, openReceipt, origin.settlement, settlementABI.UnpackOpenEvent)
	if fi := open.ResolvedOrder.FillInstructions; len(fi) != 1 || fi[0].DestinationChainId.Int64() != 31338 || fi[0].DestinationSettler != word(dest.settlement) {
		t.Errorf("Open fillInstructions = %+v", fi)
	}

	// The order is filled on its destination only, and opened on its origin only.
	origin.refused(user, nil, fillCalldata(t, o, minOut, common.Address{}), "WrongDestination")
	dest.refused(filler, nil, openCalldata(t, o), "WrongChain")

	amountOut := plus(minOut, 1)
	fillReceipt := dest.fill(filler, o, amountOut, common.Address{})
	dest.wantBalance(tokenOut, recipient, amountOut, "recipient")
	if got := dest.fillRecord(id); got.Filler != fillerAddr || got.AmountOut.Cmp(amountOut) != 0 {
		t.Errorf("destination fills = %+v", got)
	}
	dest.wantStatus(id, statusNone) // the escrow is not on this chain
	filled := oneEventOf(t, fillReceipt, dest.settlement, settlementABI.UnpackFilledEvent)
	if filled.OrderId != id || filled.Filler != fillerAddr || filled.Recipient != recipient || filled.AmountOut.Cmp(amountOut) != 0 {
		t.Errorf("Filled = %+v", filled)
	}
	wantNoEvent(t, fillReceipt, dest.settlement, settlementABI.UnpackSettledEvent)
	// One fill per order on the destination.
	dest.Mint(t, tokenOut, fillerAddr, amountOut)
	dest.approve(filler, tokenOut, amountOut)
	dest.refused(filler, nil, fillCalldata(t, o, amountOut, common.Address{}), "AlreadyFilled")

	// The escrow is still on the origin until the attestation arrives.
	origin.wantBalance(tokenIn, fillerAddr, new(big.Int), "filler before settle")
	origin.wantStatus(id, statusOpened)

	// An attestation made for the destination's Settlement does not release the origin's escrow.
	wrongDomain := attest(t, attester, dest.ID, dest.settlement, id, fillerAddr, amountOut)
	origin.refused(relayer, nil, settlementABI.PackSettle(o, fillerAddr, amountOut, wrongDomain), "InvalidAttestation")

	sig := origin.attestHere(attester, o, fillerAddr, amountOut)
	settleReceipt := origin.transact(relayer, origin.settlement, nil, settlementABI.PackSettle(o, fillerAddr, amountOut, sig))
	origin.wantStatus(id, statusSettled)
	origin.wantBalance(tokenIn, fillerAddr, amountIn, "filler after settle")
	origin.wantBalance(tokenIn, origin.settlement, new(big.Int), "origin settlement after settle")
	settled := oneEventOf(t, settleReceipt, origin.settlement, settlementABI.UnpackSettledEvent)
	if settled.OrderId != id || settled.Filler != fillerAddr || settled.AmountIn.Cmp(amountIn) != 0 {
		t.Errorf("Settled = %+v", settled)
	}
}

// open refuses orders that are malformed, not the sender's, late, duplicated or wrongly paid.
func TestOpenRefusals(t *testing.T) {
	w := newSwapWorld(t)
	o := w.order()
	id := idOf(t, o)
	data := encodeOrder(t, o)
	w.approve(w.user, w.tokenIn, times(amountIn, 10))

	t.Run("trailing junk after the order", func(t *testing.T) {
		junk := append(append([]byte{}, data...), make([]byte, 32)...)
		w.refused(w.user, nil, openCalldataOf(o, junk), "MalformedOrder")
		w.refused(w.user, nil, openCalldataOf(o, append(append([]byte{}, data...), 0x01)), "MalformedOrder")
		w.refused(w.user, nil, openCalldataOf(o, data[:21*32]), "MalformedOrder")
		w.wantStatus(id, statusNone)
	})
	t.Run("non-canonical encoding", func(t *testing.T) {
		dirty := append([]byte{}, data...)
		dirty[19*32] = 0x01 // a high bit of the uint64 deadline's word
		_, err := bind.Transact(w.bound(w.settlement), w.opts(w.user, nil), openCalldataOf(o, dirty))
		if err == nil || !strings.Contains(err.Error(), "execution reverted") {
			w.Backend.Commit()
			t.Fatalf("open with a dirty deadline word: %v; want a revert", err)
		}
		w.wantStatus(id, statusNone)
		w.wantStatus(crypto.Keccak256Hash(dirty), statusNone)
	})
	t.Run("not the user", func(t *testing.T) {
		w.refused(w.filler, nil, openCalldata(t, o), "NotOrderOwner")
	})
	t.Run("wrong orderDataType or fillDeadline", func(t *testing.T) {
		w.refused(w.user, nil, settlementABI.PackOpen(contracts.OnchainCrossChainOrder{
			FillDeadline: uint32(o.Deadline), OrderDataType: crypto.Keccak256Hash([]byte("Order()")), OrderData: data,
		}), "WrongOrderDataType")
		w.refused(w.user, nil, settlementABI.PackOpen(contracts.OnchainCrossChainOrder{
			FillDeadline: uint32(o.Deadline) - 1, OrderDataType: orderDataType, OrderData: data,
		}), "DeadlineMismatch")
	})
	t.Run("a swap to be filled by another contract", func(t *testing.T) {
		other := o
		other.DestinationSettler = common.HexToAddress("0x4444")
		w.refused(w.user, nil, openCalldata(t, other), "WrongDestination")
	})
	t.Run("msg.value with an ERC-20 escrow", func(t *testing.T) {
		w.refused(w.user, big.NewInt(1), openCalldata(t, o), "WrongValue")
	})
	t.Run("wrong msg.value with a native escrow", func(t *testing.T) {
		n := w.swapOrder(w.userAddr, w.recipient, native, w.tokenOut)
		w.refused(w.user, plus(n.AmountIn, -1), openCalldata(t, n), "WrongValue")
		w.refused(w.user, plus(n.AmountIn, 1), openCalldata(t, n), "WrongValue")
		w.refused(w.user, nil, openCalldata(t, n), "WrongValue")
		w.wantStatus(idOf(t, n), statusNone)
	})
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 10), "user after the refusals")
	w.wantBalance(native, w.settlement, new(big.Int), "settlement after the refusals")

	t.Run("twice", func(t *testing.T) {
		w.transact(w.user, w.settlement, nil, openCalldata(t, o))
		w.wantStatus(id, statusOpened)
		args := w.refused(w.user, nil, openCalldata(t, o), "AlreadyOpened")
		if got, err := settlementABI.UnpackAlreadyOpenedError(args); err != nil || got.OrderId != id {
			t.Errorf("AlreadyOpened(%x), %v; want the orderId", got.OrderId, err)
		}
		w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 9), "user after opening once")
		w.wantBalance(w.tokenIn, w.settlement, amountIn, "settlement after opening once")
	})
	t.Run("after the deadline", func(t *testing.T) {
		late := w.order()
		late.Deadline = w.now() + 30
		w.warpTo(late.Deadline + 1)
		w.refused(w.user, nil, openCalldata(t, late), "DeadlinePassed")
		w.wantStatus(idOf(t, late), statusNone)
	})
}

// fill refuses fills that are unopened, mismatched, short, repeated or late.
func TestFillRefusals(t *testing.T) {
	w := newSwapWorld(t)
	w.approve(w.filler, w.tokenOut, times(amountIn, 10))
	o := w.order()
	id := idOf(t, o)

	t.Run("a swap that was never opened", func(t *testing.T) {
		args := w.refused(w.filler, nil, fillCalldata(t, o, minOut, common.Address{}), "NotOpened")
		if got, err := settlementABI.UnpackNotOpenedError(args); err != nil || got.OrderId != id {
			t.Errorf("NotOpened(%x), %v; want the orderId", got.OrderId, err)
		}
	})
	w.open(w.user, o)

	t.Run("originData that does not hash to orderId", func(t *testing.T) {
		other := o
		other.MinAmountOut = big.NewInt(1)
		w.refused(w.filler, nil, settlementABI.PackFill(id, encodeOrder(t, other), fillerData(t, minOut, common.Address{})), "OrderIdMismatch")
		data := encodeOrder(t, o)
		w.refused(w.filler, nil, settlementABI.PackFill(id, append(append([]byte{}, data...), make([]byte, 32)...),
			fillerData(t, minOut, common.Address{})), "MalformedOrder")
	})
	t.Run("malformed fillerData", func(t *testing.T) {
		data := encodeOrder(t, o)
		w.refused(w.filler, nil, settlementABI.PackFill(id, data, fillerData(t, minOut, common.Address{})[:32]), "MalformedOrder")
	})
	t.Run("below the minimum", func(t *testing.T) {
		args := w.refused(w.filler, nil, fillCalldata(t, o, plus(minOut, -1), common.Address{}), "BelowMinimum")
		got, err := settlementABI.UnpackBelowMinimumError(args)
		if err != nil || got.AmountOut.Cmp(plus(minOut, -1)) != 0 || got.MinAmountOut.Cmp(minOut) != 0 {
			t.Errorf("BelowMinimum%+v, %v", got, err)
		}
	})
	t.Run("msg.value with an ERC-20 tokenOut", func(t *testing.T) {
		w.refused(w.filler, big.NewInt(1), fillCalldata(t, o, minOut, common.Address{}), "WrongValue")
	})
	w.wantStatus(id, statusOpened)
	w.wantBalance(w.tokenOut, w.recipient, new(big.Int), "recipient after the refusals")

	t.Run("twice", func(t *testing.T) {
		w.transact(w.filler, w.settlement, nil, fillCalldata(t, o, minOut, common.Address{}))
		second, secondAddr := w.newAccount()
		w.Mint(t, w.tokenOut, secondAddr, amountIn)
		w.approve(second, w.tokenOut, amountIn)
		args := w.refused(second, nil, fillCalldata(t, o, amountIn, common.Address{}), "AlreadyFilled")
		if got, err := settlementABI.UnpackAlreadyFilledError(args); err != nil || got.OrderId != id {
			t.Errorf("AlreadyFilled(%x), %v", got.OrderId, err)
		}
		w.wantBalance(w.tokenOut, w.recipient, minOut, "recipient after one fill")
		if got := w.fillRecord(id); got.Filler != w.fillAddr || got.AmountOut.Cmp(minOut) != 0 {
			t.Errorf("fills = %+v", got)
		}
	})
	t.Run("after the deadline", func(t *testing.T) {
		late := w.order()
		late.Deadline = w.now() + 30
		w.open(w.user, late)
		w.warpTo(late.Deadline + 1)
		w.refused(w.filler, nil, fillCalldata(t, late, minOut, common.Address{}), "DeadlinePassed")
		w.wantStatus(idOf(t, late), statusOpened)
	})
}

// refund returns an unsettled escrow to its user, once, and only after deadline + refundDelay.
func TestRefund(t *testing.T) {
	w := newSwapWorld(t)
	anyone, _ := w.newAccount()
	dest := big.NewInt(31338)
	remote := common.HexToAddress("0x4444")

	o := w.bridgeOrder(w.userAddr, w.recipient, w.tokenIn, w.tokenOut, dest, remote)
	id, _ := w.open(w.user, o)
	settledOrder := w.bridgeOrder(w.userAddr, w.recipient, w.tokenIn, w.tokenOut, dest, remote)
	settledID, _ := w.open(w.user, settledOrder)
	swap := w.order()
	swapID, _ := w.open(w.user, swap)
	w.fill(w.filler, swap, minOut, common.Address{})
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 7), "user after three opens")

	refundableAt := o.Deadline + refundDelay
	args := w.refused(anyone, nil, settlementABI.PackRefund(o), "RefundTooEarly")
	if got, err := settlementABI.UnpackRefundTooEarlyError(args); err != nil || got.RefundableAt.Uint64() != refundableAt {
		t.Errorf("RefundTooEarly(%v), %v; want %d", got.RefundableAt, err, refundableAt)
	}
	w.warpTo(o.Deadline + 1) // past the deadline, within the delay
	w.refused(anyone, nil, settlementABI.PackRefund(o), "RefundTooEarly")

	// Settled after its deadline but before it became refundable: it stays settled.
	w.transact(anyone, w.settlement, nil, settlementABI.PackSettle(settledOrder, w.fillAddr, minOut,
		w.attestHere(w.attester, settledOrder, w.fillAddr, minOut)))

	w.warpTo(refundableAt) // refundable strictly after deadline + refundDelay
	w.refused(anyone, nil, settlementABI.PackRefund(o), "RefundTooEarly")

	w.warpTo(refundableAt + 1)
	receipt := w.transact(anyone, w.settlement, nil, settlementABI.PackRefund(o))
	w.wantStatus(id, statusRefunded)
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 8), "user after the refund")
	w.wantBalance(w.tokenIn, w.settlement, new(big.Int), "settlement after the refund")
	refunded := oneEventOf(t, receipt, w.settlement, settlementABI.UnpackRefundedEvent)
	if refunded.OrderId != id || refunded.User != w.userAddr || refunded.AmountIn.Cmp(amountIn) != 0 {
		t.Errorf("Refunded = %+v", refunded)
	}

	t.Run("a second time", func(t *testing.T) {
		w.refused(anyone, nil, settlementABI.PackRefund(o), "NotOpened")
	})
	t.Run("settle after the refund", func(t *testing.T) {
		sig := w.attestHere(w.attester, o, w.fillAddr, minOut)
		w.refused(anyone, nil, settlementABI.PackSettle(o, w.fillAddr, minOut, sig), "NotOpened")
	})
	t.Run("after a settle", func(t *testing.T) {
		w.refused(anyone, nil, settlementABI.PackRefund(settledOrder), "NotOpened")
		w.wantStatus(settledID, statusSettled)
	})
	t.Run("after a same-chain fill", func(t *testing.T) {
		w.refused(anyone, nil, settlementABI.PackRefund(swap), "NotOpened")
		w.wantStatus(swapID, statusSettled)
	})
	t.Run("an order that was never opened", func(t *testing.T) {
		w.refused(anyone, nil, settlementABI.PackRefund(w.order()), "NotOpened")
	})
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 8), "user after the refusals")
	w.wantBalance(w.tokenIn, w.fillAddr, times(amountIn, 2), "filler (one swap, one settle)")
	w.wantBalance(w.tokenIn, w.settlement, new(big.Int), "settlement at the end")
}

// settle releases an escrow only on the attester's own signature of exactly this fill, in this
// contract's domain, once.
func TestSettleAttestations(t *testing.T) {
	w := newSwapWorld(t)
	relayer, _ := w.newAccount()
	dest := big.NewInt(31338)
	remote := common.HexToAddress("0x4444")
	o := w.bridgeOrder(w.userAddr, w.recipient, w.tokenIn, w.tokenOut, dest, remote)
	id, _ := w.open(w.user, o)
	other := w.bridgeOrder(w.userAddr, w.recipient, w.tokenIn, w.tokenOut, dest, remote)
	otherID, _ := w.open(w.user, other)
	filler, amountOut := w.fillAddr, plus(minOut, 10)
	settle := func(o contracts.Order, filler common.Address, amountOut *big.Int, sig []byte) []byte {
		return settlementABI.PackSettle(o, filler, amountOut, sig)
	}
	valid := w.attestHere(w.attester, o, filler, amountOut)

	t.Run("signed by another key", func(t *testing.T) {
		impostor := newKey(t)
		w.refused(relayer, nil, settle(o, filler, amountOut, w.attestHere(impostor, o, filler, amountOut)), "InvalidAttestation")
	})
	t.Run("made for another order", func(t *testing.T) {
		w.refused(relayer, nil, settle(other, filler, amountOut, valid), "InvalidAttestation")
	})
	t.Run("another filler than signed", func(t *testing.T) {
		w.refused(relayer, nil, settle(o, w.userAddr, amountOut, valid), "InvalidAttestation")
	})
	t.Run("another amountOut than signed", func(t *testing.T) {
		w.refused(relayer, nil, settle(o, filler, plus(amountOut, 1), valid), "InvalidAttestation")
		w.refused(relayer, nil, settle(o, filler, minOut, valid), "InvalidAttestation")
	})
	t.Run("made for another chain", func(t *testing.T) {
		sig := attest(t, w.attester, dest, w.settlement, id, filler, amountOut)
		w.refused(relayer, nil, settle(o, filler, amountOut, sig), "InvalidAttestation")
	})
	t.Run("made for another contract", func(t *testing.T) {
		second := w.deploySettlement(crypto.PubkeyToAddress(w.attester.PublicKey))
		digest := fillDigest(t, w.ID, second, id, filler, amountOut)
		if got := get(w.testChain, second, settlementABI.PackFillDigest(id, filler, amountOut), settlementABI.UnpackFillDigest); !bytes.Equal(got[:], digest) {
			t.Fatalf("the second Settlement's digest %x differs from go-ethereum's %x", got, digest)
		}
		w.refused(relayer, nil, settle(o, filler, amountOut, sign(t, w.attester, digest)), "InvalidAttestation")
	})
	t.Run("malleable signature", func(t *testing.T) {
		r, s := new(big.Int).SetBytes(valid[:32]), new(big.Int).SetBytes(valid[32:64])
		highS := new(big.Int).Sub(crypto.S256().Params().N, s)
		malleable := make([]byte, 65)
		copy(malleable, valid[:32])
		highS.FillBytes(malleable[32:64])
		malleable[64] = 55 - valid[64] // 27 <-> 28
		// The ecrecover precompile itself accepts it: only the contract's low-s rule refuses it.
		digest := fillDigest(t, w.ID, w.settlement, id, filler, amountOut)
		input := append(append(append(append([]byte{}, digest...), common.LeftPadBytes([]byte{malleable[64]}, 32)...),
			common.LeftPadBytes(r.Bytes(), 32)...), malleable[32:64]...)
		if got := w.call(common.BytesToAddress([]byte{1}), input); common.BytesToAddress(got) != crypto.PubkeyToAddress(w.attester.PublicKey) {
			t.Fatalf("ecrecover of the malleated signature = %x; want the attester", got)
		}
		w.refused(relayer, nil, settle(o, filler, amountOut, malleable), "InvalidAttestation")
	})
	t.Run("malformed signatures", func(t *testing.T) {
		w.refused(relayer, nil, settle(o, filler, amountOut, valid[:64]), "InvalidAttestation")
		w.refused(relayer, nil, settle(o, filler, amountOut, append(append([]byte{}, valid...), 0)), "InvalidAttestation")
		v01 := append([]byte{}, valid...)
		v01[64] -= 27
		w.refused(relayer, nil, settle(o, filler, amountOut, v01), "InvalidAttestation")
		w.refused(relayer, nil, settle(o, filler, amountOut, nil), "InvalidAttestation")
	})
	t.Run("below the minimum, even when attested", func(t *testing.T) {
		low := plus(minOut, -1)
		args := w.refused(relayer, nil, settle(o, filler, low, w.attestHere(w.attester, o, filler, low)), "BelowMinimum")
		if got, err := settlementABI.UnpackBelowMinimumError(args); err != nil || got.AmountOut.Cmp(low) != 0 {
			t.Errorf("BelowMinimum%+v, %v", got, err)
		}
	})
	t.Run("to the zero address, even when attested", func(t *testing.T) {
		zero := common.Address{}
		w.refused(relayer, nil, settle(o, zero, amountOut, w.attestHere(w.attester, o, zero, amountOut)), "ZeroAddress")
	})
	w.wantStatus(id, statusOpened)
	w.wantStatus(otherID, statusOpened)
	w.wantBalance(w.tokenIn, w.settlement, times(amountIn, 2), "settlement after the refusals")

	t.Run("valid, then replayed", func(t *testing.T) {
		receipt := w.transact(relayer, w.settlement, nil, settle(o, filler, amountOut, valid))
		oneEventOf(t, receipt, w.settlement, settlementABI.UnpackSettledEvent)
		w.wantStatus(id, statusSettled)
		w.wantBalance(w.tokenIn, filler, amountIn, "filler")
		args := w.refused(relayer, nil, settle(o, filler, amountOut, valid), "NotOpened")
		if got, err := settlementABI.UnpackNotOpenedError(args); err != nil || got.OrderId != id {
			t.Errorf("NotOpened(%x), %v", got.OrderId, err)
		}
		w.wantBalance(w.tokenIn, filler, amountIn, "filler after the replay")
		w.wantStatus(otherID, statusOpened)
	})
}

// ---- reentrancy, with ReentrantToken ----

// hostile is a ReentrantToken on a swap world's chain.
type hostile struct {
	w    *swapWorld
	addr common.Address
}

func (w *swapWorld) deployHostile() *hostile {
	w.t.Helper()
	return &hostile{w: w, addr: w.deployHostileToken()}
}

// arm makes the token's next transfer call target with calldata.
func (h *hostile) arm(target common.Address, calldata []byte) {
	h.w.t.Helper()
	h.w.transact(h.w.Funder, h.addr, nil, hostileABI.PackArm(target, calldata))
}

// wantAttempts asserts that the token's hook ran `attempts` times in all and that no re-entry
// succeeded.
func (h *hostile) wantAttempts(attempts int64) {
	h.w.t.Helper()
	if got := get(h.w.testChain, h.addr, hostileABI.PackAttempts(), hostileABI.UnpackAttempts); got.Int64() != attempts {
		h.w.t.Errorf("attempts = %s; want %d", got, attempts)
	}
	if get(h.w.testChain, h.addr, hostileABI.PackReentered(), hostileABI.UnpackReentered) {
		h.w.t.Error("reentered = true: a call made from inside a payout succeeded")
	}
}

// transfersTo counts the token's Transfer events from `from` to `to` in receipt.
func (h *hostile) transfersTo(r *types.Receipt, from, to common.Address) int {
	h.w.t.Helper()
	n := 0
	for _, ev := range eventsOf(h.w.t, r, h.addr, hostileABI.UnpackTransferEvent) {
		if ev.From == from && ev.To == to {
			n++
		}
	}
	return n
}

// A refund whose payout re-enters refund, for the same order or for another refundable one,
// pays once and leaves the other order open.
func TestRefundPayoutCannotReenter(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, times(amountIn, 2))
	a := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	b := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	idA, _ := w.open(w.user, a)
	idB, _ := w.open(w.user, b)
	w.wantBalance(h.addr, w.settlement, times(amountIn, 2), "settlement after two opens")
	w.warpTo(max(a.Deadline, b.Deadline) + refundDelay + 1)
	anyone, _ := w.newAccount()

	h.arm(w.settlement, settlementABI.PackRefund(a)) // the same order
	r := w.transactFixedGas(anyone, w.settlement, settlementABI.PackRefund(a))
	h.wantAttempts(1)
	w.wantStatus(idA, statusRefunded)
	w.wantBalance(h.addr, w.userAddr, amountIn, "user after refunding A")
	if n := h.transfersTo(r, w.settlement, w.userAddr); n != 1 {
		t.Errorf("%d transfers to the user in refund(A); want 1", n)
	}
	if n := len(eventsOf(t, r, w.settlement, settlementABI.UnpackRefundedEvent)); n != 1 {
		t.Errorf("%d Refunded events; want 1", n)
	}

	// B is refundable by anyone, so only the reentrancy guard stops its refund from inside A's.
	c := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	w.Mint(t, h.addr, w.userAddr, amountIn)
	c.Deadline = w.now() + 60
	idC, _ := w.open(w.user, c)
	w.warpTo(c.Deadline + refundDelay + 1)
	h.arm(w.settlement, settlementABI.PackRefund(b))
	r = w.transactFixedGas(anyone, w.settlement, settlementABI.PackRefund(c))
	h.wantAttempts(2)
	w.wantStatus(idC, statusRefunded)
	w.wantStatus(idB, statusOpened)
	w.wantBalance(h.addr, w.userAddr, times(amountIn, 2), "user after refunding C")
	if n := h.transfersTo(r, w.settlement, w.userAddr); n != 1 {
		t.Errorf("%d transfers to the user in refund(C); want 1", n)
	}

	// B itself still refunds normally (the token is disarmed after one attempt).
	w.transact(anyone, w.settlement, nil, settlementABI.PackRefund(b))
	w.wantStatus(idB, statusRefunded)
	w.wantBalance(h.addr, w.userAddr, times(amountIn, 3), "user after refunding B")
	w.wantBalance(h.addr, w.settlement, new(big.Int), "settlement at the end")
}

// A settle whose payout re-enters settle with the same attestation, or refund of the same order,
// pays the filler once and the user nothing.
func TestSettlePayoutCannotReenter(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, times(amountIn, 3))
	relayer, _ := w.newAccount()
	dest, remote := big.NewInt(31338), common.HexToAddress("0x4444")

	a := w.bridgeOrder(w.userAddr, w.recipient, h.addr, w.tokenOut, dest, remote)
	idA, _ := w.open(w.user, a)
	b := w.bridgeOrder(w.userAddr, w.recipient, h.addr, w.tokenOut, dest, remote)
	idB, _ := w.open(w.user, b)
	// A third escrow, so that a second payout from inside a payout would not fail for want of funds.
	ballast := w.bridgeOrder(w.userAddr, w.recipient, h.addr, w.tokenOut, dest, remote)
	w.open(w.user, ballast)
	sigA := w.attestHere(w.attester, a, w.fillAddr, minOut)
	settleA := settlementABI.PackSettle(a, w.fillAddr, minOut, sigA)
	h.arm(w.settlement, settleA)
	r := w.transactFixedGas(relayer, w.settlement, settleA)
	h.wantAttempts(1)
	w.wantStatus(idA, statusSettled)
	w.wantBalance(h.addr, w.fillAddr, amountIn, "filler after settle(A)")
	if n := h.transfersTo(r, w.settlement, w.fillAddr); n != 1 {
		t.Errorf("%d transfers to the filler; want 1", n)
	}
	if n := len(eventsOf(t, r, w.settlement, settlementABI.UnpackSettledEvent)); n != 1 {
		t.Errorf("%d Settled events; want 1", n)
	}

	// Past its refund time an order can still be settled; the payout cannot also refund it.
	w.warpTo(b.Deadline + refundDelay + 1)
	h.arm(w.settlement, settlementABI.PackRefund(b))
	w.transactFixedGas(relayer, w.settlement, settlementABI.PackSettle(b, w.fillAddr, minOut,
		w.attestHere(w.attester, b, w.fillAddr, minOut)))
	h.wantAttempts(2)
	w.wantStatus(idB, statusSettled)
	w.wantBalance(h.addr, w.fillAddr, times(amountIn, 2), "filler after settle(B)")
	w.wantBalance(h.addr, w.userAddr, new(big.Int), "user")
	w.wantBalance(h.addr, w.settlement, amountIn, "settlement (the ballast's escrow)")
}

// A fill whose delivery re-enters fill for the same order, or refund of another refundable order,
// delivers once and refunds nothing.
func TestFillDeliveryCannotReenter(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.fillAddr, times(amountIn, 4))
	w.approve(w.filler, h.addr, times(amountIn, 4))
	anyone, _ := w.newAccount()

	a := w.swapOrder(w.userAddr, w.recipient, w.tokenIn, h.addr)
	idA, _ := w.open(w.user, a)
	fillA := fillCalldata(t, a, minOut, common.Address{})
	h.arm(w.settlement, fillCalldata(t, a, minOut, bystander))
	r := w.transactFixedGas(w.filler, w.settlement, fillA)
	h.wantAttempts(1)
	w.wantStatus(idA, statusSettled)
	w.wantBalance(h.addr, w.recipient, minOut, "recipient after fill(A)")
	w.wantBalance(w.tokenIn, w.fillAddr, amountIn, "filler's escrow after fill(A)")
	if n := h.transfersTo(r, w.fillAddr, w.recipient); n != 1 {
		t.Errorf("%d deliveries to the recipient; want 1", n)
	}
	if n := len(eventsOf(t, r, w.settlement, settlementABI.UnpackFilledEvent)); n != 1 {
		t.Errorf("%d Filled events; want 1", n)
	}
	if got := w.fillRecord(idA); got.Filler != w.fillAddr {
		t.Errorf("fills(A).filler = %s; want the filler", got.Filler)
	}

	// B is refundable by anyone: only the reentrancy guard stops its refund from inside fill(C).
	b := w.order()
	b.Deadline = w.now() + 30
	idB, _ := w.open(w.user, b)
	c := w.swapOrder(w.userAddr, w.recipient, w.tokenIn, h.addr)
	c.Deadline = b.Deadline + refundDelay + 3600
	idC, _ := w.open(w.user, c)
	w.warpTo(b.Deadline + refundDelay + 1)
	userBefore := w.balance(w.tokenIn, w.userAddr)
	h.arm(w.settlement, settlementABI.PackRefund(b))
	w.transactFixedGas(w.filler, w.settlement, fillCalldata(t, c, minOut, common.Address{}))
	h.wantAttempts(2)
	w.wantStatus(idC, statusSettled)
	w.wantStatus(idB, statusOpened)
	w.wantBalance(w.tokenIn, w.userAddr, userBefore, "user after fill(C)")
	w.transact(anyone, w.settlement, nil, settlementABI.PackRefund(b))
	w.wantStatus(idB, statusRefunded)
}

// ---- short transfers ----

// A token whose transfer to the recipient delivers less than amountOut is refused: here the
// recipient is the ReentrantToken itself, armed to send one unit away during the delivery.
func TestShortDeliveryIsRefused(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.fillAddr, amountIn)
	w.approve(w.filler, h.addr, amountIn)
	o := w.swapOrder(w.userAddr, h.addr, w.tokenIn, h.addr)
	id, _ := w.open(w.user, o)

	h.arm(h.addr, hostileABI.PackTransfer(common.HexToAddress("0x000000000000000000000000000000000000dead"), big.NewInt(1)))
	args := w.refused(w.filler, nil, fillCalldata(t, o, minOut, common.Address{}), "TransferShort")
	got, err := settlementABI.UnpackTransferShortError(args)
	if err != nil || got.Received.Cmp(plus(minOut, -1)) != 0 || got.Expected.Cmp(minOut) != 0 {
		t.Errorf("TransferShort%+v, %v; want (%s, %s)", got, err, plus(minOut, -1), minOut)
	}
	w.wantStatus(id, statusOpened)
	if rec := w.fillRecord(id); rec.Filler != (common.Address{}) {
		t.Errorf("fills = %+v; want none", rec)
	}
	w.wantBalance(h.addr, w.fillAddr, amountIn, "filler")
}

// An escrow pull must move exactly amountIn: a token whose transferFrom changes the escrow's
// balance by anything else (here one unit more, the only deviation a hostile token can cause on
// the pull side) is refused.
func TestOpenRefusesInexactEscrow(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, amountIn)
	w.Mint(t, h.addr, h.addr, big.NewInt(1))
	o := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	w.approve(w.user, h.addr, amountIn)

	h.arm(h.addr, hostileABI.PackTransfer(w.settlement, big.NewInt(1)))
	args := w.refused(w.user, nil, openCalldata(t, o), "TransferShort")
	got, err := settlementABI.UnpackTransferShortError(args)
	if err != nil || got.Received.Cmp(plus(amountIn, 1)) != 0 || got.Expected.Cmp(amountIn) != 0 {
		t.Errorf("TransferShort%+v, %v; want (%s, %s)", got, err, plus(amountIn, 1), amountIn)
	}
	w.wantStatus(idOf(t, o), statusNone)
	w.wantBalance(h.addr, w.userAddr, amountIn, "user")
}
