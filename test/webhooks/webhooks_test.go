// Package webhooks_test runs the whole service (service.Setup) with its outbox on a real
// PostgreSQL, a real API server, and receivers on loopback: transitions of an intent reach a
// WebhookEndpoint signed and in sequence, a failing receiver gets the event again with backoff,
// deliveries cost the API server no write per attempt, and refused URLs are refused.
package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// delivery is one request a receiver got.
type delivery struct {
	header http.Header
	path   string
	body   []byte
	event  signing.Event
	at     time.Time
}

// receiver records deliveries and answers with status(n), n counting from 1 per webhook-id.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      []delivery
	attempts map[string]int
	status   func(attempt int) int
}

func newReceiver(t testing.TB, status func(attempt int) int) *receiver {
	r := &receiver{attempts: map[string]int{}, status: status}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ev signing.Event
		_ = json.Unmarshal(body, &ev)
		r.mu.Lock()
		r.attempts[req.Header.Get(signing.HeaderID)]++
		n := r.attempts[req.Header.Get(signing.HeaderID)]
		r.got = append(r.got, delivery{header: req.Header.Clone(), path: req.URL.Path, body: body, event: ev, at: time.Now()})
		r.mu.Unlock()
		code := http.StatusNoContent
		if r.status != nil {
			code = r.status(n)
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// succeeded lists the events answered 2xx, in the order they arrived.
func (r *receiver) succeeded() []delivery {
	var out []delivery
	seen := map[string]int{}
	for _, d := range r.deliveries() {
		id := d.header.Get(signing.HeaderID)
		seen[id]++
		if r.status == nil || r.status(seen[id]) < 300 {
			out = append(out, d)
		}
	}
	return out
}

func startStack(t testing.TB, change func(*service.Options)) *servicetest.Stack {
	return startStackOn(t, pgtest.Start(t), change)
}

// startStackOn is startStack on the given PostgreSQL (a test that pauses or kills it).
func startStackOn(t testing.TB, pg *pgtest.Server, change func(*service.Options)) *servicetest.Stack {
	return servicetest.Start(t, servicetest.WithServiceOptions(func(o *service.Options) {
		o.Archive.URL, o.Archive.Timeout = pg.URL, 2*time.Second
		o.Webhooks.FirstRetry, o.Webhooks.Poll, o.Webhooks.AttemptTimeout = 100*time.Millisecond, 100*time.Millisecond, 2*time.Second
		o.Webhooks.AllowLoopback = true
		if change != nil {
			change(o)
		}
	}))
}

// newEndpoint creates a test endpoint of account to url and returns it Ready with its secret.
func newEndpoint(t testing.TB, stack *servicetest.Stack, account, url string) (*v1alpha1.WebhookEndpoint, string) {
	t.Helper()
	ep := &v1alpha1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Namespace: stack.Namespace, Name: "hooks-" + strings.ToLower(fmt.Sprintf("%x", time.Now().UnixNano()))},
		Spec: v1alpha1.WebhookEndpointSpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest, URL: url,
			EventTypes: []v1alpha1.WebhookEventType{
				v1alpha1.WebhookEventTransferCreated, v1alpha1.WebhookEventTransferSubmitted, v1alpha1.WebhookEventTransferConfirmed,
				v1alpha1.WebhookEventTransferFailed, v1alpha1.WebhookEventTransferExpired,
			},
		},
	}
	must(t, stack.Client.Create(context.Background(), ep))
	testenv.WaitFor(t, 30*time.Second, "the endpoint to be Ready", func() bool {
		if stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) != nil {
			return false
		}
		return meta.IsStatusConditionTrue(ep.Status.Conditions, v1alpha1.ConditionReady)
	})
	var secret corev1.Secret
	must(t, stack.Client.Get(context.Background(), client.ObjectKey{Namespace: ep.Namespace, Name: ep.Status.SecretRef.Name}, &secret))
	return ep, string(secret.Data[ep.Status.SecretRef.Key])
}

func newIntent(t testing.TB, stack *servicetest.Stack, account string) *v1alpha1.TransferIntent {
	t.Helper()
	id := intent.NewIntentID(time.Now())
	name, _ := intent.ObjectNameFromID(id)
	ti := &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: stack.Namespace,
			Labels: v1alpha1.IntentLabels(account, v1alpha1.IntentTypeTransfer)},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			Type: v1alpha1.IntentTypeTransfer, FromChain: "eip155:11155111", ToChain: "eip155:11155111",
			OrderID: "0x" + fmt.Sprintf("%064x", time.Now().UnixNano()),
			Request: v1alpha1.TransferRequest{
				From: "eip155:11155111:0x1111111111111111111111111111111111111111", To: "eip155:11155111:0x2222222222222222222222222222222222222222",
				Asset: v1alpha1.TransferAsset{In: "eip155:11155111:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"}, Amount: "1.5",
			},
			Tx:        &v1alpha1.TransactionPayload{To: "0x2222222222222222222222222222222222222222", Value: "1500000000000000000", ChainID: 11155111},
			ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour).Truncate(time.Second)),
		},
	}
	must(t, stack.Client.Create(context.Background(), ti))
	return ti
}

