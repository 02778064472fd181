package apiserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/ssetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// streamWait bounds every wait for something a stream should carry.
const streamWait = 10 * time.Second

// streamHarness is the API over a real API server (envtest) in a namespace of its own, with a real
// informer on it feeding the intent store's index and the event streams, as in the operator. The
// status of intents is written as the watcher writes it (intentstatus.Writer).
type streamHarness struct {
	*transferHarness
	namespace string
	writer    *intentstatus.Writer
}

func newStreamHarness(t *testing.T, cluster *testenv.Cluster, configure ...func(*transferConfig)) *streamHarness {
	t.Helper()
	ns := cluster.CreateNamespace(t)
	kube, err := client.NewWithWatch(cluster.Config, client.Options{Scheme: cluster.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	informers, err := cache.New(cluster.Config, cache.Options{Scheme: cluster.Scheme, DefaultNamespaces: map[string]cache.Config{ns: {}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := transferConfig{feed: NewIntentFeed(informers, ns)}
	for _, c := range configure {
		c(&cfg)
	}
	storeOpts := cfg.store
	cfg.store = func(o *intentstore.Options) {
		if storeOpts != nil {
			storeOpts(o)
		}
		o.Namespace = ns
	}
	h := &streamHarness{transferHarness: transferHarnessOver(t, kube, cfg), namespace: ns,
		writer: &intentstatus.Writer{Client: kube, APIReader: kube}}

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	inf, err := informers.GetInformer(ctx, &v1alpha1.TransferIntent{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddEventHandler(h.store.EventHandler()); err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddEventHandler(cfg.feed.EventHandler()); err != nil {
		t.Fatal(err)
	}
	go func() { _ = informers.Start(ctx) }()
	if !informers.WaitForCacheSync(ctx) {
		t.Fatal("the informer did not sync")
	}
	return h
}

// create creates one of alice's intents through the API and returns its id.
func (h *streamHarness) create(t *testing.T) string {
	t.Helper()
	resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().String())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating an intent: %d %s", resp.StatusCode, body)
	}
	return decodeJSON[struct{ ID string }](t, body).ID
}

// streamTxHash is the transaction the tests' intents are submitted with.
var streamTxHash = common.HexToHash("0x" + strings.Repeat("5e", 32))

// observe records a lifecycle event of the intent's transaction, as the chain watcher does.
func (h *streamHarness) observe(t *testing.T, id string, ev intent.Event) {
	t.Helper()
	name, err := intent.ObjectNameFromID(id)
	if err != nil {
		t.Fatal(err)
	}
	obs := intentstatus.Observation{Event: ev, Hash: streamTxHash, Reason: v1alpha1.ReasonIncluded, Message: "in a block"}
	if ev == intent.EventConfirm {
		obs.Block, obs.BlockHash, obs.Reason, obs.Message = 7, common.HexToHash("0x"+strings.Repeat("b1", 32)), v1alpha1.ReasonConfirmed, "final"
	}
	if _, changed, err := h.writer.Apply(context.Background(), client.ObjectKey{Namespace: h.namespace, Name: name}, obs); err != nil || !changed {
		t.Fatalf("%s of %s: changed %v, %v", ev, id, changed, err)
	}
}

// record is GET /v2/transfers/{id}, once it shows status.
func (h *streamHarness) record(t *testing.T, id string, status v1alpha1.IntentPhase) string {
	t.Helper()
	var body []byte
	testenv.WaitFor(t, streamWait, "GET "+id+" to show "+string(status), func() bool {
		var resp *http.Response
		resp, body = h.do(t, http.MethodGet, transfersPath+"/"+id, withKey(testKeyA), "")
		return resp.StatusCode == http.StatusOK && decodeJSON[struct{ Status v1alpha1.IntentPhase }](t, body).Status == status
	})
	return string(body)
}

// sseStream is a stream as the tests read it: ssetest's reader, failing the test on a wait that
// times out.
type sseStream struct {
	*ssetest.Stream
	resp *http.Response
}

// sseItem is one thing a stream carried.
type sseItem = ssetest.Item

// openStream opens GET /v2/transfers/{id}/events with key and extra header pairs. A 200 is
// read as a stream; any other answer is returned whole, checked against the OpenAPI document.
func (h *transferHarness) openStream(t *testing.T, id, key string, header ...string) (*sseStream, *http.Response, []byte) {
	t.Helper()
	return openStreamAt(t, h.http.URL, h.http.Client(), id, key, header...)
}

// openStreamAt is openStream on the server at baseURL.
func openStreamAt(t *testing.T, baseURL string, c *http.Client, id, key string, header ...string) (*sseStream, *http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, baseURL+transfersPath+"/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Api-Key", key)
	for i := 0; i < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		validateAgainstOpenAPI(t, req, resp, body)
		return nil, resp, body
	}
	validateAgainstOpenAPI(t, req, resp, []byte{}) // the status and headers; the body streams on
	s := &sseStream{Stream: ssetest.Read(resp), resp: resp}
	t.Cleanup(s.Close)
	return s, resp, nil
}

func (s *sseStream) next(t *testing.T) sseItem {
	t.Helper()
	it, err := s.Next(streamWait)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func (s *sseStream) nextEvent(t *testing.T) sseItem {
	t.Helper()
	it, err := s.NextEvent(streamWait)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func (s *sseStream) ends(t *testing.T) {
	t.Helper()
	if err := s.Ends(streamWait); err != nil {
		t.Fatal(err)
	}
}

func (s *sseStream) close() { s.Close() }

// status is the status of the record an event carries.
func status(t *testing.T, it sseItem) v1alpha1.IntentPhase {
	t.Helper()
	return decodeJSON[struct{ Status v1alpha1.IntentPhase }](t, []byte(it.Data)).Status
}

func TestEventStream(t *testing.T) {
	cluster := testenv.Start(t)

	t.Run("CurrentStateAtOnce", func(t *testing.T) {
		h := newStreamHarness(t, cluster)
		id := h.create(t)
		want := h.record(t, id, v1alpha1.IntentPhasePending)
		s, resp, _ := h.openStream(t, id, testKeyA)
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("Content-Type %q", ct)
		}
		if first := s.next(t); first.Retry != "3000" {
			t.Fatalf("first item %+v, want retry: 3000", first)
		}
		ev := s.nextEvent(t)
		if ev.Event != "transfer" || ev.Data != want {
			t.Fatalf("first event %+v, want the record of GET:\n%s", ev, want)
		}
		if _, ok := parseEventID(ev.ID); !ok {
			t.Fatalf("id %q is not an event id", ev.ID)
		}
	})

	t.Run("HeadAnswersTheHeadersOnly", func(t *testing.T) {
		h := newStreamHarness(t, cluster)
		id := h.create(t)
		resp, body := h.do(t, http.MethodHead, transfersPath+"/"+id+"/events", withKey(testKeyA), "")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" || len(body) != 0 {
			t.Fatalf("HEAD: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	})

	t.Run("ChangesArriveAndAFinishedIntentEndsTheStream", func(t *testing.T) {
		h := newStreamHarness(t, cluster)
		id := h.create(t)
		s, _, _ := h.openStream(t, id, testKeyA)
		if got := status(t, s.nextEvent(t)); got != v1alpha1.IntentPhasePending {
			t.Fatalf("first event %s, want pending", got)
		}
		h.observe(t, id, intent.EventSubmit)
		submitted := s.nextEvent(t)
		if got := status(t, submitted); got != v1alpha1.IntentPhaseSubmitted {
			t.Fatalf("after the submit: %s", got)
		}
		if submitted.Data != h.record(t, id, v1alpha1.IntentPhaseSubmitted) {
			t.Fatalf("the submitted event is not the record of GET: %s", submitted.Data)
		}
		h.observe(t, id, intent.EventConfirm)
		if got := status(t, s.nextEvent(t)); got != v1alpha1.IntentPhaseConfirmed {
			t.Fatalf("after the confirm: %s", got)
		}
		s.ends(t)
	})

	t.Run("LastEventIDResumesWithoutAGap", func(t *testing.T) {
		h := newStreamHarness(t, cluster, func(c *transferConfig) {
			c.opts = func(o *Options) { o.Streams.Heartbeat = 50 * time.Millisecond }
		})
		id := h.create(t)
		s, _, _ := h.openStream(t, id, testKeyA)
		pending := s.nextEvent(t)
		s.close()

		// A change while the client is away is sent at once on its reconnect.
		h.observe(t, id, intent.EventSubmit)
		h.record(t, id, v1alpha1.IntentPhaseSubmitted) // this replica's informer has it
		s, _, _ = h.openStream(t, id, testKeyA, lastEventIDHeader, pending.ID)
		submitted := s.nextEvent(t)
		if status(t, submitted) != v1alpha1.IntentPhaseSubmitted || submitted.ID == pending.ID {
			t.Fatalf("resumed after pending with %+v, want submitted", submitted)
		}
		s.close()

		// A client that has the current state is sent nothing until the next change.
		s, _, _ = h.openStream(t, id, testKeyA, lastEventIDHeader, submitted.ID)
		for range 3 {
			if it := s.next(t); it.Event != "" {
				t.Fatalf("resumed at the current state, and got it again: %+v", it)
			}
		}
		h.observe(t, id, intent.EventConfirm)
		confirmed := s.nextEvent(t)
		if status(t, confirmed) != v1alpha1.IntentPhaseConfirmed {
			t.Fatalf("after the confirm: %+v", confirmed)
		}
		s.ends(t)

		// A client that has the final state is told to stop: 204.
		if _, resp, body := h.openStream(t, id, testKeyA, lastEventIDHeader, confirmed.ID); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("reconnect at the final state: %d %s, want 204", resp.StatusCode, body)
		}

		// An id the service never sent is a 400.
		_, resp, body := h.openStream(t, id, testKeyA, lastEventIDHeader, "not-an-id")
		assertProblem(t, resp, body, problem.BadRequest, transfersPath+"/"+id+"/events")
	})

	t.Run("HeartbeatsKeepAnIdleStreamAlive", func(t *testing.T) {
		h := newStreamHarness(t, cluster, func(c *transferConfig) {
			c.opts = func(o *Options) { o.Streams.Heartbeat = 50 * time.Millisecond }
		})
		id := h.create(t)
		s, _, _ := h.openStream(t, id, testKeyA)
		s.nextEvent(t)
		for range 3 {
			if it := s.next(t); it.Comment != "heartbeat" {
				t.Fatalf("an idle stream carried %+v, want a heartbeat", it)
			}
		}
	})

	t.Run("PerKeyLimitIs429", func(t *testing.T) {
		h := newStreamHarness(t, cluster, func(c *transferConfig) {
			c.opts = func(o *Options) { o.Streams.MaxPerKey, o.Streams.MaxPerServer = 2, 100 }
		})
		id := h.create(t)
		first, _, _ := h.openStream(t, id, testKeyA)
		h.openStream(t, id, testKeyA)
		_, resp, body := h.openStream(t, id, testKeyA)
		p := assertProblem(t, resp, body, problem.TooManyStreams, transfersPath+"/"+id+"/events")
		if p.Details["scope"] != "key" || p.Details["limit"] != float64(2) || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("details %v, Retry-After %q: want scope key, limit 2 and a Retry-After", p.Details, resp.Header.Get("Retry-After"))
		}
		if _, resp, body := h.openStream(t, "int_transfer_01ARZ3NDEKTSV4RRFFQ69G5FAV", testKeyB); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("another key, at the limit of the first: %d %s, want its own answer (404)", resp.StatusCode, body)
		}
		first.close()
		testenv.WaitFor(t, streamWait, "a slot to free up once a stream closes", func() bool {
			s, _, _ := h.openStream(t, id, testKeyA)
			return s != nil
		})
	})

	t.Run("PerAccountLimitHoldsWhateverTheNumberOfKeys", func(t *testing.T) {
		h := newStreamHarness(t, cluster, func(c *transferConfig) {
			c.opts = func(o *Options) {
				o.Streams.MaxPerKey, o.Streams.MaxPerAccount, o.Streams.MaxPerServer, o.Streams.AccountShare = 2, 3, 100, 1
			}
		})
		// alice makes more keys, each under the per-key bound; together they reach her account's.
		extra := []string{testKey("test", "C"), testKey("test", "D")}
		h.keys.mu.Lock()
		for i, k := range extra {
			h.keys.keys[hashOf(k)] = registry.Key{ID: "key-a" + strconv.Itoa(i+2), Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1000}
		}
		h.keys.mu.Unlock()
		id := h.create(t)
		h.openStream(t, id, testKeyA)
		h.openStream(t, id, testKeyA)
		h.openStream(t, id, extra[0])
		_, resp, body := h.openStream(t, id, extra[1])
		p := assertProblem(t, resp, body, problem.TooManyStreams, transfersPath+"/"+id+"/events")
		if p.Details["scope"] != "account" || p.Details["limit"] != float64(3) {
			t.Fatalf("details %v, want scope account and limit 3", p.Details)
		}
		// bob, another account, still streams.
		h.keys.mu.Lock()
		bob := h.keys.keys[hashOf(testKeyB)]
		h.keys.mu.Unlock()
		if _, resp, body := h.openStream(t, "int_transfer_01ARZ3NDEKTSV4RRFFQ69G5FAV", testKeyB); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("bob (%s), with alice at her account's bound: %d %s, want his own answer (404)", bob.ID, resp.StatusCode, body)
		}
	})

	t.Run("AStreamEndsWithItsKey", func(t *testing.T) { testStreamEndsWithItsKey(t, cluster) })

	t.Run("PerServerLimitIs429", func(t *testing.T) {
		h := newStreamHarness(t, cluster, func(c *transferConfig) {
			c.opts = func(o *Options) { o.Streams.MaxPerKey, o.Streams.MaxPerServer, o.Streams.AccountShare = 5, 2, 1 }
		})
		id := h.create(t)
		h.openStream(t, id, testKeyA)
		h.openStream(t, id, testKeyA)
		_, resp, body := h.openStream(t, "int_transfer_01ARZ3NDEKTSV4RRFFQ69G5FAV", testKeyB)
		p := assertProblem(t, resp, body, problem.TooManyStreams, transfersPath+"/int_transfer_01ARZ3NDEKTSV4RRFFQ69G5FAV/events")
		if p.Details["scope"] != "server" || p.Details["limit"] != float64(2) {
			t.Fatalf("details %v, want scope server and limit 2", p.Details)
		}
	})

	t.Run("AnotherTenantsIntentIs404", func(t *testing.T) {
		h := newStreamHarness(t, cluster)
		id := h.create(t)
		path := transfersPath + "/" + id + "/events"
		_, resp, body := h.openStream(t, id, testKeyB)
		assertProblem(t, resp, body, problem.NotFound, path)
		_, resp, body = h.openStream(t, id, testLiveKey) // alice's account, other environment: carol's key
		assertProblem(t, resp, body, problem.NotFound, path)
		_, resp, body = h.openStream(t, "int_transfer_nope", testKeyA)
		assertProblem(t, resp, body, problem.BadRequest, transfersPath+"/int_transfer_nope/events")
		resp, body = h.do(t, http.MethodGet, path, nil, "")
		assertProblem(t, resp, body, problem.MissingAPIKey, path)
	})

	t.Run("AFinishedIntentSendsItsFinalStateAndEnds", func(t *testing.T) {
		h := newStreamHarness(t, cluster)
		id := h.create(t)
		h.observe(t, id, intent.EventSubmit)
		h.observe(t, id, intent.EventConfirm)
		want := h.record(t, id, v1alpha1.IntentPhaseConfirmed)
		s, _, _ := h.openStream(t, id, testKeyA)
		if ev := s.nextEvent(t); ev.Data != want {
			t.Fatalf("final event %s, want %s", ev.Data, want)
		}
		s.ends(t)
	})

	t.Run("AnArchivedIntentSendsItsFinalStateAndEnds", func(t *testing.T) {
		pg := pgtest.Start(t)
		db, err := postgres.Open(context.Background(), pg.NewDatabase(t), postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		archived := archive.New(db)
		h := newStreamHarness(t, cluster, func(c *transferConfig) {
			c.store = func(o *intentstore.Options) { o.Archive = archived }
		})
		id := h.create(t)
		h.observe(t, id, intent.EventSubmit)
		h.observe(t, id, intent.EventConfirm)
		want := h.record(t, id, v1alpha1.IntentPhaseConfirmed)

		// What the archiver does: the record into PostgreSQL, then the resource out of the API server.
		name, _ := intent.ObjectNameFromID(id)
		var live v1alpha1.TransferIntent
		if err := h.kube.Get(context.Background(), client.ObjectKey{Namespace: h.namespace, Name: name}, &live); err != nil {
			t.Fatal(err)
		}
		rec, err := intentstore.RecordOf(&live)
		if err != nil {
			t.Fatal(err)
		}
		if err := archived.Upsert(context.Background(), []archive.Record{rec}); err != nil {
			t.Fatal(err)
		}
		if err := h.kube.Delete(context.Background(), &live); err != nil {
			t.Fatal(err)
		}
		testenv.WaitFor(t, streamWait, "the index to lose the deleted intent", func() bool {
			list, err := h.store.ListFromCache(context.Background(), "alice")
			return err == nil && len(list) == 0
		})

		s, _, _ := h.openStream(t, id, testKeyA)
		final := s.nextEvent(t)
		if final.Data != want {
			t.Fatalf("archived final event %s, want the live record %s", final.Data, want)
		}
		s.ends(t)
		if _, resp, body := h.openStream(t, id, testKeyA, lastEventIDHeader, final.ID); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("reconnect at the archived final state: %d %s, want 204", resp.StatusCode, body)
		}
	})

	t.Run("OutlivesTheServersTimeoutsAndEndsAtShutdown", func(t *testing.T) { testOnTheOperatorsServer(t, cluster) })
}

// The HTTP server as the operator runs it (Runnable), on loopback: a stream outlives the server's
// read and write timeouts, and shutting the server down ends it at once rather than after the
// shutdown timeout.
func testOnTheOperatorsServer(t *testing.T, cluster *testenv.Cluster) {
	h := newStreamHarness(t, cluster, func(c *transferConfig) {
		c.opts = func(o *Options) { o.Streams.Heartbeat = 100 * time.Millisecond }
	})
	id := h.create(t)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := h.srv.Runnable(listener).Server
	srv.ReadTimeout, srv.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	served := make(chan error, 1)
	go func() { served <- srv.Serve(listener) }()
	s, _, _ := openStreamAt(t, "http://"+listener.Addr().String(), &http.Client{}, id, testKeyA)
	s.nextEvent(t)
	start := time.Now()
	for time.Since(start) < 4*srv.WriteTimeout {
		if it := s.next(t); it.Comment != "heartbeat" {
			t.Fatalf("got %+v, want heartbeats", it)
		}
	}
	h.observe(t, id, intent.EventSubmit)
	if got := status(t, s.nextEvent(t)); got != v1alpha1.IntentPhaseSubmitted {
		t.Fatalf("after the timeouts: %s", got)
	}

	ctx, cancel := context.WithTimeout(context.Background(), h.srv.opts.ShutdownTimeout)
	defer cancel()
	began := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a stream open: %v", err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Fatalf("shutdown took %s with a stream open", took)
	}
	s.ends(t)
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("serve: %v", err)
	}
}

// A client that reads too slowly loses its stream; the informer's handler never waits for it.
func TestFeedEndsASubscriptionWhoseBufferOverflows(t *testing.T) {
	feed := NewIntentFeed(nil, "")
	slow := feed.subscribe("int-transfer-a", 1)
	other := feed.subscribe("int-transfer-b", 1)
	ti := &v1alpha1.TransferIntent{}
	ti.Name = "int-transfer-a"
	handler := feed.EventHandler()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 {
			handler.OnUpdate(nil, ti)
		}
	}()
	select {
	case <-done:
	case <-time.After(streamWait):
		t.Fatal("the handler waited for a slow stream")
	}
	select {
	case <-slow.ended:
		if slow.reason != endOverflow {
			t.Fatalf("ended for %d, want overflow", slow.reason)
		}
	default:
		t.Fatal("the slow stream was not ended")
	}
	select {
	case <-other.ended:
		t.Fatal("another intent's stream was ended")
	default:
	}
	feed.unsubscribe("int-transfer-a", slow)
	feed.unsubscribe("int-transfer-b", other)
	if len(feed.streams) != 0 {
		t.Fatalf("streams left: %v", feed.streams)
	}
}

