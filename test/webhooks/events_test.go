package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// listedEvent is what GET /v2/events answers of an event.
type listedEvent struct {
	ID         string
	Type       string
	TransferID string
	Sequence   int
	Data       json.RawMessage
	Deliveries []struct {
		Endpoint, State, LastError string
		Attempts                   int
	}
}

func listEvents(t testing.TB, base, key string, q url.Values) []listedEvent {
	t.Helper()
	var all []listedEvent
	next := base + "/v2/events?" + q.Encode()
	for next != "" {
		status, body, header := do(t, http.MethodGet, next, key, "")
		if status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", next, status, body)
		}
		var page []listedEvent
		must(t, json.Unmarshal(body, &page))
		all = append(all, page...)
		next = ""
		if link := header.Get("Link"); link != "" {
			next = link[1:bytes.IndexByte([]byte(link), '>')]
		}
	}
	return all
}

// An integrator's receiver is down long enough for its endpoint to be stopped; meanwhile more
// intents happen. Once it is back it lists what it missed with GET /v2/events and replays the
// range: every missed event arrives once more, under its original webhook-id.
func TestMissedEventsAreListedAndReplayed(t *testing.T) {
	stack := startStack(t, func(o *service.Options) { o.Webhooks.DisableAfter = 2 * time.Second })
	account := stack.CreateAccount(t, "Replays").Object.Name
	key := stack.CreateKey(t, account, "replays", unlimited)
	var down atomic.Bool
	down.Store(true)
	recv := newReceiver(t, func(int) int {
		if down.Load() {
			return http.StatusServiceUnavailable
		}
		return http.StatusNoContent
	})
	ep, secret := newEndpoint(t, stack, account, recv.URL+"/hooks")
	from := time.Now().Add(-time.Second).UTC()

	first := newIntent(t, stack, account)
	testenv.WaitFor(t, 30*time.Second, "the endpoint to be stopped", func() bool {
		return stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) == nil && ep.DeliveriesStopped()
	})
	second := newIntent(t, stack, account)
	moveTo(t, stack.Client, second, v1alpha1.IntentPhaseSubmitted)
	third := newIntent(t, stack, account)
	var missed []listedEvent
	testenv.WaitFor(t, 30*time.Second, "the missed events to be listed", func() bool {
		missed = listEvents(t, stack.URL, key, url.Values{"createdAfter": {from.Format(time.RFC3339)}, "limit": {"2"}})
		return len(missed) == 4
	})
	wantIntents := []string{third.Spec.ID, second.Spec.ID, second.Spec.ID, first.Spec.ID}
	for i, ev := range missed {
		if ev.TransferID != wantIntents[i] {
			t.Fatalf("event %d is of %s; want %s (newest first): %+v", i, ev.TransferID, wantIntents[i], missed)
		}
	}
	// The first intent's event failed at the stopped endpoint; the later ones never had a delivery.
	if d := missed[3].Deliveries; len(d) != 1 || d[0].Endpoint != ep.Name || d[0].State != "dropped" || d[0].Attempts < 1 {
		t.Errorf("the first event's deliveries: %+v; want one to %s, dropped after its attempts", d, ep.Name)
	}
	if created := listEvents(t, stack.URL, key, url.Values{"type": {"transfer.created"}, "transferId": {second.Spec.ID}}); len(created) != 1 ||
		created[0].Type != signing.EventTransferCreated {
		t.Errorf("the second intent's transfer.created alone: %+v", created)
	}

	// The receiver is back; a change of the spec resumes the endpoint, and the range is replayed.
	down.Store(false)
	must(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep); err != nil {
			return err
		}
		ep.Spec.URL = recv.URL + "/hooks/fixed"
		return stack.Client.Update(context.Background(), ep)
	}))
	testenv.WaitFor(t, 30*time.Second, "the endpoint to be Ready again", func() bool {
		return stack.Client.Get(context.Background(), client.ObjectKeyFromObject(ep), ep) == nil &&
			meta.IsStatusConditionTrue(ep.Status.Conditions, v1alpha1.ConditionReady) && ep.Status.ObservedGeneration == ep.Generation
	})
	before := len(recv.deliveries())
	rng := `{"createdAfter":"` + from.Format(time.RFC3339) + `","createdBefore":"` + time.Now().Add(time.Minute).UTC().Format(time.RFC3339) + `"}`
	status, body, _ := do(t, http.MethodPost, stack.URL+"/v2/webhooks/"+ep.Name+"/replay", key, rng)
	var res struct {
		Replayed int
		HasMore  bool
	}
	if status != http.StatusAccepted || json.Unmarshal(body, &res) != nil || res.Replayed != 4 || res.HasMore {
		t.Fatalf("replay: %d %s; want 202, 4 replayed", status, body)
	}
	replayed := func() []delivery { return recv.deliveries()[before:] }
	testenv.WaitFor(t, 30*time.Second, "every missed event to arrive", func() bool {
		for _, ev := range missed {
			if !slices.ContainsFunc(replayed(), func(d delivery) bool { return d.header.Get(signing.HeaderID) == ev.ID }) {
				return false
			}
		}
		return true
	})
	arrived := map[string]int{}
	for _, d := range replayed() {
		arrived[d.header.Get(signing.HeaderID)]++
		if err := signing.Verify(d.header, d.body, time.Now(), signing.DefaultTolerance, secret); err != nil {
			t.Errorf("a replayed event's signature: %v", err)
		}
	}
	for _, ev := range missed {
		if arrived[ev.ID] != 1 {
			t.Errorf("event %s (%s) arrived %d times; want once", ev.ID, ev.Type, arrived[ev.ID])
		}
	}
	// The failed attempts carried the same webhook-id as the replayed one.
	if d := recv.deliveries()[0]; d.header.Get(signing.HeaderID) != missed[3].ID {
		t.Errorf("the first attempt had webhook-id %s; the replay sent %s", d.header.Get(signing.HeaderID), missed[3].ID)
	}

	// Bad ranges are 400s; another account's endpoint is a 404.
	for _, bad := range []string{
		`{"createdAfter":"2026-02-01T00:00:00Z","createdBefore":"2026-01-01T00:00:00Z"}`,
		`{"createdAfter":"yesterday","createdBefore":"2026-01-01T00:00:00Z"}`,
		`{"createdAfter":"2026-01-01T00:00:00Z"}`,
		`{"eventIds":[]}`,
		`{"eventIds":["evt_1"],"createdAfter":"2026-01-01T00:00:00Z"}`,
		`{"from":"2026-01-01T00:00:00Z"}`,
		`[]`,
	} {
		if status, body, _ := do(t, http.MethodPost, stack.URL+"/v2/webhooks/"+ep.Name+"/replay", key, bad); status != http.StatusBadRequest {
			t.Errorf("replay %s: %d %s; want 400", bad, status, body)
		}
	}
	if status, body, _ := do(t, http.MethodGet, stack.URL+"/v2/events?createdAfter=2026-02-01T00:00:00Z&createdBefore=2026-01-01T00:00:00Z", key, ""); status != http.StatusBadRequest {
		t.Errorf("an inverted list range: %d %s; want 400", status, body)
	}
	otherKey := stack.CreateKey(t, stack.CreateAccount(t, "Other").Object.Name, "other", unlimited)
	if status, body, _ := do(t, http.MethodPost, stack.URL+"/v2/webhooks/"+ep.Name+"/replay", otherKey, rng); status != http.StatusNotFound {
		t.Errorf("another account's replay: %d %s; want 404", status, body)
	}
	if got := listEvents(t, stack.URL, otherKey, nil); len(got) != 0 {
		t.Errorf("another account lists %d events; want none", len(got))
	}
	// Replays have their own per-account rate: 10 a minute (three were accepted or refused above
	// after the body check; only accepted bodies count).
	limited := 0
	for range 12 {
		if status, _, _ := do(t, http.MethodPost, stack.URL+"/v2/webhooks/"+ep.Name+"/replay", key, `{"eventIds":["`+missed[0].ID+`"]}`); status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited < 2 {
		t.Errorf("%d of 12 quick replays were refused 429; want the ones past 10 a minute", limited)
	}
}

