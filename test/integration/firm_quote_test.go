package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// feedDecimals is the decimals of the spec's TestPriceFeeds, Chainlink's for USD pairs.
const feedDecimals = 8

// feedAnswer is price (a decimal string) in the feed's decimals.
func feedAnswer(price string) *big.Int {
	GinkgoHelper()
	v, err := intent.ParseAmount(price, feedDecimals)
	Expect(err).NotTo(HaveOccurred())
	return v
}

// quotedRecord is what the firm-quote spec reads of a created intent.
type quotedRecord struct {
	ID      string        `json:"id"`
	OrderID string        `json:"orderId"`
	Quote   *intent.Quote `json:"quote"`
	Tx      struct {
		Data string `json:"data"`
	} `json:"tx"`
}

// Issue 27's "Done when", on a local chain through the whole service: the USD figures of a
// simulation come from the chain's price feeds (spec.priceFeed on the Chain and the
// TokenDefinition); a create naming the simulation keeps its quote and encodes its minimum even
// after the prices moved; past the quote's expiresAt (the suite's --quote-ttl) the create is
// refused; a stale feed falls back to the typed price with a warning.
//
// A feed sets the fees' USD figures only (docs/decisions.md, "Which prices count": amountOut still
// converts through the typed prices), so a feed that moves cannot by itself move a fresh order's
// minimum. The spec therefore moves the typed price of the input as well, as an operator following
// the market would: a create that quoted afresh would then encode another minimum, and the one that
// names the simulation must not.
var _ = Describe("Firm quotes with prices from the chain's feeds", Ordered, func() {
	const amount = "30" // TUSD
	var (
		w                 *watchedChain
		ethFeed, tusdFeed common.Address
		swap              string // the request body: 30 TUSD for ETH, from and to the wallet
	)
	BeforeAll(func() {
		w = newWatchedChainWith(true, func(w *watchedChain, chain *v1alpha1.ChainSpec, tokens map[string]*v1alpha1.TokenDefinitionSpec) {
			var err error
			ethFeed, err = w.dev.DeployPriceFeed(feedDecimals, "ETH / USD", feedAnswer("3000"))
			Expect(err).NotTo(HaveOccurred())
			tusdFeed, err = w.dev.DeployPriceFeed(feedDecimals, "TUSD / USD", feedAnswer("1"))
			Expect(err).NotTo(HaveOccurred())
			// The Chain's feed prices gas; the native TokenDefinition names no price of its own, so
			// ETH is the Chain's (typed 3000, its feed) both as the gas token and as the output.
			chain.PriceFeed = &v1alpha1.PriceFeed{Address: ethFeed.Hex(), Decimals: feedDecimals, MaxAgeSeconds: 3600}
			tokens["ETH"].PriceUSD = ""
			tokens["TUSD"].PriceFeed = &v1alpha1.PriceFeed{Address: tusdFeed.Hex(), Decimals: feedDecimals, MaxAgeSeconds: 3600}
		})
		Eventually(func(g Gomega) {
			c, ok := readModels.Chains.Get(w.caip2)
			g.Expect(ok).To(BeTrue())
			g.Expect(c.NativePriceFeed).NotTo(BeNil())
			t, ok := readModels.Tokens.ByAddress(w.caip2 + ":" + w.token.Hex())
			g.Expect(ok).To(BeTrue())
			g.Expect(t.PriceFeed).NotTo(BeNil())
		}).WithTimeout(10 * time.Second).Should(Succeed())
		w.approve(big.NewInt(30_000_000)) // so that the node estimates the very open() the order sends
		swap = fmt.Sprintf(`{"from":%q,"to":%q,"asset":{"in":%q,"out":%q},"amount":%q`,
			w.caip2+":"+w.address.Hex(), w.caip2+":"+w.address.Hex(),
			w.caip2+":"+w.token.Hex(), w.caip2+":"+registry.NativeTokenAddress, amount)
	})

	// body is the swap request with extra members (`"simulationId":"…"`), closed.
	body := func(extra ...string) string {
		if len(extra) == 0 {
			return swap + "}"
		}
		return swap + "," + strings.Join(extra, ",") + "}"
	}

	simulate := func() intent.SimulationResult {
		GinkgoHelper()
		r := call(http.MethodPost, "/v2/transfers/simulate", w.key, body())
		Expect(r.StatusCode).To(Equal(http.StatusOK), r.Body)
		var sim intent.SimulationResult
		Expect(json.Unmarshal([]byte(r.Body), &sim)).To(Succeed())
		Expect(sim.Valid).To(BeTrue(), r.Body)
		Expect(sim.Quote).NotTo(BeNil(), r.Body)
		Expect(sim.Tx).NotTo(BeNil(), r.Body)
		Expect(sim.Tx.Gas).NotTo(BeZero(), "the node estimated the open(): %s", r.Body)
		return sim
	}

	create := func(extra ...string) (response, quotedRecord) {
		GinkgoHelper()
		r := call(http.MethodPost, "/v2/transfers", w.key, body(extra...))
		var rec quotedRecord
		if r.StatusCode == http.StatusCreated {
			Expect(json.Unmarshal([]byte(r.Body), &rec)).To(Succeed())
		}
		return r, rec
	}

	// expectedFees are the fees of sim at these USD prices of ETH (gas) and TUSD (the 35 bps of a
	// swap), with the gas the node estimated and its gas price now (no block was made since sim).
	expectedFees := func(sim intent.SimulationResult, ethUSD, tusdUSD string) intent.Fees {
		GinkgoHelper()
		c := w.dev.Backend.Client()
		head, err := c.HeaderByNumber(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		tip, err := c.SuggestGasTipCap(context.Background())
		Expect(err).NotTo(HaveOccurred())
		eth, err := intent.ParseDecimal(ethUSD)
		Expect(err).NotTo(HaveOccurred())
		tusd, err := intent.ParseDecimal(tusdUSD)
		Expect(err).NotTo(HaveOccurred())
		return intent.ComputeFees(intent.FeeInputs{
			GasUnits: sim.Tx.Gas, GasPriceWei: new(big.Int).Add(head.BaseFee, tip), NativePriceUSD: eth, NativeDecimals: 18,
			Amount: big.NewInt(30_000_000), TokenDecimals: 6, TokenPriceUSD: tusd, Bps: intent.DefaultFeeSchedule().Swap,
		})
	}

	// price is the simulation's price of symbol.
	price := func(sim intent.SimulationResult, symbol string) intent.Price {
		GinkgoHelper()
		for _, p := range sim.Prices {
			if p.Symbol == symbol {
				return p
			}
		}
		Fail(fmt.Sprintf("no price of %s in %+v", symbol, sim.Prices))
		return intent.Price{}
	}

	// encodedOrder is the order the record's open() calldata carries.
	encodedOrder := func(rec quotedRecord) settlement.Order {
		GinkgoHelper()
		o, err := settlement.OrderOfOpenData(hexutil.MustDecode(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		return o
	}

	wei := func(display string) *big.Int {
		GinkgoHelper()
		v, err := intent.ParseAmount(display, 18)
		Expect(err).NotTo(HaveOccurred())
		return v
	}

	// storedQuote is spec.quote of the TransferIntent with the API id.
	storedQuote := func(id string) *v1alpha1.IntentQuote {
		GinkgoHelper()
		var list v1alpha1.TransferIntentList
		Expect(k8sClient.List(ctx, &list, client.InNamespace(namespace))).To(Succeed())
		for _, ti := range list.Items {
			if ti.Spec.ID == id {
				return ti.Spec.Quote
			}
		}
		Fail("no TransferIntent " + id)
		return nil
	}

	// simulateOnceViewed simulates until seen says the answer is of the block the spec just made:
	// a simulation reads the shared answers (fees, feeds) from the chain's view, which follows the
	// head every half block time, so a block just made shows within that, not at once.
	simulateOnceViewed := func(seen func(intent.SimulationResult) bool) intent.SimulationResult {
		GinkgoHelper()
		var out intent.SimulationResult
		Eventually(func() bool {
			out = simulate()
			return seen(out)
		}).WithTimeout(5*time.Second).WithPolling(100*time.Millisecond).Should(BeTrue(), "the view never showed the new block")
		return out
	}

	var sim intent.SimulationResult

	It("keeps the simulated quote and encodes its minimum after the feeds and the typed price moved", func() {
		sim = simulate()
		By("pricing the fees from the feeds, and the output from the typed prices")
		Expect(sim.Warnings).NotTo(ContainElement(HavePrefix(intent.WarningPriceStale)))
		Expect(sim.Warnings).NotTo(ContainElement(HavePrefix(intent.WarningPriceUnavailable)))
		Expect(price(sim, "ETH")).To(And(HaveField("USD", "3000"), HaveField("Source", intent.PriceSourceFeed), HaveField("UpdatedAt", Not(BeNil()))))
		Expect(price(sim, "TUSD")).To(And(HaveField("USD", "1"), HaveField("Source", intent.PriceSourceFeed)))
		Expect(sim.EstimatedFees).To(Equal(expectedFees(sim, "3000", "1")))
		// 30 TUSD at 1 / 3000 less 35 bps of fees; less 50 bps of slippage.
		Expect(*sim.Quote).To(Equal(intent.Quote{AmountOut: "0.009965", MinAmountOut: "0.009915175", SlippageBps: intent.DefaultSlippageBps,
			TradeType: intent.TradeExactInput, AmountIn: amount}))
		Expect(time.Until(sim.ExpiresAt)).To(BeNumerically("~", quoteTTL, time.Second), "the suite's --quote-ttl")

		By("moving ETH/USD to double and TUSD/USD to half on the chain, and TUSD's typed price to half")
		Expect(w.dev.SetPrice(ethFeed, feedAnswer("6000"), time.Time{})).To(Succeed())
		Expect(w.dev.SetPrice(tusdFeed, feedAnswer("0.5"), time.Time{})).To(Succeed())
		var td v1alpha1.TokenDefinition
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: w.tokenDefs["TUSD"]}, &td)).To(Succeed())
		before := td.DeepCopy()
		td.Spec.PriceUSD = "0.5"
		Expect(k8sClient.Patch(ctx, &td, client.MergeFrom(before))).To(Succeed())
		Eventually(func() string {
			t, _ := readModels.Tokens.ByAddress(w.caip2 + ":" + w.token.Hex())
			return t.PriceUSD
		}).WithTimeout(quoteTTL / 2).WithPolling(20 * time.Millisecond).Should(Equal("0.5"))

		By("creating with the simulationId: the simulated quote, answered, served and stored, and encoded in open()")
		Expect(time.Now()).To(BeTemporally("<", sim.ExpiresAt), "the spec took longer than the quote TTL (%s) to get here", quoteTTL)
		r, firm := create(fmt.Sprintf(`"simulationId":%q`, sim.SimulationID))
		Expect(r.StatusCode).To(Equal(http.StatusCreated), r.Body)
		Expect(firm.Quote).To(HaveValue(Equal(*sim.Quote)))
		order := encodedOrder(firm)
		Expect(order.MinAmountOut).To(Equal(wei(sim.Quote.MinAmountOut)), "the order's minimum is the simulated one")
		Expect(order.AmountIn).To(Equal(big.NewInt(30_000_000)))
		Expect(order.TokenIn).To(Equal(w.token))
		var got quotedRecord
		g := get("/v2/transfers/"+firm.ID, w.key)
		Expect(g.StatusCode).To(Equal(http.StatusOK), g.Body)
		Expect(json.Unmarshal([]byte(g.Body), &got)).To(Succeed())
		Expect(got.Quote).To(HaveValue(Equal(*sim.Quote)), "GET serves the firm quote")
		Expect(got.Tx.Data).To(Equal(firm.Tx.Data))
		Expect(storedQuote(firm.ID)).To(HaveValue(Equal(v1alpha1.IntentQuote{
			AmountOut: sim.Quote.AmountOut, MinAmountOut: sim.Quote.MinAmountOut, SlippageBps: int32(sim.Quote.SlippageBps), //nolint:gosec // at most 1000
			TradeType: string(intent.TradeExactInput), AmountIn: amount,
		})), "spec.quote")

		By("creating without it: a fresh quote at the new typed price, and its own minimum in open()")
		r, fresh := create()
		Expect(r.StatusCode).To(Equal(http.StatusCreated), r.Body)
		// 30 TUSD at 0.5 / 3000: half the ETH.
		Expect(fresh.Quote).To(HaveValue(Equal(intent.Quote{AmountOut: "0.0049825", MinAmountOut: "0.0049575875", SlippageBps: intent.DefaultSlippageBps,
			TradeType: intent.TradeExactInput, AmountIn: amount})))
		Expect(encodedOrder(fresh).MinAmountOut).To(Equal(wei(fresh.Quote.MinAmountOut)))
		Expect(encodedOrder(fresh).MinAmountOut).NotTo(Equal(order.MinAmountOut))

		By("simulating again: the fees follow the moved feeds once the chain's view has seen their block")
		// A simulation reads the shared answers (fees, feeds) from the chain's view, which follows
		// the head every half block time: a block just made shows within that, not at once.
		again := simulateOnceViewed(func(s intent.SimulationResult) bool { return price(s, "ETH").USD == "6000" })
		Expect(price(again, "ETH")).To(And(HaveField("USD", "6000"), HaveField("Source", intent.PriceSourceFeed)))
		Expect(price(again, "TUSD")).To(And(HaveField("USD", "0.5"), HaveField("Source", intent.PriceSourceFeed)))
		Expect(again.EstimatedFees).To(Equal(expectedFees(again, "6000", "0.5")))
		Expect(again.EstimatedFees).NotTo(Equal(sim.EstimatedFees))
		Expect(again.Quote).To(HaveValue(Equal(*fresh.Quote)))
	})

	It("refuses the same create once the simulation's expiresAt has passed", func() {
		Expect(sim.SimulationID).NotTo(BeEmpty(), "the previous spec simulated")
		Eventually(func() time.Time { return time.Now() }).WithTimeout(quoteTTL + 2*time.Second).WithPolling(50 * time.Millisecond).
			Should(BeTemporally(">=", sim.ExpiresAt))
		r, _ := create(fmt.Sprintf(`"simulationId":%q`, sim.SimulationID))
		Expect(r.StatusCode).To(Equal(http.StatusUnprocessableEntity), r.Body)
		var p problem.Body
		Expect(json.Unmarshal([]byte(r.Body), &p)).To(Succeed())
		Expect(p.Type).To(HaveSuffix("/" + problem.QuoteExpired.Slug))
		Expect(p.Details).To(HaveKeyWithValue("field", "simulationId"))
		Expect(p.Detail).To(ContainSubstring(sim.SimulationID))
		// The replica's store drops a simulation once expired, so the answer cannot always say when.
		Expect(p.Details).To(Or(Not(HaveKey("expiresAt")), HaveKeyWithValue("expiresAt", sim.ExpiresAt.UTC().Format(time.RFC3339Nano))))
	})

	It("falls back to the typed price, with a warning, when a feed is stale", func() {
		updated := time.Now().Add(-2 * time.Hour).Truncate(time.Second).UTC()
		Expect(w.dev.SetPrice(ethFeed, feedAnswer("6000"), updated)).To(Succeed())
		stale := simulateOnceViewed(func(s intent.SimulationResult) bool { return price(s, "ETH").Source == intent.PriceSourceTyped })
		Expect(stale.Warnings).To(ContainElement(fmt.Sprintf(
			"price stale: ETH on %s (feed %s): updated at %s, older than maxAgeSeconds 3600; using the typed price 3000",
			w.caip2, ethFeed.Hex(), updated.Format(time.RFC3339))))
		Expect(price(stale, "ETH")).To(Equal(intent.Price{
			Asset: w.caip2 + ":" + registry.NativeTokenAddress, Symbol: "ETH", USD: "3000", Source: intent.PriceSourceTyped,
		}))
		Expect(price(stale, "TUSD")).To(And(HaveField("USD", "0.5"), HaveField("Source", intent.PriceSourceFeed)), "the other feed is fresh")
		Expect(stale.EstimatedFees).To(Equal(expectedFees(stale, "3000", "0.5")))
		Expect(stale.Valid).To(BeTrue(), "a test chain's intent stays valid on the typed price")
	})
})
