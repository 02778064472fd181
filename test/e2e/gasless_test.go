package e2e

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// gaslessRecord is what the specs read of a gasless intent.
type gaslessRecord struct {
	orderIntent
	Execution string `json:"execution"`
	Gasless   *struct {
		Nonce     string          `json:"nonce"`
		TypedData json.RawMessage `json:"typedData"`
		Signature string          `json:"signature"`
		Cancel    *struct {
			To   string `json:"to"`
			Data string `json:"data"`
		} `json:"cancel"`
	} `json:"gasless"`
}

// A wallet with USDC-like tokens and no ether bridges between two local chains (31403 to 31404:
// the samples this suite applies hold make run's 1337 and 1338, whose walk-through the README
// gives): it signs the service's
// typed data (with `manager devwallet sign`, as a wallet would), and the reference filler reads
// the order book with its filler key, opens the order with openFor (paying the gas), fills it on
// the other chain and claims the escrow. The API refuses each forged or replayed signature.
var _ = Describe("Gasless bridges: the user signs, a filler opens", Ordered, func() {
	var (
		origin, dest *orderChain
		wallet       = mustKey() // holds TUSD and no ether
		walletAddr   = crypto.PubkeyToAddress(wallet.PublicKey)
		spender      = mustKey() // holds TUSD and ether: it sends a hard cancel
		spenderAddr  = crypto.PubkeyToAddress(spender.PublicKey)
		fillerKey    = mustKey()
		fillerAddr   = crypto.PubkeyToAddress(fillerKey.PublicKey)
		key          string
		orders       string // the filler's key
	)

	BeforeAll(func() {
		origin, dest = newOrderChain(31403), newOrderChain(31404)
		unlimited := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
		for _, k := range []*ecdsa.PrivateKey{wallet, spender} {
			origin.dev.Mint(GinkgoTB(), origin.tusd, crypto.PubkeyToAddress(k.PublicKey), big.NewInt(1_000_000_000))
			Expect(origin.dev.Permit(origin.tusd, k, contracts.CanonicalPermit2, unlimited)).To(Succeed(),
				"the wallet's one approval of Permit2, an EIP-2612 permit the funder sends")
		}
		origin.dev.SendValue(GinkgoTB(), spenderAddr, big.NewInt(1e18))
		for _, c := range []*orderChain{origin, dest} {
			c.dev.SendValue(GinkgoTB(), fillerAddr, big.NewInt(1e18))
			c.dev.Mint(GinkgoTB(), c.tusd, fillerAddr, big.NewInt(1_000_000_000))
		}
		bal, err := origin.dev.Backend.Client().BalanceAt(context.Background(), walletAddr, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(bal.Sign()).To(BeZero(), "the wallet holds no ether")

		key = newAccountWithKey("e2e-gasless", "gasless@example.test")
		orders = newFillerKey("e2e-gasless-filler")
		By("waiting for Permit2 to be verified on the origin chain")
		Eventually(func(g Gomega) {
			var c v1alpha1.Chain
			g.Expect(k8sClient.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "e2e-orders-31403"}, &c)).To(Succeed())
			cond := meta.FindStatusCondition(c.Status.Conditions, v1alpha1.ConditionPermit2)
			g.Expect(cond).NotTo(BeNil())
			g.Expect(string(cond.Status)).To(Equal("True"), cond.Message)
		}).WithTimeout(30 * time.Second).Should(Succeed())

		By("starting `manager filler` with the filler key on both chains")
		keyFile := filepath.Join(GinkgoT().TempDir(), "filler.key")
		Expect(os.WriteFile(keyFile, []byte(hex.EncodeToString(crypto.FromECDSA(fillerKey))), 0o600)).To(Succeed())
		log := filepath.Join(projectRoot, "test", "artifacts", "gasless-filler.log")
		filler := harness.RunManager(GinkgoTB(), managerBin, managerKubeconfig, log, GinkgoWriter, "filler",
			"--api", "http://"+apiAddr, "--api-key", key, "--orders-key", orders, "--key-file", keyFile, "--interval", "200ms",
			"--chain", fmt.Sprintf("%s,%s,%s", origin.dev.ID, origin.dev.URL, origin.settlement.Hex()),
			"--chain", fmt.Sprintf("%s,%s,%s", dest.dev.ID, dest.dev.URL, dest.settlement.Hex()))
		DeferCleanup(filler.Stop)
	})

	bridgeOf := func(from common.Address, amount string) string {
		return fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":%q,"execution":"gasless"}`,
			origin.asset(from), dest.asset(from), origin.asset(origin.tusd), amount)
	}
	bridge := func(from common.Address) string { return bridgeOf(from, "5") }
	read := func(id string) gaslessRecord {
		GinkgoHelper()
		status, out, err := api(http.MethodGet, "/v2/transfers/"+id, key, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusOK), out)
		var rec gaslessRecord
		Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		return rec
	}
	createOf := func(body string) gaslessRecord {
		GinkgoHelper()
		var rec gaslessRecord
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers", key, body)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusCreated), out)
			g.Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		}).WithTimeout(20 * time.Second).Should(Succeed())
		Expect(rec.Status).To(Equal("unsigned"))
		Expect(rec.Execution).To(Equal("gasless"))
		Expect(rec.Gasless).NotTo(BeNil())
		Expect(rec.Gasless.TypedData).NotTo(BeEmpty())
		return rec
	}
	create := func(from common.Address) gaslessRecord { GinkgoHelper(); return createOf(bridge(from)) }
	// confirm makes blocks on both chains until the intent is confirmed (a bridge is final in the
	// node's finalized block, every 32nd block on a simulated node).
	confirm := func(id string) gaslessRecord {
		GinkgoHelper()
		var done gaslessRecord
		Eventually(func() string {
			for range 4 {
				origin.dev.Backend.Commit()
				dest.dev.Backend.Commit()
			}
			done = read(id)
			return done.Status
		}).WithTimeout(60*time.Second).WithPolling(400*time.Millisecond).Should(Equal("confirmed"), func() string { return done.StatusDetail })
		return done
	}
	post := func(id, sig string) (int, string) {
		GinkgoHelper()
		return postSignature(key, id, sig)
	}

	It("simulates a gasless bridge for a wallet without ether: no transaction to send, no gas needed", func() {
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers/simulate", key, bridge(walletAddr))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			var sim struct {
				Valid     bool            `json:"valid"`
				Execution string          `json:"execution"`
				Tx        json.RawMessage `json:"tx"`
				Approval  json.RawMessage `json:"approval"`
				Gasless   *struct {
					Permit2 string `json:"permit2"`
				} `json:"gasless"`
			}
			g.Expect(json.Unmarshal([]byte(out), &sim)).To(Succeed())
			g.Expect(sim.Valid).To(BeTrue(), out)
			g.Expect(sim.Execution).To(Equal("gasless"))
			g.Expect(sim.Tx).To(BeEmpty(), "the user sends no transaction")
			g.Expect(sim.Approval).To(BeEmpty(), "Permit2 is approved already")
			g.Expect(sim.Gasless).NotTo(BeNil())
			g.Expect(sim.Gasless.Permit2).To(Equal(contracts.CanonicalPermit2.Hex()))
		}).WithTimeout(20 * time.Second).Should(Succeed())
	})

	It("refuses forged, altered and replayed signatures with a specific problem each", func() {
		rec, other := create(walletAddr), create(spenderAddr)
		typed := typedDataOf(rec.Gasless.TypedData)

		By("a signature by another key")
		status, out := post(rec.ID, signTyped(mustKey(), typed))
		Expect(status).To(Equal(http.StatusUnprocessableEntity), out)
		Expect(out).To(ContainSubstring("/signature-invalid"))

		By("a signature of the same order for another chain")
		forOtherChain := typedDataOf(rec.Gasless.TypedData)
		forOtherChain.Domain.ChainId = (*math.HexOrDecimal256)(big.NewInt(31404))
		status, out = post(rec.ID, signTyped(wallet, forOtherChain))
		Expect(status).To(Equal(http.StatusUnprocessableEntity), out)
		Expect(out).To(ContainSubstring("/signature-invalid"))

		By("a signature of the order with another recipient")
		altered := typedDataOf(rec.Gasless.TypedData)
		altered.Message["witness"].(map[string]any)["orderData"].(map[string]any)["recipient"] = crypto.PubkeyToAddress(mustKey().PublicKey).Hex()
		status, out = post(rec.ID, signTyped(wallet, altered))
		Expect(status).To(Equal(http.StatusUnprocessableEntity), out)
		Expect(out).To(ContainSubstring("/signature-invalid"))

		By("another intent's signature, replayed")
		status, out = post(rec.ID, signTyped(spender, typedDataOf(other.Gasless.TypedData)))
		Expect(status).To(Equal(http.StatusUnprocessableEntity), out)
		Expect(out).To(ContainSubstring("/signature-invalid"))

		By("a signature whose Permit2 nonce was cancelled on chain (the record's hard cancel)")
		Expect(other.Gasless.Cancel).NotTo(BeNil())
		r := origin.dev.Transact(GinkgoTB(), spender, common.HexToAddress(other.Gasless.Cancel.To), hexutil.MustDecode(other.Gasless.Cancel.Data))
		Expect(r.Status).To(Equal(types.ReceiptStatusSuccessful), "the hard cancel")
		status, out = post(other.ID, signTyped(spender, typedDataOf(other.Gasless.TypedData)))
		Expect(status).To(Equal(http.StatusUnprocessableEntity), out)
		Expect(out).To(ContainSubstring("/nonce-used"))

		By("the soft cancel: the unsigned intent is cancelled and takes no signature")
		status, out, err := api(http.MethodPost, "/v2/transfers/"+rec.ID+"/cancel", key, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusOK), out)
		Expect(out).To(ContainSubstring(`"status":"cancelled"`))
		Eventually(func() string { return read(rec.ID).Status }).WithTimeout(10 * time.Second).Should(Equal("cancelled"))
		status, out = post(rec.ID, signTyped(wallet, typed))
		Expect(status).To(Equal(http.StatusConflict), out)
	})

	It("ends a signed order its user cancelled once the hard cancel is final, not at its open deadline", func() {
		// 3,000 TUSD: more than the reference filler holds on the destination (1,000), so it leaves
		// the order alone (inventory short) and nobody opens it between the signature and the cancel.
		origin.dev.Mint(GinkgoTB(), origin.tusd, spenderAddr, big.NewInt(3_000_000_000))
		rec := createOf(bridgeOf(spenderAddr, "3000"))
		sig := signTyped(spender, typedDataOf(rec.Gasless.TypedData))
		// Until the intent reaches the API's cache the signature finds no intent (500).
		Eventually(func() (int, error) {
			status, _ := post(rec.ID, sig)
			return status, nil
		}).WithTimeout(10 * time.Second).Should(Equal(http.StatusOK))

		By("the soft cancel: cancelling, the record offering the hard cancel")
		status, out, err := api(http.MethodPost, "/v2/transfers/"+rec.ID+"/cancel", key, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusOK), out)
		var cancelling gaslessRecord
		Expect(json.Unmarshal([]byte(out), &cancelling)).To(Succeed())
		Expect(cancelling.Status).To(Equal("cancelling"))
		Expect(cancelling.Gasless.Cancel).NotTo(BeNil())

		By("the hard cancel: cancelled once its block is final (every 32nd block on a simulated node)")
		sent := time.Now()
		r := origin.dev.Transact(GinkgoTB(), spender, common.HexToAddress(cancelling.Gasless.Cancel.To), hexutil.MustDecode(cancelling.Gasless.Cancel.Data))
		Expect(r.Status).To(Equal(types.ReceiptStatusSuccessful), "the hard cancel")
		var ended gaslessRecord
		Eventually(func() string {
			for range 4 {
				origin.dev.Backend.Commit()
			}
			ended = read(rec.ID)
			return ended.Status
		}).WithTimeout(60*time.Second).WithPolling(400*time.Millisecond).Should(Equal("cancelled"), func() string { return ended.StatusDetail })
		Expect(ended.StatusDetail).To(ContainSubstring("hard cancel (Permit2 nonce invalidation) is final"), "ended by the hard cancel, not at the open deadline")
		fmt.Fprintf(GinkgoWriter, "gasless: hard cancel -> cancelled in %s\n", time.Since(sent).Round(time.Millisecond))
	})

	It("accepts a Safe's EIP-1271 signature and confirms its bridge, opened by the filler", func() {
		owner := mustKey()
		safe, err := origin.dev.DeploySafe(owner)
		Expect(err).NotTo(HaveOccurred())
		origin.dev.Mint(GinkgoTB(), origin.tusd, safe.Address, big.NewInt(100_000_000))
		unlimited := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
		Expect(safe.Exec(origin.tusd, contracts.NewTestToken().PackApprove(contracts.CanonicalPermit2, unlimited))).To(Succeed(),
			"the Safe's one approval of Permit2")
		rec := create(safe.Address)

		By("the owner's bare ECDSA signature: not the Safe's, refused")
		typed := typedDataOf(rec.Gasless.TypedData)
		status, out := post(rec.ID, signTyped(owner, typed))
		Expect(status).To(Equal(http.StatusUnprocessableEntity), out)
		Expect(out).To(ContainSubstring("/signature-invalid"))

		By("the Safe's signature (its owner's, of the Safe's message hash of the digest)")
		digest, _, err := apitypes.TypedDataAndHash(typed)
		Expect(err).NotTo(HaveOccurred())
		sig, err := safe.Sign(common.BytesToHash(digest))
		Expect(err).NotTo(HaveOccurred())
		status, out = post(rec.ID, hexutil.Encode(sig))
		Expect(status).To(Equal(http.StatusOK), out)

		done := confirm(rec.ID)
		Expect(done.Fill).NotTo(BeNil())
		Expect(dest.balance(dest.tusd, safe.Address).String()).To(Equal(done.Fill.AmountOut), "the Safe received the fill on the other chain")
	})

	It("bridges from a wallet without ether through openFor by the reference filler, confirmed", func() {
		rec := create(walletAddr)
		recipientBefore := dest.balance(dest.tusd, walletAddr)

		By("the order book refusing a client key")
		status, out, err := api(http.MethodGet, "/v2/orders", key, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusForbidden), out)
		Expect(out).To(ContainSubstring("/filler-key-required"))

		By("signing with `manager devwallet sign`, as the wallet's user")
		signed := time.Now()
		cmd := exec.Command(managerBin, "devwallet", "sign", "--api", "http://"+apiAddr, "--key", hex.EncodeToString(crypto.FromECDSA(wallet)), rec.ID)
		cmd.Env = append(os.Environ(), "TIS_API_KEY="+key)
		sigOut, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(sigOut))

		By("the filler opening it: submitted with the filler's openFor")
		var opened gaslessRecord
		Eventually(func() string {
			origin.dev.Backend.Commit()
			opened = read(rec.ID)
			return opened.Status
		}).WithTimeout(30*time.Second).WithPolling(200*time.Millisecond).Should(Equal("submitted"), func() string { return opened.StatusDetail })
		openLatency := time.Since(signed)
		openTx, _, err := origin.dev.Backend.Client().TransactionByHash(context.Background(), common.HexToHash(opened.Metadata.Hash))
		Expect(err).NotTo(HaveOccurred())
		openFrom, err := types.Sender(types.LatestSignerForChainID(origin.dev.ID), openTx)
		Expect(err).NotTo(HaveOccurred())
		Expect(openFrom).To(Equal(fillerAddr), "the filler sent the open and paid its gas")
		openReceipt := origin.receipt(opened.Metadata.Hash)
		AddReportEntry("gasless openFor", fmt.Sprintf("gas %d paid by the filler; signature to Open mined: %s", openReceipt.GasUsed, openLatency.Round(time.Millisecond)))
		fmt.Fprintf(GinkgoWriter, "gasless: openFor used %d gas (the filler's); signature -> Open mined in %s\n", openReceipt.GasUsed, openLatency.Round(time.Millisecond))

		By("confirming once the fill is final, the recipient holding at least the quoted minimum")
		done := confirm(rec.ID)
		var quoted struct {
			Quote struct {
				MinAmountOut string `json:"minAmountOut"`
			} `json:"quote"`
		}
		_, out, err = api(http.MethodGet, "/v2/transfers/"+rec.ID, key, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal([]byte(out), &quoted)).To(Succeed())
		minimum, err := intent.ParseAmount(quoted.Quote.MinAmountOut, 6)
		Expect(err).NotTo(HaveOccurred())
		got := new(big.Int).Sub(dest.balance(dest.tusd, walletAddr), recipientBefore)
		Expect(done.Fill.AmountOut).To(Equal(got.String()))
		Expect(got.Cmp(minimum)).To(BeNumerically(">=", 0), "received %s base units, quoted minimum %s", got, quoted.Quote.MinAmountOut)
		bal, err := origin.dev.Backend.Client().BalanceAt(context.Background(), walletAddr, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(bal.Sign()).To(BeZero(), "the wallet never held ether")
	})
})

