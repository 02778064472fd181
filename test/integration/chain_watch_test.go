package integration

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// watchedChain is a dev chain served by a Chain with an RPC endpoint and a witness endpoint, its
// native token and an ERC-20, a funded wallet, and an API key: what the chain watcher follows.
// The Chain's rpc and witness are two proxies of the node on their own ports (two providers as the
// service sees them), which a test can make lie.
type watchedChain struct {
	dev        *devchain.Chain
	name       string
	node       *devchain.Proxy
	witness    *devchain.Proxy
	settlement common.Address
	caip2      string
	token      common.Address
	wallet     *ecdsa.PrivateKey
	address    common.Address
	key        string
	// tokenDefs are the names of the chain's TokenDefinitions, by symbol (ETH, TUSD).
	tokenDefs map[string]string
}

// newWatchedChain starts a dev chain with a fresh id and applies its Chain (one block a second,
// final at two blocks) and tokens; with settle, it deploys the settlement contract (attested by
// the suite's attester, refundable a second after the deadline) and names it in the Chain.
func newWatchedChain(settle ...bool) *watchedChain {
	GinkgoHelper()
	return newWatchedChainWith(len(settle) > 0 && settle[0], nil)
}

// newWatchedChainWith is newWatchedChain with edit, when given, changing the Chain's spec and its
// tokens' specs (by symbol) before they are created; it may deploy contracts on w.dev first.
func newWatchedChainWith(settle bool, edit func(w *watchedChain, chain *v1alpha1.ChainSpec, tokens map[string]*v1alpha1.TokenDefinitionSpec)) *watchedChain {
	GinkgoHelper()
	id := 700_000 + int64(utilrand.IntnRange(0, 99_999))
	w := &watchedChain{dev: devchain.Start(GinkgoTB(), id), caip2: fmt.Sprintf("eip155:%d", id)}
	var err error
	w.wallet, err = crypto.GenerateKey()
	Expect(err).NotTo(HaveOccurred())
	w.address = crypto.PubkeyToAddress(w.wallet.PublicKey)
	w.dev.SendValue(GinkgoTB(), w.address, big.NewInt(1e18))
	w.token = w.dev.DeployTestToken(GinkgoTB(), "Test USD", "TUSD", 6)
	w.dev.Mint(GinkgoTB(), w.token, w.address, big.NewInt(1_000_000_000))
	if settle {
		w.settlement = w.deploySettlement()
	}

	w.name = fmt.Sprintf("watched-%d", id)
	w.node, w.witness = w.dev.NewProxy(GinkgoTB()), w.dev.NewProxy(GinkgoTB())
	chain := v1alpha1.ChainSpec{
		ChainID: w.caip2, Environment: v1alpha1.EnvironmentTest, DisplayName: w.name, NativeSymbol: "ETH",
		NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2, DefaultGasPriceWei: "1000000000",
		NativeTokenPriceUSD: "3000", RPC: &v1alpha1.ChainRPC{URL: w.node.URL}, SettlementAddress: settlementOf(w),
		WitnessRPCs: []v1alpha1.ChainRPC{{URL: w.witness.URL}},
	}
	tokens := map[string]*v1alpha1.TokenDefinitionSpec{}
	for _, t := range []struct {
		symbol   string
		address  string
		decimals int32
	}{{"ETH", registry.NativeTokenAddress, 18}, {"TUSD", w.token.Hex(), 6}} {
		tokens[t.symbol] = &v1alpha1.TokenDefinitionSpec{
			Symbol: t.symbol, ChainID: w.caip2, Address: w.caip2 + ":" + t.address, Decimals: t.decimals, PriceUSD: "1",
		}
	}
	if edit != nil {
		edit(w, &chain, tokens)
	}
	Expect(k8sClient.Create(ctx, &v1alpha1.Chain{ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: namespace}, Spec: chain})).To(Succeed())
	w.tokenDefs = map[string]string{}
	for _, symbol := range []string{"ETH", "TUSD"} {
		w.tokenDefs[symbol] = fmt.Sprintf("%s-%d", utilrand.String(6), id)
		Expect(k8sClient.Create(ctx, &v1alpha1.TokenDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: w.tokenDefs[symbol], Namespace: namespace},
			Spec:       *tokens[symbol],
		})).To(Succeed())
	}
	// The tests poll the intents: a key with room for it.
	_, w.key = newKey(newAccount().Name, func(s *v1alpha1.ApiKeySpec) { s.RateLimitPerMinute = 10_000 })
	Eventually(func() int {
		return get("/v2/tokens?chain-id="+w.caip2, w.key).StatusCode
	}).WithTimeout(10 * time.Second).Should(Equal(http.StatusOK))
	if w.settlement != (common.Address{}) {
		// Swaps and bridges go through the contract only once the Chain controller verified it.
		Eventually(func() bool { row, _ := readModels.Chains.Get(w.caip2); return row.SettlementVerified }).
			WithTimeout(10*time.Second).Should(BeTrue(), "the settlement contract of %s is not verified", w.caip2)
	}
	return w
}

