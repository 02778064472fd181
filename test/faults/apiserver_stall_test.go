// Package faults is the fault suite's fast part, run by `make test` (and by `make test-faults`
// with the slow part, test/faults/long): the Kubernetes API server stalled under the real manager
// binary while creates run, and FuzzHandler, the HTTP-level fuzz target over the whole handler.
package faults

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	. "github.com/onsi/gomega"

	"github.com/transferintent/transfer-intent-service/test/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }

// A Kubernetes API server stopped with SIGSTOP (connections accepted, never answered) while four
// clients create intents back to back, half with an Idempotency-Key: every create is answered
// within the write timeout, with 503 service-unavailable and Retry-After while the API server
// does not answer, never a 500, a hang or a closed connection; /health says degraded; after
// SIGCONT creates succeed again by themselves; every unknown outcome retried with its key ends
// in exactly one intent, and every 201 is stored.
func TestAPIServerStalled(t *testing.T) {
	g := NewWithT(t)
	f := harness.StartFault(t, "stall", "faults-stall")
	cp, m, c := f.ControlPlane, f.Manager, f.Client

	load := c.StartLoad(4, 100*time.Millisecond)
	t.Cleanup(load.Stop) // a failed assertion ends the test before the load's own Stop
	g.Eventually(func() int { return harness.Count(c.Outcomes(), harness.Outcome.Created) }).WithTimeout(20 * time.Second).Should(BeNumerically(">=", 10))

	stalledAt := time.Now()
	cp.Stall(t)
	// Stalled until every worker has had a whole create answered (503, checked below).
	g.Eventually(func() int {
		return harness.Count(c.Outcomes(), func(o harness.Outcome) bool { return o.Sent.After(stalledAt) })
	}).WithTimeout(3*harness.AnswerBound).WithPolling(50*time.Millisecond).Should(BeNumerically(">=", 4),
		"creates sent after the stall began and answered, each within %s", harness.AnswerBound)
	g.Eventually(func() string { return health(m) }).WithTimeout(5*time.Second).WithPolling(100*time.Millisecond).
		Should(Equal("degraded"), "/health while the API server does not answer")
	resumedAt := time.Now()
	cp.Resume(t)

	var recovered time.Time
	g.Eventually(func() int {
		o := c.Create(true)
		recovered = o.Sent.Add(o.Took)
		return o.Status
	}).WithTimeout(30*time.Second).WithPolling(50*time.Millisecond).Should(Equal(http.StatusCreated), "a create after SIGCONT")
	load.Stop()
	g.Eventually(func() string { return health(m) }).WithTimeout(10 * time.Second).WithPolling(100 * time.Millisecond).Should(Equal("ok"))

	during := c.Outcomes()
	harness.CheckAnswers(t, during, harness.AnswerBound)
	retries := c.Settle(t, 60*time.Second)
	tally := harness.Check(c.Outcomes(), cp.Ledger(t, f.Tenant.Namespace))

	stall := harness.TimesTo503(during, stalledAt, resumedAt)
	harness.Report(t, "API server stalled %s: time to 503 %s", resumedAt.Sub(stalledAt).Round(10*time.Millisecond), stall)
	harness.Report(t, "recovery after SIGCONT: first 201 %s after the API server was back", recovered.Sub(resumedAt).Round(10*time.Millisecond))
	harness.ReportTally(t, tally, retries)

	g.Expect(stall.N).To(BeNumerically(">=", 4), "creates sent while the API server was stalled")
	g.Expect(stall.Max).To(BeNumerically("<=", harness.AnswerBound), "time to 503 with the API server stalled")
	harness.ExpectNoLossNoDuplicate(g, tally)
}

// health is the status /health reports, "" when it does not answer.
func health(m *harness.Manager) string {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(m.API + "/health")
	if err != nil {
		return ""
	}
	defer func() { _ = resp.Body.Close() }()
	var body struct{ Status string }
	if decodeJSON(resp, &body) != nil {
		return ""
	}
	return body.Status
}

func decodeJSON(resp *http.Response, v any) error { return json.NewDecoder(resp.Body).Decode(v) }
