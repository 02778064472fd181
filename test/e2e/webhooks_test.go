package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// restartManager stops the suite's manager and runs it again with managerArgs and extra, its log
// in test/artifacts/logName, until the spec ends; then it runs it again as the suite started it
// (its log in test/artifacts/manager-restored.log), so that the specs after see the manager they
// expect. Both logs must show no data race.
func restartManager(logName string, extra ...string) {
	GinkgoHelper()
	run := func(logName string, args ...string) {
		GinkgoHelper()
		manager.Stop()
		logPath := filepath.Join(projectRoot, "test", "artifacts", logName)
		manager = harness.RunManager(GinkgoTB(), managerBin, managerKubeconfig, logPath, GinkgoWriter, args...)
		manager.Probe = "http://" + probeAddr
		manager.WaitReady(GinkgoTB(), time.Minute)
	}
	run(logName, append(slices.Clone(managerArgs), extra...)...)
	DeferCleanup(func() {
		By("running the manager again as the suite started it")
		run("manager-restored.log", managerArgs...)
		out, err := os.ReadFile(filepath.Join(projectRoot, "test", "artifacts", logName))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).NotTo(ContainSubstring("WARNING: DATA RACE"), "see test/artifacts/%s", logName)
	})
}

// hookDelivery is one request the loopback receiver got, with the time it arrived and the status
// it answered.
type hookDelivery struct {
	header http.Header
	body   []byte
	event  signing.Event
	at     time.Time
	status int
}

// hookReceiver is a webhook receiver on loopback that answers 204 (503 while down) and records
// every delivery.
type hookReceiver struct {
	*httptest.Server
	down atomic.Bool
	mu   sync.Mutex
	got  []hookDelivery
}

func newHookReceiver() *hookReceiver {
	r := &hookReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		at := time.Now()
		body, _ := io.ReadAll(req.Body)
		var ev signing.Event
		_ = json.Unmarshal(body, &ev)
		status := http.StatusNoContent
		if r.down.Load() {
			status = http.StatusServiceUnavailable
		}
		r.mu.Lock()
		r.got = append(r.got, hookDelivery{header: req.Header.Clone(), body: body, event: ev, at: at, status: status})
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	DeferCleanup(r.Close)
	return r
}

// of lists, in the order they arrived, the deliveries of the transfer id (the endpoint may also
// hear of the account's other transfers).
func (r *hookReceiver) of(id string) []hookDelivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []hookDelivery
	for _, d := range r.got {
		var data struct{ ID string }
		if json.Unmarshal(d.event.Data, &data) == nil && data.ID == id {
			out = append(out, d)
		}
	}
	return out
}

// phaseWatch reads a TransferIntent from the API server every 50 ms and records, for each phase,
// the window in which it changed to it: after the start of the last read that did not show it,
// by the end of the first read that did.
type phaseWatch struct {
	mu    sync.Mutex
	seen  map[v1alpha1.IntentPhase]window
	stop  chan struct{}
	ended chan struct{}
}

// window bounds when a change happened.
type window struct{ after, by time.Time }

func watchPhases(namespace, name string) *phaseWatch {
	w := &phaseWatch{seen: map[v1alpha1.IntentPhase]window{}, stop: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(w.ended)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		var previous time.Time // the start of the last read that answered
		for {
			start := time.Now()
			var ti v1alpha1.TransferIntent
			if err := k8sClient.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: name}, &ti); err == nil {
				w.mu.Lock()
				if _, ok := w.seen[ti.Status.Phase]; !ok && !previous.IsZero() {
					w.seen[ti.Status.Phase] = window{after: previous, by: time.Now()}
				}
				w.mu.Unlock()
				previous = start
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	DeferCleanup(w.end)
	return w
}

func (w *phaseWatch) end() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.ended
}

