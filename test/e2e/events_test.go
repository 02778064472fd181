package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/ssetest"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// streamRecord is what the stream specs read of an event's record.
type streamRecord struct {
	ID     string                      `json:"id"`
	Status string                      `json:"status"`
	Tx     v1alpha1.TransactionPayload `json:"tx"`
}

func recordOf(it ssetest.Item) streamRecord {
	GinkgoHelper()
	var rec streamRecord
	Expect(json.Unmarshal([]byte(it.Data), &rec)).To(Succeed(), it.Data)
	return rec
}

// GET /v2/transfers/{id}/events on three replicas electing a leader, as a cluster runs them: the
// leader's chain watcher writes an intent's transitions, and a stream opened on a replica that
// does not lead carries them, through that replica's informer; a reconnect to the third replica
// with Last-Event-ID misses nothing. The replicas also deliver webhooks, so that the stream's
// latency is measured beside the webhooks' in the same run.
var _ = Describe("Live status stream across replicas", Ordered, func() {
	const chainID = 31405
	caip2 := fmt.Sprintf("eip155:%d", chainID)
	var (
		ns       string
		key      string
		dev      *devchain.Chain
		wallet   = mustKey()
		from     = crypto.PubkeyToAddress(wallet.PublicKey)
		replicas []*replica
		hooks    *hookReceiver
		c        = &http.Client{Timeout: 5 * time.Second}
		streams  = &http.Client{} // a stream lasts as long as its spec needs it
	)

	BeforeAll(func() {
		ctx := context.Background()
		ns = "sse-" + utilrand.String(6)
		Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
		Expect(k8sClient.Create(ctx, &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "sse", Namespace: ns},
			Spec:       v1alpha1.AccountSpec{DisplayName: "SSE", Email: "sse@example.test"},
		})).To(Succeed())
		k, err := apikey.Generate(registry.EnvironmentTest)
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &v1alpha1.ApiKey{
			ObjectMeta: metav1.ObjectMeta{Name: "sse", Namespace: ns},
			Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: "sse"}, Environment: v1alpha1.EnvironmentTest,
				KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: 100_000},
		})).To(Succeed())
		key = k.Plaintext

		dev = devchain.Start(GinkgoTB(), chainID)
		dev.SendValue(GinkgoTB(), from, big.NewInt(1e18))
		Expect(k8sClient.Create(ctx, &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "sse-devchain", Namespace: ns},
			Spec: v1alpha1.ChainSpec{
				ChainID: caip2, Environment: v1alpha1.EnvironmentTest, DisplayName: "SSE dev chain", NativeSymbol: "ETH",
				NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2, DefaultGasPriceWei: "1000000000",
				NativeTokenPriceUSD: "3000", RPC: &v1alpha1.ChainRPC{URL: dev.URL},
			},
		})).To(Succeed())
		Expect(k8sClient.Create(ctx, &v1alpha1.TokenDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: "sse-dev-eth", Namespace: ns},
			Spec: v1alpha1.TokenDefinitionSpec{Symbol: "ETH", ChainID: caip2, Address: caip2 + ":" + registry.NativeTokenAddress,
				Decimals: 18},
		})).To(Succeed())

		By("starting three replicas with leader election, the webhooks' outbox in a PostgreSQL of their own")
		pg := pgtest.Start(GinkgoTB())
		for _, name := range []string{"a", "b", "c"} {
			r := &replica{name: name, api: freeport.MustAddr(GinkgoTB()), probe: freeport.MustAddr(GinkgoTB()),
				logPath: filepath.Join(projectRoot, "test", "artifacts", "sse-replica-"+name+".log")}
			r.proc = harness.RunManager(GinkgoTB(), managerBin, kubeconfigPath, r.logPath, GinkgoWriter,
				"--namespace", ns, "--api-bind-address", r.api, "--health-probe-bind-address", r.probe,
				"--metrics-bind-address", "0", "--leader-elect",
				"--leader-elect-lease-duration", replicaLease.String(), "--leader-elect-renew-deadline", replicaRenew.String(),
				"--leader-elect-retry-period", replicaRetry.String(),
				"--archive-url", pg.URL, "--archive-after", "24h", "--webhook-allow-loopback")
			r.proc.Probe = "http://" + r.probe
			replicas = append(replicas, r)
		}
		for _, r := range replicas {
			r.proc.WaitReady(GinkgoTB(), time.Minute)
		}
		Eventually(func() int {
			leaders := 0
			for _, r := range replicas {
				if r.leads() {
					leaders++
				}
			}
			return leaders
		}).WithTimeout(time.Minute).WithPolling(200 * time.Millisecond).Should(Equal(1))

		By("subscribing a webhook endpoint of the account to a receiver on loopback")
		hooks = newHookReceiver()
		Expect(k8sClient.Create(ctx, &v1alpha1.WebhookEndpoint{
			ObjectMeta: metav1.ObjectMeta{Name: "sse-hooks", Namespace: ns},
			Spec: v1alpha1.WebhookEndpointSpec{AccountRef: v1alpha1.LocalObjectReference{Name: "sse"}, Environment: v1alpha1.EnvironmentTest,
				URL: hooks.URL + "/hooks", EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferSubmitted, v1alpha1.WebhookEventTransferConfirmed}},
		})).To(Succeed())
		Eventually(func(g Gomega) {
			var ep v1alpha1.WebhookEndpoint
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "sse-hooks"}, &ep)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(ep.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", ep.Status.Conditions)
		}).WithTimeout(30 * time.Second).Should(Succeed())
	})

	AfterAll(func() {
		for _, r := range replicas {
			r.proc.Stop()
			out, err := os.ReadFile(r.logPath)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).NotTo(ContainSubstring("WARNING: DATA RACE"), "see %s", r.logPath)
		}
	})

	// followers are the replicas that do not lead.
	followers := func() []*replica {
		GinkgoHelper()
		var out []*replica
		for _, r := range replicas {
			if !r.leads() {
				out = append(out, r)
			}
		}
		Expect(out).To(HaveLen(2), "two replicas that do not lead")
		return out
	}
	call := func(r *replica, method, path, body string) (int, string) {
		GinkgoHelper()
		req, err := http.NewRequest(method, r.url(path), strings.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("api-key", key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = resp.Body.Close() }()
		out, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		return resp.StatusCode, string(out)
	}
	create := func(r *replica) streamRecord {
		GinkgoHelper()
		body := fmt.Sprintf(`{"from":%q,"to":%q,"asset":%q,"amount":"0.01"}`, caip2+":"+from.Hex(),
			caip2+":0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", caip2+":"+registry.NativeTokenAddress)
		var rec streamRecord
		Eventually(func(g Gomega) {
			status, out := call(r, http.MethodPost, "/v2/transfers", body)
			g.Expect(status).To(Equal(http.StatusCreated), out)
			g.Expect(json.Unmarshal([]byte(out), &rec)).To(Succeed())
		}).WithTimeout(20 * time.Second).Should(Succeed())
		return rec
	}
	// open opens the intent's stream on r, resuming after lastEventID unless it is empty.
	open := func(r *replica, id, lastEventID string) *ssetest.Stream {
		GinkgoHelper()
		req, err := http.NewRequest(http.MethodGet, r.url("/v2/transfers/"+id+"/events"), nil)
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("api-key", key)
		if lastEventID != "" {
			req.Header.Set("Last-Event-ID", lastEventID)
		}
		resp, err := streams.Do(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(resp.Header.Get("Content-Type")).To(Equal("text/event-stream"))
		s := ssetest.Read(resp)
		DeferCleanup(s.Close)
		return s
	}
	next := func(s *ssetest.Stream, within time.Duration) ssetest.Item {
		GinkgoHelper()
		it, err := s.NextEvent(within)
		Expect(err).NotTo(HaveOccurred())
		return it
	}
	send := func(p v1alpha1.TransactionPayload) {
		GinkgoHelper()
		cl := dev.Backend.Client()
		nonce, err := dev.Nonces.Next(context.Background(), cl, from)
		Expect(err).NotTo(HaveOccurred())
		to := common.HexToAddress(p.To)
		value, _ := new(big.Int).SetString(p.Value, 10)
		tx, err := types.SignNewTx(wallet, types.LatestSignerForChainID(dev.ID), &types.DynamicFeeTx{
			ChainID: dev.ID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
			Gas: uint64(max(p.Gas, 100_000)), To: &to, Value: value, Data: hexutil.MustDecode(p.Data), //nolint:gosec // a gas limit
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(cl.SendTransaction(context.Background(), tx)).To(Succeed())
	}
	// mineUntil mines a block every poll until the stream carries status (skipping the states
	// before it), and returns that event.
	mineUntil := func(s *ssetest.Stream, status string) ssetest.Item {
		GinkgoHelper()
		var got ssetest.Item
		Eventually(func(g Gomega) string {
			for _, r := range replicas {
				g.Expect(r.proc.Running()).To(Succeed())
			}
			dev.Backend.Commit()
			it, err := s.NextEvent(500 * time.Millisecond)
			if err != nil {
				return "" // no event during this block: mine another
			}
			got = it
			return recordOf(got).Status
		}).WithTimeout(60 * time.Second).WithPolling(10 * time.Millisecond).Should(Equal(status))
		return got
	}

	It("carries submitted and confirmed, written by the leader, on a replica that does not lead; a reconnect to another misses nothing", func() {
		f := followers()
		rec := create(f[0])
		s := open(f[0], rec.ID, "")
		Expect(recordOf(next(s, 10*time.Second)).Status).To(Equal("pending"))

		By("sending the intent's transaction and mining its block: submitted")
		send(rec.Tx)
		dev.Backend.Commit()
		Expect(recordOf(next(s, 30*time.Second)).Status).To(Equal("submitted"))
		By("mining until it is final: confirmed, and the stream ends")
		mineUntil(s, "confirmed")
		Expect(s.Ends(10 * time.Second)).To(Succeed())

		By("a second intent: its stream on one follower closed at pending, the transaction mined meanwhile")
		rec = create(f[0])
		s = open(f[0], rec.ID, "")
		pending := next(s, 10*time.Second)
		Expect(recordOf(pending).Status).To(Equal("pending"))
		s.Close()
		send(rec.Tx)
		dev.Backend.Commit()
		Eventually(func() string {
			_, out := call(f[1], http.MethodGet, "/v2/transfers/"+rec.ID, "")
			var got streamRecord
			_ = json.Unmarshal([]byte(out), &got)
			return got.Status
		}).WithTimeout(30 * time.Second).WithPolling(100 * time.Millisecond).Should(Equal("submitted"))

		By("reconnecting to the other follower with Last-Event-ID: submitted at once, then confirmed")
		s = open(f[1], rec.ID, pending.ID)
		Expect(recordOf(next(s, 5*time.Second)).Status).To(Equal("submitted"))
		final := mineUntil(s, "confirmed")
		Expect(s.Ends(10 * time.Second)).To(Succeed())

		By("the first follower, once its informer has the final state too, sends it with the same digest, and a reconnect with it gets 204")
		_, finalDigest, _ := strings.Cut(final.ID, "-")
		Eventually(func(g Gomega) {
			again := open(f[0], rec.ID, "")
			defer again.Close()
			it, err := again.NextEvent(5 * time.Second)
			g.Expect(err).NotTo(HaveOccurred())
			_, digest, _ := strings.Cut(it.ID, "-")
			g.Expect(digest).To(Equal(finalDigest), "%s\nagainst what the other follower sent:\n%s", it.Data, final.Data)
		}).WithTimeout(10 * time.Second).Should(Succeed())
		Eventually(func() int {
			req, err := http.NewRequest(http.MethodGet, f[0].url("/v2/transfers/"+rec.ID+"/events"), nil)
			Expect(err).NotTo(HaveOccurred())
			req.Header.Set("api-key", key)
			req.Header.Set("Last-Event-ID", final.ID)
			resp, err := c.Do(req)
			Expect(err).NotTo(HaveOccurred())
			_ = resp.Body.Close()
			return resp.StatusCode
		}).WithTimeout(10 * time.Second).Should(Equal(http.StatusNoContent))
	})

	It("measures the latency from a status change to the stream, beside the webhooks'", func() {
		const intents = 6
		f := followers()
		changes := watchPhaseTimes(ns)
		type followed struct {
			rec    streamRecord
			stream *ssetest.Stream
			mu     sync.Mutex
			events []ssetest.Item
			ended  chan struct{}
		}
		all := make([]*followed, intents)
		for i := range all {
			rec := create(f[i%2])
			fl := &followed{rec: rec, stream: open(f[i%2], rec.ID, ""), ended: make(chan struct{})}
			Expect(recordOf(next(fl.stream, 10*time.Second)).Status).To(Equal("pending"))
			go func() {
				defer close(fl.ended)
				for {
					it, err := fl.stream.NextEvent(2 * time.Minute)
					if err != nil {
						return
					}
					fl.mu.Lock()
					fl.events = append(fl.events, it)
					fl.mu.Unlock()
				}
			}()
			all[i] = fl
		}
		for _, fl := range all {
			send(fl.rec.Tx)
		}
		Eventually(func() int {
			dev.Backend.Commit()
			done := 0
			for _, fl := range all {
				select {
				case <-fl.ended:
					done++
				default:
				}
			}
			return done
		}).WithTimeout(2 * time.Minute).WithPolling(300 * time.Millisecond).Should(Equal(intents))

		// From the moment the suite's own watch of the API server saw the change: status.updatedAt
		// is kept to the second by the API server, too coarse for a figure in milliseconds.
		var sse, webhook []time.Duration
		for _, fl := range all {
			seen := map[string]bool{}
			for _, it := range fl.events {
				rec := recordOf(it)
				if (rec.Status == "submitted" || rec.Status == "confirmed") && !seen[rec.Status] {
					seen[rec.Status] = true
					sse = append(sse, it.At.Sub(changes.at(rec.ID, rec.Status)))
				}
			}
			Expect(seen).To(HaveKey("confirmed"), "the stream of %s", fl.rec.ID)
			Eventually(func() int { return len(hooks.of(fl.rec.ID)) }).WithTimeout(30*time.Second).Should(BeNumerically(">=", 2), fl.rec.ID)
			for _, d := range hooks.of(fl.rec.ID) {
				var rec streamRecord
				Expect(json.Unmarshal(d.event.Data, &rec)).To(Succeed())
				webhook = append(webhook, d.at.Sub(changes.at(rec.ID, rec.Status)))
			}
		}
		report := fmt.Sprintf("state change (seen by a watch of the API server) -> received, over %d intents (submitted and confirmed), stream on a replica that does not lead:\n"+
			"  SSE      n=%d p50=%s p99=%s max=%s\n  webhooks n=%d p50=%s p99=%s max=%s\n",
			intents, len(sse), percentile(sse, 0.50), percentile(sse, 0.99), percentile(sse, 1),
			len(webhook), percentile(webhook, 0.50), percentile(webhook, 0.99), percentile(webhook, 1))
		_, _ = fmt.Fprint(GinkgoWriter, report)
		AddReportEntry("SSE and webhook latency", report)
		Expect(sse).To(HaveLen(2 * intents))
	})
})

// phaseTimes records when a watch of the API server, straight from the suite, first saw each
// intent in each phase: the moment the latencies of the stream and of webhooks are measured from.
type phaseTimes struct {
	mu   sync.Mutex
	seen map[string]time.Time // by intent id and phase
}

func watchPhaseTimes(namespace string) *phaseTimes {
	GinkgoHelper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfigPath)
	Expect(err).NotTo(HaveOccurred())
	wc, err := client.NewWithWatch(cfg, client.Options{Scheme: service.NewScheme()})
	Expect(err).NotTo(HaveOccurred())
	w, err := wc.Watch(context.Background(), &v1alpha1.TransferIntentList{}, client.InNamespace(namespace))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(w.Stop)
	p := &phaseTimes{seen: map[string]time.Time{}}
	go func() {
		for ev := range w.ResultChan() {
			at := time.Now()
			if ti, ok := ev.Object.(*v1alpha1.TransferIntent); ok {
				p.mu.Lock()
				if k := ti.Spec.ID + "/" + string(ti.Phase()); p.seen[k].IsZero() {
					p.seen[k] = at
				}
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// at is when the watch first saw intent id in phase; the spec fails if it never did.
func (p *phaseTimes) at(id, phase string) time.Time {
	GinkgoHelper()
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.seen[id+"/"+phase]
	Expect(t.IsZero()).To(BeFalse(), "the watch never saw %s %s", id, phase)
	return t
}

// percentile is the q-quantile of ds (nearest rank), rounded to the millisecond.
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Sorted(slices.Values(ds))
	rank := max(int(math.Ceil(q*float64(len(sorted))))-1, 0)
	return sorted[rank].Round(time.Millisecond)
}
