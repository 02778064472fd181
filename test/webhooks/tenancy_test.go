package webhooks_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// slowReceiver answers every request 204 after delay: a slow success, never a failure. started
// counts the requests it began.
type slowReceiver struct {
	*httptest.Server
	started atomic.Int64
}

func newSlowReceiver(t testing.TB, delay time.Duration) *slowReceiver {
	r := &slowReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.started.Add(1)
		select {
		case <-time.After(delay): // the receiver's own slowness
		case <-req.Context().Done():
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

// createEndpoints creates n endpoints of account to url, without waiting for each. Their names
// sort in the order they are created, like newEndpoint's: an account's endpoints created in the
// same second rank by name.
func createEndpoints(t testing.TB, stack *servicetest.Stack, account, url string, n int) []*v1alpha1.WebhookEndpoint {
	t.Helper()
	out := make([]*v1alpha1.WebhookEndpoint, n)
	for i := range out {
		out[i] = &v1alpha1.WebhookEndpoint{
			ObjectMeta: metav1.ObjectMeta{Namespace: stack.Namespace, Name: fmt.Sprintf("hooks-%x-%03d", time.Now().UnixNano(), i)},
			Spec: v1alpha1.WebhookEndpointSpec{
				AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
				URL: fmt.Sprintf("%s/%s/%d", url, account, i), EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferCreated},
			},
		}
		must(t, stack.Client.Create(context.Background(), out[i]))
	}
	return out
}

// waitReady waits until every endpoint is Ready (its signing secret exists).
func waitReady(t testing.TB, stack *servicetest.Stack, endpoints []*v1alpha1.WebhookEndpoint) {
	t.Helper()
	testenv.WaitFor(t, 2*time.Minute, fmt.Sprintf("%d endpoints to be Ready", len(endpoints)), func() bool {
		var list v1alpha1.WebhookEndpointList
		if stack.Client.List(context.Background(), &list, client.InNamespace(stack.Namespace)) != nil {
			return false
		}
		ready := map[string]bool{}
		for _, ep := range list.Items {
			ready[ep.Name] = meta.IsStatusConditionTrue(ep.Status.Conditions, v1alpha1.ConditionReady)
		}
		for _, ep := range endpoints {
			if !ready[ep.Name] {
				return false
			}
		}
		return true
	})
}

// latency creates an intent of account and measures from its create to the arrival of its
// transfer.created at recv.
func latency(t testing.TB, stack *servicetest.Stack, recv *receiver, account string) time.Duration {
	t.Helper()
	start := time.Now()
	ti := newIntent(t, stack, account)
	var at time.Time
	testenv.WaitFor(t, 3*time.Minute, "the quiet account's event", func() bool {
		var ok bool
		at, ok = createdArrival(recv, ti.Spec.ID)
		return ok
	})
	return at.Sub(start)
}

// One tenant's backlog cannot delay another's events by more than one attempt's timeout: 200
// endpoints that each take 1.5 s to answer (a slow success) hold 400 deliveries, first of one
// account (the endpoint limit raised for it), then of twenty accounts at the default limit; a
// quiet account's event arrives within the attempt timeout (2 s) and a poll, against its time on
// the idle service in the same run.
func TestOneTenantsBacklogDoesNotDelayAnother(t *testing.T) {
	const slow = 1500 * time.Millisecond
	for _, c := range []struct {
		name              string
		accounts, perEach int
		limit             int
	}{
		{"one account with 200 endpoints", 1, 200, 200},
		{"twenty accounts with 10 endpoints each", 20, 10, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			stack := startStack(t, func(o *service.Options) { o.Webhooks.EndpointsPerAccount = c.limit })
			quiet := stack.CreateAccount(t, "Quiet").Object.Name
			recv := newReceiver(t, nil)
			newEndpoint(t, stack, quiet, recv.URL+"/hooks")
			idle := latency(t, stack, recv, quiet)

			flood := newSlowReceiver(t, slow)
			var flooders []string
			var endpoints []*v1alpha1.WebhookEndpoint
			for i := range c.accounts {
				account := stack.CreateAccount(t, fmt.Sprintf("Flood %d", i)).Object.Name
				flooders = append(flooders, account)
				endpoints = append(endpoints, createEndpoints(t, stack, account, flood.URL, c.perEach)...)
			}
			waitReady(t, stack, endpoints)
			for range 2 {
				for _, account := range flooders {
					newIntent(t, stack, account)
				}
			}
			// Every worker is busy with the flood before the quiet account's event.
			testenv.WaitFor(t, time.Minute, "the flood to fill the workers", func() bool { return flood.started.Load() >= 40 })
			backlog := int64(2*len(endpoints)) - flood.started.Load()
			busy := latency(t, stack, recv, quiet)
			t.Logf("%s: the quiet account's event arrived %s after its create with %d flood deliveries waiting, against %s idle",
				c.name, busy.Round(time.Millisecond), backlog, idle.Round(time.Millisecond))
			// Before fair claims (oldest first, whatever the account) this was 142 s through make run.
			if bound := stack.Options.Webhooks.AttemptTimeout + time.Second; busy > bound {
				t.Errorf("delayed %s by the flood; want at most one attempt's timeout and a poll, %s", busy, bound)
			}
			if backlog < 100 {
				t.Errorf("only %d flood deliveries were waiting: the test did not flood", backlog)
			}
		})
	}
}

