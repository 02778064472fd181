package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// Lease timings of the replicas: short, so that a kill -9 of the leader costs seconds.
const (
	replicaLease = 4 * time.Second
	replicaRenew = 3 * time.Second
	replicaRetry = 500 * time.Millisecond
	// redisTimeout is generous: a decision that misses it is counted on the replica alone, and the
	// exact-count specs run race-enabled managers on a loaded 2-core machine.
	redisTimeout  = time.Second
	demoEmail     = "replicas@example.com"
	demoPassword  = "demo-password"
	demoHashBcryp = "$2a$10$d.waZrjlgdDTq1jPfafFJenk7lDZdzYZdwMP3E3590eMfoWUcfYhW" // of demo-password
)

// replica is one manager process of the harness.
type replica struct {
	name     string
	proc     *harness.Manager
	api      string
	probe    string
	logPath  string
	killedAt time.Time
}

func (r *replica) url(path string) string { return "http://" + r.api + path }

// leads reports whether the replica runs and its log says it acquired the lease (a replica loses
// the lease only by exiting: controller-runtime stops the manager then).
func (r *replica) leads() bool {
	if r.proc.Running() != nil {
		return false
	}
	out, err := os.ReadFile(r.logPath)
	return err == nil && strings.Contains(strings.ToLower(string(out)), "successfully acquired lease")
}

// remaining is what is left of budget since start; the spec fails at once when nothing is left,
// rather than letting Gomega fall back to its default timeout.
func remaining(start time.Time, budget time.Duration) time.Duration {
	GinkgoHelper()
	left := budget - time.Since(start)
	Expect(left).To(BeNumerically(">", 0), "the %s budget is spent", budget)
	return left
}