// intentRecord is what the tests read of GET /v2/transfers/{id}.
type intentRecord struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	OrderID  string `json:"orderId"`
	Metadata struct {
		Hash string `json:"hash"`
	} `json:"metadata"`
	Fill *struct {
		ChainID   string `json:"chainId"`
		Hash      string `json:"hash"`
		Filler    string `json:"filler"`
		AmountOut string `json:"amountOut"`
	} `json:"fill"`
	RefundHash   string                      `json:"refundHash"`
	BlockNumber  int64                       `json:"blockNumber"`
	StatusDetail string                      `json:"statusDetail"`
	Tx           v1alpha1.TransactionPayload `json:"tx"`
	Failure      *struct {
		Code  string `json:"code"`
		Error *struct {
			Name     string            `json:"name"`
			Selector string            `json:"selector"`
			Args     map[string]string `json:"args"`
		} `json:"error"`
	} `json:"failure"`
	Refund *struct {
		State string `json:"state"`
		Hash  string `json:"hash"`
	} `json:"refund"`
}

// create creates an intent moving amount of asset (a token address) to a fresh address.
func (w *watchedChain) create(asset common.Address, amount string) intentRecord {
	GinkgoHelper()
	body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":%q}`,
		w.caip2+":"+w.address.Hex(), w.caip2+":"+common.BytesToAddress([]byte(utilrand.String(20))).Hex(),
		w.caip2+":"+asset.Hex(), amount)
	var r response
	Eventually(func() int {
		r = call(http.MethodPost, "/v2/transfers", w.key, body)
		return r.StatusCode
	}).WithTimeout(10*time.Second).Should(Equal(http.StatusCreated), func() string { return r.Body })
	var rec intentRecord
	Expect(json.Unmarshal([]byte(r.Body), &rec)).To(Succeed())
	return rec
}

func (w *watchedChain) record(id string) intentRecord {
	GinkgoHelper()
	r := get("/v2/transfers/"+id, w.key)
	Expect(r.StatusCode).To(Equal(http.StatusOK), r.Body)
	var rec intentRecord
	Expect(json.Unmarshal([]byte(r.Body), &rec)).To(Succeed())
	return rec
}

// send signs the payload (after edit, when given) with the wallet and sends it, unmined.
func (w *watchedChain) send(p v1alpha1.TransactionPayload, edit func(*types.DynamicFeeTx)) *types.Transaction {
	GinkgoHelper()
	client := w.dev.Backend.Client()
	c := context.Background()
	nonce, err := w.dev.Nonces.Next(c, client, w.address)
	Expect(err).NotTo(HaveOccurred())
	head, err := client.HeaderByNumber(c, nil)
	Expect(err).NotTo(HaveOccurred())
	value, ok := new(big.Int).SetString(p.Value, 10)
	Expect(ok).To(BeTrue())
	to := common.HexToAddress(p.To)
	gas := uint64(p.Gas) //nolint:gosec // a gas limit
	if gas == 0 {
		gas = 500_000 // an ERC-20 open() costs about 320,000 (measured): ERC-7683's Open event is large
	}
	inner := &types.DynamicFeeTx{
		ChainID: w.dev.ID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: new(big.Int).Add(big.NewInt(1e9), new(big.Int).Mul(head.BaseFee, big.NewInt(2))),
		Gas: gas, To: &to, Value: value, Data: hexutil.MustDecode(p.Data),
	}
	if edit != nil {
		edit(inner)
	}
	tx, err := types.SignNewTx(w.wallet, types.LatestSignerForChainID(w.dev.ID), inner)
	Expect(err).NotTo(HaveOccurred())
	Expect(client.SendTransaction(c, tx)).To(Succeed())
	return tx
}

