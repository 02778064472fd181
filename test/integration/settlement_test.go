package integration

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/filler"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// refundDelay is the settlement contracts' delay, in seconds, between a deadline and a refund: the
// contract's minimum (the refund test has the guardian waive it).
const refundDelay = settlement.MinRefundDelay

// deploySettlement deploys the settlement contract, attested by the suite's attester.
func (w *watchedChain) deploySettlement() common.Address {
	GinkgoHelper()
	addr, err := w.dev.DeploySettlement(crypto.PubkeyToAddress(attesterKey.PublicKey), refundDelay)
	Expect(err).NotTo(HaveOccurred())
	return addr
}

func settlementOf(w *watchedChain) string {
	if w.settlement == (common.Address{}) {
		return ""
	}
	return w.settlement.Hex()
}

// createOrder creates a swap or bridge intent from the chain's wallet.
func (w *watchedChain) createOrder(body string) intentRecord {
	GinkgoHelper()
	var r response
	Eventually(func() int {
		r = call(http.MethodPost, "/v2/transfers", w.key, body)
		return r.StatusCode
	}).WithTimeout(10*time.Second).Should(Equal(http.StatusCreated), func() string { return r.Body })
	var rec intentRecord
	Expect(json.Unmarshal([]byte(r.Body), &rec)).To(Succeed())
	return rec
}

// approve lets the settlement contract pull amount of the chain's token from the wallet.
func (w *watchedChain) approve(amount *big.Int) {
	GinkgoHelper()
	tx := w.send(v1alpha1.TransactionPayload{To: w.token.Hex(), Value: "0", ChainID: w.dev.ID.Int64(),
		Data: hexutil.Encode(contracts.NewTestToken().PackApprove(w.settlement, amount))}, nil)
	w.dev.Backend.Commit()
	receipt, err := w.dev.Backend.Client().TransactionReceipt(context.Background(), tx.Hash())
	Expect(err).NotTo(HaveOccurred())
	Expect(receipt.Status).To(Equal(uint64(1)), "the approval")
	allowance, err := bind.Call(contracts.NewTestToken().Instance(w.dev.Backend.Client(), w.token), nil,
		contracts.NewTestToken().PackAllowance(w.address, w.settlement), contracts.NewTestToken().UnpackAllowance)
	Expect(err).NotTo(HaveOccurred())
	Expect(allowance).To(Equal(amount))
}

func (w *watchedChain) balance(token, holder common.Address) *big.Int {
	GinkgoHelper()
	out, err := bind.Call(contracts.NewTestToken().Instance(w.dev.Backend.Client(), token), nil,
		contracts.NewTestToken().PackBalanceOf(holder), contracts.NewTestToken().UnpackBalanceOf)
	Expect(err).NotTo(HaveOccurred())
	return out
}

func (w *watchedChain) fillerChain() *filler.Chain {
	GinkgoHelper()
	c, err := ethclient.Dial(w.dev.URL)
	Expect(err).NotTo(HaveOccurred())
	return &filler.Chain{Client: c, ID: w.dev.ID, Settlement: w.settlement}
}