// moveTo writes the intent's status as the chain watcher does.
func moveTo(t testing.TB, kube client.Client, ti *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) {
	t.Helper()
	must(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := kube.Get(context.Background(), client.ObjectKeyFromObject(ti), ti); err != nil {
			return err
		}
		now := metav1.NewTime(time.Now().Truncate(time.Second))
		ti.Status.Phase, ti.Status.UpdatedAt = phase, &now
		ti.Status.Hash, ti.Status.BlockNumber = "0x"+fmt.Sprintf("%064x", 1), 7
		ti.Status.BlockHash = "0x" + fmt.Sprintf("%064x", 2)
		return kube.Status().Update(context.Background(), ti)
	}))
}

// checkEvent verifies a delivery's signature with the endpoint's secret and its body.
func checkEvent(t *testing.T, d delivery, secret, typ string, sequence uint64, intentID string) {
	t.Helper()
	if err := signing.Verify(d.header, d.body, time.Now(), signing.DefaultTolerance, secret); err != nil {
		t.Errorf("%s: the signature does not verify: %v", typ, err)
	}
	if d.event.Type != typ || d.event.Sequence != sequence || d.event.ID != d.header.Get(signing.HeaderID) || d.event.Environment != "test" {
		t.Errorf("got event %s #%d (id %s, webhook-id %s, environment %s); want %s #%d", d.event.Type, d.event.Sequence,
			d.event.ID, d.header.Get(signing.HeaderID), d.event.Environment, typ, sequence)
	}
	var data struct{ ID, Status string }
	if err := json.Unmarshal(d.event.Data, &data); err != nil || data.ID != intentID {
		t.Errorf("%s: data is not the transfer %s: %s", typ, intentID, d.event.Data)
	}
}

func TestTransitionsReachTheEndpointSignedAndInSequence(t *testing.T) {
	stack := startStack(t, nil)
	account := stack.CreateAccount(t, "Webhooks").Object.Name
	recv := newReceiver(t, nil)
	ep, secret := newEndpoint(t, stack, account, recv.URL+"/hooks")

	ti := newIntent(t, stack, account)
	testenv.WaitFor(t, 30*time.Second, "transfer.created", func() bool { return len(recv.succeeded()) >= 1 })
	moveTo(t, stack.Client, ti, v1alpha1.IntentPhaseSubmitted)
	testenv.WaitFor(t, 30*time.Second, "transfer.submitted", func() bool { return len(recv.succeeded()) >= 2 })
	moveTo(t, stack.Client, ti, v1alpha1.IntentPhaseConfirmed)
	testenv.WaitFor(t, 30*time.Second, "transfer.confirmed", func() bool { return len(recv.succeeded()) >= 3 })

	got := recv.succeeded()
	checkEvent(t, got[0], secret, signing.EventTransferCreated, 1, ti.Spec.ID)
	// A transaction intent is never signed: its events skip sequence 2.
	checkEvent(t, got[1], secret, signing.EventTransferSubmitted, 3, ti.Spec.ID)
	checkEvent(t, got[2], secret, signing.EventTransferConfirmed, 4, ti.Spec.ID)
	var data struct{ Status string }
	if err := json.Unmarshal(got[2].event.Data, &data); err != nil || data.Status != "confirmed" {
		t.Errorf("transfer.confirmed carries status %q; want confirmed", data.Status)
	}

	// Health reaches the status once (the first write is at once), and then at most once a minute:
	// the next three deliveries write nothing to the API server.
	testenv.WaitFor(t, 30*time.Second, "the endpoint's lastSuccessAt", func() bool {
		return stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) == nil && ep.Status.LastSuccessAt != nil
	})
	version := ep.ResourceVersion
	other := newIntent(t, stack, account)
	moveTo(t, stack.Client, other, v1alpha1.IntentPhaseSubmitted)
	moveTo(t, stack.Client, other, v1alpha1.IntentPhaseFailed)
	testenv.WaitFor(t, 30*time.Second, "the second intent's events", func() bool { return len(recv.succeeded()) >= 6 })
	must(t, stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep))
	if ep.ResourceVersion != version {
		t.Errorf("the endpoint was written during deliveries (resourceVersion %s, then %s): want no write within a minute of the last", version, ep.ResourceVersion)
	}
	last := recv.succeeded()[5]
	checkEvent(t, last, secret, signing.EventTransferFailed, 4, other.Spec.ID)
	t.Logf("6 deliveries, %d requests in all, 1 status write of the endpoint", len(recv.deliveries()))
}