// An account has at most --webhook-endpoints-per-account endpoints served: the newest beyond it is
// Stalled with EndpointLimitExceeded and hears nothing, and a replay to it is a 409. A disabled
// Account's endpoints receive nothing, and what was queued for them is dropped and counted.
func TestEndpointLimitAndDisabledAccounts(t *testing.T) {
	reg := prometheus.NewRegistry()
	var broken atomic.Bool
	broken.Store(true)
	stack := startStack(t, func(o *service.Options) {
		o.Webhooks.EndpointsPerAccount = 2
		o.Webhooks.FirstRetry = time.Second
		o.Metrics = reg
	})
	account := stack.CreateAccount(t, "Limited").Object.Name
	key := stack.CreateKey(t, account, "limited", unlimited)
	recv := newReceiver(t, func(int) int {
		if broken.Load() {
			return http.StatusServiceUnavailable
		}
		return http.StatusNoContent
	})
	newEndpoint(t, stack, account, recv.URL+"/first")
	newEndpoint(t, stack, account, recv.URL+"/second")
	third := createEndpoints(t, stack, account, recv.URL, 1)[0]
	testenv.WaitFor(t, 30*time.Second, "the third endpoint to be Stalled", func() bool {
		if stack.Client.Get(context.Background(), client.ObjectKeyFromObject(third), third) != nil {
			return false
		}
		ready := meta.FindStatusCondition(third.Status.Conditions, v1alpha1.ConditionReady)
		return ready != nil && ready.Reason == v1alpha1.ReasonEndpointLimitExceeded &&
			meta.IsStatusConditionTrue(third.Status.Conditions, v1alpha1.ConditionStalled)
	})
	status, body := postJSON(t, stack.URL+"/v2/webhooks/"+third.Name+"/replay", key,
		`{"createdAfter":"2026-01-01T00:00:00Z","createdBefore":"2099-01-01T00:00:00Z"}`)
	if status != http.StatusConflict || !strings.Contains(string(body), "endpoint_limit") {
		t.Errorf("a replay to the endpoint beyond the limit: %d %s; want 409 naming endpoint_limit", status, body)
	}
	if status, body := post(t, stack.URL+"/v2/webhooks/"+third.Name+"/test", key); status != http.StatusConflict || !strings.Contains(string(body), "endpoint_limit") {
		t.Errorf("a test send to the endpoint beyond the limit: %d %s; want 409 naming endpoint_limit", status, body)
	}

	// The receiver fails: both served endpoints hold a delivery waiting for its retry; the third
	// endpoint gets nothing.
	newIntent(t, stack, account)
	testenv.WaitFor(t, 30*time.Second, "a failed first attempt at each served endpoint", func() bool {
		return len(recv.deliveries()) >= 2
	})
	disable(t, stack, account)
	broken.Store(false)
	testenv.WaitFor(t, 30*time.Second, "the queued deliveries to be dropped", func() bool {
		return counterValue(t, reg, "tis_webhook_deliveries_dropped_total", "reason", "account_disabled") >= 2
	})
	newIntent(t, stack, account)
	// Nothing more arrives: ten of the deliverer's poll intervals show it.
	time.Sleep(time.Second)
	if got := recv.deliveries(); len(got) != 2 {
		t.Errorf("the endpoints got %d requests; want the 2 failed first attempts only", len(got))
	}
	for _, d := range recv.deliveries() {
		if !slices.Contains([]string{"/first", "/second"}, d.path) {
			t.Errorf("a delivery reached %s: the endpoint beyond the limit is not served", d.path)
		}
	}
}

// disable sets the Account's spec.disabled.
func disable(t testing.TB, stack *servicetest.Stack, account string) {
	t.Helper()
	must(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var a v1alpha1.Account
		if err := stack.Client.Get(context.Background(), client.ObjectKey{Namespace: stack.Namespace, Name: account}, &a); err != nil {
			return err
		}
		a.Spec.Disabled = true
		return stack.Client.Update(context.Background(), &a)
	}))
}

// counterValue reads the counter name{label=value} from reg; 0 when it has no such series.
func counterValue(t testing.TB, reg *prometheus.Registry, name, label, value string) float64 {
	t.Helper()
	families, err := reg.Gather()
	must(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