func TestEventIDs(t *testing.T) {
	obj := &v1alpha1.TransferIntent{ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-a", UID: "6f1c2f3e-1b2a-4c5d-9e8f-0a1b2c3d4e5f", ResourceVersion: "42"}}
	id := eventIDOf(obj, []byte(`{"status":"pending"}`))
	got, ok := parseEventID(id.String())
	if !ok || got.digest != id.digest || got.sealed != id.sealed || got.openedFor(obj) != id {
		t.Fatalf("round trip of %s: %+v %v", id, got, ok)
	}
	for _, bad := range []string{"", "42", "42-", "-0123456789abcdef", "x-0123456789abcdef", "42-0123456789ABCDEF", "42-0123456789abcdeg", "42-0123456789abcdef0",
		strings.Repeat("A", sealedLength) + "-0123456789abcdef", strings.Repeat("a", sealedLength-1) + "-0123456789abcdef"} {
		if _, ok := parseEventID(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	older, newer := eventID{version: 10, digest: "aaaaaaaaaaaaaaaa"}, eventID{version: 11, digest: "bbbbbbbbbbbbbbbb"}
	archived := eventID{digest: "cccccccccccccccc"}
	for _, c := range []struct {
		name     string
		id, last eventID
		wantNews bool
	}{
		{"no last", older, eventID{}, true},
		{"the same state", older, older, false},
		{"the same state under another version (a label change)", eventID{version: 12, digest: older.digest}, older, false},
		{"a newer state", newer, older, true},
		{"an older state (a lagging replica)", older, newer, false},
		{"an archived state", archived, newer, true},
		{"the archived final state the client has live", eventID{digest: newer.digest}, newer, false},
	} {
		if got := c.id.news(c.last); got != c.wantNews {
			t.Errorf("%s: news %v, want %v", c.name, got, c.wantNews)
		}
	}
}

// An event id carries no resourceVersion, the cluster's write counter (issue 47, item 8): its
// version is sealed with a key of its intent, so two intents' ids of one version differ, one
// intent's ids of consecutive versions share nothing, and only the intent's own key opens it.
func TestEventIDsCarryNoResourceVersion(t *testing.T) {
	record := []byte(`{"status":"pending"}`)
	a := &v1alpha1.TransferIntent{ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-a", UID: "uid-a", ResourceVersion: "1234567"}}
	b := &v1alpha1.TransferIntent{ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-b", UID: "uid-b", ResourceVersion: "1234567"}}
	next := a.DeepCopy()
	next.ResourceVersion = "1234568"
	idA, idB, idNext := eventIDOf(a, record).String(), eventIDOf(b, record).String(), eventIDOf(next, record).String()
	for _, id := range []string{idA, idB, idNext} {
		if strings.Contains(id, "123456") {
			t.Fatalf("id %s shows the resourceVersion", id)
		}
	}
	if idA == idB {
		t.Fatalf("two intents' ids of one version are equal: %s", idA)
	}
	if idA[:8] == idNext[:8] {
		t.Errorf("consecutive versions share a prefix: %s %s", idA, idNext)
	}
	parsed, _ := parseEventID(idA)
	if v := parsed.openedFor(a).version; v != 1234567 {
		t.Fatalf("opened with its intent: version %d", v)
	}
	if v := parsed.openedFor(b).version; v != 0 {
		t.Fatalf("another intent's key opened it: version %d", v)
	}
	// The client holding the newer state is not sent the older one (a lagging replica), by its id alone.
	newer, _ := parseEventID(eventIDOf(next, []byte(`{"status":"submitted"}`)).String())
	if eventIDOf(a, record).news(newer.openedFor(a)) {
		t.Fatal("an older state is news to a client that has a newer one")
	}
}

// The per-account bound is an explicit share of the replica's: never more than MaxPerServer/N.
func TestStreamPerAccountBound(t *testing.T) {
	for _, c := range []struct {
		o    StreamOptions
		want int
	}{
		{StreamOptions{}, DefaultStreamsPerAccount},
		{StreamOptions{MaxPerAccount: 500}, DefaultStreamsPerServer / DefaultStreamAccountShare},
		{StreamOptions{MaxPerAccount: 500, MaxPerServer: 100, AccountShare: 4}, 25},
		{StreamOptions{MaxPerAccount: 3, MaxPerServer: 100, AccountShare: 4}, 3},
		{StreamOptions{MaxPerServer: 10}, 1},
	} {
		if got := c.o.PerAccountBound(); got != c.want {
			t.Errorf("%+v: per-account bound %d, want %d", c.o, got, c.want)
		}
	}
}

// A stream does not outlive its key: disabling, deleting or expiring the key, or disabling or
// deleting its account, ends the stream within moments with a last event `closed` that says why.
// The key index is the real one (internal/registry), as the controllers and /keys write it.
func testStreamEndsWithItsKey(t *testing.T, cluster *testenv.Cluster) {
	keys := registry.NewKeyIndex()
	aliceKey := registry.Key{ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1000, UID: "uid-a", Generation: 1}
	h := newStreamHarness(t, cluster, func(c *transferConfig) {
		c.keys = keys
		// The timer is there for expiry; a change of the index must end a stream without it.
		c.opts = func(o *Options) { o.Streams.KeyRecheck = time.Hour }
	})
	reset := func(k registry.Key) {
		keys.SetAccount("alice", false)
		keys.Upsert(hashOf(testKeyA), k)
	}
	reset(aliceKey)
	id := h.create(t)
	closedWith := func(t *testing.T, change func(), want registry.Refusal) {
		t.Helper()
		s, _, _ := h.openStream(t, id, testKeyA)
		if got := status(t, s.nextEvent(t)); got != v1alpha1.IntentPhasePending {
			t.Fatalf("first event %s", got)
		}
		change()
		ev := s.nextEvent(t)
		if ev.Event != "closed" || ev.Data != `{"reason":"`+string(want)+`"}` || ev.ID != "" {
			t.Fatalf("after the change: %+v, want event closed with reason %s", ev, want)
		}
		s.ends(t)
	}
	t.Run("Disabled", func(t *testing.T) {
		closedWith(t, func() { k := aliceKey; k.Disabled, k.Generation = true, 2; keys.Upsert(hashOf(testKeyA), k) }, registry.RefusalKeyDisabled)
	})
	aliceKey.UID = "uid-a2"
	reset(aliceKey)
	t.Run("AccountDisabled", func(t *testing.T) {
		closedWith(t, func() { keys.SetAccount("alice", true) }, registry.RefusalAccountDisabled)
	})
	reset(aliceKey)
	t.Run("Deleted", func(t *testing.T) {
		closedWith(t, func() { keys.Delete("key-a") }, registry.RefusalKeyDeleted)
	})
	aliceKey.UID = "uid-a3"
	reset(aliceKey)
	t.Run("AccountDeleted", func(t *testing.T) {
		closedWith(t, func() { keys.DeleteAccount("alice") }, registry.RefusalAccountDeleted)
	})

	// Expiry changes nothing in the index: the stream's timer sees it.
	h2 := newStreamHarness(t, cluster, func(c *transferConfig) {
		c.keys = keys
		c.opts = func(o *Options) { o.Streams.KeyRecheck = 50 * time.Millisecond }
	})
	aliceKey.UID, aliceKey.ExpiresAt = "uid-a4", h2.clock.Now().Add(time.Hour)
	reset(aliceKey)
	id2 := h2.create(t)
	s, _, _ := h2.openStream(t, id2, testKeyA)
	s.nextEvent(t)
	h2.clock.Step(time.Hour)
	if ev := s.nextEvent(t); ev.Event != "closed" || ev.Data != `{"reason":"key_expired"}` {
		t.Fatalf("after expiry: %+v, want event closed with reason key_expired", ev)
	}
	s.ends(t)
}
