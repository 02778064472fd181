// Package filler is a reference filler for local chains: it watches the settlement contracts'
// Opened events, fills the orders it can from its own inventory at a configured price, and claims
// the escrow of its bridge fills with the service's attestation; with a filler key it also opens
// the signed gasless orders of the service's order book (gasless.go). It is what the tests and the
// `make run` demo use to settle orders; it is a demo, not a production solver: it takes no risk
// management, no competition and no gas pricing into account.
package filler

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/chain/txnonce"
)

// Chain is one chain the filler works on.
type Chain struct {
	Client     *ethclient.Client
	ID         *big.Int
	Settlement common.Address
	url        string // redacted from the errors Run logs
	// nonces: the filler opens and fills back to back, faster than the node's pending nonce moves.
	nonces txnonce.Tracker
}

// Dial connects to a chain's node through the service's node client and checks that it serves
// chain id. The filler sends transactions with go-ethereum's ethclient over that connection (its
// errors can quote the URL: Run redacts what it logs); each step is bounded by stepTimeout.
func Dial(ctx context.Context, id uint64, rpcURL string, settlementAddr common.Address) (*Chain, error) {
	node, err := jsonrpc.Dial(ctx, fmt.Sprintf("eip155:%d", id), rpcURL, jsonrpc.Options{Caller: "filler", Timeout: stepTimeout})
	if err != nil {
		return nil, err
	}
	served, err := node.ChainID(ctx)
	if err != nil {
		node.Close()
		return nil, fmt.Errorf("asking the node of chain %d for its chain id: %w", id, err)
	}
	if !served.IsUint64() || served.Uint64() != id {
		node.Close()
		return nil, fmt.Errorf("the node of chain %d serves chain %s", id, served)
	}
	return &Chain{Client: ethclient.NewClient(node.Raw()), ID: served, Settlement: settlementAddr, url: rpcURL}, nil
}

// Quote decides the filler's price for an order: the most tokenOut it would deliver (at least
// the order's floor, or the order is skipped), or false to leave it. The filler delivers what the
// order owes when it fills (settlement.Owed: the Dutch decay and the exclusivity), and waits while
// that is above its price.
type Quote func(o settlement.Order) (*big.Int, bool)

// AtMinimum prices each order at its floor: the filler waits for the decay to reach the floor.
func AtMinimum(o settlement.Order) (*big.Int, bool) { return o.MinAmountOut, true }

// Premium prices each order at its floor plus bps basis points (rounded down): a filler's spread.
// Its quote endpoint quotes the same price (QuoteEndpoint).
func Premium(bps uint) Quote {
	return func(o settlement.Order) (*big.Int, bool) {
		out := new(big.Int).Mul(o.MinAmountOut, new(big.Int).SetUint64(10_000+uint64(bps)))
		return out.Quo(out, big.NewInt(10_000)), true
	}
}

// Filler fills orders on its chains. Step is not safe for concurrent use.
type Filler struct {
	Key    *ecdsa.PrivateKey
	Chains map[uint64]*Chain
	Quote  Quote
	// API and APIKey reach the service's attestation endpoint, to claim bridge escrows.
	API, APIKey string
	// OrdersKey is a filler key of the API (an ApiKey of role filler): with it, each step first
	// opens the signed gasless orders of GET /v2/orders it would fill. Empty: no order book.
	OrdersKey string
	// MaxNativeDrop is the most native token (wei) the filler pays as an order's native drop (gas
	// on arrival); nil: DefaultMaxNativeDrop. open() is anyone's call: without a bound, an order
	// with a one-wei input could ask for the filler's whole native balance as its drop.
	MaxNativeDrop *big.Int
	HTTP          *http.Client
	Log           logr.Logger

	// Sent lists the transactions the filler sent, oldest first.
	Sent []*types.Transaction

	cursor  map[uint64]uint64
	claims  map[common.Hash]claim            // bridge orders filled, by orderId
	retry   map[common.Hash]settlement.Order // orders whose fill failed for a passing reason
	done    *seen                            // orders filled or skipped, until their deadline
	book    *seen                            // gasless orders of the book opened or refused for good
	started bool
}

// skip is the error of an order the filler leaves for good: not on its chains, past its deadline,
// below its price or beyond its inventory. Any other error of a fill is tried again.
type skip struct{ error }

// scanWindow is how far back the first scan of a chain looks for open orders.
const scanWindow = 1_000

// claim is a bridge fill whose escrow the filler is owed on the origin chain.
type claim struct {
	order     settlement.Order
	amountOut *big.Int
}

// Gas limits of the filler's transactions: fixed, so that a fill can be sent right after the
// approval it needs, before that is mined (an estimate would see no allowance yet). Generous: the
// local chains run every fork, where an ERC-20 approval alone costs about 150,000 gas.
const (
	approveGas = 300_000
	fillGas    = 800_000
	settleGas  = 600_000
)

