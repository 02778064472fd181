package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
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

// hookDelivery is one request the loopback receiver got, with the time it arrived.
type hookDelivery struct {
	header http.Header
	body   []byte
	event  signing.Event
	at     time.Time
}

// hookReceiver is a webhook receiver on loopback that answers 204 and records every delivery.
type hookReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []hookDelivery
}

func newHookReceiver() *hookReceiver {
	r := &hookReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		at := time.Now()
		body, _ := io.ReadAll(req.Body)
		var ev signing.Event
		_ = json.Unmarshal(body, &ev)
		r.mu.Lock()
		r.got = append(r.got, hookDelivery{header: req.Header.Clone(), body: body, event: ev, at: at})
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
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