// statusOfIntent polls the intent's status.
func (w *watchedChain) statusOfIntent(id string) func() string {
	return func() string { return w.record(id).Status }
}

// mineUntil commits a block every poll until the intent reaches status.
func (w *watchedChain) mineUntil(id, status string) intentRecord {
	GinkgoHelper()
	Eventually(func() string {
		w.dev.Backend.Commit()
		return w.record(id).Status
	}).WithTimeout(20 * time.Second).WithPolling(500 * time.Millisecond).Should(Equal(status))
	return w.record(id)
}

var _ = Describe("The chain watcher on a live node", Ordered, func() {
	var w *watchedChain
	BeforeAll(func() { w = newWatchedChain() })

	It("follows a native transfer to submitted then confirmed, with its hash and block", func() {
		rec := w.create(common.HexToAddress(registry.NativeTokenAddress), "0.01")
		Expect(rec.Status).To(Equal("pending"))
		tx := w.send(rec.Tx, nil)
		w.dev.Backend.Commit()
		Eventually(w.statusOfIntent(rec.ID)).WithTimeout(10 * time.Second).Should(Equal("submitted"))
		submitted := w.record(rec.ID)
		Expect(submitted.Metadata.Hash).To(Equal(tx.Hash().Hex()))
		Expect(submitted.BlockNumber).To(BeNumerically(">", 0))

		done := w.mineUntil(rec.ID, "confirmed")
		Expect(done.Metadata.Hash).To(Equal(tx.Hash().Hex()))
		Expect(done.StatusDetail).To(ContainSubstring("succeeded in block %d", submitted.BlockNumber))

		By("showing the transitions in the list, and recording no Event for a success (a write of the API server per intent)")
		list := get("/v2/transfers", w.key)
		Expect(list.Body).To(ContainSubstring(`"status":"confirmed"`))
		Expect(list.Body).To(ContainSubstring(tx.Hash().Hex()))
		name, err := intent.ObjectNameFromID(rec.ID)
		Expect(err).NotTo(HaveOccurred())
		Consistently(func() []string { return intentEventReasons(name) }).WithTimeout(2 * time.Second).Should(BeEmpty())
	})

	It("follows an ERC-20 transfer to confirmed, and one that reverts to failed with the reason, named", func() {
		ok := w.create(w.token, "1.5")
		tx := w.send(ok.Tx, nil)
		Expect(w.mineUntil(ok.ID, "confirmed").Metadata.Hash).To(Equal(tx.Hash().Hex()))

		// Valid when created; the balance is gone by the time it is sent.
		doomed := w.create(w.token, "900")
		drain := w.send(v1alpha1.TransactionPayload{To: w.token.Hex(), Value: "0", ChainID: doomed.Tx.ChainID,
			Data: hexutil.Encode(contracts.NewTestToken().PackTransfer(common.HexToAddress("0x000000000000000000000000000000000000dEaD"), big.NewInt(200_000_000)))}, nil)
		w.dev.Backend.Commit()
		drained, err := w.dev.Backend.Client().TransactionReceipt(context.Background(), drain.Hash())
		Expect(err).NotTo(HaveOccurred())
		Expect(drained.Status).To(Equal(types.ReceiptStatusSuccessful))
		failing := w.send(doomed.Tx, nil)
		failed := w.mineUntil(doomed.ID, "failed")
		Expect(failed.Metadata.Hash).To(Equal(failing.Hash().Hex()))
		Expect(failed.StatusDetail).To(ContainSubstring("reverted"))
		Expect(failed.Failure).NotTo(BeNil())
		Expect(failed.Failure.Code).To(Equal(string(v1alpha1.FailureInsufficientBalance)), "a revert that returned gas, ERC20InsufficientBalance")
		Expect(failed.Failure.Error).NotTo(BeNil())
		Expect(failed.Failure.Error.Name).To(Equal("ERC20InsufficientBalance"))
		Expect(failed.Failure.Error.Selector).To(Equal("0xe450d38c"))
		Expect(failed.Failure.Error.Args).To(HaveKeyWithValue("needed", "900000000"))
		Expect(failed.StatusDetail).To(ContainSubstring("ERC20InsufficientBalance(sender: "))

		By("recording the revert, and it alone, as a Warning Event on the TransferIntent: an operator may act on it")
		name, err := intent.ObjectNameFromID(doomed.ID)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() []string { return intentEventReasons(name) }).WithTimeout(5 * time.Second).
			Should(Equal([]string{corev1.EventTypeWarning + " " + v1alpha1.ReasonReverted}))
	})

	It("does not match a transaction that differs in one byte of data, and refuses its hash on /submission", func() {
		rec := w.create(w.token, "2")
		other := w.send(rec.Tx, func(tx *types.DynamicFeeTx) { tx.Data[len(tx.Data)-1] ^= 1 })
		w.dev.Backend.Commit()
		w.dev.Backend.Commit()
		Consistently(w.statusOfIntent(rec.ID)).WithTimeout(2 * time.Second).Should(Equal("pending"))

		r := call(http.MethodPost, "/v2/transfers/"+rec.ID+"/submission", w.key, fmt.Sprintf(`{"hash":%q}`, other.Hash().Hex()))
		Expect(r.StatusCode).To(Equal(http.StatusUnprocessableEntity), r.Body)
		Expect(r.Body).To(ContainSubstring(`"differs":["data"]`))

		By("accepting the intent's own transaction, reported before any block holds it, idempotently")
		own := w.send(rec.Tx, nil)
		for range 2 {
			r = call(http.MethodPost, "/v2/transfers/"+rec.ID+"/submission", w.key, fmt.Sprintf(`{"hash":%q}`, own.Hash().Hex()))
			Expect(r.StatusCode).To(Equal(http.StatusOK), r.Body)
			Expect(r.Body).To(ContainSubstring(`"status":"submitted"`))
			Expect(r.Body).To(ContainSubstring(own.Hash().Hex()))
		}
		Expect(w.mineUntil(rec.ID, "confirmed").Metadata.Hash).To(Equal(own.Hash().Hex()))

		By("refusing another hash once the intent is confirmed")
		r = call(http.MethodPost, "/v2/transfers/"+rec.ID+"/submission", w.key, fmt.Sprintf(`{"hash":%q}`, other.Hash().Hex()))
		Expect(r.StatusCode).To(Equal(http.StatusConflict), r.Body)
	})

	It("sends an intent whose block is reorganised away back to pending, never confirmed", func() {
		rec := w.create(common.HexToAddress(registry.NativeTokenAddress), "0.02")
		head, err := w.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		tx := w.send(rec.Tx, nil)
		w.dev.Backend.Commit()
		Eventually(w.statusOfIntent(rec.ID)).WithTimeout(10 * time.Second).Should(Equal("submitted"))
		Expect(w.record(rec.ID).Metadata.Hash).To(Equal(tx.Hash().Hex()))

		By("forking from the block before it, dropping the transaction, and growing the fork longer")
		Expect(w.dev.Backend.Fork(head.Hash())).To(Succeed())
		w.dev.Backend.Rollback() // the reorg put the transaction back in the pool: drop it
		w.dev.Backend.Commit()
		w.dev.Backend.Commit()
		w.dev.Backend.Commit()
		Eventually(w.statusOfIntent(rec.ID)).WithTimeout(10 * time.Second).Should(Equal("pending"))
		back := w.record(rec.ID)
		Expect(back.Metadata.Hash).To(BeEmpty())
		Expect(back.StatusDetail).To(ContainSubstring("left the chain in a reorg"))

		By("matching the transaction again when it is mined on the new branch")
		Expect(w.dev.Backend.Client().SendTransaction(context.Background(), tx)).To(Succeed())
		Expect(w.mineUntil(rec.ID, "confirmed").Metadata.Hash).To(Equal(tx.Hash().Hex()))
	})
})

// intentEventReasons are the "type reason" of the Events about the named TransferIntent.
func intentEventReasons(name string) []string {
	var events eventsv1.EventList
	Expect(k8sClient.List(ctx, &events, client.InNamespace(namespace))).To(Succeed())
	var reasons []string
	for _, e := range events.Items {
		if e.Regarding.Kind == "TransferIntent" && e.Regarding.Name == name {
			reasons = append(reasons, e.Type+" "+e.Reason)
		}
	}
	return reasons
}