// stepTimeout bounds one step, so that a node or an API that hangs delays the filler, not stops it.
const stepTimeout = 30 * time.Second

// Run steps every interval until ctx ends; a failed step is logged and retried at the next one.
func (f *Filler) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		stepCtx, cancel := context.WithTimeout(ctx, stepTimeout)
		err := f.Step(stepCtx)
		cancel()
		if err != nil && ctx.Err() == nil {
			for _, c := range f.Chains {
				err = jsonrpc.Redact(err, c.url)
			}
			f.Log.Error(err, "filler step")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Step opens the new orders of the order book (with an OrdersKey), reads the new Opened events of
// every chain, fills what it can, and claims the escrows of its final bridge fills. It sends
// transactions and does not wait for them: an order it opens is filled at a later step, once its
// Opened event is in a block.
func (f *Filler) Step(ctx context.Context) error {
	if !f.started {
		f.cursor, f.claims, f.retry = map[uint64]uint64{}, map[common.Hash]claim{}, map[common.Hash]settlement.Order{}
		f.done, f.book = newSeen(seenMax), newSeen(seenMax)
		f.started = true
	}
	f.done.prune(time.Now())
	f.book.prune(time.Now())
	var errs []error
	if f.API != "" && f.OrdersKey != "" {
		if err := f.openBook(ctx); err != nil {
			errs = append(errs, fmt.Errorf("order book: %w", err))
		}
	}
	for id, o := range f.retry {
		delete(f.retry, id)
		f.try(ctx, id, o)
	}
	for id, c := range f.Chains {
		if err := f.scan(ctx, id, c); err != nil {
			errs = append(errs, fmt.Errorf("chain %d: %w", id, err))
		}
	}
	if err := f.claim(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// scan fills the orders opened on chain id since the last step.
func (f *Filler) scan(ctx context.Context, id uint64, c *Chain) error {
	head, err := c.Client.BlockNumber(ctx)
	if err != nil {
		return err
	}
	from := f.cursor[id] + 1
	if f.cursor[id] == 0 && head > scanWindow {
		from = head - scanWindow
	}
	if from > head {
		return nil
	}
	logs, err := c.Client.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(head),
		Addresses: []common.Address{c.Settlement}, Topics: [][]common.Hash{{settlement.Topics()[0]}},
	})
	if err != nil {
		return err
	}
	for _, l := range logs {
		ev, ok, err := settlement.Parse(l)
		if err != nil || !ok || ev.Kind != settlement.EventOpened || f.done.has(ev.OrderID) {
			continue
		}
		f.try(ctx, ev.OrderID, *ev.Order)
	}
	f.cursor[id] = head
	return nil
}

// try fills the order, or skips it for good, or keeps it for the next step.
func (f *Filler) try(ctx context.Context, id common.Hash, o settlement.Order) {
	err := f.fill(ctx, id, o)
	var skipped skip
	switch {
	case err == nil:
		f.done.add(id, deadlineTime(o.Deadline))
	case errors.As(err, &skipped):
		f.done.add(id, deadlineTime(o.Deadline))
		f.Log.Info("not filled", "orderId", id.Hex(), "reason", err.Error())
	default:
		f.retry[id] = o
		f.Log.Error(err, "not filled yet; trying again at the next step", "orderId", id.Hex())
	}
}

// fill delivers the order on its destination chain, approving the settlement contract first.
func (f *Filler) fill(ctx context.Context, id common.Hash, o settlement.Order) error {
	dest, amount, err := f.worth(ctx, o)
	if err != nil {
		return err
	}
	if err := f.unfilled(ctx, dest, id); err != nil {
		return err
	}
	// The native drop travels as value with the fill, beside a native output.
	value := new(big.Int).Set(settlement.Plain(o).NativeDropAmount)
	if o.TokenOut == settlement.Native {
		value.Add(value, amount)
	} else {
		approve := contracts.NewTestToken().PackApprove(dest.Settlement, amount)
		if _, err := f.send(ctx, dest, o.TokenOut, approve, new(big.Int), approveGas); err != nil {
			return fmt.Errorf("approving: %w", err)
		}
	}
	data, err := settlement.FillData(o, amount, crypto.PubkeyToAddress(f.Key.PublicKey))
	if err != nil {
		return err
	}
	tx, err := f.send(ctx, dest, dest.Settlement, data, value, fillGas)
	if err != nil {
		return fmt.Errorf("filling: %w", err)
	}
	if o.OriginChainId.Cmp(o.DestinationChainId) != 0 {
		f.claims[id] = claim{order: o, amountOut: amount}
	}
	f.Log.Info("filled", "orderId", id.Hex(), "amountOut", amount, "tx", tx.Hash().Hex())
	return nil
}

// worth is the chain the filler would fill o on and the amount it would deliver there, or why it
// would not: not on its chains, past its deadline, below its price or beyond its inventory (a
// skip), or a read that failed. A gasless order is checked the same way before the filler pays
// for its openFor. While the order owes more than the filler's price (its decay has not come down
// to it yet, or another filler's exclusivity lasts), it is tried again at a later step.
func (f *Filler) worth(ctx context.Context, o settlement.Order) (*Chain, *big.Int, error) {
	dest, ok := f.Chains[o.DestinationChainId.Uint64()]
	if !ok || dest.Settlement != o.DestinationSettler {
		return nil, nil, skip{fmt.Errorf("no inventory on chain %s", o.DestinationChainId)}
	}
	if time.Now().Unix() >= int64(o.Deadline) { //nolint:gosec // deadlines are far below 2^63
		return nil, nil, skip{errors.New("past its deadline")}
	}
	price, ok := f.Quote(o)
	if !ok || price.Cmp(o.MinAmountOut) < 0 {
		return nil, nil, skip{fmt.Errorf("the price does not reach the minimum %s", o.MinAmountOut)}
	}
	owed, err := f.owed(ctx, dest, o)
	if err != nil {
		return nil, nil, err
	}
	if owed.Cmp(price) > 0 {
		return nil, nil, fmt.Errorf("the order owes %s, above the filler's price %s: waiting for its decay", owed, price)
	}
	if err := f.holds(ctx, dest, o.TokenOut, owed); err != nil {
		return nil, nil, err
	}
	if err := f.dropAllowed(settlement.Plain(o).NativeDropAmount); err != nil {
		return nil, nil, skip{err}
	}
	// The native drop (gas on arrival) is paid from the filler's native balance with the fill.
	if drop := settlement.Plain(o).NativeDropAmount; drop.Sign() > 0 {
		native := new(big.Int).Set(drop)
		if o.TokenOut == settlement.Native {
			native.Add(native, owed)
		}
		if err := f.holds(ctx, dest, settlement.Native, native); err != nil {
			return nil, nil, err
		}
	}
	return dest, owed, nil
}

// unfilled checks that no filler has filled the order on dest yet: in a market another filler
// may have (the winner of its exclusivity, while this one waited for the decay), and a second
// fill would only revert and cost gas, then leave a claim no attestation names this filler for.
func (f *Filler) unfilled(ctx context.Context, dest *Chain, id common.Hash) error {
	abi := contracts.NewSettlement()
	out, err := dest.Client.CallContract(ctx, ethereum.CallMsg{To: &dest.Settlement, Data: abi.PackFills(id)}, nil)
	if err != nil {
		return fmt.Errorf("reading the order's fill: %w", err)
	}
	fill, err := abi.UnpackFills(out)
	if err != nil {
		return fmt.Errorf("reading the order's fill: %w", err)
	}
	if fill.Filler != (common.Address{}) {
		return skip{fmt.Errorf("filled by %s", fill.Filler.Hex())}
	}
	return nil
}

// owed is what a fill of o by the filler owes at the destination chain's latest block: a fill
// mined later owes no more (the decay only falls, and an exclusivity only ends).
func (f *Filler) owed(ctx context.Context, dest *Chain, o settlement.Order) (*big.Int, error) {
	head, err := dest.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, err
	}
	owed, err := settlement.Owed(o, crypto.PubkeyToAddress(f.Key.PublicKey), head.Time)
	if errors.Is(err, settlement.ErrExclusive) {
		return nil, fmt.Errorf("exclusive to %s until %d", o.ExclusiveFiller.Hex(), o.ExclusivityDeadline)
	}
	return owed, err
}

