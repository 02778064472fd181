package integration

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/filler"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// walletRecord is what the specs that send a record's calls through a wallet read of it.
type walletRecord struct {
	Status string `json:"status"`
	Quote  struct {
		AmountOut     string `json:"amountOut"`
		IntegratorFee *struct {
			Bps                       int
			Amount, Symbol, Recipient string
		} `json:"integratorFee"`
	} `json:"quote"`
	Fill *struct {
		Hash          string `json:"hash"`
		AmountOut     string `json:"amountOut"`
		IntegratorFee *struct {
			Amount, Recipient, ChainID, CreditedWith, Hash string
		} `json:"integratorFee"`
	} `json:"fill"`
	Calls json.RawMessage `json:"calls"`
}

// Integrator fees on chain (issue 45, item 1): an Account's fee policy applied from the API, the
// order carrying the fee, viem sending the record's calls, the reference filler filling and
// settling; the recipient's credit in the settlement contract, and its balance once claimed,
// match the record to the base unit. A refund credits nothing.
var _ = Describe("Integrator fees", Ordered, func() {
	var (
		origin, dest *watchedChain
		solver       *filler.Filler
		solverAddr   common.Address
		feeKey       *ecdsa.PrivateKey
		feeAddr      common.Address
		apiKey       string
	)
	BeforeAll(func() {
		origin, dest = newWatchedChain(true), newWatchedChain(true)
		key, err := crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		solverAddr = crypto.PubkeyToAddress(key.PublicKey)
		for _, c := range []*watchedChain{origin, dest} {
			c.dev.SendValue(GinkgoTB(), solverAddr, big.NewInt(1e18))
			c.dev.Mint(GinkgoTB(), c.token, solverAddr, big.NewInt(1_000_000_000))
		}
		solver = &filler.Filler{
			Key:    key,
			Chains: map[uint64]*filler.Chain{origin.dev.ID.Uint64(): origin.fillerChain(), dest.dev.ID.Uint64(): dest.fillerChain()},
			Quote:  filler.AtMinimum, API: apiURL, APIKey: origin.key, Log: GinkgoLogr,
		}
		feeKey, err = crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		feeAddr = crypto.PubkeyToAddress(feeKey.PublicKey)
		origin.dev.SendValue(GinkgoTB(), feeAddr, big.NewInt(1e17)) // gas for claimFees

		By("an integrator's Account whose policy allows up to 100 bps, paid to feeAddr on the origin chain")
		account := newAccount()
		patch := client.MergeFrom(account.DeepCopy())
		account.Spec.Fees = &v1alpha1.IntegratorFeePolicy{MaxBps: 100, Recipients: []v1alpha1.FeeRecipients{
			{ChainID: origin.caip2, Addresses: []string{feeAddr.Hex()}}}}
		Expect(k8sClient.Patch(ctx, account, patch)).To(Succeed())
		Eventually(func() *registry.FeePolicy { return readModels.Accounts.FeePolicy(account.Name) }).
			WithTimeout(10 * time.Second).ShouldNot(BeNil())
		_, apiKey = newKey(account.Name, func(s *v1alpha1.ApiKeySpec) { s.RateLimitPerMinute = 10_000 })
		Eventually(statusOf("/v2/tokens?chain-id="+origin.caip2, apiKey)).WithTimeout(10 * time.Second).Should(Equal(http.StatusOK))
	})

	create := func(body string) (string, walletRecord) {
		GinkgoHelper()
		var r response
		Eventually(func() int {
			r = call(http.MethodPost, "/v2/transfers", apiKey, body)
			return r.StatusCode
		}).WithTimeout(10*time.Second).Should(Equal(http.StatusCreated), func() string { return r.Body })
		var rec struct {
			ID string `json:"id"`
		}
		Expect(json.Unmarshal([]byte(r.Body), &rec)).To(Succeed())
		return rec.ID, readRecord(rec.ID, apiKey)
	}
	run := func(id, status string) walletRecord {
		GinkgoHelper()
		Eventually(func() string {
			mine(4, origin, dest)
			Expect(solver.Step(context.Background())).To(Succeed())
			return readRecord(id, apiKey).Status
		}).WithTimeout(30 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal(status))
		return readRecord(id, apiKey)
	}
	owed := func(token common.Address) *big.Int {
		GinkgoHelper()
		s := contracts.NewSettlement()
		v, err := bind.Call(s.Instance(origin.dev.Backend.Client(), origin.settlement), nil, s.PackFeesOwed(token, feeAddr), s.UnpackFeesOwed)
		Expect(err).NotTo(HaveOccurred())
		return v
	}

	It("credits a bridge's fee at settle, which its recipient claims: balances match the record to the base unit", func() {
		id, rec := create(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"50","fee":{"bps":50}}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex()))
		Expect(rec.Quote.IntegratorFee).NotTo(BeNil())
		// 50 bps of 50 TUSD: 0.25 TUSD; 50 less 20 bps of bridge fees (49.9) less 0.25 = 49.65 out.
		Expect(rec.Quote.IntegratorFee.Amount).To(Equal("0.25"))
		Expect(rec.Quote.IntegratorFee.Recipient).To(Equal(feeAddr.Hex()))
		Expect(rec.Quote.AmountOut).To(Equal("49.65"))

		userBefore, recipientBefore := origin.balance(origin.token, origin.address), dest.balance(dest.token, dest.address)
		solverBefore := origin.balance(origin.token, solverAddr)
		By("viem sending the record's calls (approve, open) as a wallet does")
		sendCallsWithViem(origin, rec.Calls)
		Expect(new(big.Int).Sub(userBefore, origin.balance(origin.token, origin.address))).To(Equal(big.NewInt(50_000_000)), "the user gives up the amount, fee included")

		done := run(id, "confirmed")
		Expect(done.Fill).NotTo(BeNil())
		Expect(done.Fill.IntegratorFee).NotTo(BeNil())
		Expect(done.Fill.IntegratorFee.CreditedWith).To(Equal("settle"))
		Expect(done.Fill.IntegratorFee.ChainID).To(Equal(origin.caip2))
		Expect(new(big.Int).Sub(dest.balance(dest.token, dest.address), recipientBefore).String()).To(Equal(done.Fill.AmountOut))

		By("the filler settling with the attestation: the escrow less the fee to it, the fee credited")
		Eventually(func() *big.Int {
			origin.dev.Backend.Commit()
			Expect(solver.Step(context.Background())).To(Succeed())
			return new(big.Int).Sub(origin.balance(origin.token, solverAddr), solverBefore)
		}).WithTimeout(10 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal(big.NewInt(49_750_000)))
		Expect(owed(origin.token)).To(Equal(big.NewInt(250_000)), "the record's 0.25 TUSD")

		By("the recipient claiming it")
		tx := origin.dev.Transact(GinkgoTB(), feeKey, origin.settlement, contracts.NewSettlement().PackClaimFees(origin.token))
		Expect(tx).NotTo(BeNil())
		Expect(origin.balance(origin.token, feeAddr)).To(Equal(big.NewInt(250_000)))
		Expect(owed(origin.token).Sign()).To(BeZero())
	})

	It("credits a same-chain swap's fee in the fill's own transaction", func() {
		id, rec := create(fmt.Sprintf(`{"from":%q,"to":%q,"asset":{"in":%q,"out":%q},"amount":"0.5","fee":{"bps":100}}`,
			origin.caip2+":"+origin.address.Hex(), origin.caip2+":"+origin.address.Hex(),
			origin.caip2+":"+registry.NativeTokenAddress, origin.caip2+":"+origin.token.Hex()))
		Expect(rec.Quote.IntegratorFee).NotTo(BeNil())
		Expect(rec.Quote.IntegratorFee.Amount).To(Equal("0.005"))
		before := owed(settlement.Native)
		sendCallsWithViem(origin, rec.Calls)
		done := run(id, "confirmed")
		Expect(done.Fill.IntegratorFee).NotTo(BeNil())
		Expect(done.Fill.IntegratorFee.CreditedWith).To(Equal("fill"))
		Expect(done.Fill.IntegratorFee.Hash).To(Equal(done.Fill.Hash))
		Expect(new(big.Int).Sub(owed(settlement.Native), before)).To(Equal(big.NewInt(5_000_000_000_000_000)), "0.005 ETH, the record's fee, in wei")
	})

	It("credits nothing when the order is refunded: the user gets the whole amount back", func() {
		solver.Quote = func(settlement.Order) (*big.Int, bool) { return nil, false } // nobody fills
		DeferCleanup(func() { solver.Quote = filler.AtMinimum })
		head, err := origin.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		// Ten minutes: the chain makes blocks, each a second later, while viem waits for receipts.
		deadline := time.Unix(max(time.Now().Unix(), int64(head.Time)), 0).Add(10 * time.Minute).UTC() //nolint:gosec // a block time
		id, rec := create(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"10","fee":{"bps":100},"deadline":%q}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex(), deadline.Format(time.RFC3339)))
		Expect(rec.Quote.IntegratorFee).NotTo(BeNil())
		owedBefore, userBefore := owed(origin.token), origin.balance(origin.token, origin.address)
		sendCallsWithViem(origin, rec.Calls)
		run(id, "submitted")

		var stored struct {
			Tx v1alpha1.TransactionPayload `json:"tx"`
		}
		Expect(json.Unmarshal([]byte(get("/v2/transfers/"+id, apiKey).Body), &stored)).To(Succeed())
		order, err := settlement.OrderOfOpenData(hexutil.MustDecode(stored.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		Expect(order.FeeAmount).To(Equal(big.NewInt(100_000)))
		refund, err := settlement.RefundData(order)
		Expect(err).NotTo(HaveOccurred())
		head, err = origin.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() error {
			return origin.dev.Backend.AdjustTime(time.Duration(int64(order.Deadline)-int64(head.Time)+5) * time.Second) //nolint:gosec // test times
		}).WithTimeout(5 * time.Second).Should(Succeed())
		origin.dev.Backend.Commit()
		orderID, err := settlement.ID(order)
		Expect(err).NotTo(HaveOccurred())
		origin.dev.Transact(GinkgoTB(), origin.dev.Funder, origin.settlement, contracts.NewSettlement().PackAllowRefund(orderID))
		origin.send(v1alpha1.TransactionPayload{To: origin.settlement.Hex(), Value: "0", ChainID: stored.Tx.ChainID, Data: hexutil.Encode(refund)}, nil)
		failed := run(id, "failed")
		Expect(failed.Fill).To(BeNil())
		Expect(owed(origin.token)).To(Equal(owedBefore), "a refund credits no fee")
		Expect(origin.balance(origin.token, origin.address)).To(Equal(userBefore), "the whole amount, fee included, back")
	})
})

