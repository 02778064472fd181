// Package long is the fault suite's slow part, run by `make test-faults` only (the fast part is
// test/faults, in `make test` too): the Kubernetes API server killed and started again under the
// real manager binary while creates run, and the manager killed with kill -9 during 500
// concurrent creates.
package long

import (
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/gomega"

	"github.com/transferintent/transfer-intent-service/internal/apihealth"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }

// The Kubernetes API server killed (SIGKILL) while four clients create intents back to back, half
// with an Idempotency-Key, then started again on its port with its etcd: every create is answered
// within the write timeout (503 service-unavailable with Retry-After while the API server is
// gone, never a 500 or a closed connection), /readyz fails once the grace has passed, creates
// succeed again by themselves once it is back, and every unknown outcome retried with its key
// ends in exactly one intent; every 201 is stored.
func TestAPIServerKilled(t *testing.T) {
	g := NewWithT(t)
	f := harness.StartFault(t, "killed", "faults-apiserver-killed")
	cp, m, c := f.ControlPlane, f.Manager, f.Client

	load := c.StartLoad(4, 100*time.Millisecond)
	t.Cleanup(load.Stop) // a failed assertion ends the test before the load's own Stop
	g.Eventually(func() int { return harness.Count(c.Outcomes(), harness.Outcome.Created) }).WithTimeout(20 * time.Second).Should(BeNumerically(">=", 10))

	killedAt := time.Now()
	cp.Kill(t)
	g.Eventually(func() int {
		return harness.Count(c.Outcomes(), func(o harness.Outcome) bool { return o.Sent.After(killedAt) })
	}).WithTimeout(3*harness.AnswerBound).WithPolling(50*time.Millisecond).Should(BeNumerically(">=", 8),
		"creates sent after the kill and answered (503, checked below), each within %s", harness.AnswerBound)
	g.Eventually(func() int { return status(m.Probe + "/readyz") }).
		WithTimeout(apihealth.DefaultGrace+apihealth.DefaultInterval+apihealth.DefaultTimeout+5*time.Second).
		WithPolling(100*time.Millisecond).Should(BeNumerically(">=", http.StatusInternalServerError), "/readyz without the API server")
	notReady := time.Since(killedAt)

	restartAt := time.Now()
	cp.Restart(t)
	backAt := time.Now()
	var recovered time.Time
	g.Eventually(func() int {
		o := c.Create(true)
		recovered = o.Sent.Add(o.Took)
		return o.Status
	}).WithTimeout(60*time.Second).WithPolling(50*time.Millisecond).Should(Equal(http.StatusCreated), "a create once the API server is back")
	load.Stop()
	g.Eventually(func() int { return status(m.Probe + "/readyz") }).WithTimeout(20*time.Second).WithPolling(100*time.Millisecond).
		Should(Equal(http.StatusOK), "/readyz once the API server is back")
	g.Expect(m.Running()).To(Succeed(), "the manager outlives the API server")

	during := c.Outcomes()
	harness.CheckAnswers(t, during, harness.AnswerBound)
	retries := c.Settle(t, 60*time.Second)
	tally := harness.Check(c.Outcomes(), cp.Ledger(t, f.Tenant.Namespace))

	gone := harness.TimesTo503(during, killedAt, restartAt)
	harness.Report(t, "API server killed for %s: time to 503 %s; /readyz failing %s after the kill",
		restartAt.Sub(killedAt).Round(10*time.Millisecond), gone, notReady.Round(10*time.Millisecond))
	harness.Report(t, "recovery: the API server started again in %s; first 201 %s after it was ready",
		backAt.Sub(restartAt).Round(10*time.Millisecond), recovered.Sub(backAt).Round(10*time.Millisecond))
	harness.ReportTally(t, tally, retries)

	g.Expect(gone.N).To(BeNumerically(">=", 8), "creates sent while the API server was gone")
	g.Expect(gone.Max).To(BeNumerically("<=", harness.AnswerBound), "time to 503 with the API server killed")
	harness.ExpectNoLossNoDuplicate(g, tally)
}

// creates is the size of the burst the manager is killed in.
const creates = 500

// kill -9 of the manager while 500 creates, each with its own Idempotency-Key, are in flight at
// once; the manager is started again and every create whose outcome the client cannot know (no
// answer, a 5xx) is retried with its key, waiting Retry-After on a 409: every key ends with
// exactly one intent, and every intent answered is stored.
func TestManagerKilled(t *testing.T) {
	g := NewWithT(t)
	f := harness.StartFault(t, "kill9", "faults-manager-killed")
	cp, m, c := f.ControlPlane, f.Manager, f.Client

	start := make(chan struct{})
	var wg sync.WaitGroup
	for range creates {
		wg.Go(func() {
			<-start
			c.Create(true)
		})
	}
	close(start)
	// Killed once a fifth of the creates are answered: the rest are in flight or queued.
	g.Eventually(func() int { return len(c.Outcomes()) }).WithTimeout(60 * time.Second).WithPolling(5 * time.Millisecond).
		Should(BeNumerically(">=", creates/5))
	m.Kill()
	wg.Wait()
	beforeKill := c.Outcomes()
	answered := harness.Count(beforeKill, func(o harness.Outcome) bool { return o.Status >= 200 && o.Status < 300 })
	unknown := harness.Count(beforeKill, harness.Outcome.Unknown)

	m.Start(t)
	m.WaitReady(t, 90*time.Second)
	// Ready means serving: the key is accepted as soon as /readyz says so (it was refused for a
	// few hundred milliseconds while the projections caught up).
	g.Expect(m.KeyStatus(t, f.Tenant.Key)).To(Equal(http.StatusOK), "the key right after /readyz of the restarted manager")
	settleStart := time.Now()
	retries := c.Settle(t, 120*time.Second)
	settled := time.Since(settleStart)
	tally := harness.Check(c.Outcomes(), cp.Ledger(t, f.Tenant.Namespace))

	harness.Report(t, "kill -9 during %d concurrent creates: %d answered 2xx before the kill, %d unknown (no answer or 5xx), %d other",
		creates, answered, unknown, len(beforeKill)-answered-unknown)
	harness.Report(t, "after the restart: %d retries in %s; %d keys with an intent, max %d intents per key, %d lost, %d duplicated",
		retries, settled.Round(10*time.Millisecond), tally.Keys, tally.MaxPerKey, len(tally.Lost), len(tally.Duplicated))

	g.Expect(tally.Creates).To(Equal(creates))
	g.Expect(unknown).To(BeNumerically(">", 0), "creates cut by the kill (else the kill came too late to test anything)")
	g.Expect(tally.Keys).To(Equal(creates), "every key ends with an intent")
	g.Expect(tally.MaxPerKey).To(Equal(1), "exactly one intent per key")
	g.Expect(tally.Lost).To(BeEmpty(), "intents answered that the API server does not hold")
	g.Expect(tally.Duplicated).To(BeEmpty())
	g.Expect(tally.Mismatched).To(BeEmpty(), "retries answered with another intent than the first answer")
}

// status is the status of GET url, 0 without an answer.
func status(url string) int {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