// holds checks the filler's inventory of token on c: a fill it cannot pay would only revert
// and cost gas.
func (f *Filler) holds(ctx context.Context, c *Chain, token common.Address, amount *big.Int) error {
	owner := crypto.PubkeyToAddress(f.Key.PublicKey)
	var balance *big.Int
	var err error
	if token == settlement.Native {
		balance, err = c.Client.BalanceAt(ctx, owner, nil)
	} else {
		erc20 := contracts.NewTestToken()
		balance, err = bind.Call(erc20.Instance(c.Client, token), &bind.CallOpts{Context: ctx}, erc20.PackBalanceOf(owner), erc20.UnpackBalanceOf)
	}
	if err != nil {
		return fmt.Errorf("reading the inventory of %s: %w", token.Hex(), err)
	}
	if balance.Cmp(amount) < 0 {
		return skip{fmt.Errorf("inventory of %s short: holds %s, the order needs %s", token.Hex(), balance, amount)}
	}
	return nil
}

// DefaultMaxNativeDrop is the most native token a filler pays as an order's native drop unless
// told otherwise: 0.01 ether, the bound of the sample Chains' maxGasOnArrival.
var DefaultMaxNativeDrop = big.NewInt(1e16)

// dropAllowed says why the filler does not pay drop (wei) as a native drop, if it does not.
func (f *Filler) dropAllowed(drop *big.Int) error {
	most := f.MaxNativeDrop
	if most == nil {
		most = DefaultMaxNativeDrop
	}
	if drop != nil && drop.Cmp(most) > 0 {
		return fmt.Errorf("its native drop %s wei is above the filler's bound %s wei", drop, most)
	}
	return nil
}

