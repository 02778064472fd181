package e2e

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// settlementRefundDelay is the e2e settlement contracts' delay, in seconds, between an order's
// deadline and its refund: the contract's minimum (the refund test has the guardian waive it).
const settlementRefundDelay = settlement.MinRefundDelay

// orderChain is a local chain with the settlement contract and a test dollar, registered with the
// service.
type orderChain struct {
	dev        *devchain.Chain
	caip2      string
	settlement common.Address
	tusd       common.Address
}

// newOrderChain starts a chain, deploys TUSD and the settlement contract (attested by the
// manager's attester key) and registers the chain, ETH and TUSD with the service.
func newOrderChain(id int64) *orderChain {
	GinkgoHelper()
	c := &orderChain{dev: devchain.Start(GinkgoTB(), id), caip2: fmt.Sprintf("eip155:%d", id)}
	c.tusd = c.dev.DeployTestToken(GinkgoTB(), "Test USD", "TUSD", 6)
	var err error
	c.settlement, err = c.dev.DeploySettlement(crypto.PubkeyToAddress(attesterKey.PublicKey), settlementRefundDelay)
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient.Create(context.Background(), &v1alpha1.Chain{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("e2e-orders-%d", id), Namespace: namespace},
		Spec: v1alpha1.ChainSpec{
			ChainID: c.caip2, Environment: v1alpha1.EnvironmentTest, DisplayName: "e2e order chain", NativeSymbol: "ETH",
			NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2, DefaultGasPriceWei: "1000000000",
			NativeTokenPriceUSD: "3000", RPC: &v1alpha1.ChainRPC{URL: c.dev.URL}, SettlementAddress: c.settlement.Hex(),
			// A second endpoint of the node, on its own port: the attester signs a bridge fill only
			// when two endpoints agree on it.
			WitnessRPCs: []v1alpha1.ChainRPC{{URL: c.dev.NewProxy(GinkgoTB()).URL}},
		},
	})).To(Succeed())
	c.register("eth", "ETH", common.HexToAddress(registry.NativeTokenAddress), 18, "3000")
	c.register("tusd", "TUSD", c.tusd, 6, "1")
	return c
}

func (c *orderChain) register(name, symbol string, addr common.Address, decimals int32, price string) {
	GinkgoHelper()
	Expect(k8sClient.Create(context.Background(), &v1alpha1.TokenDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("e2e-orders-%s-%s", c.dev.ID, name), Namespace: namespace},
		Spec: v1alpha1.TokenDefinitionSpec{
			Symbol: symbol, ChainID: c.caip2, Address: c.caip2 + ":" + addr.Hex(), Decimals: decimals, PriceUSD: price,
		},
	})).To(Succeed())
}

func (c *orderChain) asset(addr common.Address) string { return c.caip2 + ":" + addr.Hex() }

func (c *orderChain) balance(token, holder common.Address) *big.Int {
	GinkgoHelper()
	erc20 := contracts.NewTestToken()
	out, err := bind.Call(erc20.Instance(c.dev.Backend.Client(), token), nil, erc20.PackBalanceOf(holder), erc20.UnpackBalanceOf)
	Expect(err).NotTo(HaveOccurred())
	return out
}

// send signs the payload with key and sends it, with the payload's gas or, without one, the
// node's estimate (as a wallet does).
func (c *orderChain) send(key *ecdsa.PrivateKey, p v1alpha1.TransactionPayload) *types.Transaction {
	GinkgoHelper()
	ctx := context.Background()
	node := c.dev.Backend.Client()
	from := crypto.PubkeyToAddress(key.PublicKey)
	to := common.HexToAddress(p.To)
	value, ok := new(big.Int).SetString(p.Value, 10)
	Expect(ok).To(BeTrue(), "tx.value %q", p.Value)
	data := hexutil.MustDecode(p.Data)
	gas := uint64(p.Gas) //nolint:gosec // a gas limit
	if gas == 0 {
		var err error
		gas, err = node.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Value: value, Data: data})
		Expect(err).NotTo(HaveOccurred(), "estimating %s", p.Data[:10])
	}
	nonce, err := c.dev.Nonces.Next(ctx, node, from)
	Expect(err).NotTo(HaveOccurred())
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.dev.ID), &types.DynamicFeeTx{
		ChainID: c.dev.ID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
		Gas: gas, To: &to, Value: value, Data: data,
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(node.SendTransaction(ctx, tx)).To(Succeed())
	return tx
}

