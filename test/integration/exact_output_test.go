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
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Exact output (issue 45, item 2) end to end: a swap that must deliver exactly 0.01 ETH for TUSD
// is quoted through the API, its record's calls (approve the escrow, open) are sent by viem, the
// reference filler fills it, and on chain, to the base unit, the recipient gets exactly the
// amount, the user gives up exactly the escrow the record shows, and the filler gets the escrow.
var _ = Describe("Exact output", Ordered, func() {
	It("delivers exactly the amount asked, for exactly the escrow the record shows", func() {
		origin := newWatchedChainWith(true, func(_ *watchedChain, _ *v1alpha1.ChainSpec, tokens map[string]*v1alpha1.TokenDefinitionSpec) {
			tokens["ETH"].PriceUSD = "3000"
		})
		key, err := crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		solverAddr := crypto.PubkeyToAddress(key.PublicKey)
		origin.dev.SendValue(GinkgoTB(), solverAddr, big.NewInt(1e18))
		solver := &filler.Filler{Key: key, Chains: map[uint64]*filler.Chain{origin.dev.ID.Uint64(): origin.fillerChain()},
			Quote: filler.AtMinimum, API: apiURL, APIKey: origin.key, Log: GinkgoLogr}
		recipientKey, err := crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		recipient := crypto.PubkeyToAddress(recipientKey.PublicKey)

		body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":{"in":%q,"out":%q},"amount":"0.01","tradeType":"exactOutput","maxAmountIn":"31"}`,
			origin.caip2+":"+origin.address.Hex(), origin.caip2+":"+recipient.Hex(),
			origin.caip2+":"+origin.token.Hex(), origin.caip2+":"+registry.NativeTokenAddress)
		By("refusing a maximum input below the escrow, and storing nothing")
		refused := call(http.MethodPost, "/v2/transfers", origin.key,
			fmt.Sprintf(`{"from":%q,"to":%q,"asset":{"in":%q,"out":%q},"amount":"0.01","tradeType":"exactOutput","maxAmountIn":"30"}`,
				origin.caip2+":"+origin.address.Hex(), origin.caip2+":"+recipient.Hex(),
				origin.caip2+":"+origin.token.Hex(), origin.caip2+":"+registry.NativeTokenAddress))
		Expect(refused.StatusCode).To(Equal(http.StatusUnprocessableEntity), refused.Body)
		Expect(refused.Body).To(ContainSubstring(`"field":"maxAmountIn"`))
		Expect(get("/v2/transfers", origin.key).Body).NotTo(ContainSubstring(recipient.Hex()), "nothing stored")

		rec := origin.createOrder(body)
		var created struct {
			Quote intent.Quote    `json:"quote"`
			Calls json.RawMessage `json:"calls"`
		}
		Expect(json.Unmarshal([]byte(call(http.MethodGet, "/v2/transfers/"+rec.ID, origin.key, "").Body), &created)).To(Succeed())
		// 0.01 ETH at $3000 is 30 TUSD at $1; / 99.65% (the swap's 35 bps) is 30.105369 TUSD
		// needed, rounded up; escrowed raised by the 50 bps of slippage, rounded up: 30.255896.
		Expect(created.Quote.TradeType).To(Equal(intent.TradeExactOutput))
		Expect(created.Quote.AmountOut).To(Equal("0.01"))
		Expect(created.Quote.MinAmountOut).To(Equal("0.01"))
		Expect(created.Quote.AmountIn).To(Equal("30.255896"))
		escrow := big.NewInt(30_255_896)
		exact := big.NewInt(10_000_000_000_000_000)
		order, err := settlement.OrderOfOpenData(hexutil.MustDecode(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		Expect(order.AmountIn).To(Equal(escrow))
		Expect(order.MinAmountOut).To(Equal(exact))
		Expect(order.StartAmountOut).To(Equal(exact))
		fee := settlement.Plain(order).FeeAmount

		userBefore := origin.balance(origin.token, origin.address)
		solverBefore := origin.balance(origin.token, solverAddr)
		recipientBefore, err := origin.dev.Backend.Client().BalanceAt(context.Background(), recipient, nil)
		Expect(err).NotTo(HaveOccurred())
		By("sending the record's calls with viem")
		Expect(created.Calls).NotTo(BeEmpty())
		sendCallsWithViem(origin, created.Calls)
		Expect(new(big.Int).Sub(userBefore, origin.balance(origin.token, origin.address))).To(Equal(escrow), "the escrow left the user")

		Eventually(func() string {
			mine(2, origin)
			Expect(solver.Step(context.Background())).To(Succeed())
			return origin.record(rec.ID).Status
		}).WithTimeout(30 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal("confirmed"))

		done := origin.record(rec.ID)
		recipientAfter, err := origin.dev.Backend.Client().BalanceAt(context.Background(), recipient, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(new(big.Int).Sub(recipientAfter, recipientBefore)).To(Equal(exact), "the recipient's ETH rose by exactly the amount")
		Expect(done.Fill).NotTo(BeNil())
		Expect(done.Fill.AmountOut).To(Equal(exact.String()), "the record's fill delivered exactly the amount")
		Expect(new(big.Int).Sub(userBefore, origin.balance(origin.token, origin.address))).To(Equal(escrow),
			"the user gave up exactly the record's amountIn")
		Expect(new(big.Int).Sub(origin.balance(origin.token, solverAddr), solverBefore)).To(Equal(new(big.Int).Sub(escrow, fee)),
			"the filler got the escrow, less the fee")
		GinkgoWriter.Printf("exact output: recipient +%s wei, user -%s TUSD base units (record amountIn %s), filler +%s (fee %s)\n",
			new(big.Int).Sub(recipientAfter, recipientBefore), escrow, created.Quote.AmountIn, new(big.Int).Sub(escrow, fee), fee)
	})
})
