package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/filler"
)

// Gas on arrival (issue 45, item 3) end to end, sent by viem: a bridge that asks for 0.002 ETH on the destination
// is priced, opened with the drop in its order, filled by the reference filler with the drop as
// the fill's value, and the recipient, who held no ETH, holds exactly the drop afterwards.
var _ = Describe("Gas on arrival", Ordered, func() {
	It("delivers a bridge's native drop to its recipient with the fill", func() {
		origin := newWatchedChain(true)
		dest := newWatchedChainWith(true, func(_ *watchedChain, c *v1alpha1.ChainSpec, tokens map[string]*v1alpha1.TokenDefinitionSpec) {
			c.MaxGasOnArrival = "0.01"
			// The drop is valued at the native token's price as the catalog gives it: its
			// TokenDefinition's (the suite's default is $1) before the Chain's.
			tokens["ETH"].PriceUSD = "3000"
		})
		Eventually(func() bool { row, _ := readModels.Chains.Get(dest.caip2); return row.MaxGasOnArrival != nil }).
			WithTimeout(10*time.Second).Should(BeTrue(), "the destination Chain's maxGasOnArrival is not published")
		key, err := crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		solverAddr := crypto.PubkeyToAddress(key.PublicKey)
		for _, c := range []*watchedChain{origin, dest} {
			c.dev.SendValue(GinkgoTB(), solverAddr, big.NewInt(1e18))
			c.dev.Mint(GinkgoTB(), c.token, solverAddr, big.NewInt(1_000_000_000))
		}
		solver := &filler.Filler{
			Key:    key,
			Chains: map[uint64]*filler.Chain{origin.dev.ID.Uint64(): origin.fillerChain(), dest.dev.ID.Uint64(): dest.fillerChain()},
			Quote:  filler.AtMinimum, API: apiURL, APIKey: origin.key, Log: GinkgoLogr,
		}
		recipientKey, err := crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		recipient := crypto.PubkeyToAddress(recipientKey.PublicKey)

		body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"50","gasOnArrival":{"amount":"0.002"}}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+recipient.Hex(), origin.caip2+":"+origin.token.Hex())
		rec := origin.createOrder(body)
		var created struct {
			Quote struct {
				AmountOut    string `json:"amountOut"`
				GasOnArrival struct {
					Amount, Symbol, Cost, CostSymbol string
				} `json:"gasOnArrival"`
			} `json:"quote"`
		}
		Expect(json.Unmarshal([]byte(call(http.MethodGet, "/v2/transfers/"+rec.ID, origin.key, "").Body), &created)).To(Succeed())
		// 0.002 ETH at $3000 is 6 TUSD at $1; 50 TUSD less 20 bps of bridge fees (49.9) less 6.
		Expect(created.Quote.AmountOut).To(Equal("43.9"))
		Expect(created.Quote.GasOnArrival.Cost).To(Equal("6"))
		order, err := settlement.OrderOfOpenData(hexutil.MustDecode(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		drop := big.NewInt(2_000_000_000_000_000)
		Expect(order.NativeDropAmount).To(Equal(drop))

		// A wallet sends the record's calls (approve, open) through viem.
		sendCallsWithViem(origin, readRecord(rec.ID, origin.key).Calls)
		before, err := dest.dev.Backend.Client().BalanceAt(context.Background(), recipient, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(before.Sign()).To(BeZero(), "the recipient starts without ETH")
		Eventually(func() string {
			mine(4, origin, dest)
			Expect(solver.Step(context.Background())).To(Succeed())
			return origin.record(rec.ID).Status
		}).WithTimeout(30 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal("confirmed"))

		after, err := dest.dev.Backend.Client().BalanceAt(context.Background(), recipient, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(new(big.Int).Sub(after, before)).To(Equal(drop), "the recipient's ETH rose by exactly the drop")
		done := origin.record(rec.ID)
		Expect(dest.balance(dest.token, recipient).String()).To(Equal(done.Fill.AmountOut), "and it got its TUSD")
		var filled struct {
			Fill struct {
				GasOnArrival string `json:"gasOnArrival"`
			} `json:"fill"`
		}
		Expect(json.Unmarshal([]byte(call(http.MethodGet, "/v2/transfers/"+rec.ID, origin.key, "").Body), &filled)).To(Succeed())
		Expect(filled.Fill.GasOnArrival).To(Equal("0.002"))
	})
})
