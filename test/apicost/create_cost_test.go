// Package apicost_test counts what a create over /v2 costs the Kubernetes API server, from the API
// server's own apiserver_request_total: the whole service (service.Setup) runs against a real API
// server of its own, so that no other test's objects write in the window measured.
package apicost_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/kubernetes"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// creates is how many intents each case creates: enough that a write per create stands out from
// the occasional write of something else (a leader-election lease renewal).
const creates = 20

// A new pending intent costs one write: its create. Its pending phase and Ready condition are
// implied (the controller reconciles it, relabels nothing and writes no status) and no Event is
// recorded for it. A create with an Idempotency-Key costs two more: its claim (a Lease), created
// then owner-referenced to the intent.
func TestANewIntentCostsTheAPIServerOneWrite(t *testing.T) {
	stack := servicetest.Start(t)
	api := servingTenant(t, stack)
	metrics := apiServerMetrics(t, stack)

	for _, keyed := range []bool{false, true} {
		t.Run(fmt.Sprintf("idempotency key %t", keyed), func(t *testing.T) {
			waitIntentsReconciled(t)
			before := metrics()
			for range creates {
				if o := api.Create(keyed); o.Status != http.StatusCreated {
					t.Fatalf("create: %s", o)
				}
			}
			waitIntentsReconciled(t)
			writes := writesSince(before, metrics())
			t.Logf("API-server writes for %d creates (idempotency key %t): %s", creates, keyed, writes)

			want := map[string]int{"POST transferintents": creates}
			if keyed {
				// The claim: its create, then its adoption by the intent (an owner reference, so
				// that it leaves with the intent).
				want["POST leases"], want["PATCH leases"] = creates, creates
			}
			for what, n := range want {
				if writes[what] != n {
					t.Errorf("%s: %d; want %d", what, writes[what], n)
				}
			}
			for what, n := range writes {
				if _, expected := want[what]; expected {
					continue
				}
				if strings.Contains(what, " transferintents") || strings.HasSuffix(what, " events") {
					t.Errorf("%s: %d; want none (the status of a new intent is implied, no event is recorded)", what, n)
				}
			}
		})
	}
}

// servingTenant creates a tenant and returns its API client once the service has taken its first
// create: the key and the chains are in the read models.
func servingTenant(t *testing.T, stack *servicetest.Stack) *harness.Client {
	t.Helper()
	tenant := harness.CreateTenant(t, stack.Client, stack.Namespace)
	api := harness.NewClient(stack.URL, tenant.Key)
	testenv.WaitFor(t, 60*time.Second, "the tenant's first create", func() error {
		if o := api.Create(false); o.Status != http.StatusCreated {
			return fmt.Errorf("%s", o)
		}
		return nil
	})
	return api
}

// apiServerMetrics returns a function that scrapes the API server's /metrics.
func apiServerMetrics(t *testing.T, stack *servicetest.Stack) func() map[string]*dto.MetricFamily {
	t.Helper()
	kube, err := kubernetes.NewForConfig(stack.Config)
	if err != nil {
		t.Fatal(err)
	}
	return func() map[string]*dto.MetricFamily {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		raw, err := kube.RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
		if err != nil {
			t.Fatalf("GET /metrics of the API server: %v", err)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("parsing the API server's metrics: %v", err)
		}
		return families
	}
}

// writeCounts are the API server's writes by "VERB resource[/subresource]".
type writeCounts map[string]int

func (w writeCounts) String() string {
	keys := make([]string, 0, len(w))
	for k := range w {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%d ", k, w[k])
	}
	return strings.TrimSpace(b.String())
}

// writesSince counts the writes (every verb but reads and watches) between two scrapes.
func writesSince(before, after map[string]*dto.MetricFamily) writeCounts {
	counts := func(families map[string]*dto.MetricFamily) map[string]float64 {
		out := map[string]float64{}
		f := families["apiserver_request_total"]
		if f == nil {
			return out
		}
		for _, m := range f.Metric {
			labels := map[string]string{}
			for _, l := range m.Label {
				labels[l.GetName()] = l.GetValue()
			}
			switch labels["verb"] {
			case "GET", "LIST", "WATCH", "CONNECT":
				continue
			}
			what := labels["verb"] + " " + labels["resource"]
			if labels["subresource"] != "" {
				what += "/" + labels["subresource"]
			}
			out[what] += m.GetCounter().GetValue()
		}
		return out
	}
	b, a := counts(before), counts(after)
	writes := writeCounts{}
	for what, n := range a {
		if d := int(n - b[what]); d > 0 {
			writes[what] = d
		}
	}
	return writes
}

// waitIntentsReconciled waits until the TransferIntent controller has nothing queued and nothing
// in progress, and has stayed so for half a second: every intent created so far is reconciled.
func waitIntentsReconciled(t *testing.T) {
	t.Helper()
	var idleSince time.Time
	testenv.WaitFor(t, 60*time.Second, "the TransferIntent controller to be idle", func() error {
		families, err := ctrlmetrics.Registry.Gather()
		if err != nil {
			return err
		}
		busy := 0.0
		for _, f := range families {
			if f.GetName() != "workqueue_depth" && f.GetName() != "controller_runtime_active_workers" {
				continue
			}
			for _, m := range f.Metric {
				for _, l := range m.Label {
					if (l.GetName() == "name" || l.GetName() == "controller") && l.GetValue() == "transferintent" {
						busy += m.GetGauge().GetValue()
					}
				}
			}
		}
		switch {
		case busy > 0:
			idleSince = time.Time{}
			return fmt.Errorf("%v queued or in progress", busy)
		case idleSince.IsZero():
			idleSince = time.Now()
			return fmt.Errorf("idle since just now")
		case time.Since(idleSince) < 500*time.Millisecond:
			return fmt.Errorf("idle for %s only", time.Since(idleSince))
		}
		return nil
	})
}
