package filler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/reverts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// Gasless orders (ERC-7683 openFor through Permit2) are signed by their users and listed to filler
// keys on GET /v2/orders; nothing is on chain until a filler opens one and pays its gas. The
// filler opens the orders it would fill; the Opened scan then fills them like any other order.

// openForGas is openFor's fixed gas limit: Permit2's signature check and transfer, the order's
// record and its event spend well under half of it.
const openForGas = 700_000

// One step reads at most bookPages pages of bookPageSize orders: a long book is read further at
// the next steps, as the orders opened leave it.
const (
	bookPageSize = 100
	bookPages    = 5
)

// bookOrder is one order of GET /v2/orders.
type bookOrder struct {
	OrderID   common.Hash   `json:"orderId"`
	Order     gaslessJSON   `json:"order"`
	Signature hexutil.Bytes `json:"signature"`
	OpenFor   struct {
		To      common.Address `json:"to"`
		Data    hexutil.Bytes  `json:"data"`
		ChainID uint64         `json:"chainId"`
	} `json:"openFor"`
}

// gaslessJSON is a GaslessCrossChainOrder as the API writes it: its uint256s in decimal strings.
type gaslessJSON struct {
	OriginSettler common.Address `json:"originSettler"`
	User          common.Address `json:"user"`
	Nonce         string         `json:"nonce"`
	OriginChainID string         `json:"originChainId"`
	OpenDeadline  uint32         `json:"openDeadline"`
	FillDeadline  uint32         `json:"fillDeadline"`
	OrderDataType common.Hash    `json:"orderDataType"`
	OrderData     hexutil.Bytes  `json:"orderData"`
}

// decode is the gasless order and the order it carries; the API's orderId must be that order's.
func (b bookOrder) decode() (settlement.GaslessOrder, settlement.Order, error) {
	nonce, okNonce := new(big.Int).SetString(b.Order.Nonce, 10)
	chain, okChain := new(big.Int).SetString(b.Order.OriginChainID, 10)
	if !okNonce || !okChain || nonce.Sign() < 0 || chain.Sign() < 0 {
		return settlement.GaslessOrder{}, settlement.Order{}, errors.New("the order's nonce or originChainId is not a decimal uint256")
	}
	g := settlement.GaslessOrder{
		OriginSettler: b.Order.OriginSettler, User: b.Order.User, Nonce: nonce, OriginChainId: chain,
		OpenDeadline: b.Order.OpenDeadline, FillDeadline: b.Order.FillDeadline,
		OrderDataType: b.Order.OrderDataType, OrderData: b.Order.OrderData,
	}
	o, err := settlement.Decode(g.OrderData)
	if err != nil {
		return g, o, fmt.Errorf("the order's data: %w", err)
	}
	id, err := settlement.ID(o)
	if err != nil {
		return g, o, fmt.Errorf("the order's data: %w", err)
	}
	if id != b.OrderID {
		return g, o, fmt.Errorf("the order's data is of order %s, not %s", id.Hex(), b.OrderID.Hex())
	}
	return g, o, nil
}

// openBook opens the orders of the order book the filler has not seen yet, each once. An order
// refused for good is remembered too; one that failed for a passing reason (a node that did not
// answer) is still in the book at the next step, and tried again then.
func (f *Filler) openBook(ctx context.Context) error {
	orders, err := f.orderBook(ctx)
	for _, raw := range orders {
		var b bookOrder
		if err := json.Unmarshal(raw, &b); err != nil {
			// Remembered by its bytes, so that it is logged once, not at every step.
			if id := crypto.Keccak256Hash(raw); !f.book.has(id) {
				f.book.add(id, time.Now().Add(junkMemory))
				f.Log.Info("not opened", "reason", "an order of the book that is not one: "+err.Error())
			}
			continue
		}
		if !f.book.has(b.OrderID) {
			f.tryOpen(ctx, b)
		}
	}
	return err // the orders of the pages read before it are opened all the same
}

// tryOpen opens the order, or remembers it refused for good, or leaves it for the next step.
func (f *Filler) tryOpen(ctx context.Context, b bookOrder) {
	err := f.open(ctx, b)
	var skipped skip
	switch {
	case err == nil:
		f.book.add(b.OrderID, deadlineTime(uint64(b.Order.FillDeadline)))
	case errors.As(err, &skipped):
		f.book.add(b.OrderID, deadlineTime(uint64(b.Order.FillDeadline)))
		f.Log.Info("not opened", "orderId", b.OrderID.Hex(), "reason", err.Error())
	default:
		f.Log.Error(err, "not opened yet; trying again at the next step", "orderId", b.OrderID.Hex())
	}
}

