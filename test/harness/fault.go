package harness

import (
	"net/http"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/transferintent/transfer-intent-service/internal/intentstore"
)

// AnswerBound is how long any create may take while the API server is away: the store's write
// timeout, and slack for a race-enabled manager on a loaded machine.
const AnswerBound = intentstore.DefaultWriteTimeout + 3*time.Second

// Fault is where every fault test starts: a control plane of its own, a tenant, the manager
// binary serving the tenant and ready, and a client of it whose key the manager accepts.
type Fault struct {
	ControlPlane *ControlPlane
	Tenant       Tenant
	Manager      *Manager
	Client       *Client
}

// StartFault starts a fault test's control plane and manager; tenant prefixes the tenant's
// namespace, manager names the manager's log. The client's warm-up creates are forgotten: they
// were refused until the key reached the manager.
func StartFault(t testing.TB, tenant, manager string) *Fault {
	t.Helper()
	f := &Fault{ControlPlane: StartControlPlane(t)}
	f.Tenant = f.ControlPlane.NewTenant(t, tenant)
	f.Manager = f.ControlPlane.StartManager(t, f.Tenant.Namespace, manager)
	f.Manager.WaitReady(t, 90*time.Second)
	f.Client = NewClient(f.Manager.API, f.Tenant.Key)
	gomega.NewWithT(t).Eventually(func() int { return f.Client.Create(true).Status }).WithTimeout(30*time.Second).
		WithPolling(100*time.Millisecond).Should(gomega.Equal(http.StatusCreated), "the tenant's key and token reach the manager")
	f.Client.Forget()
	return f
}

// Created reports whether the create was answered 201.
func (o Outcome) Created() bool { return o.Status == http.StatusCreated }

// Count is how many outcomes match.
func Count(outcomes []Outcome, match func(Outcome) bool) int {
	n := 0
	for _, o := range outcomes {
		if match(o) {
			n++
		}
	}
	return n
}

// TimesTo503 are how long the creates sent between from and to took to be answered 503: the
// time to refuse while a fault lasts.
func TimesTo503(outcomes []Outcome, from, to time.Time) Durations {
	var took []time.Duration
	for _, o := range outcomes {
		if o.Status == http.StatusServiceUnavailable && o.Sent.After(from) && o.Sent.Before(to) {
			took = append(took, o.Took)
		}
	}
	return Summarise(took)
}

// ReportTally reports what the creates of a fault under load ended in, after retries.
func ReportTally(t testing.TB, tally Tally, retries int) {
	t.Helper()
	Report(t, "%d creates (%d with an Idempotency-Key succeeded), %d retries: %d lost, %d duplicated, max %d intents per key, "+
		"%d stored without a key although answered 503", tally.Creates, tally.Keys, retries, len(tally.Lost), len(tally.Duplicated),
		tally.MaxPerKey, tally.Phantoms)
}

// ExpectNoLossNoDuplicate asserts what every fault under load must keep: each 201 stored, one
// intent per request, retries answered with the first answer's intent.
func ExpectNoLossNoDuplicate(g gomega.Gomega, tally Tally) {
	g.Expect(tally.Lost).To(gomega.BeEmpty(), "intents answered 201 that the API server does not hold")
	g.Expect(tally.Duplicated).To(gomega.BeEmpty(), "more than one intent for one request")
	g.Expect(tally.Mismatched).To(gomega.BeEmpty(), "retries answered with another intent")
}