func do(t testing.TB, method, url, key, body string) (int, []byte, http.Header) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = bytes.NewBufferString(body)
	}
	req, err := http.NewRequest(method, url, r)
	must(t, err)
	req.Header.Set("api-key", key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp.StatusCode, out, resp.Header
}

func postJSON(t testing.TB, url, key, body string) (int, []byte) {
	t.Helper()
	status, out, _ := do(t, http.MethodPost, url, key, body)
	return status, out
}

// The event log's answer when PostgreSQL is slow (paused) or gone (killed): a 503 with Retry-After
// within the database's deadline, for the list and the replay alike, never a hang or a 500.
func TestTheEventLogWithoutPostgreSQL(t *testing.T) {
	pg := pgtest.Start(t)
	stack := startStackOn(t, pg, nil)
	account := stack.CreateAccount(t, "NoDatabase").Object.Name
	key := stack.CreateKey(t, account, "nodb", unlimited)
	recv := newReceiver(t, nil)
	ep, _ := newEndpoint(t, stack, account, recv.URL+"/hooks")
	// The database opens in the background (a replica serves before it): wait until it answers.
	testenv.WaitFor(t, 30*time.Second, "GET /v2/events to answer 200 with PostgreSQL up", func() bool {
		status, _, _ := do(t, http.MethodGet, stack.URL+"/v2/events", key, "")
		return status == http.StatusOK
	})
	check := func(state string) {
		t.Helper()
		for _, req := range []struct{ method, path, body string }{
			{http.MethodGet, "/v2/events", ""},
			{http.MethodPost, "/v2/webhooks/" + ep.Name + "/replay", `{"eventIds":["evt_01HZZZZZZZZZZZZZZZZZZZZZZ1"]}`},
		} {
			start := time.Now()
			status, body, header := do(t, req.method, stack.URL+req.path, key, req.body)
			took := time.Since(start)
			if status != http.StatusServiceUnavailable || header.Get("Retry-After") == "" || took > stack.Options.Archive.Timeout+2*time.Second {
				t.Errorf("%s %s with PostgreSQL %s: %d after %s (Retry-After %q) %s; want 503 with Retry-After within the deadline",
					req.method, req.path, state, status, took.Round(time.Millisecond), header.Get("Retry-After"), body)
			}
		}
	}
	pg.Pause()
	check("paused")
	pg.Resume()
	pg.Kill()
	check("gone")
}
