package e2e

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// marketAuction is what the specs read of an auction object.
type marketAuction struct {
	Type                string     `json:"type"`
	StartAmountOut      string     `json:"startAmountOut"`
	MinAmountOut        string     `json:"minAmountOut"`
	DecayStartAt        time.Time  `json:"decayStartAt"`
	DecayEndAt          time.Time  `json:"decayEndAt"`
	ExclusiveFiller     string     `json:"exclusiveFiller"`
	ExclusivityDeadline *time.Time `json:"exclusivityDeadline"`
	Quotes              int        `json:"quotes"`
	FillersAsked        int        `json:"fillersAsked"`
}

// A market of two reference fillers, each a `manager filler` with its own key, inventory, spread
// and quote endpoint, registered as Filler resources: the service asks both at every firm quote,
// the better quote wins the exclusivity and fills at or above it; a winner that is gone leaves
// the order to the other once its exclusivity ends, at the decayed amount.
var _ = Describe("A market of two fillers", Ordered, func() {
	var (
		origin, dest *orderChain
		wallet       = mustKey()
		walletAddr   = crypto.PubkeyToAddress(wallet.PublicKey)
		key          string
		fillers      = map[string]*marketFiller{}
	)

	BeforeAll(func() {
		origin, dest = newOrderChain(31501), newOrderChain(31502)
		origin.dev.SendValue(GinkgoTB(), walletAddr, big.NewInt(1e18))
		origin.dev.Mint(GinkgoTB(), origin.tusd, walletAddr, big.NewInt(1_000_000_000))
		key = newAccountWithKey("e2e-market", "market@example.test")
		newFillerKey("e2e-market-fillers")
		// market-a quotes 30 bps above the floor, market-b 10: market-a wins while it answers.
		for name, premium := range map[string]int{"market-a": 30, "market-b": 10} {
			fillers[name] = startMarketFiller(name, "e2e-market-fillers", premium, key, origin, dest)
		}
	})

	// simulateAsking simulates body until the service asks `asked` fillers (both are Ready and
	// in its directory, or one has faded).
	simulateAsking := func(body string, asked int) (string, marketAuction) {
		GinkgoHelper()
		var sim struct {
			SimulationID string         `json:"simulationId"`
			Valid        bool           `json:"valid"`
			Auction      *marketAuction `json:"auction"`
			Approval     *struct {
				Tx v1alpha1.TransactionPayload `json:"tx"`
			} `json:"approval"`
		}
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers/simulate", key, body)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			g.Expect(json.Unmarshal([]byte(out), &sim)).To(Succeed())
			g.Expect(sim.Valid).To(BeTrue(), out)
			g.Expect(sim.Auction).NotTo(BeNil(), out)
			g.Expect(sim.Auction.FillersAsked).To(Equal(asked), out)
		}).WithTimeout(30 * time.Second).Should(Succeed())
		if sim.Approval != nil {
			approval := origin.send(wallet, sim.Approval.Tx)
			origin.dev.Commit()
			Expect(origin.receipt(approval.Hash().Hex()).Status).To(Equal(types.ReceiptStatusSuccessful), "the approval")
		}
		return sim.SimulationID, *sim.Auction
	}
	simulate := func(body string) (string, marketAuction) {
		GinkgoHelper()
		return simulateAsking(body, 2)
	}
	// create creates the simulated bridge and sends its open transaction, as a wallet does.
	create := func(body, simulationID string) marketRecord {
		GinkgoHelper()
		firm := body[:len(body)-1] + fmt.Sprintf(`,"simulationId":%q}`, simulationID)
		status, out, err := api(http.MethodPost, "/v2/transfers", key, firm)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusCreated), out)
		var rec marketRecord
		Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		origin.send(wallet, rec.Tx)
		return rec
	}
	// filledRecord mines a block a second on both chains, so that block time keeps with the
	// clock the exclusivity and decay are set in, until the watcher records the order's fill.
	filledRecord := func(id string) marketRecord {
		GinkgoHelper()
		var rec marketRecord
		Eventually(func(g Gomega) {
			origin.dev.Commit()
			dest.dev.Commit()
			status, out, err := api(http.MethodGet, "/v2/transfers/"+id, key, "")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			g.Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
			g.Expect(rec.Fill).NotTo(BeNil(), out)
		}).WithTimeout(60 * time.Second).WithPolling(time.Second).Should(Succeed())
		return rec
	}
	catchUp := func() { catchUpClock(origin, dest) }
	bridge := func(amount string) string {
		return fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":%q}`,
			origin.asset(walletAddr), dest.asset(walletAddr), origin.asset(origin.tusd), amount)
	}

	It("gives the better quote the exclusivity, and its filler fills at or above it", func() {
		catchUp()
		simID, auction := simulate(bridge("5"))
		Expect(auction.Type).To(Equal(intent.AuctionExclusive))
		Expect(auction.Quotes).To(Equal(2))
		Expect(auction.ExclusiveFiller).To(Equal(fillers["market-a"].address.Hex()))
		// 5 TUSD less 20 bps of fees less 50 bps of slippage is the floor, 4.96505; market-a
		// quotes 30 bps above it, rounded down to the base unit.
		Expect(auction.MinAmountOut).To(Equal("4.96505"))
		Expect(auction.StartAmountOut).To(Equal("4.979945"))

		rec := create(bridge("5"), simID)
		Expect(rec.Auction).NotTo(BeNil())
		Expect(rec.Auction.ExclusiveFiller).To(Equal(auction.ExclusiveFiller))
		done := filledRecord(rec.ID)
		Expect(done.Fill.Filler).To(Equal(fillers["market-a"].address.Hex()))
		Expect(done.Fill.FillerName).To(Equal("market-a"))
		Expect(done.Fill.AmountOut).To(Equal("4979945"), "market-a fills at its quote")
		Expect(done.Fill.ImprovementBps).To(HaveValue(BeEquivalentTo(29)), "4,979,945 is 29.99 bps above 4,965,050, rounded down")
	})

	It("leaves the order of a winner that is gone to the other filler once the exclusivity ends, at the decayed amount", func() {
		catchUp()
		simID, auction := simulate(bridge("3"))
		Expect(auction.ExclusiveFiller).To(Equal(fillers["market-a"].address.Hex()))
		By("stopping market-a after it won")
		fillers["market-a"].process.Stop()

		rec := create(bridge("3"), simID)
		Expect(rec.Auction.ExclusivityDeadline).NotTo(BeNil())
		done := filledRecord(rec.ID)
		Expect(done.Fill.Filler).To(Equal(fillers["market-b"].address.Hex()))
		Expect(done.Fill.FillerName).To(Equal("market-b"))
		fill := dest.receipt(done.Fill.Hash)
		block, err := dest.dev.Backend.Client().HeaderByHash(context.Background(), fill.BlockHash)
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Unix(int64(block.Time), 0)).To(BeTemporally(">", *rec.Auction.ExclusivityDeadline), //nolint:gosec // block time
			"the other filler fills only after the exclusivity")
		order, err := settlement.OrderOfOpenData(common.FromHex(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		owed, err := settlement.Owed(order, fillers["market-b"].address, block.Time)
		Expect(err).NotTo(HaveOccurred())
		amount, _ := new(big.Int).SetString(done.Fill.AmountOut, 10)
		Expect(amount.Cmp(owed)).To(BeNumerically(">=", 0), "the fill pays at least the decayed amount %s", owed)
		// market-b prices the order 10 bps above its floor, 2,979,030: it fills once the decay
		// from market-a's quote comes down to that, before the decay's end.
		Expect(amount.Cmp(order.MinAmountOut)).To(Equal(1), "filled during the decay, above the floor")
		Expect(amount.Cmp(big.NewInt(2_982_008))).To(BeNumerically("<=", 0), "not above market-b's price")

		By("counting market-a's fade on its status")
		Eventually(func(g Gomega) {
			var f v1alpha1.Filler
			g.Expect(k8sClient.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "market-a"}, &f)).To(Succeed())
			g.Expect(f.Status.Fades).To(BeNumerically(">=", 1))
			g.Expect(f.Status.Wins).To(BeNumerically(">=", 2))
		}).WithTimeout(30 * time.Second).Should(Succeed())

		// The suite runs the manager with --rfq-fade-threshold 1: one fade and market-a is not
		// asked for the cooldown. Its endpoint is down too, so "not asked" shows in fillersAsked
		// (a filler asked and silent still counts as asked).
		By("no longer asking market-a, which faded")
		Eventually(func(g Gomega) {
			var f v1alpha1.Filler
			g.Expect(k8sClient.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "market-a"}, &f)).To(Succeed())
			ready := meta.FindStatusCondition(f.Status.Conditions, v1alpha1.ConditionReady)
			g.Expect(ready).NotTo(BeNil())
			g.Expect(ready.Status).To(Equal(metav1.ConditionFalse))
			g.Expect(ready.Reason).To(Equal(v1alpha1.ReasonFading))
			g.Expect(f.Status.NotAskedUntil).NotTo(BeNil())
		}).WithTimeout(30 * time.Second).Should(Succeed())
		_, next := simulateAsking(bridge("2"), 1)
		Expect(next.Quotes).To(Equal(1))
		Expect(next.ExclusiveFiller).To(Equal(fillers["market-b"].address.Hex()), "only market-b is asked")
	})
})

