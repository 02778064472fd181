package filler

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// QuoteEndpoint is the reference filler's quote endpoint: it answers the service's requests for
// quotes (the signed POSTs of internal/rfq) as a filler of the market would, from its own side of
// the wire: it checks the request's Standard Webhooks signature with the secret of its Filler
// resource, then quotes its price for the order (Filler.Quote at the request's floor) when it
// serves the route and holds the output, and answers 204 otherwise. What it quotes is what its
// fill will deliver when it wins the exclusivity: the order's start amount is the winning quote.
type QuoteEndpoint struct {
	Filler *Filler
	// Secrets are the signing secrets of the filler's Filler resource (whsec_…), the current one
	// and, during a rotation, the previous one.
	Secrets []string
	// Now is the clock of the signature's timestamp check (time.Now when nil).
	Now func() time.Time
}

// quoteRequest is the part of the service's request the reference filler reads.
type quoteRequest struct {
	RequestID    string `json:"requestId"`
	ToChainID    uint64 `json:"toChainId"`
	TokenOut     string `json:"tokenOut"`
	MinAmountOut string `json:"minAmountOut"`
	// TradeType exactOutput asks the input the filler takes to deliver exactly AmountOut, at
	// most AmountIn (what the order escrows at most).
	TradeType string `json:"tradeType"`
	AmountIn  string `json:"amountIn"`
	AmountOut string `json:"amountOut"`
	// NativeDropAmount is the order's gas on arrival (wei), which the filler would pay besides.
	NativeDropAmount string `json:"nativeDropAmount"`
}

// quoteAnswer is the filler's quote.
type quoteAnswer struct {
	RequestID string `json:"requestId"`
	AmountOut string `json:"amountOut,omitempty"`
	// AmountIn answers an exact output: the input asked.
	AmountIn string `json:"amountIn,omitempty"`
	Filler   string `json:"filler"`
}

// quoteBodyLimit bounds a request body: the service's requests are a few hundred bytes.
const quoteBodyLimit = 16 << 10

// quoteTolerance is how old a request's signature timestamp may be: the service's deadline is
// half a second, so a request older than this is a replay.
const quoteTolerance = 30 * time.Second

func (q *QuoteEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST a request for a quote", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, quoteBodyLimit+1))
	if err != nil || len(body) > quoteBodyLimit {
		http.Error(w, "the request is too large", http.StatusRequestEntityTooLarge)
		return
	}
	now := time.Now
	if q.Now != nil {
		now = q.Now
	}
	if err := signing.Verify(r.Header, body, now(), quoteTolerance, q.Secrets...); err != nil {
		http.Error(w, "the request is not signed by the service", http.StatusUnauthorized)
		return
	}
	var req quoteRequest
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&req); err != nil || req.RequestID == "" {
		http.Error(w, "not a request for a quote", http.StatusBadRequest)
		return
	}
	exactOutput := req.TradeType == "exactOutput"
	if exactOutput {
		req.MinAmountOut = req.AmountOut // the exact output is the floor
	}
	amount, ok := q.quote(r.Context(), req)
	if ok && exactOutput {
		amount, ok = askIn(req, amount)
	}
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	ans := quoteAnswer{RequestID: req.RequestID, AmountOut: amount.String(), Filler: crypto.PubkeyToAddress(q.Filler.Key.PublicKey).Hex()}
	if exactOutput {
		ans.AmountIn, ans.AmountOut = amount.String(), ""
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ans)
}

// quote is the filler's price for the request's order, when it serves the destination chain,
// prices the order and holds the output there.
func (q *QuoteEndpoint) quote(ctx context.Context, req quoteRequest) (*big.Int, bool) {
	dest, ok := q.Filler.Chains[req.ToChainID]
	if !ok {
		return nil, false
	}
	floor, ok := new(big.Int).SetString(req.MinAmountOut, 10)
	if !ok || floor.Sign() <= 0 {
		return nil, false
	}
	if req.NativeDropAmount != "" {
		drop, ok := new(big.Int).SetString(req.NativeDropAmount, 10)
		if !ok || drop.Sign() < 0 || q.Filler.dropAllowed(drop) != nil {
			return nil, false // a quote it would not fill would only fade it
		}
	}
	token, err := caip.ParseAccountID(req.TokenOut)
	if err != nil || token.Chain.Reference != strconv.FormatUint(req.ToChainID, 10) {
		return nil, false
	}
	tokenOut, ok := token.EVMAddress()
	if !ok {
		return nil, false
	}
	price, ok := q.Filler.Quote(settlement.Order{MinAmountOut: floor, TokenOut: tokenOut})
	if !ok || price.Cmp(floor) < 0 {
		return nil, false
	}
	if err := q.Filler.holds(ctx, dest, tokenOut, price); err != nil {
		return nil, false
	}
	return price, true
}

// askIn is the filler's price model inverted for an exact output: it would deliver price for the
// most input the order escrows (req.AmountIn), so to deliver exactly the amount it asks that
// input scaled by amount / price, rounded up. A filler at its minimum (AtMinimum) asks the whole
// escrow; one with a premium of bps asks the escrow less that premium.
func askIn(req quoteRequest, price *big.Int) (*big.Int, bool) {
	most, okIn := new(big.Int).SetString(req.AmountIn, 10)
	exact, okOut := new(big.Int).SetString(req.AmountOut, 10)
	if !okIn || !okOut || most.Sign() <= 0 || exact.Sign() <= 0 || price.Sign() <= 0 {
		return nil, false
	}
	ask, rem := new(big.Int).QuoRem(new(big.Int).Mul(most, exact), price, new(big.Int))
	if rem.Sign() > 0 {
		ask.Add(ask, big.NewInt(1))
	}
	return ask, ask.Cmp(most) <= 0
}