// send signs and sends a transaction of the filler's key.
func (f *Filler) send(ctx context.Context, c *Chain, to common.Address, data []byte, value *big.Int, gas uint64) (*types.Transaction, error) {
	from := crypto.PubkeyToAddress(f.Key.PublicKey)
	tip, err := c.Client.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, err
	}
	head, err := c.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, err
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	nonce, err := c.nonces.Next(ctx, c.Client, from)
	if err != nil {
		return nil, err
	}
	tx, err := types.SignNewTx(f.Key, types.LatestSignerForChainID(c.ID), &types.DynamicFeeTx{
		ChainID: c.ID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: &to, Value: value, Data: data,
	})
	if err == nil {
		err = c.Client.SendTransaction(ctx, tx)
	}
	if err != nil {
		c.nonces.Unused(from, nonce)
		return nil, err
	}
	f.Sent = append(f.Sent, tx)
	return tx, nil
}

// attestationAnswer is the part of GET /v2/orders/{orderId}/attestation the filler uses.
type attestationAnswer struct {
	Filler    string `json:"filler"`
	AmountOut string `json:"amountOut"`
	Signature string `json:"signature"`
}

// claim sends the settle transaction of every bridge fill the service has attested. The
// transaction is built here from the order the filler filled, not taken from the answer: the
// service vouches for the fill, not for what the filler signs. A failed claim is tried again at
// the next step without holding up the others.
func (f *Filler) claim(ctx context.Context) error {
	var errs []error
	for id, c := range f.claims {
		if err := f.claimOne(ctx, id, c); err != nil {
			errs = append(errs, fmt.Errorf("claiming %s: %w", id.Hex(), err))
		}
	}
	return errors.Join(errs...)
}

func (f *Filler) claimOne(ctx context.Context, id common.Hash, c claim) error {
	answer, ok, err := f.attestation(ctx, id)
	if err != nil || !ok {
		return err // !ok: not final yet
	}
	sig, err := hexutil.Decode(answer.Signature)
	if err != nil || len(sig) != 65 {
		return fmt.Errorf("the attestation's signature %q is not 65 bytes of hex", answer.Signature)
	}
	if answer.AmountOut != c.amountOut.String() {
		return fmt.Errorf("the attestation is for amountOut %s, the filler delivered %s", answer.AmountOut, c.amountOut)
	}
	origin := f.Chains[c.order.OriginChainId.Uint64()]
	if origin == nil {
		return fmt.Errorf("no client for the origin chain %s", c.order.OriginChainId)
	}
	data, err := settlement.SettleData(c.order, settlement.Attestation{
		OrderID: id, Filler: crypto.PubkeyToAddress(f.Key.PublicKey), AmountOut: c.amountOut, Signature: sig,
	})
	if err != nil {
		return err
	}
	tx, err := f.send(ctx, origin, origin.Settlement, data, new(big.Int), settleGas)
	if err != nil {
		return err
	}
	delete(f.claims, id)
	f.Log.Info("claimed", "orderId", id.Hex(), "tx", tx.Hash().Hex())
	return nil
}

func (f *Filler) attestation(ctx context.Context, id common.Hash) (attestationAnswer, bool, error) {
	status, _, body, err := f.get(ctx, f.API+"/v2/orders/"+id.Hex()+"/attestation", f.APIKey)
	if err != nil {
		return attestationAnswer{}, false, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusNotFound:
		return attestationAnswer{}, false, nil
	default:
		return attestationAnswer{}, false, fmt.Errorf("attestation of %s: HTTP %d", id.Hex(), status)
	}
	var a attestationAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return attestationAnswer{}, false, err
	}
	if common.HexToAddress(a.Filler) != crypto.PubkeyToAddress(f.Key.PublicKey) {
		return attestationAnswer{}, false, fmt.Errorf("attestation of %s names filler %s, not this filler", id.Hex(), a.Filler)
	}
	return a, true, nil
}

// apiTimeout bounds one request to the API, so that a slow API leaves the step time for its chains.
const apiTimeout = 10 * time.Second

// get is a GET of the API with an API key: the status, the headers and up to 1 MiB of the body.
func (f *Filler) get(ctx context.Context, url, key string) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("api-key", key)
	client := f.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, resp.Header, body, nil
}