// typedDataOf decodes the service's typed data JSON as go-ethereum's signer takes it.
func typedDataOf(raw json.RawMessage) apitypes.TypedData {
	GinkgoHelper()
	var typed apitypes.TypedData
	Expect(json.Unmarshal(raw, &typed)).To(Succeed())
	return typed
}

// signTyped signs typed data as a wallet's eth_signTypedData_v4 does.
func signTyped(key *ecdsa.PrivateKey, typed apitypes.TypedData) string {
	GinkgoHelper()
	digest, _, err := apitypes.TypedDataAndHash(typed)
	Expect(err).NotTo(HaveOccurred())
	sig, err := devchain.SignDigest(key, digest)
	Expect(err).NotTo(HaveOccurred())
	return hexutil.Encode(sig)
}

// newFillerKey makes an account with a filler key (spec.role filler) and returns the key.
func newFillerKey(name string) string {
	GinkgoHelper()
	ctx := context.Background()
	Expect(k8sClient.Create(ctx, &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       v1alpha1.AccountSpec{DisplayName: name, Email: name + "@example.test"},
	})).To(Succeed())
	k, err := apikey.Generate(registry.EnvironmentTest)
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient.Create(ctx, &v1alpha1.ApiKey{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: name}, Role: v1alpha1.ApiKeyRoleFiller,
			Environment: v1alpha1.EnvironmentTest, KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: 10_000},
	})).To(Succeed())
	return k.Plaintext
}