// receipt is the receipt of a mined transaction.
func (c *orderChain) receipt(hash string) *types.Receipt {
	GinkgoHelper()
	r, err := c.dev.Backend.Client().TransactionReceipt(context.Background(), common.HexToHash(hash))
	Expect(err).NotTo(HaveOccurred(), "receipt of %s on %s", hash, c.caip2)
	return r
}

// orderIntent is what the specs read of a swap or bridge intent.
type orderIntent struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Status   string `json:"status"`
	OrderID  string `json:"orderId"`
	Metadata struct {
		ChainID string `json:"chainId"`
		Hash    string `json:"hash"`
	} `json:"metadata"`
	Fill *struct {
		ChainID   string `json:"chainId"`
		Hash      string `json:"hash"`
		Filler    string `json:"filler"`
		AmountOut string `json:"amountOut"`
	} `json:"fill"`
	RefundHash   string                      `json:"refundHash"`
	StatusDetail string                      `json:"statusDetail"`
	Tx           v1alpha1.TransactionPayload `json:"tx"`
	Failure      *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"failure"`
	Refund *struct {
		State       string                       `json:"state"`
		AvailableAt string                       `json:"availableAt"`
		Transaction *v1alpha1.TransactionPayload `json:"transaction"`
		Hash        string                       `json:"hash"`
	} `json:"refund"`
}

// Swaps and bridges through the built binaries only: the manager follows the orders on two real
// local chains, and `manager filler`, the reference filler, fills them and claims bridge escrows
// with the manager's attestations. The client's side (simulate, approve, create, sign, send,
// refund) is played by the spec, as a wallet would.
var _ = Describe("Settling swaps and bridges on two chains", Ordered, func() {
	var (
		origin, dest *orderChain
		wallet       = mustKey()
		walletAddr   = crypto.PubkeyToAddress(wallet.PublicKey)
		fillerKey    = mustKey()
		fillerAddr   = crypto.PubkeyToAddress(fillerKey.PublicKey)
		key          string
		fillerLog    string
	)

	BeforeAll(func() {
		origin, dest = newOrderChain(31401), newOrderChain(31402)
		origin.dev.SendValue(GinkgoTB(), walletAddr, big.NewInt(1e18))
		origin.dev.Mint(GinkgoTB(), origin.tusd, walletAddr, big.NewInt(1_000_000_000))
		for _, c := range []*orderChain{origin, dest} {
			c.dev.SendValue(GinkgoTB(), fillerAddr, big.NewInt(1e18))
			c.dev.Mint(GinkgoTB(), c.tusd, fillerAddr, big.NewInt(1_000_000_000))
		}

		key = newAccountWithKey("e2e-orders", "orders@example.test")

		By("starting `manager filler` on both chains")
		keyFile := filepath.Join(GinkgoT().TempDir(), "filler.key")
		Expect(os.WriteFile(keyFile, []byte(hex.EncodeToString(crypto.FromECDSA(fillerKey))), 0o600)).To(Succeed())
		fillerLog = filepath.Join(projectRoot, "test", "artifacts", "filler.log")
		filler := harness.RunManager(GinkgoTB(), managerBin, managerKubeconfig, fillerLog, GinkgoWriter, "filler",
			"--api", "http://"+apiAddr, "--api-key", key, "--key-file", keyFile, "--interval", "200ms",
			"--chain", fmt.Sprintf("%s,%s,%s", origin.dev.ID, origin.dev.URL, origin.settlement.Hex()),
			"--chain", fmt.Sprintf("%s,%s,%s", dest.dev.ID, dest.dev.URL, dest.settlement.Hex()))
		DeferCleanup(filler.Stop)
		Eventually(func(g Gomega) {
			g.Expect(filler.Running()).To(Succeed())
			out, err := os.ReadFile(fillerLog)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(string(out)).To(ContainSubstring(`"msg"="filling"`))
		}).WithTimeout(20 * time.Second).Should(Succeed())
	})

	read := func(id string) orderIntent {
		GinkgoHelper()
		status, out, err := api(http.MethodGet, "/v2/transfers/"+id, key, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusOK), out)
		var rec orderIntent
		Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		return rec
	}
	// place plays the wallet: simulate, approve what the simulation asks, create, sign and send.
	place := func(body string) (orderIntent, *types.Transaction) {
		GinkgoHelper()
		var sim struct {
			Valid    bool     `json:"valid"`
			Errors   []string `json:"errors"`
			Warnings []string `json:"warnings"`
			Approval *struct {
				Tx v1alpha1.TransactionPayload `json:"tx"`
			} `json:"approval"`
		}
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers/simulate", key, body)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			g.Expect(json.Unmarshal([]byte(out), &sim)).To(Succeed())
			g.Expect(sim.Valid).To(BeTrue(), out)
			// A node read that failed (a loaded machine) leaves the allowance unknown: no
			// approval, only a warning. A wallet simulates again, and so does the spec.
			g.Expect(sim.Warnings).NotTo(ContainElement(ContainSubstring("needs an ERC-20 allowance")), out)
		}).WithTimeout(20 * time.Second).Should(Succeed())
		if sim.Approval != nil {
			approval := origin.send(wallet, sim.Approval.Tx)
			origin.dev.Backend.Commit()
			Expect(origin.receipt(approval.Hash().Hex()).Status).To(Equal(types.ReceiptStatusSuccessful), "the approval")
		}
		status, out, err := api(http.MethodPost, "/v2/transfers", key, body)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusCreated), out)
		var rec orderIntent
		Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		Expect(rec.Tx.To).To(Equal(origin.settlement.Hex()), "the order opens on the origin chain's settlement contract")
		return rec, origin.send(wallet, rec.Tx)
	}
	// mineUntil makes blocks on both chains until the intent reads status.
	mineUntil := func(id, status string) orderIntent {
		GinkgoHelper()
		var rec orderIntent
		Eventually(func() string {
			Expect(manager.Running()).To(Succeed())
			// A bridge is final in the node's finalized block, every 32nd block on a simulated node.
			for range 4 {
				origin.dev.Backend.Commit()
				dest.dev.Backend.Commit()
			}
			rec = read(id)
			return rec.Status
		}).WithTimeout(45*time.Second).WithPolling(400*time.Millisecond).Should(Equal(status), func() string { return rec.StatusDetail })
		return rec
	}

	It("confirms a bridge filled on the other chain, with both hashes, and releases the escrow to the filler", func() {
		fillerBefore := origin.balance(origin.tusd, fillerAddr)
		recipientBefore := dest.balance(dest.tusd, walletAddr)
		rec, open := place(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"5"}`,
			origin.asset(walletAddr), dest.asset(walletAddr), origin.asset(origin.tusd)))
		Expect(rec.Type).To(Equal("bridge"))

		done := mineUntil(rec.ID, "confirmed")
		Expect(done.Metadata.ChainID).To(Equal(origin.caip2))
		Expect(done.Metadata.Hash).To(Equal(open.Hash().Hex()), "the origin transaction")
		Expect(done.Fill).NotTo(BeNil())
		Expect(done.Fill.ChainID).To(Equal(dest.caip2))
		Expect(done.Fill.Filler).To(Equal(fillerAddr.Hex()))
		fill := dest.receipt(done.Fill.Hash)
		Expect(fill.Status).To(Equal(types.ReceiptStatusSuccessful), "the fill transaction on the destination chain")
		Expect(fill.Logs).NotTo(BeEmpty())
		Expect(fill.Logs[len(fill.Logs)-1].Address).To(Equal(dest.settlement))
		// 5 TUSD less the bridge's 20 bps of fees, less the default 50 bps of slippage.
		Expect(done.Fill.AmountOut).To(Equal("4965050"))
		Expect(new(big.Int).Sub(dest.balance(dest.tusd, walletAddr), recipientBefore)).To(Equal(big.NewInt(4_965_050)))

		By("the filler claiming the whole escrow on the origin chain with the attestation")
		Eventually(func() *big.Int {
			origin.dev.Backend.Commit()
			return new(big.Int).Sub(origin.balance(origin.tusd, fillerAddr), fillerBefore)
		}).WithTimeout(20 * time.Second).WithPolling(300 * time.Millisecond).Should(Equal(big.NewInt(5_000_000)))
	})

	It("confirms a same-chain swap filled and settled in one transaction", func() {
		rec, open := place(fmt.Sprintf(`{"from":%q,"to":%q,"asset":{"in":%q,"out":%q},"amount":"0.001"}`,
			origin.asset(walletAddr), origin.asset(walletAddr),
			origin.asset(common.HexToAddress(registry.NativeTokenAddress)), origin.asset(origin.tusd)))
		Expect(rec.Type).To(Equal("swap"))
		done := mineUntil(rec.ID, "confirmed")
		Expect(done.Metadata.Hash).To(Equal(open.Hash().Hex()))
		Expect(done.Fill).NotTo(BeNil())
		Expect(done.Fill.ChainID).To(Equal(origin.caip2))
		Expect(origin.receipt(done.Fill.Hash).Status).To(Equal(types.ReceiptStatusSuccessful))
		Expect(done.Fill.Hash).NotTo(Equal(done.Metadata.Hash))
	})

	It("offers the refund of a bridge nobody fills, which the user sends from the record alone, and fails it refunded", func() {
		By("registering on both chains a token the filler holds none of")
		nothing, nothingOut := origin.dev.DeployTestToken(GinkgoTB(), "Test Nothing", "TNIL", 6), dest.dev.DeployTestToken(GinkgoTB(), "Test Nothing", "TNIL", 6)
		origin.register("tnil", "TNIL", nothing, 6, "1")
		dest.register("tnil", "TNIL", nothingOut, 6, "1")
		origin.dev.Mint(GinkgoTB(), nothing, walletAddr, big.NewInt(2_000_000))
		rec, _ := place(fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"2"}`,
			origin.asset(walletAddr), dest.asset(walletAddr), origin.asset(nothing)))
		Expect(rec.Type).To(Equal("bridge"))
		submitted := mineUntil(rec.ID, "submitted")
		Expect(origin.balance(nothing, walletAddr).Sign()).To(BeZero(), "the whole amount in escrow")
		Eventually(func() string {
			out, _ := os.ReadFile(fillerLog)
			return string(out)
		}).WithTimeout(10*time.Second).Should(ContainSubstring("inventory of "+nothingOut.Hex()+" short"), "see %s", fillerLog)
		// Before its deadline (the default, an hour away) an order may still be filled: no refund.
		Expect(submitted.Refund).To(BeNil())

		By("the guardian allowing the order's refund before its deadline and refund delay")
		// The chain's clock stays near the service's: the delay (an hour at least) is waived
		// rather than lived through; the deadline and delay are the unit tests' (TestRefundAvailability).
		origin.dev.Transact(GinkgoTB(), origin.dev.Funder, origin.settlement, contracts.NewSettlement().PackAllowRefund(common.HexToHash(rec.OrderID)))
		var offered orderIntent
		Eventually(func(g Gomega) {
			origin.dev.Backend.Commit()
			offered = read(rec.ID)
			g.Expect(offered.Refund).NotTo(BeNil())
			g.Expect(offered.Refund.State).To(Equal("available"))
		}).WithTimeout(20 * time.Second).WithPolling(300 * time.Millisecond).Should(Succeed())
		Expect(offered.Status).To(Equal("submitted"))
		Expect(offered.Refund.AvailableAt).To(BeEmpty(), "allowed early, not by the date")
		Expect(offered.Refund.Transaction).NotTo(BeNil())
		Expect(offered.Refund.Transaction.To).To(Equal(origin.settlement.Hex()))
		Expect(offered.Refund.Transaction.ChainID).To(Equal(rec.Tx.ChainID))

		By("the user sending the record's refund transaction as it is")
		tx := origin.send(wallet, *offered.Refund.Transaction)
		origin.dev.Backend.Commit()
		receipt := origin.receipt(tx.Hash().Hex())
		Expect(receipt.Status).To(Equal(types.ReceiptStatusSuccessful))
		Expect(receipt.GasUsed).To(BeNumerically("<", offered.Refund.Transaction.Gas), "the record's gas limit covers the refund")
		GinkgoWriter.Printf("refund gas used: %d of the record's %d\n", receipt.GasUsed, offered.Refund.Transaction.Gas)
		Expect(origin.balance(nothing, walletAddr)).To(Equal(big.NewInt(2_000_000)), "the whole escrow back")
		// A bridge's refund is final only in the finalized block: until more blocks, it is sent.
		Eventually(func(g Gomega) {
			sent := read(rec.ID)
			g.Expect(sent.Refund).NotTo(BeNil())
			g.Expect(sent.Refund.State).To(Equal("sent"))
			g.Expect(sent.Refund.Hash).To(Equal(tx.Hash().Hex()))
			g.Expect(sent.Status).To(Equal("submitted"))
		}).WithTimeout(20 * time.Second).WithPolling(200 * time.Millisecond).Should(Succeed())

		failed := mineUntil(rec.ID, "failed")
		Expect(failed.RefundHash).To(Equal(tx.Hash().Hex()))
		Expect(failed.Fill).To(BeNil())
		Expect(failed.Failure).NotTo(BeNil())
		Expect(failed.Failure.Code).To(Equal("refunded"))
		Expect(failed.Failure.Message).To(Equal(failed.StatusDetail))
		Expect(failed.Refund).NotTo(BeNil())
		Expect(failed.Refund.State).To(Equal("final"))
		Expect(failed.Refund.Hash).To(Equal(tx.Hash().Hex()))
		Expect(failed.Refund.Transaction).To(BeNil(), "nothing left to refund")
	})

	// The webhooks' delivery log (the outbox) lives in the archive's PostgreSQL, which the suite's
	// manager runs without. This spec runs it with one, from a PostgreSQL of its own, and the
	// suite's manager again afterwards: the archive (intents leaving the API server, reads falling
	// back to PostgreSQL) would otherwise change every other spec's environment, and make the whole
	// suite need PostgreSQL. --archive-after is long so that no intent moves meanwhile.
	It("delivers a bridge's transfer.created, submitted and confirmed, signed and in sequence, to an endpoint applied with kubectl", func() {
		pg := pgtest.Start(GinkgoTB())
		By("running the manager with the archive, and webhook retries a second apart")
		restartManager("manager-webhooks.log", "--archive-url", pg.URL, "--archive-after", "24h", "--webhook-first-retry", "1s", "--webhook-allow-loopback")

		By("applying a WebhookEndpoint of the account to a receiver on loopback with kubectl")
		recv := newHookReceiver()
		const endpoint = "e2e-orders-hooks"
		manifest := fmt.Sprintf(`apiVersion: intents.transferintent.io/v1alpha1
kind: WebhookEndpoint
metadata:
  name: %s
  namespace: %s
spec:
  accountRef:
    name: e2e-orders
  environment: test
  url: %s/hooks
  eventTypes:
  - transfer.created
  - transfer.submitted
  - transfer.confirmed
`, endpoint, namespace, recv.URL)
		out, err := kubectl("apply", "-f", writeTemp("webhookendpoint.yaml", manifest))
		Expect(err).NotTo(HaveOccurred(), "kubectl apply of the WebhookEndpoint:\n%s", out)
		DeferCleanup(func() {
			out, err := kubectl("delete", "webhookendpoint", endpoint, "--namespace", namespace, "--wait=false")
			Expect(err).NotTo(HaveOccurred(), out)
		})
		out, err = kubectl("wait", "webhookendpoint/"+endpoint, "--namespace", namespace, "--for=condition=Ready", "--timeout=30s")
		Expect(err).NotTo(HaveOccurred(), out)
		encoded, err := runKubectl("get", "secret", endpoint+"-webhook-secret", "--namespace", namespace, "-o", "jsonpath={.data.secret}")
		Expect(err).NotTo(HaveOccurred(), encoded)
		secret, err := base64.StdEncoding.DecodeString(encoded)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(secret)).To(HavePrefix("whsec_"))

		By("creating a bridge through the API")
		body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"5"}`,
			origin.asset(walletAddr), dest.asset(walletAddr), origin.asset(origin.tusd))
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers/simulate", key, body)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			g.Expect(out).To(ContainSubstring(`"valid":true`))
		}).WithTimeout(20 * time.Second).Should(Succeed())
		posted := time.Now()
		status, out, err := api(http.MethodPost, "/v2/transfers", key, body)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusCreated), out)
		var rec orderIntent
		Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		Expect(rec.Type).To(Equal("bridge"))
		name, err := intent.ObjectNameFromID(rec.ID)
		Expect(err).NotTo(HaveOccurred())
		phases := watchPhases(namespace, name)

		By("signing and sending it with `manager devwallet send`, mining the origin chain meanwhile")
		// devwallet approves the escrow first and waits for the approval to be mined: the
		// simulated node mines only when told.
		mining, mined := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(mined)
			for {
				select {
				case <-mining:
					return
				case <-time.After(200 * time.Millisecond):
					origin.dev.Backend.Commit()
				}
			}
		}()
		cmd := exec.Command(managerBin, "devwallet", "send", "--api", "http://"+apiAddr, "--api-key", key,
			"--rpc", origin.dev.URL, "--key", hex.EncodeToString(crypto.FromECDSA(wallet)), rec.ID)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		sent, err := cmd.Output()
		close(mining)
		<-mined
		Expect(err).NotTo(HaveOccurred(), "manager devwallet send: %s", stderr.String())
		hash := strings.TrimSpace(string(sent))
		Expect(hash).To(MatchRegexp(`^0x[0-9a-f]{64}$`))

		done := mineUntil(rec.ID, "confirmed")
		Expect(done.Metadata.Hash).To(Equal(hash), "the transaction devwallet sent")
		Expect(done.Fill).NotTo(BeNil())

		By("the receiver getting the three events, signed with the Secret's secret, in sequence")
		Eventually(func() int { return len(recv.of(rec.ID)) }).WithTimeout(30 * time.Second).Should(BeNumerically(">=", 3))
		phases.end()
		got := recv.of(rec.ID)
		Expect(got).To(HaveLen(3), "one delivery per event: none failed")
		want := []string{signing.EventTransferCreated, signing.EventTransferSubmitted, signing.EventTransferConfirmed}
		// A transaction intent is never signed: its events skip sequence 2.
		wantSequence := []uint64{1, 3, 4}
		for i, d := range got {
			Expect(signing.Verify(d.header, d.body, time.Now(), signing.DefaultTolerance, string(secret))).To(Succeed(), "the signature of %s", d.event.Type)
			Expect(d.event.Type).To(Equal(want[i]))
			Expect(d.event.Sequence).To(Equal(wantSequence[i]), d.event.Type)
			Expect(d.event.ID).To(Equal(d.header.Get(signing.HeaderID)))
			Expect(d.event.Environment).To(Equal("test"))
			var data struct{ ID, Status string }
			Expect(json.Unmarshal(d.event.Data, &data)).To(Succeed())
			Expect(data.ID).To(Equal(rec.ID))
		}

		// Figures, not assertions: the event's createdAt has second precision, so each delay is
		// taken from what the spec saw itself. transfer.created: from the POST's start, an upper
		// bound. submitted and confirmed: from the window, between two reads of the TransferIntent
		// 50 ms apart, in which it changed to the phase (a delivery cannot precede the change).
		report := fmt.Sprintf("transfer.created: at most %d ms after the POST was sent\n"+
			"transfer.submitted: %s after the change of phase\ntransfer.confirmed: %s after the change of phase\n",
			got[0].at.Sub(posted).Milliseconds(), phases.delay(v1alpha1.IntentPhaseSubmitted, got[1].at),
			phases.delay(v1alpha1.IntentPhaseConfirmed, got[2].at))
		_, _ = fmt.Fprintf(GinkgoWriter, "webhook delivery latency:\n%s", report)
		AddReportEntry("webhook delivery latency", report)

		replayWhatTheReceiverMissed(recv, key, endpoint, body, posted.Add(-2*time.Second))
	})
})