// The manager as a cluster runs it: three processes against one control plane and one real
// redis-server, each on its own ports, electing a leader. The rate limit holds exactly across them
// (and, as a baseline, on one replica without Redis); a kill -9 of the leader hands the lease over
// while the others keep answering; a key disabled through one replica is refused by all; a Redis
// outage keeps every answer within the deadline and heals by itself.
var _ = Describe("Three replicas", Ordered, func() {
	var (
		ns       string
		redis    *redistest.Server
		replicas []*replica
		started  []*replica
		pollKey  string // a key with room for the harness's own polling
		c        = &http.Client{Timeout: 5 * time.Second}
	)

	newKey := func(limit int32) (string, string) {
		GinkgoHelper()
		k, err := apikey.Generate(registry.EnvironmentTest)
		Expect(err).NotTo(HaveOccurred())
		name := "key-" + utilrand.String(6)
		Expect(k8sClient.Create(context.Background(), &v1alpha1.ApiKey{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
			Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: "replicas"}, Environment: v1alpha1.EnvironmentTest,
				KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: limit},
		})).To(Succeed())
		return name, k.Plaintext
	}
	get := func(r *replica, path, key string) (*http.Response, error) {
		req, err := http.NewRequest(http.MethodGet, r.url(path), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("api-key", key)
		resp, err := c.Do(req)
		if err == nil {
			_ = resp.Body.Close()
		}
		return resp, err
	}
	// servedByAll waits until every running replica admits key, and returns how many of the
	// key's requests that spent (one per replica: refusals of an unknown key are not counted).
	servedByAll := func(key string) int {
		GinkgoHelper()
		spent := 0
		for _, r := range replicas {
			if !r.killedAt.IsZero() {
				continue
			}
			Eventually(func() int {
				resp, err := get(r, "/v2/tokens", key)
				if err != nil {
					return 0
				}
				return resp.StatusCode
			}).WithTimeout(20*time.Second).WithPolling(100*time.Millisecond).Should(Equal(http.StatusOK), r.name)
			spent++
		}
		return spent
	}
	// burst sends n concurrent requests with key, spread over targets, and counts the answers.
	burst := func(targets []*replica, key string, n int) (admitted, refused int) {
		GinkgoHelper()
		var ok, limited, other atomic.Int32
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				resp, err := get(targets[i%len(targets)], "/v2/tokens", key)
				switch {
				case err != nil:
					other.Add(1)
				case resp.StatusCode == http.StatusOK:
					ok.Add(1)
				case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "":
					limited.Add(1)
				default:
					other.Add(1)
				}
			})
		}
		wg.Wait()
		Expect(other.Load()).To(BeZero(), "answers that were neither 200 nor 429 with Retry-After")
		return int(ok.Load()), int(limited.Load())
	}
	start := func(name string, withRedis bool) *replica {
		GinkgoHelper()
		r := &replica{name: name, api: freeport.MustAddr(GinkgoTB()), probe: freeport.MustAddr(GinkgoTB()),
			logPath: filepath.Join(projectRoot, "test", "artifacts", "replica-"+name+".log")}
		args := []string{"--namespace", ns, "--api-bind-address", r.api, "--health-probe-bind-address", r.probe,
			"--metrics-bind-address", "0", "--leader-elect",
			"--leader-elect-lease-duration", replicaLease.String(), "--leader-elect-renew-deadline", replicaRenew.String(),
			"--leader-elect-retry-period", replicaRetry.String()}
		if withRedis {
			args = append(args, "--redis-url", redis.URL(), "--redis-timeout", redisTimeout.String())
		}
		r.proc = harness.RunManager(GinkgoTB(), managerBin, kubeconfigPath, r.logPath, GinkgoWriter, args...)
		started = append(started, r)
		return r
	}
	// The replicas live across the specs: they are stopped after the last one.
	AfterAll(func() {
		for _, r := range started {
			r.proc.Stop()
			out, err := os.ReadFile(r.logPath)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).NotTo(ContainSubstring("WARNING: DATA RACE"), "see %s", r.logPath)
		}
	})

	BeforeAll(func() {
		ctx := context.Background()
		ns = "replicas-" + utilrand.String(6)
		Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
		Expect(k8sClient.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: "replicas-password", Namespace: ns},
			StringData: map[string]string{"passwordHash": demoHashBcryp},
		})).To(Succeed())
		Expect(k8sClient.Create(ctx, &v1alpha1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "replicas", Namespace: ns},
			Spec: v1alpha1.AccountSpec{DisplayName: "Replicas", Email: demoEmail,
				PasswordSecretRef: &v1alpha1.SecretKeyReference{Name: "replicas-password", Key: "passwordHash"}},
		})).To(Succeed())
		Expect(k8sClient.Create(ctx, &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "sepolia", Namespace: ns},
			Spec: v1alpha1.ChainSpec{ChainID: "eip155:11155111", Environment: v1alpha1.EnvironmentTest, DisplayName: "Sepolia",
				NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 768,
				DefaultGasPriceWei: "1000000000", NativeTokenPriceUSD: "3000"},
		})).To(Succeed())
		_, pollKey = newKey(100_000)
		redis = redistest.Start(GinkgoTB())
	})

	It("admits exactly 50 of 120 concurrent requests on one replica without Redis (the baseline)", func() {
		alone := start("alone", false)
		_, key := newKey(50)
		replicas = []*replica{alone}
		servedByAll(pollKey)
		spent := servedByAll(key)
		admitted, refused := burst(replicas, key, 120-spent)
		Expect([]int{admitted + spent, refused}).To(Equal([]int{50, 70}))
		alone.proc.Stop()
		alone.killedAt = time.Now()
	})

	It("admits exactly 50 of 120 concurrent requests spread over three replicas sharing Redis", func() {
		replicas = []*replica{start("a", true), start("b", true), start("c", true)}
		servedByAll(pollKey)
		_, key := newKey(50)
		spent := servedByAll(key)
		admitted, refused := burst(replicas, key, 120-spent)
		Expect([]int{admitted + spent, refused}).To(Equal([]int{50, 70}))
	})

	It("refuses a key disabled through one replica on all three within 1 s", func() {
		name, key := newKey(100_000)
		servedByAll(key)
		jar, err := cookiejar.New(nil)
		Expect(err).NotTo(HaveOccurred())
		browser := &http.Client{Timeout: 5 * time.Second, Jar: jar}
		resp, err := browser.Post(replicas[0].url("/auth/sign-in"), "application/json",
			strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, demoEmail, demoPassword)))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(BeNumerically("<", 400))
		_ = resp.Body.Close()
		resp, err = browser.Post(replicas[0].url("/auth/api-keys/"+name+"/disable"), "application/json", nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		_ = resp.Body.Close()
		disabled := time.Now()
		for _, r := range replicas {
			Eventually(func() int {
				resp, err := get(r, "/v2/tokens", key)
				if err != nil {
					return 0
				}
				return resp.StatusCode
			}).WithTimeout(remaining(disabled, time.Second)).WithPolling(20*time.Millisecond).
				Should(Equal(http.StatusForbidden), "replica %s within 1 s of the disable", r.name)
		}
		_, _ = fmt.Fprintf(GinkgoWriter, "a disabled key was refused by all three replicas %s after the disable\n", time.Since(disabled))
	})

	It("ends a session signed out through one replica on all three: a saved copy of the cookie is refused", func() {
		resp, err := http.Post(replicas[1].url("/auth/sign-in"), "application/json",
			strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, demoEmail, demoPassword)))
		Expect(err).NotTo(HaveOccurred())
		_ = resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusNoContent))
		var saved *http.Cookie
		for _, c := range resp.Cookies() {
			if c.Name == "session" {
				saved = c
			}
		}
		Expect(saved).NotTo(BeNil())
		listKeys := func(r *replica) int {
			req, err := http.NewRequest(http.MethodGet, r.url("/auth/api-keys"), nil)
			Expect(err).NotTo(HaveOccurred())
			req.AddCookie(saved)
			resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
			if err != nil {
				return 0
			}
			_ = resp.Body.Close()
			return resp.StatusCode
		}
		for _, r := range replicas {
			Expect(listKeys(r)).To(Equal(http.StatusOK), "replica %s before the sign-out", r.name)
		}
		req, err := http.NewRequest(http.MethodPost, replicas[1].url("/auth/sign-out"), nil)
		Expect(err).NotTo(HaveOccurred())
		req.AddCookie(saved)
		resp, err = http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		_ = resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusNoContent))
		signedOut := time.Now()
		for _, r := range replicas {
			Eventually(listKeys).WithArguments(r).WithTimeout(remaining(signedOut, time.Second)).
				WithPolling(20*time.Millisecond).Should(Equal(http.StatusUnauthorized), "replica %s within 1 s of the sign-out", r.name)
		}
		_, _ = fmt.Fprintf(GinkgoWriter, "a signed-out session was refused by all three replicas %s after the sign-out\n", time.Since(signedOut))
	})

	It("hands the lease over when the leader is killed, and the survivors never stop answering", func() {
		var leader *replica
		Eventually(func() *replica {
			for _, r := range replicas {
				if r.leads() {
					return r
				}
			}
			return nil
		}).WithTimeout(20 * time.Second).ShouldNot(BeNil())
		var survivors []*replica
		for _, r := range replicas {
			if r.leads() {
				leader = r
			} else {
				survivors = append(survivors, r)
			}
		}
		Expect(survivors).To(HaveLen(2), "exactly one leader")

		By("polling the survivors every 50 ms throughout")
		var failures atomic.Int32
		var polls atomic.Int32
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, r := range survivors {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
					polls.Add(1)
					if resp, err := get(r, "/v2/tokens", pollKey); err != nil || resp.StatusCode != http.StatusOK {
						failures.Add(1)
					}
				}
			})
		}

		By("killing the leader " + leader.name)
		leader.proc.Kill()
		leader.killedAt = time.Now()
		token := &v1alpha1.TokenDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: "after-kill", Namespace: ns},
			Spec: v1alpha1.TokenDefinitionSpec{Symbol: "AFTER", ChainID: "eip155:11155111",
				Address: "eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", Decimals: 6},
		}
		Expect(k8sClient.Create(context.Background(), token)).To(Succeed())

		var next *replica
		Eventually(func() *replica {
			for _, r := range survivors {
				if r.leads() {
					next = r
					return r
				}
			}
			return nil
		}).WithTimeout(replicaLease + 5*time.Second).WithPolling(50 * time.Millisecond).ShouldNot(BeNil())
		leased := time.Now()
		took := leased.Sub(leader.killedAt)
		_, _ = fmt.Fprintf(GinkgoWriter, "replica %s took the lease %s after the kill (lease duration %s)\n", next.name, took, replicaLease)
		// The lease expires a lease duration after the leader's last renewal (at most a retry period
		// before the kill); candidates look every retry period with client-go's jitter of 1.2.
		Expect(took).To(BeNumerically("<=", replicaLease+replicaRetry*22/10+500*time.Millisecond), "the lease is taken within its duration")

		By("serving the token applied after the kill on every survivor, with its status written, within 2 s of the new lease")
		for _, r := range survivors {
			Eventually(func() string {
				req, _ := http.NewRequest(http.MethodGet, r.url("/v2/tokens?chain-id=eip155:11155111"), nil)
				req.Header.Set("api-key", pollKey)
				resp, err := c.Do(req)
				if err != nil {
					return ""
				}
				defer func() { _ = resp.Body.Close() }()
				var body []map[string]any
				_ = json.NewDecoder(resp.Body).Decode(&body)
				b, _ := json.Marshal(body)
				return string(b)
			}).WithTimeout(remaining(leased, 2*time.Second)).WithPolling(50*time.Millisecond).Should(ContainSubstring("AFTER"), r.name)
		}
		Eventually(func() bool {
			Expect(k8sClient.Get(context.Background(), client.ObjectKeyFromObject(token), token)).To(Succeed())
			return meta.IsStatusConditionTrue(token.Status.Conditions, v1alpha1.ConditionReady)
		}).WithTimeout(remaining(leased, 2*time.Second)).WithPolling(50*time.Millisecond).Should(BeTrue(), "the new leader reconciles")

		close(stop)
		wg.Wait()
		Expect(polls.Load()).To(BeNumerically(">", 20))
		Expect(failures.Load()).To(BeZero(), "a survivor stopped answering")
		replicas = survivors
	})

	It("keeps answering within the deadline while Redis hangs, and shares the limit again once it is back", func() {
		_, key := newKey(5)
		servedByAll(key) // one request per survivor
		redis.Pause()    // SIGSTOP: connections are accepted and never answered, the worst outage
		slowest := time.Duration(0)
		admitted := 0
		for i := range 20 {
			start := time.Now()
			resp, err := get(replicas[i%len(replicas)], "/v2/tokens", key)
			slowest = max(slowest, time.Since(start))
			Expect(err).NotTo(HaveOccurred())
			if resp.StatusCode == http.StatusOK {
				admitted++
			}
		}
		_, _ = fmt.Fprintf(GinkgoWriter, "with Redis hung: slowest answer %s, %d of 20 admitted on %d replicas\n", slowest, admitted, len(replicas))
		Expect(slowest).To(BeNumerically("<", redisTimeout+500*time.Millisecond), "no request waits for Redis longer than the deadline")
		Expect(admitted).To(BeNumerically("<=", 5*len(replicas)), "each replica keeps the limit on its own")
		redisHealth := func(r *replica) string {
			resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(r.url("/health"))
			if err != nil {
				return err.Error()
			}
			defer func() { _ = resp.Body.Close() }()
			var body struct {
				Status string            `json:"status"`
				Checks map[string]string `json:"checks"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&body)
			return fmt.Sprintf("%d %s redis=%s", resp.StatusCode, body.Status, body.Checks["redis"])
		}
		for _, r := range replicas {
			Eventually(redisHealth).WithArguments(r).WithTimeout(10*time.Second).WithPolling(200*time.Millisecond).
				Should(Equal("200 degraded redis=unreachable"), "replica %s reports Redis on /health", r.name)
		}

		redis.Resume()
		for _, r := range replicas {
			Eventually(redisHealth).WithArguments(r).WithTimeout(10*time.Second).WithPolling(200*time.Millisecond).
				Should(Equal("200 ok redis=ok"), "replica %s reports Redis back", r.name)
		}
		Eventually(func() []int {
			_, fresh := newKey(50)
			spent := servedByAll(fresh)
			a, r := burst(replicas, fresh, 120-spent)
			return []int{a + spent, r}
		}).WithTimeout(30*time.Second).WithPolling(time.Second).Should(Equal([]int{50, 70}), "the limit is shared again")
	})
})
