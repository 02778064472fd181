package apiserver

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/utils/clock"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/defaults"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// GET /v2/transfers/{id}/events: the intent's record as Server-Sent Events, the current state at
// once and then each change, until the intent finishes (docs/decisions.md, "A live status
// stream").

// Defaults of StreamOptions.
const (
	DefaultStreamHeartbeat  = 15 * time.Second
	DefaultStreamsPerKey    = 10
	DefaultStreamsPerServer = 1000
	// DefaultStreamsPerAccount bounds an account, whatever number of keys it holds: keys multiply
	// the per-key bound, never this one.
	DefaultStreamsPerAccount = 20
	// DefaultStreamAccountShare is N of the per-account share of the replica's bound: one account
	// holds at most MaxPerServer/N streams, so that a replica at its bound serves at least N
	// accounts (1000/50 = 20, the default per-account bound).
	DefaultStreamAccountShare = 50
	DefaultStreamBuffer       = 16
	// DefaultStreamKeyRecheck is how often an open stream asks the key index whether its key
	// still authenticates, besides every change of the index: expiry is a change of the clock,
	// not of the index.
	DefaultStreamKeyRecheck = time.Second
)

const (
	// streamRetry is the reconnection delay the stream asks EventSource clients for (retry:).
	streamRetry = 3 * time.Second
	// streamWriteWait bounds one write to a stream's client: a client that reads nothing for this
	// long loses its stream rather than holding a goroutine and a connection.
	streamWriteWait = 10 * time.Second
	// streamRetryAfter is the Retry-After of a refused stream, in seconds.
	streamRetryAfter = "5"
	// lastEventIDHeader names the state a reconnecting client already has.
	lastEventIDHeader = "Last-Event-ID"
)

// StreamOptions bound the event streams (flags --events-*).
type StreamOptions struct {
	// MaxPerKey is how many streams one API key may hold open on one replica.
	MaxPerKey int
	// MaxPerAccount is how many streams the keys of one account may hold open on one replica
	// together. The bound in force is the smaller of it and MaxPerServer/AccountShare (at least 1).
	MaxPerAccount int
	// MaxPerServer is how many streams one replica holds open in all.
	MaxPerServer int
	// AccountShare is N of the per-account share: no account holds more than MaxPerServer/N
	// streams, whatever MaxPerAccount says.
	AccountShare int
	// Heartbeat is how often an idle stream carries a comment line, so that proxies and clients
	// see it alive.
	Heartbeat time.Duration
	// Buffer is how many changes may wait for a slow client before its stream is ended.
	Buffer int
	// KeyRecheck is how often a stream rechecks its key on the clock (expiry); a change of the
	// key index (a key disabled or deleted, an account disabled) is rechecked at once.
	KeyRecheck time.Duration
}

// withDefaults fills in the options left zero.
func (o StreamOptions) withDefaults() StreamOptions {
	defaults.Positive(&o.MaxPerKey, DefaultStreamsPerKey)
	defaults.Positive(&o.MaxPerAccount, DefaultStreamsPerAccount)
	defaults.Positive(&o.MaxPerServer, DefaultStreamsPerServer)
	defaults.Positive(&o.AccountShare, DefaultStreamAccountShare)
	defaults.Positive(&o.Heartbeat, DefaultStreamHeartbeat)
	defaults.Positive(&o.Buffer, DefaultStreamBuffer)
	defaults.Positive(&o.KeyRecheck, DefaultStreamKeyRecheck)
	return o
}

// PerAccountBound is the per-account bound in force: MaxPerAccount, at most the account's share
// of the replica's bound (MaxPerServer/AccountShare), at least 1.
func (o StreamOptions) PerAccountBound() int {
	o = o.withDefaults()
	return max(1, min(o.MaxPerAccount, o.MaxPerServer/o.AccountShare))
}