func readRecord(id, key string) walletRecord {
	GinkgoHelper()
	r := get("/v2/transfers/"+id, key)
	Expect(r.StatusCode).To(Equal(http.StatusOK), r.Body)
	var rec walletRecord
	Expect(json.Unmarshal([]byte(r.Body), &rec)).To(Succeed())
	return rec
}

// sendCallsWithViem sends an EIP-5792 wallet_sendCalls object (a record's calls) from the chain's
// wallet through viem (test/walletsign/sendcalls.js, as in internal/transferrecord), making blocks
// while it waits for each receipt, and expects every call to succeed.
func sendCallsWithViem(w *watchedChain, calls json.RawMessage) {
	GinkgoHelper()
	Expect(calls).NotTo(BeEmpty(), "the record has no calls")
	dir := os.Getenv("WALLETSIGN_DIR")
	if dir == "" {
		dir = filepath.Join("..", "walletsign")
	}
	_, err := exec.LookPath("node")
	Expect(err).NotTo(HaveOccurred(), "node is not on PATH (apt-get install nodejs npm, then hack/walletsign.sh)")
	_, err = os.Stat(filepath.Join(dir, "node_modules", "viem", "package.json"))
	Expect(err).NotTo(HaveOccurred(), "viem is not installed: run hack/walletsign.sh (make test does)")
	in, err := json.Marshal(map[string]any{"rpcUrl": w.dev.URL, "privateKey": hexutil.Encode(crypto.FromECDSA(w.wallet)), "calls": calls})
	Expect(err).NotTo(HaveOccurred())
	c, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(c, "node", "sendcalls.js")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	Expect(cmd.Start()).To(Succeed())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// A block every 100 ms: each moves the chain's clock a second, so fewer keep it near the wall
	// clock the service's deadlines come from.
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case err = <-done:
			waiting = false
		case <-tick.C:
			w.dev.Backend.Commit()
		}
	}
	Expect(err).NotTo(HaveOccurred(), stderr.String())
	var sent struct {
		Receipts []struct {
			Status string `json:"status"`
		} `json:"receipts"`
	}
	Expect(json.Unmarshal(out.Bytes(), &sent)).To(Succeed(), out.String())
	Expect(sent.Receipts).NotTo(BeEmpty())
	for i, r := range sent.Receipts {
		Expect(r.Status).To(Equal("success"), "call %d", i)
	}
}