// marketRecord is what the market specs read of an intent.
type marketRecord struct {
	ID   string `json:"id"`
	Fill *struct {
		Hash           string `json:"hash"`
		Filler         string `json:"filler"`
		FillerName     string `json:"fillerName"`
		AmountOut      string `json:"amountOut"`
		ImprovementBps *int64 `json:"improvementBps"`
	} `json:"fill"`
	Auction *marketAuction              `json:"auction"`
	Tx      v1alpha1.TransactionPayload `json:"tx"`
}

// catchUpClock waits for the clock to pass the chains' block time, which blocks made faster than
// one a second (the set-up's) run ahead: an order's exclusivity and decay are set by the
// service's clock and enforced in block time.
func catchUpClock(chains ...*orderChain) {
	GinkgoHelper()
	By("letting the clock catch up with the chains' block time")
	for _, c := range chains {
		Eventually(func() time.Duration { // how far the head's time is ahead of the clock
			head, err := c.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
			Expect(err).NotTo(HaveOccurred())
			return time.Until(time.Unix(int64(head.Time), 0)) //nolint:gosec // block time
		}).WithTimeout(2 * time.Minute).WithPolling(500 * time.Millisecond).Should(BeNumerically("<", 0))
	}
}

// marketFiller is a reference filler of the market specs.
type marketFiller struct {
	address common.Address
	process *harness.Manager
}

