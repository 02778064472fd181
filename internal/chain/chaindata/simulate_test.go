package chaindata

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// service is the transfer domain with this package's reader, over a catalog of the world's chain
// and tokens.
func (w *world) service(t testing.TB, opts Options) *intent.Service {
	t.Helper()
	return w.serviceOf(t, newReader(t, opts))
}

// serviceOf is the transfer domain over reader.
func (w *world) serviceOf(t testing.TB, reader *Reader) *intent.Service {
	t.Helper()
	chains := registry.NewChainTable()
	chains.Upsert("dev", w.row)
	for _, c := range w.extraChains {
		chains.Upsert(c.DisplayName, c)
	}
	tokens := registry.NewTokenRegistry()
	tokens.Upsert(w.token)
	tokens.Upsert(w.other)
	for _, tok := range w.extraTokens {
		tokens.Upsert(tok)
	}
	svc, err := intent.NewService(intent.Config{Catalog: intent.RegistryCatalog{Chains: chains, Tokens: tokens}, ChainData: reader,
		SingleSourceAttestation: true}) // a bridge to a chain without witnessRpcs (the benchmark's)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func (w *world) tokenTransfer(t testing.TB, amount string) intent.Parsed {
	t.Helper()
	p, err := intent.ParseRequest(intent.Request{
		From:   w.row.ID + ":" + w.holderAddr().Hex(),
		To:     w.row.ID + ":0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		Asset:  intent.Asset{ID: w.token.Address},
		Amount: amount,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSimulateOnTheLiveNode(t *testing.T) {
	w := newWorld(t)
	// Each step changes the chain, then simulates at once: the view learns the head from the
	// simulations' batches, not from a poller that may be half a block behind (readPinned).
	svc := w.service(t, Options{ViewPoll: -1})
	ctx := context.Background()

	t.Run("an empty from is refused with the amounts", func(t *testing.T) {
		_, err := svc.Simulate(ctx, "acme", w.tokenTransfer(t, "40"))
		var p *intent.Problem
		if !errors.As(err, &p) || p.Kind != intent.KindValidationFailed || p.Field != "amount" {
			t.Fatalf("err = %v, want validation-failed on amount", err)
		}
		if p.Details["required"] != "40" || p.Details["available"] != "0" || p.Details["symbol"] != "TUSD" || p.Details["asset"] != w.token.Address {
			t.Errorf("details %v", p.Details)
		}
	})

	w.chain.SendValue(t, w.holderAddr(), big.NewInt(1e18))
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	w.chain.Mint(t, common.HexToAddress(tokenAddr), w.holderAddr(), big.NewInt(100_000_000))

	t.Run("a funded from is valid, verified and has a gas limit", func(t *testing.T) {
		res, err := svc.Simulate(ctx, "acme", w.tokenTransfer(t, "40"))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Valid || len(res.Warnings) != 0 {
			t.Fatalf("valid %v warnings %v; want valid with none (not %q)", res.Valid, res.Warnings, intent.WarningBalanceNotVerified)
		}
		if res.Tx == nil || res.Tx.Gas == 0 {
			t.Fatalf("tx %+v has no gas limit", res.Tx)
		}
	})

	t.Run("a short allowance yields an approval that, sent, makes the next simulation need none", func(t *testing.T) {
		swap, err := intent.ParseRequest(intent.Request{
			From: w.row.ID + ":" + w.holderAddr().Hex(), To: w.row.ID + ":" + w.holderAddr().Hex(),
			Asset: intent.Asset{Pair: &intent.AssetPair{In: w.token.Address, Out: w.other.Address}}, Amount: "25",
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.Simulate(ctx, "acme", swap)
		if err != nil {
			t.Fatal(err)
		}
		a := res.Approval
		if !res.Valid || a == nil || a.Amount != "25" || a.Allowance != "0" || a.Spender != w.row.SettlementAddress || a.Token != w.token.Address {
			t.Fatalf("valid %v approval %+v warnings %v", res.Valid, a, res.Warnings)
		}
		w.chain.Transact(t, w.holder, common.HexToAddress(a.Tx.To), common.FromHex(a.Tx.Data))

		res, err = svc.Simulate(ctx, "acme", swap)
		if err != nil {
			t.Fatal(err)
		}
		if res.Approval != nil || len(res.Warnings) != 0 {
			t.Fatalf("after the approval: approval %+v warnings %v; want neither", res.Approval, res.Warnings)
		}
		// The route's minimum comes from the node's gas price and estimate, as estimatedFees does.
		if res.Limits == nil || res.Limits.MinAmount == "" || res.Limits.Symbol != w.token.Symbol {
			t.Fatalf("limits %+v, want a minimum of %s", res.Limits, w.token.Symbol)
		}
		t.Logf("limits %+v at estimatedFees %+v", *res.Limits, res.EstimatedFees)
	})

	t.Run("a stopped node gives the static answer within the deadline", func(t *testing.T) {
		if err := w.chain.Close(); err != nil {
			t.Fatal(err)
		}
		stopped := w.service(t, Options{CallTimeout: 200 * time.Millisecond})
		start := time.Now()
		res, err := stopped.Simulate(ctx, "acme", w.tokenTransfer(t, "40"))
		took := time.Since(start)
		if err != nil || took > time.Second {
			t.Fatalf("err %v after %s; want an answer within the deadline", err, took)
		}
		if !res.Valid || !hasPrefix(res.Warnings, intent.WarningChainUnavailable) || res.Tx.Gas != 0 {
			t.Errorf("valid %v warnings %v gas %d; want the static answer with %q", res.Valid, res.Warnings, res.Tx.Gas, intent.WarningChainUnavailable)
		}
	})
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
