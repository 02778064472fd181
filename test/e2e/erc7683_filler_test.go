package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// ownBookEntry is what a filler of its own reads of an entry of GET /v2/orders: the ERC-7683
// GaslessCrossChainOrder, the user's signature and the market terms. It reads no other field.
type ownBookEntry struct {
	OrderID string `json:"orderId"`
	Order   struct {
		OriginSettler common.Address `json:"originSettler"`
		User          common.Address `json:"user"`
		Nonce         string         `json:"nonce"`
		OriginChainID string         `json:"originChainId"`
		OpenDeadline  uint32         `json:"openDeadline"`
		FillDeadline  uint32         `json:"fillDeadline"`
		OrderDataType common.Hash    `json:"orderDataType"`
		OrderData     hexutil.Bytes  `json:"orderData"`
	} `json:"order"`
	Signature hexutil.Bytes  `json:"signature"`
	Auction   *marketAuction `json:"auction"`
}

// gasless is the entry's order as the settlement contract's ABI takes it.
func (e ownBookEntry) gasless() contracts.GaslessCrossChainOrder {
	GinkgoHelper()
	nonce, ok := new(big.Int).SetString(e.Order.Nonce, 10)
	Expect(ok).To(BeTrue(), "nonce %q", e.Order.Nonce)
	chain, ok := new(big.Int).SetString(e.Order.OriginChainID, 10)
	Expect(ok).To(BeTrue(), "originChainId %q", e.Order.OriginChainID)
	return contracts.GaslessCrossChainOrder{
		OriginSettler: e.Order.OriginSettler, User: e.Order.User, Nonce: nonce, OriginChainId: chain,
		OpenDeadline: e.Order.OpenDeadline, FillDeadline: e.Order.FillDeadline,
		OrderDataType: e.Order.OrderDataType, OrderData: e.Order.OrderData,
	}
}

