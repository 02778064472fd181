package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Tenant is what the creates need: a namespace the manager serves, with Sepolia, its USDC and an
// account holding a test key whose rate limit the suites never reach.
type Tenant struct {
	Namespace string
	Key       string
}

// NewTenant creates the tenant's objects in a new namespace.
func (cp *ControlPlane) NewTenant(t testing.TB, prefix string) Tenant {
	t.Helper()
	return CreateTenant(t, cp.Client, cp.Namespace(t, prefix))
}

// CreateTenant creates the tenant's objects in namespace ns, with c.
func CreateTenant(t testing.TB, c client.Client, ns string) Tenant {
	t.Helper()
	ctx := context.Background()
	must(t, c.Create(ctx, &v1alpha1.Account{ObjectMeta: metav1.ObjectMeta{Name: "faults", Namespace: ns},
		Spec: v1alpha1.AccountSpec{DisplayName: "Faults", Email: "faults@example.com"}}))
	must(t, c.Create(ctx, &v1alpha1.Chain{ObjectMeta: metav1.ObjectMeta{Name: "sepolia", Namespace: ns},
		Spec: v1alpha1.ChainSpec{ChainID: "eip155:11155111", Environment: v1alpha1.EnvironmentTest, DisplayName: "Sepolia",
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 768,
			DefaultGasPriceWei: "1000000000", NativeTokenPriceUSD: "3000"}}))
	must(t, c.Create(ctx, &v1alpha1.TokenDefinition{ObjectMeta: metav1.ObjectMeta{Name: "usdc-sepolia", Namespace: ns},
		Spec: v1alpha1.TokenDefinitionSpec{Symbol: "USDC", ChainID: "eip155:11155111", Address: "eip155:11155111:" + usdc, Decimals: 6}}))
	k, err := apikey.Generate(registry.EnvironmentTest)
	must(t, err)
	must(t, c.Create(ctx, &v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Name: "faults-" + utilrand.String(4), Namespace: ns},
		Spec: v1alpha1.ApiKeySpec{AccountRef: v1alpha1.LocalObjectReference{Name: "faults"}, Environment: v1alpha1.EnvironmentTest,
			KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix, RateLimitPerMinute: 100_000}}))
	return Tenant{Namespace: ns, Key: k.Plaintext}
}

const (
	usdc  = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
	alice = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	bob   = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

// Outcome is what one POST /v2/transfers got.
type Outcome struct {
	// IdempotencyKey is the request's key, "" for none.
	IdempotencyKey string
	// Amount is unique to the request (and to its retries): it finds the intents it stored.
	Amount string
	// Status is 0 when no answer came (Err says why).
	Status     int
	RetryAfter string
	// Problem is the problem type of an error answer.
	Problem string
	// ID is the intent's id of a 2xx answer.
	ID   string
	Err  error
	Sent time.Time
	Took time.Duration
}

// Unknown reports whether the client cannot tell whether the intent was stored: no answer, or a
// 5xx. Such a create is retried with its Idempotency-Key.
func (o Outcome) Unknown() bool { return o.Status == 0 || o.Status >= 500 }

func (o Outcome) String() string {
	if o.Status == 0 {
		return fmt.Sprintf("no answer after %s (%v)", o.Took.Round(time.Millisecond), o.Err)
	}
	return fmt.Sprintf("%d %s after %s (Retry-After %q)", o.Status, o.Problem, o.Took.Round(time.Millisecond), o.RetryAfter)
}

// Client creates transfer intents, each with an amount of its own, and keeps every outcome.
type Client struct {
	// Base is the API's base URL; Key the API key.
	Base, Key string
	http      *http.Client
	seq       atomic.Int64
	mu        sync.Mutex
	outcomes  []Outcome
}

// clientTimeout is far longer than any answer may take: a hang is measured, not cut short.
const clientTimeout = 60 * time.Second

// NewClient returns a client of base with key.
func NewClient(base, key string) *Client {
	return &Client{Base: base, Key: key, http: &http.Client{Timeout: clientTimeout, Transport: &http.Transport{
		MaxIdleConnsPerHost: 512, IdleConnTimeout: 30 * time.Second,
	}}}
}

// Create sends a new create, with a new Idempotency-Key when idempotent.
func (c *Client) Create(idempotent bool) Outcome {
	n := c.seq.Add(1)
	// No trailing zero, so that the amount is stored exactly as sent.
	o := Outcome{Amount: fmt.Sprintf("1.%d1", n)}
	if idempotent {
		o.IdempotencyKey = fmt.Sprintf("faults-%d-%s", n, utilrand.String(6))
	}
	return c.send(o)
}

// Retry sends the create of o again: the same body and Idempotency-Key.
func (c *Client) Retry(o Outcome) Outcome {
	return c.send(Outcome{Amount: o.Amount, IdempotencyKey: o.IdempotencyKey})
}

func (c *Client) send(o Outcome) Outcome {
	body := `{"from":"eip155:11155111:` + alice + `","to":"eip155:11155111:` + bob +
		`","asset":"eip155:11155111:` + usdc + `","amount":"` + o.Amount + `"}`
	req, err := http.NewRequest(http.MethodPost, c.Base+"/v2/transfers", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("api-key", c.Key)
	req.Header.Set("Content-Type", "application/json")
	if o.IdempotencyKey != "" {
		req.Header.Set("Idempotency-Key", o.IdempotencyKey)
	}
	o.Sent = time.Now()
	resp, err := c.http.Do(req)
	if err == nil {
		var raw []byte
		raw, err = io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err == nil {
			o.Status, o.RetryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
			var answer struct{ ID, Type string }
			_ = json.Unmarshal(raw, &answer)
			if o.Status < 300 {
				o.ID = answer.ID
			} else {
				o.Problem = answer.Type[strings.LastIndexByte(answer.Type, '/')+1:]
			}
		}
	}
	o.Err, o.Took = err, time.Since(o.Sent)
	c.mu.Lock()
	c.outcomes = append(c.outcomes, o)
	c.mu.Unlock()
	return o
}

// Outcomes returns every outcome so far, in the order the answers came.
func (c *Client) Outcomes() []Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.outcomes)
}