// delay bounds the time from the change to phase to arrived, as "lo..hi ms".
func (w *phaseWatch) delay(phase v1alpha1.IntentPhase, arrived time.Time) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	win, ok := w.seen[phase]
	if !ok {
		return "n/a (the change was not observed)"
	}
	return fmt.Sprintf("%d..%d ms", max(0, arrived.Sub(win.by).Milliseconds()), arrived.Sub(win.after).Milliseconds())
}

// delivered counts the 2xx deliveries of the event id that arrived after since.
func (r *hookReceiver) delivered(id string, since time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, d := range r.got {
		if d.header.Get(signing.HeaderID) == id && d.status < 300 && d.at.After(since) {
			n++
		}
	}
	return n
}

// listedEvent is an event as GET /v2/events lists it.
type listedEvent struct {
	ID, Type, TransferID string
	Deliveries           []struct {
		Endpoint, State, LastError string
		Attempts                   int
	}
}

func listEvents(key string, q url.Values) []listedEvent {
	GinkgoHelper()
	status, out, err := api(http.MethodGet, "/v2/events?"+q.Encode(), key, "")
	Expect(err).NotTo(HaveOccurred())
	Expect(status).To(Equal(http.StatusOK), out)
	var events []listedEvent
	Expect(json.Unmarshal([]byte(out), &events)).To(Succeed())
	return events
}

// replayWhatTheReceiverMissed takes the receiver down, creates another intent with createBody
// (its transfer.created fails at the receiver and waits for its retry), lists the account's events
// since since with GET /v2/events, brings the receiver back and replays them: each arrives once
// more under its original webhook-id.
func replayWhatTheReceiverMissed(recv *hookReceiver, key, endpoint, createBody string, since time.Time) {
	GinkgoHelper()
	By("taking the receiver down, and creating another intent meanwhile")
	recv.down.Store(true)
	status, out, err := api(http.MethodPost, "/v2/transfers", key, createBody)
	Expect(err).NotTo(HaveOccurred())
	Expect(status).To(Equal(http.StatusCreated), out)
	var missed struct{ ID string }
	Expect(json.Unmarshal([]byte(out), &missed)).To(Succeed())
	Eventually(func(g Gomega) {
		events := listEvents(key, url.Values{"transferId": {missed.ID}})
		g.Expect(events).To(HaveLen(1))
		g.Expect(events[0].Deliveries).To(HaveLen(1))
		d := events[0].Deliveries[0]
		g.Expect(d.Endpoint).To(Equal(endpoint))
		g.Expect(d.Attempts).To(BeNumerically(">=", 1))
		g.Expect(d.LastError).To(Equal("HTTP 503"))
	}).WithTimeout(30*time.Second).Should(Succeed(), "the missed event's failed delivery, listed")

	By("listing what the receiver missed with GET /v2/events and replaying it")
	events := listEvents(key, url.Values{"createdAfter": {since.UTC().Format(time.RFC3339)}, "type": {"transfer.*"}})
	Expect(len(events)).To(BeNumerically(">=", 4), "the bridge's three events and the missed one")
	Expect(events[0].TransferID).To(Equal(missed.ID), "newest first")
	recv.down.Store(false)
	replayed := time.Now()
	status, out, err = api(http.MethodPost, "/v2/webhooks/"+endpoint+"/replay", key, fmt.Sprintf(`{"createdAfter":%q,"createdBefore":%q}`,
		since.UTC().Format(time.RFC3339), time.Now().Add(time.Minute).UTC().Format(time.RFC3339)))
	Expect(err).NotTo(HaveOccurred())
	Expect(status).To(Equal(http.StatusAccepted), out)
	Expect(out).To(ContainSubstring(fmt.Sprintf(`"replayed":%d`, len(events))))
	for _, ev := range events {
		Eventually(func() int { return recv.delivered(ev.ID, replayed) }).WithTimeout(30*time.Second).
			Should(Equal(1), "%s of %s, once more under its webhook-id", ev.Type, ev.TransferID)
	}
}