// eventRoutes are the event stream's routes; without Deps.Feed or Deps.Intents they answer 503.
func (s *Server) eventRoutes() map[string]http.Handler {
	routes := map[string]http.Handler{"GET /v2/transfers/{id}/events": http.HandlerFunc(s.streamTransfer)}
	if s.deps.Feed == nil || s.deps.Intents == nil {
		unavailable := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.problems.Write(w, r, problem.ServiceUnavailable, "Event streams are not configured on this server.", nil)
		})
		for pattern := range routes {
			routes[pattern] = unavailable
		}
	}
	return routes
}

// streamTransfer is GET /v2/transfers/{id}/events. It answers like GET /v2/transfers/{id} (400,
// 404, 503) until the stream starts; then 200 and events. A client that already has the final
// state (its Last-Event-ID) gets 204, which tells EventSource to stop reconnecting.
func (s *Server) streamTransfer(w http.ResponseWriter, r *http.Request) {
	name, ok := s.intentName(w, r)
	if !ok {
		return
	}
	last, ok := s.lastEventID(w, r)
	if !ok {
		return
	}
	key, _ := KeyFrom(r)
	if !s.admitStream(w, r, key) {
		return
	}
	defer s.streams.release(key)
	sub := s.deps.Feed.subscribe(name, s.opts.Streams.Buffer)
	defer s.deps.Feed.unsubscribe(name, sub)
	ev, obj, finished, ok := s.currentState(w, r, name)
	if !ok {
		return
	}
	last = last.openedFor(obj)
	if finished && !ev.id.news(last) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	out := s.startStream(w, r)
	if out == nil {
		return
	}
	sent := last
	if ev.id.news(last) {
		if !out.send(ev) {
			return
		}
		sent = ev.id
	}
	if !finished {
		grant := streamGrant{keys: s.deps.Keys, clock: s.deps.Clock, hash: registry.HashKey(r.Header.Get(APIKeyHeader)), keyID: key.ID}
		s.follow(r, out, sub, sent, grant)
	}
}

// streamGrant is what a stream was admitted on: a key, checked at connect by the auth gate and
// rechecked for as long as the stream lasts, so that no stream outlives its key or account.
type streamGrant struct {
	keys  KeyIndex
	clock clock.PassiveClock
	hash  string
	keyID string
}

// refused says why the key no longer authenticates, "" while it does.
func (g streamGrant) refused() registry.Refusal {
	return g.keys.Recheck(g.hash, g.keyID, g.clock.Now())
}

// currentState is the state a stream starts from, and whether the intent finished: the caller's
// intent as GET /v2/transfers/{id} finds it (its scoping, its 404, live or archived), or the
// informer's copy of it when that is newer (IntentFeed.latest). It answers a failure itself.
func (s *Server) currentState(w http.ResponseWriter, r *http.Request, name string) (streamEvent, *v1alpha1.TransferIntent, bool, bool) {
	obj, ok := s.findIntent(w, r)
	if !ok {
		return streamEvent{}, nil, false, false
	}
	if cached := s.deps.Feed.latest(r.Context(), name); cached != nil && objectVersion(cached) > objectVersion(obj) {
		obj = cached
	}
	ev, err := s.streamEventOf(obj)
	if err != nil {
		s.writeTransferError(w, r, err)
		return streamEvent{}, nil, false, false
	}
	return ev, obj, intent.Finished(obj.Phase()), true
}