// A filler that is not ours: its own code reads the order book with a filler key and uses only
// ERC-7683 on chain (resolveFor to learn what it spends and receives, openFor with the user's
// signature, the fill instruction's fill). It did not quote, so it may fill only once the
// winner's exclusivity has passed; the winner here quoted and went away (a fade).
var _ = Describe("A filler of its own that speaks only ERC-7683", Ordered, func() {
	var (
		origin, dest *orderChain
		wallet       = mustKey() // holds TUSD and no ether: a gasless bridge
		walletAddr   = crypto.PubkeyToAddress(wallet.PublicKey)
		own          = mustKey() // the filler of its own
		ownAddr      = crypto.PubkeyToAddress(own.PublicKey)
		key, orders  string
		quoter       *marketFiller
	)
	settlementABI := contracts.NewSettlement()

	BeforeAll(func() {
		origin, dest = newOrderChain(31505), newOrderChain(31506)
		unlimited := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
		origin.dev.Mint(GinkgoTB(), origin.tusd, walletAddr, big.NewInt(1_000_000_000))
		Expect(origin.dev.Permit(origin.tusd, wallet, contracts.CanonicalPermit2, unlimited)).To(Succeed())
		for _, c := range []*orderChain{origin, dest} {
			c.dev.SendValue(GinkgoTB(), ownAddr, big.NewInt(1e18))
			c.dev.Mint(GinkgoTB(), c.tusd, ownAddr, big.NewInt(1_000_000_000))
		}
		key = newAccountWithKey("e2e-erc7683", "erc7683@example.test")
		orders = newFillerKey("e2e-erc7683-fillers")
		Eventually(func(g Gomega) {
			var c v1alpha1.Chain
			g.Expect(k8sClient.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "e2e-orders-31505"}, &c)).To(Succeed())
			cond := meta.FindStatusCondition(c.Status.Conditions, v1alpha1.ConditionPermit2)
			g.Expect(cond).NotTo(BeNil())
			g.Expect(string(cond.Status)).To(Equal("True"), cond.Message)
		}).WithTimeout(30 * time.Second).Should(Succeed())
		quoter = startMarketFiller("erc7683-quoter", "e2e-erc7683-fillers", 30, key, origin, dest)
	})

	It("fills an order it did not quote for, through resolveFor and openFor, once the exclusivity has passed", func() {
		ctx := context.Background()
		catchUpClock(origin, dest)
		body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"4","execution":"gasless"}`,
			origin.asset(walletAddr), dest.asset(walletAddr), origin.asset(origin.tusd))
		var sim struct {
			SimulationID string         `json:"simulationId"`
			Auction      *marketAuction `json:"auction"`
		}
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers/simulate", key, body)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			g.Expect(json.Unmarshal([]byte(out), &sim)).To(Succeed())
			g.Expect(sim.Auction).NotTo(BeNil(), out)
			g.Expect(sim.Auction.Quotes).To(Equal(1), out)
		}).WithTimeout(30 * time.Second).Should(Succeed())
		Expect(sim.Auction.ExclusiveFiller).To(Equal(quoter.address.Hex()))
		By("the winner going away before the order is made")
		quoter.process.Stop()

		firm := body[:len(body)-1] + fmt.Sprintf(`,"simulationId":%q}`, sim.SimulationID)
		status, out, err := api(http.MethodPost, "/v2/transfers", key, firm)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusCreated), out)
		var rec gaslessRecord
		Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		status, out = postSignature(key, rec.ID, signTyped(wallet, typedDataOf(rec.Gasless.TypedData)))
		Expect(status).To(Equal(http.StatusOK), out)

		By("reading the order book with a filler key")
		var entry ownBookEntry
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodGet, "/v2/orders?status=signed", orders, "")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			var book []ownBookEntry
			g.Expect(json.Unmarshal([]byte(out), &book)).To(Succeed())
			found := false
			for _, e := range book {
				if e.OrderID == rec.OrderID {
					entry, found = e, true
				}
			}
			g.Expect(found).To(BeTrue(), out)
		}).WithTimeout(20 * time.Second).Should(Succeed())
		Expect(entry.Auction).NotTo(BeNil())
		Expect(entry.Auction.ExclusiveFiller).To(Equal(quoter.address.Hex()), "the book shows whose exclusivity it is")
		Expect(entry.Auction.ExclusivityDeadline).NotTo(BeNil())
		deadline := uint64(entry.Auction.ExclusivityDeadline.Unix()) //nolint:gosec // a time after 1970

		By("resolveFor: what the filler spends and receives")
		order := entry.gasless()
		raw, err := origin.dev.Backend.Client().CallContract(ctx, ethereumCall(ownAddr, origin.settlement, settlementABI.PackResolveFor(order, nil)), nil)
		Expect(err).NotTo(HaveOccurred())
		resolved, err := settlementABI.UnpackResolveFor(raw)
		Expect(err).NotTo(HaveOccurred())
		Expect(common.Hash(resolved.OrderId).Hex()).To(Equal(rec.OrderID))
		Expect(resolved.MaxSpent).To(HaveLen(1))
		Expect(resolved.MinReceived).To(HaveLen(1))
		Expect(resolved.FillInstructions).To(HaveLen(1))
		spend := resolved.MaxSpent[0]
		Expect(common.BytesToAddress(spend.Token[:])).To(Equal(dest.tusd))
		Expect(common.BytesToAddress(spend.Recipient[:])).To(Equal(walletAddr))
		start, err := intent.ParseAmount(entry.Auction.StartAmountOut, 6)
		Expect(err).NotTo(HaveOccurred())
		Expect(spend.Amount.String()).To(Equal(start.String()), "maxSpent is the start of the decay")
		Expect(common.BytesToAddress(resolved.MinReceived[0].Token[:])).To(Equal(origin.tusd))
		fill := resolved.FillInstructions[0]
		destSettler := common.BytesToAddress(fill.DestinationSettler[:])
		Expect(destSettler).To(Equal(dest.settlement))

		By("opening it with openFor and the user's signature")
		opened := origin.dev.Transact(GinkgoTB(), own, origin.settlement, settlementABI.PackOpenFor(order, entry.Signature, nil))
		Expect(opened.Status).To(Equal(types.ReceiptStatusSuccessful))

		By("being refused within the exclusivity, and let fill after it")
		dest.dev.Transact(GinkgoTB(), own, dest.tusd, contracts.NewTestToken().PackApprove(destSettler, spend.Amount))
		// A filler that does not compute the decay pays maxSpent, the most the order asks.
		fillerData, err := abi.Arguments{{Type: mustType("uint256")}, {Type: mustType("address")}}.Pack(spend.Amount, ownAddr)
		Expect(err).NotTo(HaveOccurred())
		fillCall := settlementABI.PackFill(resolved.OrderId, fill.OriginData, fillerData)
		refused := callAt(dest, ownAddr, destSettler, fillCall, deadline-1)
		var data rpc.DataError
		Expect(errors.As(refused, &data)).To(BeTrue(), "another filler is refused a second before the exclusivity ends: %v", refused)
		noOverride := settlementABI.GetABI().Errors["NoExclusiveOverride"].ID
		Expect(data.ErrorData()).To(HavePrefix(hexutil.Encode(noOverride[:4])), "refused with NoExclusiveOverride (no override)")
		Expect(callAt(dest, ownAddr, destSettler, fillCall, deadline+1)).To(Succeed(), "and may fill a second after")
		Eventually(func() uint64 {
			dest.dev.Commit()
			head, err := dest.dev.Backend.Client().HeaderByNumber(ctx, nil)
			Expect(err).NotTo(HaveOccurred())
			return head.Time
		}).WithTimeout(time.Minute).WithPolling(500 * time.Millisecond).Should(BeNumerically(">", deadline))
		filled := dest.dev.Transact(GinkgoTB(), own, destSettler, fillCall)
		Expect(filled.Status).To(Equal(types.ReceiptStatusSuccessful))

		By("the intent confirming with the fill of the filler of its own")
		var done marketRecord
		Eventually(func(g Gomega) {
			origin.dev.Commit()
			dest.dev.Commit()
			status, out, err := api(http.MethodGet, "/v2/transfers/"+rec.ID, key, "")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			var st struct {
				Status string `json:"status"`
			}
			g.Expect(json.Unmarshal([]byte(out), &st)).To(Succeed())
			g.Expect(json.Unmarshal([]byte(out), &done)).To(Succeed())
			g.Expect(st.Status).To(Equal("confirmed"), out)
		}).WithTimeout(90 * time.Second).WithPolling(500 * time.Millisecond).Should(Succeed())
		Expect(done.Fill.Filler).To(Equal(ownAddr.Hex()))
		Expect(done.Fill.FillerName).To(BeEmpty(), "not a registered Filler")
		Expect(done.Fill.Hash).To(Equal(filled.TxHash.Hex()))
		Expect(done.Fill.AmountOut).To(Equal(spend.Amount.String()))
		Expect(done.Fill.ImprovementBps).To(HaveValue(BeNumerically(">", 0)), "paid above the floor")
	})
})

// postSignature posts a gasless intent's signature.
func postSignature(key, id, sig string) (int, string) {
	GinkgoHelper()
	status, out, err := api(http.MethodPost, "/v2/transfers/"+id+"/signature", key, fmt.Sprintf(`{"signature":%q}`, sig))
	Expect(err).NotTo(HaveOccurred())
	return status, out
}

func ethereumCall(from, to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &to, Data: data}
}

// callAt is an eth_call of data on the chain's head with the block's time overridden to at, so
// that a check of time runs at a chosen second rather than at whenever the test gets there.
func callAt(c *orderChain, from, to common.Address, data []byte, at uint64) error {
	GinkgoHelper()
	node, err := rpc.DialContext(context.Background(), c.dev.URL)
	Expect(err).NotTo(HaveOccurred())
	defer node.Close()
	var out hexutil.Bytes
	args := map[string]any{"from": from, "to": to, "data": hexutil.Bytes(data)}
	return node.CallContext(context.Background(), &out, "eth_call", args, "latest", nil, map[string]any{"time": hexutil.Uint64(at)})
}

func mustType(name string) abi.Type {
	t, err := abi.NewType(name, "", nil)
	Expect(err).NotTo(HaveOccurred())
	return t
}