// Forget drops the outcomes so far (those of a warm-up, refused until the key reached the
// manager).
func (c *Client) Forget() {
	c.mu.Lock()
	c.outcomes = nil
	c.mu.Unlock()
}

// Load runs workers that each send creates one after the other, half of them with an
// Idempotency-Key, at most one per pace, until Stop.
type Load struct {
	stop chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

// StartLoad starts n workers on c. The pace keeps a dead API server (refused at once) from
// turning the load into a flood.
func (c *Client) StartLoad(n int, pace time.Duration) *Load {
	l := &Load{stop: make(chan struct{})}
	for w := range n {
		l.wg.Go(func() {
			tick := time.NewTicker(pace)
			defer tick.Stop()
			for i := 0; ; i++ {
				c.Create((w+i)%2 == 0)
				select {
				case <-l.stop:
					return
				case <-tick.C:
				}
			}
		})
	}
	return l
}

// Stop stops the workers and waits for their last answers; later calls do nothing.
func (l *Load) Stop() {
	l.once.Do(func() {
		close(l.stop)
		l.wg.Wait()
	})
}

// Ledger is what the API server stored, by request amount.
type Ledger map[string][]v1alpha1.TransferIntent

// Ledger lists the namespace's intents from the API server itself (no cache).
func (cp *ControlPlane) Ledger(t testing.TB, namespace string) Ledger {
	t.Helper()
	var list v1alpha1.TransferIntentList
	must(t, cp.Client.List(context.Background(), &list, client.InNamespace(namespace)))
	l := Ledger{}
	for _, ti := range list.Items {
		l[ti.Spec.Request.Amount] = append(l[ti.Spec.Request.Amount], ti)
	}
	return l
}

// Tally is the check of the outcomes against the ledger.
type Tally struct {
	// Creates are the distinct requests (a request and its retries count once); Retries the
	// retries sent.
	Creates, Retries int
	// Succeeded requests got a 2xx; Keys of them had an Idempotency-Key.
	Succeeded, Keys int
	// Lost are 2xx answers whose intent the API server does not hold.
	Lost []string
	// Duplicated are Idempotency-Keys (or amounts of requests without one that got a 2xx) with
	// more than one intent.
	Duplicated []string
	// Mismatched are retries answered with another intent than an earlier answer of the key.
	Mismatched []string
	// Phantoms are requests without an Idempotency-Key that never got a 2xx but stored an intent:
	// the 503 said the intent may have been stored, and to list before retrying.
	Phantoms int
	// MaxPerKey is the most intents stored for one Idempotency-Key.
	MaxPerKey int
}

// Check tallies outcomes against what the API server stored.
func Check(outcomes []Outcome, ledger Ledger) Tally {
	var t Tally
	type request struct {
		key  string
		ids  map[string]bool
		okay bool
		n    int
	}
	byAmount := map[string]*request{}
	var order []string
	for _, o := range outcomes {
		r := byAmount[o.Amount]
		if r == nil {
			r = &request{key: o.IdempotencyKey, ids: map[string]bool{}}
			byAmount[o.Amount] = r
			order = append(order, o.Amount)
		}
		r.n++
		if o.Status >= 200 && o.Status < 300 {
			r.okay = true
			r.ids[o.ID] = true
		}
	}
	for _, amount := range order {
		r := byAmount[amount]
		t.Creates++
		t.Retries += r.n - 1
		stored := ledger[amount]
		storedIDs := map[string]bool{}
		for _, ti := range stored {
			storedIDs[ti.Spec.ID] = true
		}
		if r.okay {
			t.Succeeded++
			if r.key != "" {
				t.Keys++
			}
		}
		for id := range r.ids {
			if !storedIDs[id] {
				t.Lost = append(t.Lost, id)
			}
		}
		if len(r.ids) > 1 {
			t.Mismatched = append(t.Mismatched, fmt.Sprintf("%s: answered with %d intents", r.key, len(r.ids)))
		}
		switch {
		case r.key != "":
			t.MaxPerKey = max(t.MaxPerKey, len(stored))
			if len(stored) > 1 {
				t.Duplicated = append(t.Duplicated, fmt.Sprintf("Idempotency-Key %s: %d intents", r.key, len(stored)))
			}
		case r.okay && len(stored) > 1:
			t.Duplicated = append(t.Duplicated, fmt.Sprintf("amount %s (no key): %d intents", amount, len(stored)))
		case !r.okay && len(stored) > 0:
			t.Phantoms++
		}
	}
	return t
}

// Durations summarises how long answers took.
type Durations struct {
	N                int
	Min, Median, Max time.Duration
}

// Summarise returns the minimum, median and maximum of ds.
func Summarise(ds []time.Duration) Durations {
	if len(ds) == 0 {
		return Durations{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return Durations{N: len(s), Min: s[0], Median: s[len(s)/2], Max: s[len(s)-1]}
}

func (d Durations) String() string {
	r := func(x time.Duration) time.Duration { return x.Round(10 * time.Millisecond) }
	return fmt.Sprintf("%d answers, min %s, median %s, max %s", d.N, r(d.Min), r(d.Median), r(d.Max))
}

// Settle retries every create whose outcome is still unknown (no answer, a 5xx, or a 409 for a
// claim in progress) and that has an Idempotency-Key, as a careful client does: after Retry-After
// on a 409 or 503, at once after no answer, until it gets a 2xx. Other answers fail the test. It
// returns how many retries it sent.
func (c *Client) Settle(t testing.TB, within time.Duration) int {
	t.Helper()
	last := map[string]Outcome{}
	done := map[string]bool{}
	for _, o := range c.Outcomes() {
		if o.IdempotencyKey == "" {
			continue
		}
		last[o.IdempotencyKey] = o
		if o.Status >= 200 && o.Status < 300 {
			done[o.IdempotencyKey] = true
		}
	}
	deadline := time.Now().Add(within)
	var retries atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for key, o := range last {
		if done[key] {
			continue
		}
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if o.Status == http.StatusConflict || o.Status == http.StatusServiceUnavailable {
					wait, _ := time.ParseDuration(o.RetryAfter + "s")
					time.Sleep(min(max(wait, 100*time.Millisecond), time.Until(deadline)))
				}
				retries.Add(1)
				o = c.Retry(o)
				switch {
				case o.Status >= 200 && o.Status < 300:
					return
				case o.Unknown(), o.Status == http.StatusConflict:
					continue
				default:
					mu.Lock()
					failures = append(failures, fmt.Sprintf("retry of %s: %s", key, o))
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			failures = append(failures, fmt.Sprintf("retry of %s: still %s at the deadline (%s)", key, o, within))
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	return int(retries.Load())
}

// CheckAnswers fails the test for every outcome that is not a bounded, classified answer: no
// answer at all, a 5xx other than 503, a 503 or 409 without Retry-After, a 503 that is not
// service-unavailable, or an answer slower than bound.
func CheckAnswers(t testing.TB, outcomes []Outcome, bound time.Duration) {
	t.Helper()
	bad := 0
	for _, o := range outcomes {
		var why string
		switch {
		case o.Status == 0:
			why = "the connection ended without an answer"
		case o.Status == http.StatusServiceUnavailable && o.Problem != "service-unavailable":
			why = "a 503 that is not service-unavailable"
		case (o.Status == http.StatusServiceUnavailable || o.Status == http.StatusConflict) && o.RetryAfter == "":
			why = "no Retry-After"
		case o.Status >= 500 && o.Status != http.StatusServiceUnavailable:
			why = "a 5xx other than 503"
		case o.Status >= 400 && o.Status != http.StatusServiceUnavailable && o.Status != http.StatusConflict:
			why = "refused"
		case o.Took > bound:
			why = fmt.Sprintf("slower than %s", bound)
		default:
			continue
		}
		if bad++; bad <= 10 {
			t.Errorf("create %s (Idempotency-Key %q) sent at %s: %s: %s", o.Amount, o.IdempotencyKey, o.Sent.Format("15:04:05.000"), why, o)
		}
	}
	if bad > 10 {
		t.Errorf("... and %d more such answers", bad-10)
	}
}