// follow sends the intent's changes after sent (the state the client has) until it finishes,
// the client leaves, the feed ends the subscription or the server shuts down. A stream that has
// carried nothing for a heartbeat interval carries a heartbeat.
//
// The key is rechecked on every change of the key index and every KeyRecheck interval: once it is
// refused (disabled, expired, deleted, its account disabled or deleted), the stream carries a last
// event `closed` whose data says why, and ends.
func (s *Server) follow(r *http.Request, out *eventWriter, sub *subscription, sent eventID, grant streamGrant) {
	heartbeat := time.NewTicker(s.opts.Streams.Heartbeat)
	defer heartbeat.Stop()
	recheck := time.NewTicker(s.opts.Streams.KeyRecheck)
	defer recheck.Stop()
	keysChanged := grant.keys.Changed()
	for {
		if why := grant.refused(); why != "" {
			out.closed(why)
			return
		}
		select {
		case <-keysChanged:
			keysChanged = grant.keys.Changed()
			continue
		case <-recheck.C:
			continue
		case obj := <-sub.changes:
			ev, err := s.streamEventOf(obj)
			if err != nil {
				s.log.Error(err, "encoding a stream event", "correlationId", problem.CorrelationID(r.Context()))
				return
			}
			if ev.id.news(sent) {
				if !out.send(ev) {
					return
				}
				sent = ev.id
				heartbeat.Reset(s.opts.Streams.Heartbeat)
			}
			if intent.Finished(obj.Phase()) {
				return
			}
		case <-heartbeat.C:
			if !out.comment("heartbeat") {
				return
			}
		case <-sub.ended:
			s.log.V(1).Info("event stream ended by the feed", "correlationId", problem.CorrelationID(r.Context()),
				"overflow", sub.reason == endOverflow)
			return
		case <-s.closing:
			return
		case <-r.Context().Done():
			return
		}
	}
}

// lastEventID reads the Last-Event-ID header; a value this service never sent is a 400.
func (s *Server) lastEventID(w http.ResponseWriter, r *http.Request) (eventID, bool) {
	values := r.Header.Values(lastEventIDHeader)
	if len(values) == 0 {
		return eventID{}, true
	}
	id, ok := parseEventID(values[0])
	if !ok || len(values) > 1 {
		s.problems.Write(w, r, problem.BadRequest, "Header Last-Event-ID must be the id of an event of this stream, sent once.",
			problem.Details{"header": lastEventIDHeader})
		return eventID{}, false
	}
	return id, true
}

// admitStream takes a stream slot for the key and its account, or answers 429 too-many-streams.
func (s *Server) admitStream(w http.ResponseWriter, r *http.Request, key registry.Key) bool {
	over, limit := s.streams.admit(key)
	if over == "" {
		return true
	}
	w.Header().Set("Retry-After", streamRetryAfter)
	var detail string
	switch over {
	case "server":
		detail = fmt.Sprintf("This server has %d event streams open, the most it serves; retry after the Retry-After seconds.", limit)
	case "account":
		detail = fmt.Sprintf("The keys of this account have %d event streams open on this server, the most an account may; close one first.", limit)
	default:
		detail = fmt.Sprintf("This API key has %d event streams open on this server, the most it may; close one first.", limit)
	}
	s.problems.Write(w, r, problem.TooManyStreams, detail, problem.Details{"limit": limit, "scope": over})
	return false
}

// streamEvent is one event of a stream: the record of GET /v2/transfers/{id} and its id.
type streamEvent struct {
	id   eventID
	data []byte
}

func (s *Server) streamEventOf(obj *v1alpha1.TransferIntent) (streamEvent, error) {
	data, err := json.Marshal(s.transferRecord(obj))
	if err != nil {
		return streamEvent{}, err
	}
	return streamEvent{id: eventIDOf(obj, data), data: data}, nil
}

// eventID names a state of an intent, the same on every replica: the resourceVersion of the
// object it was read from (0 for an archived one, which keeps none) and a digest of the record
// sent. The digest tells whether a client has this state; the resourceVersion tells a state
// older than the client's (a replica whose informer lags, an update that overtook an earlier one
// on its way to a stream). Kubernetes calls resourceVersions opaque; they are compared here only
// between versions of one object in one API server, where they increase, and an id whose version
// is not a number orders nothing.
//
// The resourceVersion is the whole cluster's write counter, so a client that saw it could tell
// the service's write rate (issue 47, item 8): an id carries it sealed with a key of its own
// intent (eventKey: AES of the version, keyed by a hash of the intent's uid, which the API never
// shows). The sealed version is the same on every replica, tells nothing of other intents, and
// two of one intent tell nothing of how far apart they are; the server opens the client's
// Last-Event-ID with the intent's key to order it.
type eventID struct {
	version uint64
	digest  string
	// sealed is the version as the id carries it: sealVersion's, "" for version 0. A client's id
	// has it alone until openedFor learns the version.
	sealed string
}