// startMarketFiller funds a new filler key on both chains, registers it as a Filler of account
// quoting at premium basis points above the floor, and starts `manager filler` with its quote
// endpoint.
func startMarketFiller(name, account string, premium int, apiKey string, origin, dest *orderChain) *marketFiller {
	GinkgoHelper()
	key := mustKey()
	f := &marketFiller{address: crypto.PubkeyToAddress(key.PublicKey)}
	for _, c := range []*orderChain{origin, dest} {
		c.dev.SendValue(GinkgoTB(), f.address, big.NewInt(1e18))
		c.dev.Mint(GinkgoTB(), c.tusd, f.address, big.NewInt(1_000_000_000))
	}
	listen := freeport.MustAddr(GinkgoTB())
	ctx := context.Background()
	Expect(k8sClient.Create(ctx, &v1alpha1.Filler{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.FillerSpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: account}, QuoteURL: "http://" + listen + "/quote",
			Routes:          []v1alpha1.FillerRoute{{FromChainID: origin.caip2, ToChainID: dest.caip2}},
			PayoutAddresses: []v1alpha1.FillerPayoutAddress{{ChainID: dest.caip2, Address: f.address.Hex()}, {ChainID: origin.caip2, Address: f.address.Hex()}},
		},
	})).To(Succeed())
	var secret corev1.Secret
	Eventually(func() error {
		return k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: controller.FillerSecretName(name)}, &secret)
	}).WithTimeout(30 * time.Second).Should(Succeed())
	dir := GinkgoT().TempDir()
	keyFile, secretFile := filepath.Join(dir, "filler.key"), filepath.Join(dir, "quote.secret")
	Expect(os.WriteFile(keyFile, []byte(hex.EncodeToString(crypto.FromECDSA(key))), 0o600)).To(Succeed())
	Expect(os.WriteFile(secretFile, secret.Data[signing.DefaultSecretKey], 0o600)).To(Succeed())
	log := filepath.Join(projectRoot, "test", "artifacts", "market-"+name+".log")
	f.process = harness.RunManager(GinkgoTB(), managerBin, managerKubeconfig, log, GinkgoWriter, "filler",
		"--api", "http://"+apiAddr, "--api-key", apiKey, "--key-file", keyFile, "--interval", "200ms",
		"--premium-bps", fmt.Sprint(premium), "--quote-listen", listen, "--quote-secret-file", secretFile,
		"--chain", fmt.Sprintf("%s,%s,%s", origin.dev.ID, origin.dev.URL, origin.settlement.Hex()),
		"--chain", fmt.Sprintf("%s,%s,%s", dest.dev.ID, dest.dev.URL, dest.settlement.Hex()))
	DeferCleanup(f.process.Stop)
	Eventually(func(g Gomega) {
		g.Expect(f.process.Running()).To(Succeed())
		out, err := os.ReadFile(log)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(string(out)).To(ContainSubstring(`"msg"="filling"`))
	}).WithTimeout(20*time.Second).Should(Succeed(), "see %s", log)
	Eventually(func(g Gomega) {
		var filler v1alpha1.Filler
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &filler)).To(Succeed())
		ready := meta.FindStatusCondition(filler.Status.Conditions, v1alpha1.ConditionReady)
		g.Expect(ready).NotTo(BeNil())
		g.Expect(ready.Status).To(Equal(metav1.ConditionTrue), ready.Message)
	}).WithTimeout(30 * time.Second).Should(Succeed())
	return f
}
