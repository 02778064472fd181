package e2e

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// The real manager binary follows a real local node (go-ethereum's simulated chain, JSON-RPC on
// loopback): intents reach confirmed with their hash, and a manager killed with SIGKILL between
// a send and its confirmation resumes from the progress it recorded and confirms it.
var _ = Describe("Following intents on chain", Ordered, func() {
	const chainID = 31337
	caip2 := fmt.Sprintf("eip155:%d", chainID)
	var (
		dev    *devchain.Chain
		wallet = mustKey()
		from   = crypto.PubkeyToAddress(wallet.PublicKey)
		token  common.Address
		key    string
	)

	BeforeAll(func() {
		dev = devchain.Start(GinkgoTB(), chainID)
		dev.SendValue(GinkgoTB(), from, big.NewInt(1e18))
		token = dev.DeployTestToken(GinkgoTB(), "Test USD", "TUSD", 6)
		dev.Mint(GinkgoTB(), token, from, big.NewInt(1_000_000_000))

		ctx := context.Background()
		Expect(k8sClient.Create(ctx, &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "e2e-devchain", Namespace: namespace},
			Spec: v1alpha1.ChainSpec{
				ChainID: caip2, Environment: v1alpha1.EnvironmentTest, DisplayName: "e2e dev chain", NativeSymbol: "ETH",
				NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2, DefaultGasPriceWei: "1000000000",
				NativeTokenPriceUSD: "3000", RPC: &v1alpha1.ChainRPC{URL: dev.URL},
			},
		})).To(Succeed())
		for name, t := range map[string]struct {
			symbol, address string
			decimals        int32
		}{"e2e-dev-eth": {"ETH", registry.NativeTokenAddress, 18}, "e2e-dev-tusd": {"TUSD", token.Hex(), 6}} {
			Expect(k8sClient.Create(ctx, &v1alpha1.TokenDefinition{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
				Spec:       v1alpha1.TokenDefinitionSpec{Symbol: t.symbol, ChainID: caip2, Address: caip2 + ":" + t.address, Decimals: t.decimals},
			})).To(Succeed())
		}
		key = newAccountWithKey("e2e-chain-watch", "watch@example.test")
	})

	// create creates an intent of amount of asset from the wallet.
	create := func(asset common.Address, amount string) chainIntent {
		GinkgoHelper()
		body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":%q}`, caip2+":"+from.Hex(),
			caip2+":0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", caip2+":"+asset.Hex(), amount)
		var rec chainIntent
		Eventually(func(g Gomega) {
			status, out, err := api(http.MethodPost, "/v2/transfers", key, body)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusCreated), out)
			g.Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		}).WithTimeout(20 * time.Second).Should(Succeed())
		return rec
	}
	read := func(id string) func(g Gomega) chainIntent {
		return func(g Gomega) chainIntent {
			status, out, err := api(http.MethodGet, "/v2/transfers/"+id, key, "")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK), out)
			var rec chainIntent
			g.Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
			return rec
		}
	}
	send := func(p v1alpha1.TransactionPayload) *types.Transaction {
		GinkgoHelper()
		c := dev.Backend.Client()
		nonce, err := dev.Nonces.Next(context.Background(), c, from)
		Expect(err).NotTo(HaveOccurred())
		to := common.HexToAddress(p.To)
		value, _ := new(big.Int).SetString(p.Value, 10)
		tx, err := types.SignNewTx(wallet, types.LatestSignerForChainID(dev.ID), &types.DynamicFeeTx{
			ChainID: dev.ID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
			Gas: uint64(max(p.Gas, 200_000)), To: &to, Value: value, Data: hexutil.MustDecode(p.Data), //nolint:gosec // a gas limit
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.SendTransaction(context.Background(), tx)).To(Succeed())
		return tx
	}
	mineUntil := func(id, status string) chainIntent {
		GinkgoHelper()
		var rec chainIntent
		Eventually(func(g Gomega) string {
			Expect(manager.Running()).To(Succeed())
			dev.Backend.Commit()
			rec = read(id)(g)
			return rec.Status
		}).WithTimeout(30 * time.Second).WithPolling(500 * time.Millisecond).Should(Equal(status))
		return rec
	}
	// mineOnceUntil mines the one block that holds what was sent, then waits for the intent's
	// status without mining more. A status that needs no further block (submitted) cannot then be
	// skipped between two polls, as it can with mineUntil's block a poll on a busy machine: two
	// blocks of depth confirm a transfer here.
	mineOnceUntil := func(id, status string) chainIntent {
		GinkgoHelper()
		dev.Backend.Commit()
		var rec chainIntent
		Eventually(func(g Gomega) string {
			Expect(manager.Running()).To(Succeed())
			rec = read(id)(g)
			return rec.Status
		}).WithTimeout(30 * time.Second).WithPolling(200 * time.Millisecond).Should(Equal(status))
		return rec
	}

	It("confirms a native transfer and an ERC-20 transfer with their hashes", func() {
		native := create(common.HexToAddress(registry.NativeTokenAddress), "0.5")
		erc20 := create(token, "12.5")
		nativeTx, erc20Tx := send(native.Tx), send(erc20.Tx)
		Expect(mineUntil(native.ID, "confirmed").Metadata.Hash).To(Equal(nativeTx.Hash().Hex()))
		Expect(mineUntil(erc20.ID, "confirmed").Metadata.Hash).To(Equal(erc20Tx.Hash().Hex()))
	})

	It("resumes after kill -9 between a send and its confirmation, and finds what was mined meanwhile", func() {
		first := create(common.HexToAddress(registry.NativeTokenAddress), "0.25")
		second := create(token, "3")
		firstTx := send(first.Tx)
		submitted := mineOnceUntil(first.ID, "submitted")
		Expect(submitted.Metadata.Hash).To(Equal(firstTx.Hash().Hex()))

		By("waiting for the progress to be recorded past its block, then killing the manager")
		Eventually(func(g Gomega) int64 {
			var chain v1alpha1.Chain
			g.Expect(k8sClient.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "e2e-devchain"}, &chain)).To(Succeed())
			g.Expect(chain.Status.Watch).NotTo(BeNil())
			return chain.Status.Watch.ProcessedBlock
		}).WithTimeout(10 * time.Second).Should(BeNumerically(">=", submitted.BlockNumber))
		manager.Kill()

		By("mining while no watcher runs: the first intent's confirmations and the second's transaction")
		secondTx := send(second.Tx)
		for range 3 {
			dev.Backend.Commit()
		}

		By("restarting the manager")
		logPath := filepath.Join(projectRoot, "test", "artifacts", "manager-after-kill.log")
		manager = harness.RunManager(GinkgoTB(), managerBin, managerKubeconfig, logPath, GinkgoWriter, managerArgs...)
		DeferCleanup(func() {
			out, err := os.ReadFile(logPath)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).NotTo(ContainSubstring("WARNING: DATA RACE"), "see %s", logPath)
		})
		Expect(mineUntil(first.ID, "confirmed").Metadata.Hash).To(Equal(firstTx.Hash().Hex()))
		Expect(mineUntil(second.ID, "confirmed").Metadata.Hash).To(Equal(secondTx.Hash().Hex()))
	})
})

// chainIntent is what the specs read of an intent record.
type chainIntent struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Metadata struct {
		Hash string `json:"hash"`
	} `json:"metadata"`
	BlockNumber int64                       `json:"blockNumber"`
	Tx          v1alpha1.TransactionPayload `json:"tx"`
}

func mustKey() *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		panic(err)
	}
	return k
}

// newAccountWithKey creates an Account and a test key of it with room for a spec's polling, and
// returns the key.
func newAccountWithKey(name, email string) string {
	GinkgoHelper()
	ctx := context.Background()
	Expect(k8sClient.Create(ctx, &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       v1alpha1.AccountSpec{DisplayName: name, Email: email},
	})).To(Succeed())
	k, err := apikey.Generate(registry.EnvironmentTest)
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient.Create(ctx, &v1alpha1.ApiKey{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: name},
			Environment: v1alpha1.EnvironmentTest, KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: 10_000},
	})).To(Succeed())
	return k.Plaintext
}