// open sends the openFor of a gasless order. The transaction is built here from the order and its
// signature, as claim builds settle: the filler signs what it checked, and the API's transaction,
// which must be the same, is only compared. Before paying the gas it checks that it would fill the
// order and that the call succeeds now.
func (f *Filler) open(ctx context.Context, b bookOrder) error {
	g, o, err := b.decode()
	if err != nil {
		return skip{err}
	}
	origin, ok := f.Chains[g.OriginChainId.Uint64()]
	if !g.OriginChainId.IsUint64() || !ok || origin.Settlement != g.OriginSettler {
		return skip{fmt.Errorf("opened on chain %s by %s, not a settlement contract of the filler's", g.OriginChainId, g.OriginSettler.Hex())}
	}
	data, err := settlement.OpenForData(g, b.Signature)
	if err != nil {
		return skip{err}
	}
	if b.OpenFor.To != origin.Settlement || b.OpenFor.ChainID != g.OriginChainId.Uint64() || !bytes.Equal(b.OpenFor.Data, data) {
		return skip{errors.New("the API's openFor transaction is not the one of the order and its signature")}
	}
	if time.Now().Unix() >= int64(g.OpenDeadline) {
		return skip{errors.New("past its open deadline")}
	}
	if _, _, err := f.worth(ctx, o); err != nil {
		return err
	}
	if err := f.simulate(ctx, origin, data); err != nil {
		return err
	}
	tx, err := f.send(ctx, origin, origin.Settlement, data, new(big.Int), openForGas)
	if err != nil {
		return fmt.Errorf("opening: %w", err)
	}
	f.Log.Info("opened", "orderId", b.OrderID.Hex(), "tx", tx.Hash().Hex())
	return nil
}

// simulate is an eth_call of the openFor from the filler. A revert is for good: the service checked
// the same before it listed the order, so it changed since (opened by another filler, its Permit2
// nonce spent or cancelled, its user's funds moved), and the transaction would only burn its gas.
func (f *Filler) simulate(ctx context.Context, c *Chain, data []byte) error {
	from := crypto.PubkeyToAddress(f.Key.PublicKey)
	_, err := c.Client.CallContract(ctx, ethereum.CallMsg{From: from, To: &c.Settlement, Gas: openForGas, Data: data}, nil)
	if data, reverted := jsonrpc.RevertData(err); reverted {
		return skip{fmt.Errorf("openFor would revert, %s: %w", reverts.Decode(data), err)}
	}
	return err
}

// orderBook is the signed orders of GET /v2/orders?status=signed, page after page. Each request
// carries the filler key, so a next link to another host than the API's is refused.
func (f *Filler) orderBook(ctx context.Context) ([]json.RawMessage, error) {
	api, err := url.Parse(f.API)
	if err != nil {
		return nil, fmt.Errorf("the API URL: %w", err)
	}
	page := api.JoinPath("v2", "orders")
	page.RawQuery = url.Values{"status": {"signed"}, "limit": {strconv.Itoa(bookPageSize)}}.Encode()
	var orders []json.RawMessage
	for range bookPages {
		status, header, body, err := f.get(ctx, page.String(), f.OrdersKey)
		if err != nil {
			return orders, err
		}
		if status != http.StatusOK {
			return orders, fmt.Errorf("GET %s: HTTP %d: %.300s", page.Path, status, body)
		}
		var more []json.RawMessage
		if err := json.Unmarshal(body, &more); err != nil {
			return orders, fmt.Errorf("GET %s: not a JSON array: %w", page.Path, err)
		}
		orders = append(orders, more...)
		if page, err = nextPage(api, page, header); page == nil || err != nil {
			return orders, err
		}
	}
	return orders, nil
}

// nextPage is a page's Link rel="next" (RFC 8288), resolved against the page's URL; nil on the last
// page. Links are split at commas, which the API's URLs do not hold.
func nextPage(api, page *url.URL, header http.Header) (*url.URL, error) {
	for _, value := range header.Values("Link") {
		for _, link := range strings.Split(value, ",") {
			target, params, _ := strings.Cut(link, ";")
			if !relNext(params) {
				continue
			}
			target = strings.TrimSpace(target)
			if !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				return nil, fmt.Errorf("the next link %q is not <URL>", target)
			}
			next, err := page.Parse(target[1 : len(target)-1])
			if err != nil {
				return nil, fmt.Errorf("the next link: %w", err)
			}
			if next.Scheme != api.Scheme || next.Host != api.Host {
				return nil, fmt.Errorf("the next link leaves the API for %s://%s", next.Scheme, next.Host)
			}
			return next, nil
		}
	}
	return nil, nil
}

// relNext reports whether a link's parameters hold rel="next" (rel may list several types).
func relNext(params string) bool {
	for _, p := range strings.Split(params, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(name), "rel") && slices.Contains(strings.Fields(strings.Trim(strings.TrimSpace(value), `"`)), "next") {
			return true
		}
	}
	return false
}