func TestAFailingReceiverGetsTheEventOnTheFourthAttempt(t *testing.T) {
	stack := startStack(t, nil)
	account := stack.CreateAccount(t, "Retries").Object.Name
	recv := newReceiver(t, func(attempt int) int {
		if attempt <= 3 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	ep, secret := newEndpoint(t, stack, account, recv.URL+"/hooks")
	ti := newIntent(t, stack, account)
	testenv.WaitFor(t, 30*time.Second, "the fourth attempt", func() bool { return len(recv.succeeded()) == 1 })

	all := recv.deliveries()
	if len(all) != 4 {
		t.Fatalf("%d attempts; want 4", len(all))
	}
	for i, d := range all {
		if d.header.Get(signing.HeaderID) != all[0].header.Get(signing.HeaderID) {
			t.Errorf("attempt %d has webhook-id %s; want the first one's, %s", i+1, d.header.Get(signing.HeaderID), all[0].header.Get(signing.HeaderID))
		}
	}
	// 100 ms, 600 ms, 3.6 s, each ±20 %: the waits grow.
	if w1, w3 := all[1].at.Sub(all[0].at), all[3].at.Sub(all[2].at); w3 < 2*time.Second || w1 > w3 {
		t.Errorf("waits between attempts: %s then %s; want exponential backoff", w1, w3)
	}
	checkEvent(t, all[3], secret, signing.EventTransferCreated, 1, ti.Spec.ID)
	testenv.WaitFor(t, 30*time.Second, "the endpoint's health on its status", func() bool {
		return stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) == nil && ep.Status.LastError != ""
	})
	if ep.Status.ConsecutiveFailures < 1 || !strings.Contains(ep.Status.LastError, "500") {
		t.Errorf("status after failures: %d failures, last error %q", ep.Status.ConsecutiveFailures, ep.Status.LastError)
	}
}

func TestTestEventsAndRefusedURLs(t *testing.T) {
	stack := startStack(t, nil)
	account := stack.CreateAccount(t, "Refusals").Object.Name
	key := stack.CreateKey(t, account, "webhooks", unlimited)
	recv := newReceiver(t, nil)
	ep, secret := newEndpoint(t, stack, account, recv.URL+"/hooks")

	status, body := post(t, stack.URL+"/v2/webhooks/"+ep.Name+"/test", key)
	var res struct {
		EventID   string
		Delivered bool
		Status    int
	}
	if status != http.StatusOK || json.Unmarshal(body, &res) != nil || !res.Delivered || res.Status != http.StatusNoContent {
		t.Fatalf("POST /v2/webhooks/%s/test: %d %s", ep.Name, status, body)
	}
	got := recv.deliveries()
	if len(got) != 1 || got[0].event.Type != "webhook.test" || got[0].event.ID != res.EventID {
		t.Fatalf("the receiver got %d deliveries; want the test event %s", len(got), res.EventID)
	}
	if err := signing.Verify(got[0].header, got[0].body, time.Now(), signing.DefaultTolerance, secret); err != nil {
		t.Errorf("the test event's signature: %v", err)
	}
	if status, body := post(t, stack.URL+"/v2/webhooks/no-such-endpoint/test", key); status != http.StatusNotFound {
		t.Errorf("a test of an unknown endpoint: %d %s; want 404", status, body)
	}

	// The service's own network, by address: refused by the controller (not Ready, InvalidSpec)
	// and by the API with a clear problem.
	for _, url := range []string{"https://10.0.0.7/hooks", "https://169.254.169.254/latest/meta-data", "https://[::ffff:192.168.0.1]/hooks"} {
		refused := &v1alpha1.WebhookEndpoint{
			ObjectMeta: metav1.ObjectMeta{Namespace: stack.Namespace, Name: "refused-" + fmt.Sprintf("%x", time.Now().UnixNano())},
			Spec: v1alpha1.WebhookEndpointSpec{AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
				URL: url, EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferCreated}},
		}
		must(t, stack.Client.Create(context.Background(), refused))
		testenv.WaitFor(t, 30*time.Second, "the controller to refuse "+url, func() bool {
			if stack.Client.Get(context.Background(), client.ObjectKeyFromObject(refused), refused) != nil {
				return false
			}
			c := meta.FindStatusCondition(refused.Status.Conditions, v1alpha1.ConditionReady)
			return c != nil && c.Status == metav1.ConditionFalse && c.Reason == v1alpha1.ReasonInvalidSpec && strings.Contains(c.Message, "deliveries go to public addresses only")
		})
		status, body := post(t, stack.URL+"/v2/webhooks/"+refused.Name+"/test", key)
		var p struct {
			Type    string
			Detail  string
			Details map[string]any
		}
		if status != http.StatusUnprocessableEntity || json.Unmarshal(body, &p) != nil || !strings.HasSuffix(p.Type, "/validation-failed") ||
			!strings.Contains(p.Detail, "refused") || p.Details["field"] != "spec.url" {
			t.Errorf("a test of %s: %d %s; want 422 validation-failed on spec.url", url, status, body)
		}
	}

	// Test sends have their own limit per account, whatever the key's: 10 a minute (five were
	// made above).
	var limited int
	for range 8 {
		if status, _ := post(t, stack.URL+"/v2/webhooks/"+ep.Name+"/test", key); status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 3 {
		t.Errorf("%d of 8 more test sends were refused 429; want the 3 past 10 a minute", limited)
	}
}

// unlimited lifts a key's rate limit: the benchmark sends a test event per intent.
func unlimited(spec *v1alpha1.ApiKeySpec) { spec.RateLimitPerMinute = 100_000 }

func post(t testing.TB, url, key string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, nil)
	must(t, err)
	req.Header.Set("api-key", key)
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp.StatusCode, body
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// An endpoint that fails for DisableAfter (72 h; 2 s here) is stopped: its status says when, it
// is not Ready (DeliveriesFailing), a Warning Event says why, and nothing more is sent to it. A
// change of the spec resumes it.
func TestAnEndpointFailingTooLongIsStoppedUntilItsSpecChanges(t *testing.T) {
	stack := startStack(t, func(o *service.Options) { o.Webhooks.DisableAfter = 2 * time.Second })
	account := stack.CreateAccount(t, "Stopped").Object.Name
	var healthy atomic.Bool
	recv := newReceiver(t, func(int) int {
		if healthy.Load() {
			return http.StatusNoContent
		}
		return http.StatusServiceUnavailable
	})
	ep, _ := newEndpoint(t, stack, account, recv.URL+"/hooks")
	newIntent(t, stack, account)

	testenv.WaitFor(t, 30*time.Second, "the endpoint to be stopped", func() bool {
		if stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) != nil {
			return false
		}
		c := meta.FindStatusCondition(ep.Status.Conditions, v1alpha1.ConditionReady)
		return ep.Status.DisabledAt != nil && c != nil && c.Status == metav1.ConditionFalse && c.Reason == v1alpha1.ReasonDeliveriesFailing
	})
	if ep.Status.DisabledGeneration != ep.Generation || !strings.Contains(ep.Status.LastError, "503") {
		t.Errorf("stopped endpoint: disabledGeneration %d (generation %d), lastError %q", ep.Status.DisabledGeneration, ep.Generation, ep.Status.LastError)
	}
	var events corev1.EventList
	must(t, stack.Client.List(context.Background(), &events, client.InNamespace(stack.Namespace)))
	found := false
	for _, e := range events.Items {
		found = found || (e.Reason == "DeliveriesStopped" && e.InvolvedObject.Name == ep.Name)
	}
	if !found {
		t.Errorf("no DeliveriesStopped Event about %s", ep.Name)
	}
	// Stopped: a new intent's event is not even recorded for it.
	before := len(recv.deliveries())
	newIntent(t, stack, account)
	healthy.Store(true)
	// Showing that nothing arrives needs a wait: ten of the deliverer's poll intervals.
	time.Sleep(time.Second)
	if got := len(recv.deliveries()); got != before {
		t.Errorf("%d requests reached a stopped endpoint", got-before)
	}

	// A change of the spec resumes it: the next intent's event is delivered.
	must(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep); err != nil {
			return err
		}
		ep.Spec.URL = recv.URL + "/hooks/v2"
		return stack.Client.Update(context.Background(), ep)
	}))
	testenv.WaitFor(t, 30*time.Second, "the endpoint to be Ready again", func() bool {
		return stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) == nil &&
			meta.IsStatusConditionTrue(ep.Status.Conditions, v1alpha1.ConditionReady) && ep.Generation == ep.Status.ObservedGeneration
	})
	last := newIntent(t, stack, account)
	testenv.WaitFor(t, 30*time.Second, "an event after the spec changed", func() bool {
		_, ok := createdArrival(recv, last.Spec.ID)
		return ok
	})
}