// digestLength is the length of an id's digest in hex: 64 bits tell two states of one intent apart.
const digestLength = 16

// sealedLength is the length of a sealed version in hex: one AES block.
const sealedLength = 2 * aes.BlockSize

func eventIDOf(obj *v1alpha1.TransferIntent, record []byte) eventID {
	sum := sha256.Sum256(record)
	id := eventID{version: objectVersion(obj), digest: hex.EncodeToString(sum[:digestLength/2])}
	if id.version != 0 {
		id.sealed = sealVersion(eventKey(obj), id.version)
	}
	return id
}

// eventKey is the key of obj's event ids: HMAC-SHA256 keyed with the intent's uid (which the API
// server sets on every object and the service never shows; an object without one, in tests, uses
// its name).
func eventKey(obj *v1alpha1.TransferIntent) cipher.Block {
	secret := string(obj.UID)
	if secret == "" {
		secret = obj.Name
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("transfer-intent-service/event-id"))
	block, err := aes.NewCipher(mac.Sum(nil)[:16])
	if err != nil {
		panic(err) // a 16-byte key is always an AES key
	}
	return block
}

// sealVersion encrypts the version (8 bytes, then 8 zero bytes that openVersion checks).
func sealVersion(key cipher.Block, version uint64) string {
	var plain, out [aes.BlockSize]byte
	binary.BigEndian.PutUint64(plain[:8], version)
	key.Encrypt(out[:], plain[:])
	return hex.EncodeToString(out[:])
}

// openVersion is the version sealed under key; false when sealed is not one of key's.
func openVersion(key cipher.Block, sealed string) (uint64, bool) {
	raw, err := hex.DecodeString(sealed)
	if err != nil || len(raw) != aes.BlockSize {
		return 0, false
	}
	var plain [aes.BlockSize]byte
	key.Decrypt(plain[:], raw)
	for _, b := range plain[8:] {
		if b != 0 {
			return 0, false
		}
	}
	return binary.BigEndian.Uint64(plain[:8]), true
}

// openedFor is a client's id with its version opened with obj's key; an id that does not open
// (another intent's, or made up) keeps its digest and orders nothing, like an archived state's.
func (id eventID) openedFor(obj *v1alpha1.TransferIntent) eventID {
	if id.sealed == "" || obj == nil {
		return id
	}
	version, ok := openVersion(eventKey(obj), id.sealed)
	if !ok {
		return eventID{digest: id.digest}
	}
	id.version = version
	return id
}

// objectVersion is the object's resourceVersion as a number; 0 when it has none (archived) or it
// is not one.
func objectVersion(obj *v1alpha1.TransferIntent) uint64 {
	version, _ := strconv.ParseUint(obj.ResourceVersion, 10, 64)
	return version
}

func (id eventID) String() string {
	if id.sealed == "" {
		return "0-" + id.digest
	}
	return id.sealed + "-" + id.digest
}

// parseEventID reads an id this service sent: "0" or a sealed version, "-", the digest. An id
// sent before versions were sealed (a decimal resourceVersion) still names its state by its
// digest, and orders nothing.
func parseEventID(s string) (eventID, bool) {
	v, d, ok := strings.Cut(s, "-")
	if !ok || len(d) != digestLength || strings.ToLower(d) != d {
		return eventID{}, false
	}
	if _, err := hex.DecodeString(d); err != nil {
		return eventID{}, false
	}
	id := eventID{digest: d}
	switch {
	case len(v) == sealedLength && strings.ToLower(v) == v:
		if _, err := hex.DecodeString(v); err != nil {
			return eventID{}, false
		}
		id.sealed = v
	default:
		if _, err := strconv.ParseUint(v, 10, 64); err != nil {
			return eventID{}, false
		}
	}
	return id, true
}

