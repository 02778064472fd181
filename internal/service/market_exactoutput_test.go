package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// The adapter between the domain and the request for quotes carries an exact output: the fillers
// are asked for the input of exactly the floor, at most the escrow, and the lowest ask comes back
// as the winner's amountIn; an ask above the escrow does not win.
func TestAnExactOutputAsksTheFillersForTheirInput(t *testing.T) {
	dir := registry.NewFillerDirectory()
	asks := map[string]string{"cheap": "1004000", "dear": "1009000", "greedy": "1010001"}
	var mu sync.Mutex
	var seen []map[string]any
	for name, ask := range asks {
		secret, err := signing.NewSecret(nil)
		if err != nil {
			t.Fatal(err)
		}
		payout := common.BytesToAddress([]byte(name))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			var req map[string]any
			_ = json.Unmarshal(body, &req)
			if name == "cheap" {
				mu.Lock()
				seen = append(seen, req)
				mu.Unlock()
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"requestId":%q,"amountIn":%q,"filler":%q}`, req["requestId"], ask, payout.Hex())
		}))
		t.Cleanup(srv.Close)
		dir.Upsert(registry.Filler{Name: name, URL: srv.URL, Secret: secret,
			Routes: []registry.FillerRoute{{From: "eip155:1337", To: "eip155:1337"}}, Payouts: map[string]common.Address{"eip155:1337": payout}})
	}
	m := marketQuotes{fillers: dir, market: rfq.NewMarket(rfq.Options{AllowLoopback: true, Deadline: time.Second}), log: logr.Discard(), now: time.Now}
	chain := registry.Chain{ID: "eip155:1337", NumericID: big.NewInt(1337)}
	ans := m.Quote(context.Background(), intent.MarketQuery{
		From: chain, To: chain, TokenIn: registry.Token{Address: "eip155:1337:0x5FbDB2315678afecb367f032d93F642f64180aa3"},
		TokenOut: registry.Token{Address: "eip155:1337:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"},
		AmountIn: big.NewInt(1_010_000), Floor: big.NewInt(5_000_000_000_000_000), MinAmountIn: big.NewInt(900_000),
		Deadline: time.Now().Add(time.Hour), TradeType: intent.TradeExactOutput,
	})
	if ans.Winner != "cheap" || ans.AmountIn == nil || ans.AmountIn.Int64() != 1_004_000 || ans.WinnerAddress != common.BytesToAddress([]byte("cheap")) {
		t.Fatalf("answer %+v; want cheap asking 1,004,000", ans)
	}
	if ans.Asked != 3 || ans.Quotes != 2 {
		t.Errorf("asked %d, quotes %d; want 3 asked and 2 quotes at most the escrow", ans.Asked, ans.Quotes)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0]["tradeType"] != "exactOutput" || seen[0]["amountOut"] != "5000000000000000" || seen[0]["amountIn"] != "1010000" {
		t.Errorf("the request %v; want tradeType exactOutput, amountOut the floor, amountIn the escrow", seen)
	}
}