var _ = Describe("Orders through the settlement contract", Ordered, func() {
	var (
		origin, dest *watchedChain
		solver       *filler.Filler
		solverKey    *ecdsa.PrivateKey
		solverAddr   common.Address
	)
	BeforeAll(func() {
		origin, dest = newWatchedChain(true), newWatchedChain(true)
		var err error
		solverKey, err = crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		solverAddr = crypto.PubkeyToAddress(solverKey.PublicKey)
		for _, c := range []*watchedChain{origin, dest} {
			c.dev.SendValue(GinkgoTB(), solverAddr, big.NewInt(1e18))
			c.dev.Mint(GinkgoTB(), c.token, solverAddr, big.NewInt(1_000_000_000))
		}
		solver = &filler.Filler{
			Key:    solverKey,
			Chains: map[uint64]*filler.Chain{origin.dev.ID.Uint64(): origin.fillerChain(), dest.dev.ID.Uint64(): dest.fillerChain()},
			Quote:  filler.AtMinimum, API: apiURL, APIKey: origin.key, Log: GinkgoLogr,
		}
	})

	// run mines on both chains and steps the filler until the intent reaches status. A bridge is
	// final in the node's finalized block, which the simulated node moves every 32 blocks: a few
	// blocks a tick get there in seconds.
	run := func(w *watchedChain, id, status string) intentRecord {
		GinkgoHelper()
		Eventually(func() string {
			mine(4, origin, dest)
			Expect(solver.Step(context.Background())).To(Succeed())
			return w.record(id).Status
		}).WithTimeout(30 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal(status))
		return w.record(id)
	}

	// bridge creates a bridge of amount TUSD from origin to dest and sends its open, approved.
	bridge := func(amount int64) (intentRecord, *types.Transaction) {
		GinkgoHelper()
		rec := origin.createOrder(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"%d"}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex(), amount))
		origin.approve(big.NewInt(amount * 1_000_000))
		return rec, origin.send(rec.Tx, nil)
	}

	It("settles a bridge: opened by the wallet, filled on the destination, attested, released to the filler", func() {
		rec := origin.createOrder(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"5"}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex()))
		Expect(rec.Tx.To).To(Equal(origin.settlement.Hex()))
		origin.approve(big.NewInt(5_000_000))
		open := origin.send(rec.Tx, nil)
		recipientBefore := dest.balance(dest.token, dest.address)
		solverBefore := origin.balance(origin.token, solverAddr)

		done := run(origin, rec.ID, "confirmed")
		Expect(done.Metadata.Hash).To(Equal(open.Hash().Hex()), "the origin transaction")
		Expect(done.Fill).NotTo(BeNil())
		Expect(done.Fill.ChainID).To(Equal(dest.caip2))
		Expect(done.Fill.Filler).To(Equal(solverAddr.Hex()))
		// 5 TUSD less the bridge's 20 bps of fees (4.99) less 50 bps of slippage: 4.965050 TUSD.
		Expect(done.Fill.AmountOut).To(Equal("4965050"))
		Expect(new(big.Int).Sub(dest.balance(dest.token, dest.address), recipientBefore)).To(Equal(big.NewInt(4_965_050)))

		By("serving the attestation, which the filler used to claim the escrow on the origin chain")
		r := get("/v2/orders/"+rec.OrderID+"/attestation", dest.key)
		Expect(r.StatusCode).To(Equal(http.StatusOK), r.Body)
		Eventually(func() *big.Int {
			origin.dev.Backend.Commit()
			Expect(solver.Step(context.Background())).To(Succeed())
			return new(big.Int).Sub(origin.balance(origin.token, solverAddr), solverBefore)
		}).WithTimeout(10*time.Second).WithPolling(300*time.Millisecond).Should(Equal(big.NewInt(5_000_000)), "the whole escrow, once")

		By("refusing the same attestation a second time on chain")
		var att struct {
			Tx v1alpha1.TransactionPayload `json:"tx"`
		}
		Expect(json.Unmarshal([]byte(r.Body), &att)).To(Succeed())
		_, err := origin.dev.Backend.Client().EstimateGas(context.Background(), ethereumCall(solverAddr, origin.settlement, att.Tx.Data))
		Expect(err).To(HaveOccurred(), "a replayed attestation must revert")
	})

	It("settles a same-chain swap in the fill's transaction", func() {
		rec := origin.createOrder(fmt.Sprintf(`{"from":%q,"to":%q,"asset":{"in":%q,"out":%q},"amount":"0.5"}`,
			origin.caip2+":"+origin.address.Hex(), origin.caip2+":"+origin.address.Hex(),
			origin.caip2+":"+registry.NativeTokenAddress, origin.caip2+":"+origin.token.Hex()))
		Expect(rec.Tx.Value).To(Equal("500000000000000000"))
		open := origin.send(rec.Tx, nil)
		done := run(origin, rec.ID, "confirmed")
		Expect(done.Metadata.Hash).To(Equal(open.Hash().Hex()))
		Expect(done.Fill).NotTo(BeNil())
		Expect(done.Fill.ChainID).To(Equal(origin.caip2))
		Expect(get("/v2/orders/"+rec.OrderID+"/attestation", origin.key).StatusCode).To(Equal(http.StatusNotFound),
			"a swap releases its escrow in the fill: nothing to attest")
	})

	It("fails an order that nobody filled once its escrow is refunded after the deadline", func() {
		solver.Quote = func(settlement.Order) (*big.Int, bool) { return nil, false } // no filler today
		DeferCleanup(func() { solver.Quote = filler.AtMinimum })
		// The chain's clock runs ahead of the wall clock (the specs mine blocks faster than one a
		// second): the deadline is a minute after the later of the two.
		now, err := origin.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		deadline := time.Unix(max(time.Now().Unix(), int64(now.Time)), 0).Add(time.Minute).UTC() //nolint:gosec // a block time
		rec := origin.createOrder(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"1","deadline":%q}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex(),
			deadline.Format(time.RFC3339)))
		origin.approve(big.NewInt(1_000_000))
		origin.send(rec.Tx, nil)
		run(origin, rec.ID, "submitted")

		order, err := settlement.OrderOfOpenData(hexutil.MustDecode(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		refund, err := settlement.RefundData(order)
		Expect(err).NotTo(HaveOccurred())
		By("refusing the refund before the deadline")
		_, err = origin.dev.Backend.Client().EstimateGas(context.Background(), ethereumCall(origin.address, origin.settlement, hexutil.Encode(refund)))
		Expect(err).To(HaveOccurred())

		By("refunding once the chain's clock passed the deadline and the guardian allowed the refund")
		head, err := origin.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		// The simulated backend refuses to move time while its pool still holds a mined transaction.
		// Only past the deadline: the refund delay (at least an hour) is waived by the guardian (the
		// chain's Funder), so that the chain's clock stays near the wall clock the service's later
		// deadlines come from.
		Eventually(func() error {
			return origin.dev.Backend.AdjustTime(time.Duration(int64(order.Deadline)-int64(head.Time)+5) * time.Second) //nolint:gosec // test times
		}).WithTimeout(5 * time.Second).Should(Succeed())
		origin.dev.Backend.Commit()
		_, err = origin.dev.Backend.Client().EstimateGas(context.Background(), ethereumCall(origin.address, origin.settlement, hexutil.Encode(refund)))
		Expect(err).To(HaveOccurred(), "within the refund delay")
		orderID, err := settlement.ID(order)
		Expect(err).NotTo(HaveOccurred())
		origin.dev.Transact(GinkgoTB(), origin.dev.Funder, origin.settlement, contracts.NewSettlement().PackAllowRefund(orderID))
		tx := origin.send(v1alpha1.TransactionPayload{To: origin.settlement.Hex(), Value: "0", ChainID: rec.Tx.ChainID, Data: hexutil.Encode(refund)}, nil)
		failed := run(origin, rec.ID, "failed")
		Expect(failed.RefundHash).To(Equal(tx.Hash().Hex()))
		Expect(failed.StatusDetail).To(ContainSubstring("refunded"))
		Expect(failed.Failure).NotTo(BeNil())
		Expect(failed.Failure.Code).To(Equal(string(v1alpha1.FailureRefunded)))
		Expect(failed.Refund).NotTo(BeNil())
		Expect(failed.Refund.State).To(Equal("final"))
		Expect(failed.Refund.Hash).To(Equal(tx.Hash().Hex()))
	})

	It("confirms and attests a bridge only once its opening is final, however early the fill", func() {
		rec := origin.createOrder(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"3"}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex()))
		origin.approve(big.NewInt(3_000_000))
		open := origin.send(rec.Tx, nil)
		By("reporting the open while it is only in the origin chain's pool")
		r := call(http.MethodPost, "/v2/transfers/"+rec.ID+"/submission", origin.key, fmt.Sprintf(`{"hash":%q}`, open.Hash().Hex()))
		Expect(r.StatusCode).To(BeNumerically("<", 300), r.Body)
		Eventually(func() string { return origin.record(rec.ID).Status }).WithTimeout(5 * time.Second).Should(Equal("submitted"))

		By("filling on the destination before the origin makes a block, straight from the order data")
		order, err := settlement.OrderOfOpenData(hexutil.MustDecode(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		fill, err := settlement.FillData(order, order.MinAmountOut, solverAddr)
		Expect(err).NotTo(HaveOccurred())
		dest.dev.Transact(GinkgoTB(), solverKey, dest.token, contracts.NewTestToken().PackApprove(dest.settlement, order.MinAmountOut))
		dest.dev.Transact(GinkgoTB(), solverKey, dest.settlement, fill)
		Eventually(func() bool {
			dest.dev.Backend.Commit()
			return origin.record(rec.ID).Fill != nil
		}).WithTimeout(10*time.Second).WithPolling(200*time.Millisecond).Should(BeTrue(), "the fill is recorded")
		mine(40, dest) // past the destination node's next finalized block: the fill is final
		Consistently(func() string {
			dest.dev.Backend.Commit()
			return origin.record(rec.ID).Status
		}).WithTimeout(3*time.Second).WithPolling(300*time.Millisecond).Should(Equal("submitted"),
			"a final fill of an order whose opening is not final must not confirm it")
		Expect(get("/v2/orders/"+rec.OrderID+"/attestation", origin.key).StatusCode).To(Equal(http.StatusNotFound), "nor be attested")

		By("mining the opening on the origin chain until it is final")
		Eventually(func() string {
			mine(4, origin)
			return origin.record(rec.ID).Status
		}).WithTimeout(15 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal("confirmed"))
		Expect(get("/v2/orders/"+rec.OrderID+"/attestation", origin.key).StatusCode).To(Equal(http.StatusOK))
	})

	It("withholds the attestation while a witness contradicts the fill, and says so on the Chain", func() {
		dest.witness.Lie(func(method string, params, result json.RawMessage) json.RawMessage {
			if method != "eth_getTransactionReceipt" || string(result) == "null" {
				return result
			}
			var receipt map[string]any
			Expect(json.Unmarshal(result, &receipt)).To(Succeed())
			receipt["status"] = "0x0" // "the fill reverted"
			out, err := json.Marshal(receipt)
			Expect(err).NotTo(HaveOccurred())
			return out
		})
		DeferCleanup(func() { dest.witness.Lie(nil) })
		disagreementsBefore := counterValue("tis_chain_rpc_disagreements_total", dest.caip2)
		rec, _ := bridge(2)

		By("recording the fill, but neither confirming nor attesting it, however deep it gets")
		Eventually(func() *string {
			mine(4, origin, dest)
			Expect(solver.Step(context.Background())).To(Succeed())
			return dest.agreement()
		}).WithTimeout(30 * time.Second).WithPolling(300 * time.Millisecond).Should(HaveValue(Equal(v1alpha1.ReasonSourcesDisagree)))
		Consistently(func() string {
			mine(4, origin, dest)
			return origin.record(rec.ID).Status
		}).WithTimeout(2 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal("submitted"))
		Expect(origin.record(rec.ID).Fill).NotTo(BeNil())
		Expect(get("/v2/orders/"+rec.OrderID+"/attestation", origin.key).StatusCode).To(Equal(http.StatusNotFound))
		Expect(counterValue("tis_chain_rpc_disagreements_total", dest.caip2)).To(Equal(disagreementsBefore + 1))
		Expect(eventReasonsOf(dest.name)).To(ContainElement(v1alpha1.ReasonSourcesDisagree))

		By("attesting once the witness tells the truth again")
		dest.witness.Lie(nil)
		done := run(origin, rec.ID, "confirmed")
		Expect(done.Fill).NotTo(BeNil())
		Expect(get("/v2/orders/"+rec.OrderID+"/attestation", origin.key).StatusCode).To(Equal(http.StatusOK))
		Expect(dest.agreement()).To(HaveValue(Equal(v1alpha1.ReasonSourcesAgree)))
	})

	It("fails an order whose final receipt has no Opened event from the contract it called", func() {
		solver.Quote = func(settlement.Order) (*big.Int, bool) { return nil, false } // nobody fills
		DeferCleanup(func() { solver.Quote = filler.AtMinimum })
		rec, open := bridge(1)
		// The node reports the block's Opened event (the order becomes submitted), then answers
		// the open's receipt without it: a reorg that lost the event, or a node that lies.
		origin.node.Lie(func(method string, params, result json.RawMessage) json.RawMessage {
			if method != "eth_getTransactionReceipt" || !strings.Contains(strings.ToLower(string(params)), strings.ToLower(open.Hash().Hex())) || string(result) == "null" {
				return result
			}
			var receipt map[string]any
			Expect(json.Unmarshal(result, &receipt)).To(Succeed())
			receipt["logs"] = []any{}
			out, err := json.Marshal(receipt)
			Expect(err).NotTo(HaveOccurred())
			return out
		})
		DeferCleanup(func() { origin.node.Lie(nil) })
		failed := run(origin, rec.ID, "failed")
		Expect(failed.StatusDetail).To(ContainSubstring("no Opened(" + rec.OrderID))
		Expect(failed.Failure).NotTo(BeNil())
		Expect(failed.Failure.Code).To(Equal(string(v1alpha1.FailureNotOpened)))
		Expect(failed.Refund).To(BeNil(), "nothing is escrowed")
	})

	It("takes no fill from a look-alike contract, even one the destination Chain is pointed at", func() {
		solver.Quote = func(settlement.Order) (*big.Int, bool) { return nil, false } // no honest filler
		DeferCleanup(func() { solver.Quote = filler.AtMinimum })
		rec, _ := bridge(1)
		run(origin, rec.ID, "submitted")

		By("pointing the destination Chain at a contract that answers attester() and forges Filled events")
		forger, err := dest.dev.DeployForgingSettlement(crypto.PubkeyToAddress(attesterKey.PublicKey))
		Expect(err).NotTo(HaveOccurred())
		dest.setSettlement(forger)
		DeferCleanup(func() {
			dest.setSettlement(dest.settlement)
			Eventually(dest.settlementReason).WithTimeout(10 * time.Second).Should(Equal(v1alpha1.ReasonContractVerified))
		})
		Eventually(dest.settlementReason).WithTimeout(10*time.Second).Should(Equal(v1alpha1.ReasonNotSettlementContract),
			"its code is not the settlement contract's, whatever attester() says")
		sim := call(http.MethodPost, "/v2/transfers/simulate", origin.key, fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"1"}`,
			origin.caip2+":"+origin.address.Hex(), dest.caip2+":"+dest.address.Hex(), origin.caip2+":"+origin.token.Hex()))
		Expect(sim.StatusCode).To(Equal(http.StatusOK), sim.Body)
		Expect(sim.Body).To(ContainSubstring(`"valid":false`), "no new bridge names the look-alike as its destinationSettler")
		Expect(sim.Body).To(ContainSubstring(forger.Hex()))
		order, err := settlement.OrderOfOpenData(hexutil.MustDecode(rec.Tx.Data))
		Expect(err).NotTo(HaveOccurred())
		orderID := common.HexToHash(rec.OrderID)
		dest.dev.Transact(GinkgoTB(), solverKey, forger, contracts.NewForgingSettlement().PackForgeFill(orderID, solverAddr, order.Recipient, order.MinAmountOut))

		Consistently(func() bool {
			mine(4, origin, dest)
			return origin.record(rec.ID).Fill == nil
		}).WithTimeout(3*time.Second).WithPolling(300*time.Millisecond).Should(BeTrue(), "a forged Filled event counts as the fill")
		Expect(get("/v2/orders/"+rec.OrderID+"/attestation", origin.key).StatusCode).To(Equal(http.StatusNotFound))
	})

	It("never shows the attester key in a log, an event, a status or a metric", func() {
		secret := hex.EncodeToString(crypto.FromECDSA(attesterKey))
		Expect(strings.ToLower(logs.String())).NotTo(ContainSubstring(secret))
		Expect(logs.String()).To(ContainSubstring(crypto.PubkeyToAddress(attesterKey.PublicKey).Hex()), "the address is logged, the key is not")

		var events eventsv1.EventList
		Expect(k8sClient.List(ctx, &events, client.InNamespace(namespace))).To(Succeed())
		var intents v1alpha1.TransferIntentList
		Expect(k8sClient.List(ctx, &intents, client.InNamespace(namespace))).To(Succeed())
		var legacy corev1.EventList
		Expect(k8sClient.List(ctx, &legacy, client.InNamespace(namespace))).To(Succeed())
		for _, obj := range []any{events, intents, legacy} {
			b, err := json.Marshal(obj)
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.ToLower(string(b))).NotTo(ContainSubstring(secret))
		}
		families, err := prometheus.Gatherers{ctrlmetrics.Registry, serviceMetrics}.Gather()
		Expect(err).NotTo(HaveOccurred())
		Expect(families).NotTo(BeEmpty())
		for _, f := range families {
			Expect(strings.ToLower(f.String())).NotTo(ContainSubstring(secret))
		}
	})
})

// ethereumCall is a call of dataHex on to from from, for eth_estimateGas.
func ethereumCall(from, to common.Address, dataHex string) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &to, Data: hexutil.MustDecode(dataHex)}
}

// mine commits n blocks on each chain.
func mine(n int, chains ...*watchedChain) {
	for range n {
		for _, c := range chains {
			c.dev.Backend.Commit()
		}
	}
}

// agreement is the reason of the Chain's RPCAgreement condition, nil without one.
func (w *watchedChain) agreement() *string {
	GinkgoHelper()
	var chain v1alpha1.Chain
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: w.name}, &chain)).To(Succeed())
	if c := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionRPCAgreement); c != nil {
		return &c.Reason
	}
	return nil
}

// settlementReason is the reason of the Chain's SettlementContract condition for its current spec.
func (w *watchedChain) settlementReason() string {
	GinkgoHelper()
	var chain v1alpha1.Chain
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: w.name}, &chain)).To(Succeed())
	if c := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionSettlementContract); c != nil && c.ObservedGeneration == chain.Generation {
		return c.Reason
	}
	return ""
}

// setSettlement points the Chain at another settlement address.
func (w *watchedChain) setSettlement(addr common.Address) {
	GinkgoHelper()
	var chain v1alpha1.Chain
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: w.name}, &chain)).To(Succeed())
	before := chain.DeepCopy()
	chain.Spec.SettlementAddress = addr.Hex()
	Expect(k8sClient.Patch(ctx, &chain, client.MergeFrom(before))).To(Succeed())
}

// counterValue is the counter's value for the chain label, 0 when it has none.
func counterValue(name, chain string) float64 {
	GinkgoHelper()
	families, err := serviceMetrics.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "chain" && l.GetValue() == chain {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// eventReasonsOf are the reasons of the events about the named object.
func eventReasonsOf(name string) []string {
	GinkgoHelper()
	var events eventsv1.EventList
	Expect(k8sClient.List(ctx, &events, client.InNamespace(namespace))).To(Succeed())
	var out []string
	for _, e := range events.Items {
		if e.Regarding.Name == name {
			out = append(out, e.Reason)
		}
	}
	return out
}