// news reports whether a client that has the state last (zero: none) should be sent the state
// id: it is another state, and not one older than last's.
func (id eventID) news(last eventID) bool {
	if last.digest == "" {
		return true
	}
	if id.digest == last.digest {
		return false
	}
	return id.version == 0 || last.version == 0 || id.version > last.version
}

// eventWriter writes a stream's events, each under its own write deadline, so that neither the
// server's WriteTimeout cuts a long stream nor a stalled client holds it for ever.
type eventWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// startStream answers 200 text/event-stream with the retry: field; nil when the client is gone.
// A HEAD request gets the headers only.
func (s *Server) startStream(w http.ResponseWriter, r *http.Request) *eventWriter {
	// No read deadline to lift: net/http clears it once a request without a body is read, and
	// the test on the operator's server holds a stream past its ReadTimeout.
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx would otherwise hold events back in its buffer
	out := &eventWriter{w: w, rc: rc}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return nil
	}
	if !out.write("retry: " + strconv.FormatInt(streamRetry.Milliseconds(), 10) + "\n\n") {
		return nil
	}
	return out
}

func (out *eventWriter) send(ev streamEvent) bool {
	return out.write("id: " + ev.id.String() + "\nevent: transfer\ndata: " + string(ev.data) + "\n\n")
}

// closed writes the last event of a stream whose key was refused: event `closed`, data
// {"reason": ...}, no id (a reconnect resumes after the last state sent, if its key is good).
func (out *eventWriter) closed(why registry.Refusal) bool {
	return out.write(`event: closed` + "\ndata: {\"reason\":\"" + string(why) + "\"}\n\n")
}

// comment writes an SSE comment line, which clients ignore.
func (out *eventWriter) comment(text string) bool { return out.write(": " + text + "\n\n") }

func (out *eventWriter) write(chunk string) bool {
	if err := out.rc.SetWriteDeadline(time.Now().Add(streamWriteWait)); err != nil {
		return false
	}
	if _, err := out.w.Write([]byte(chunk)); err != nil {
		return false
	}
	return out.rc.Flush() == nil
}

// streamLimits counts the open streams of the replica, of each key and of each account. An
// account may hold any number of keys, so the per-key bound alone would multiply with them: the
// per-account bound is what keeps one account from the whole replica.
type streamLimits struct {
	perKey, perAccount, perServer int
	mu                            sync.Mutex
	open                          int
	byKey, byAccount              map[string]int
}

func newStreamLimits(o StreamOptions) *streamLimits {
	return &streamLimits{perKey: o.MaxPerKey, perAccount: o.PerAccountBound(), perServer: o.MaxPerServer,
		byKey: map[string]int{}, byAccount: map[string]int{}}
}

// admit takes a slot for the key and its account; when it cannot, it names the limit that is
// full ("key", "account" or "server") and its value.
func (l *streamLimits) admit(key registry.Key) (over string, limit int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.byKey[key.ID] >= l.perKey:
		return "key", l.perKey
	case l.byAccount[key.Account] >= l.perAccount:
		return "account", l.perAccount
	case l.open >= l.perServer:
		return "server", l.perServer
	}
	l.open++
	l.byKey[key.ID]++
	l.byAccount[key.Account]++
	return "", 0
}

func (l *streamLimits) release(key registry.Key) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byKey[key.ID]--; l.byKey[key.ID] <= 0 {
		delete(l.byKey, key.ID)
	}
	if l.byAccount[key.Account]--; l.byAccount[key.Account] <= 0 {
		delete(l.byAccount, key.Account)
	}
}

// closeStreams ends every open stream; the HTTP server calls it when it starts shutting down,
// since a stream never goes idle for Shutdown to close it.
func (s *Server) closeStreams() { s.closeOnce.Do(func() { close(s.closing) }) }
