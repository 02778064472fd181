package webhooks_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/test/harness"
)

// A kill -9 of the manager (the leader: the only replica) while a delivery is in flight loses no
// event: the attempt whose outcome was never written is made again after its lease, under the same
// webhook-id, and an intent created while no manager ran gets its event once one runs again.
func TestKillingTheLeaderMidDeliveryLosesNoEvent(t *testing.T) {
	cp := harness.StartControlPlane(t)
	pg := pgtest.Start(t)
	tenant := cp.NewTenant(t, "hooks")
	stack := &servicetest.Stack{Namespace: tenant.Namespace, Client: cp.Client}

	// The receiver holds the first request it gets until the manager is dead, then answers 204 to
	// everything.
	recv := newReceiver(t, nil)
	hold := &holdFirst{next: recv.Config.Handler, inFlight: make(chan struct{}), release: make(chan struct{})}
	recv.Config.Handler = hold

	// 1 s attempts: a delivery whose deliverer died is taken again after 4 × 1 s + 5 s.
	m := cp.StartManager(t, tenant.Namespace, "webhooks-kill", "--archive-url", pg.URL,
		"--webhook-first-retry", "200ms", "--webhook-attempt-timeout", "1s", "--webhook-allow-loopback")
	m.WaitReady(t, 90*time.Second)
	_, secret := newEndpoint(t, stack, "faults", recv.URL+"/hooks")

	first := newIntent(t, stack, "faults")
	select {
	case <-hold.inFlight:
	case <-time.After(30 * time.Second):
		t.Fatalf("no delivery reached the receiver; see %s", m.LogPath)
	}
	m.Kill()
	close(hold.release)
	second := newIntent(t, stack, "faults") // while no manager runs
	m.Start(t)

	testenv.WaitFor(t, 30*time.Second, "both intents' transfer.created, delivered after the restart", func() bool {
		return len(recv.succeeded()) >= 2
	})
	byIntent := map[string]delivery{}
	attempts := map[string]int{}
	for _, d := range recv.deliveries() {
		var data struct{ ID string }
		_ = json.Unmarshal(d.event.Data, &data)
		byIntent[data.ID] = d
		attempts[d.header.Get(signing.HeaderID)]++
	}
	for _, ti := range []*v1alpha1.TransferIntent{first, second} {
		d, ok := byIntent[ti.Spec.ID]
		if !ok {
			t.Fatalf("no event of intent %s reached the receiver", ti.Spec.ID)
		}
		checkEvent(t, d, secret, signing.EventTransferCreated, 1, ti.Spec.ID)
	}
	if got := byIntent[first.Spec.ID].header.Get(signing.HeaderID); got != hold.id {
		t.Errorf("the event in flight at the kill had webhook-id %s, its delivery after the restart %s; want the same", hold.id, got)
	}
	t.Logf("after the restart: %d requests for %d events", len(recv.deliveries()), len(attempts))
}

// holdFirst holds the first request (the attempt in flight when the manager is killed) until
// release, and records nothing of it: its answer never reaches a deliverer. Later requests go to
// next.
type holdFirst struct {
	next              http.Handler
	once              sync.Once
	inFlight, release chan struct{}
	id                string
}

func (h *holdFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	first := false
	h.once.Do(func() {
		first = true
		h.id = r.Header.Get(signing.HeaderID)
		close(h.inFlight)
	})
	if first {
		<-h.release
		return
	}
	h.next.ServeHTTP(w, r)
}
