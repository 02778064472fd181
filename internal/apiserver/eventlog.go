package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
)

// EventLog serves an account's events from the webhook outbox in PostgreSQL, never from the API
// server (*delivery.Log through the service's adapter).
type EventLog interface {
	// Events lists a page of the account's events in env that match f, newest first.
	Events(ctx context.Context, account, env string, f outbox.EventFilter, after *outbox.Cursor, limit int) ([]outbox.ListedEvent, bool, error)
	// Replay queues the account's chosen events again to its endpoint name. It answers
	// ErrWebhookNotFound for an endpoint the caller does not have, a *WebhookUnservedError for
	// one that receives nothing now, and outbox.ErrUnknownEvent for an id of no event of theirs.
	Replay(ctx context.Context, account, env, name string, r EventReplay) (outbox.Replayed, error)
}

// EventReplay is what a replay sends again: IDs, or the events created in (After, Before), after
// Cursor.
type EventReplay struct {
	IDs           []string
	After, Before time.Time
	Cursor        *outbox.Cursor
}

// WebhookUnservedError is the answer for an endpoint that receives no delivery now: Reason is one
// of endpoint.Stop...
type WebhookUnservedError struct{ Reason string }

func (e *WebhookUnservedError) Error() string {
	return "the webhook endpoint receives nothing: " + e.Reason
}

// Per-account bounds of the webhook operations, besides the key's own rate limit: a test send
// and a replay each make the service send to the account's receivers, and a replay queues up to
// delivery.MaxReplay deliveries.
const (
	testSendsPerMinute = 10
	replaysPerMinute   = 10
	maxReplayIDs       = 100
)

// eventIDPattern is an event id: evt_ and a ULID. Ids and cursors are checked against it before
// they reach PostgreSQL, which would refuse bytes that are not UTF-8 (a 503 for a bad request).
var eventIDPattern = regexp.MustCompile(`^evt_[0-9A-HJKMNP-TV-Z]{26}$`)

// listEvents is GET /v2/events: the account's events of the key's environment, newest first,
// with each one's deliveries.
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) {
	if s.deps.Events == nil {
		s.problems.Write(w, r, problem.ServiceUnavailable, "Events are not served by this instance (it has no --archive-url).", nil)
		return
	}
	key, _ := KeyFrom(r)
	q := r.URL.Query()
	f, ok := s.eventFilter(w, r, q)
	if !ok {
		return
	}
	p, ok := s.parsePage(w, r, q, 2)
	if !ok {
		return
	}
	after, ok := s.eventCursor(w, r, p.cursor)
	if !ok {
		return
	}
	if p.limit == 0 {
		p.limit = defaultPageLimit
	}
	events, more, err := s.deps.Events.Events(r.Context(), key.Account, string(key.Environment), f, after, p.limit)
	if err != nil {
		s.writeEventsUnavailable(w, r, err)
		return
	}
	if more && len(events) > 0 {
		last := events[len(events)-1]
		s.setNextLink(w, r, encodeCursor(last.CreatedAt.Format(time.RFC3339Nano), last.ID))
	}
	out := make([]eventJSON, len(events))
	for i := range events {
		out[i] = eventOf(&events[i])
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// eventCursor reads a page cursor of the events: the creation time and id of the last event.
func (s *Server) eventCursor(w http.ResponseWriter, r *http.Request, key []string) (*outbox.Cursor, bool) {
	if key == nil {
		return nil, true
	}
	t, err := time.Parse(time.RFC3339Nano, key[0])
	if err != nil || !eventIDPattern.MatchString(key[1]) {
		s.problems.Write(w, r, problem.BadRequest, "Query parameter cursor is not a cursor this service issued; "+
			"take it from the Link header of the previous page.", problem.Details{"parameter": "cursor"})
		return nil, false
	}
	return &outbox.Cursor{CreatedAt: t, ID: key[1]}, true
}

// eventFilter reads type (an event type, or transfer.* for all), transferId, createdAfter and
// createdBefore; a bad value is a 400 naming the parameter.
func (s *Server) eventFilter(w http.ResponseWriter, r *http.Request, q url.Values) (outbox.EventFilter, bool) {
	var f outbox.EventFilter
	bad := func(param, detail string) (outbox.EventFilter, bool) {
		s.problems.Write(w, r, problem.BadRequest, detail, problem.Details{"parameter": param})
		return outbox.EventFilter{}, false
	}
	if raw, present := q["type"]; present {
		switch v := raw[0]; {
		case len(raw) > 1:
			return bad("type", "Query parameter type may be given once.")
		case v == "transfer.*":
			f.Type = "transfer."
		case endpoint.IsEventType(v):
			f.Type = v
		default:
			return bad("type", "Query parameter type must be an event type (transfer.created, transfer.signed, transfer.submitted, "+
				"transfer.confirmed, transfer.failed, transfer.expired, transfer.cancelled) or transfer.* for all of them.")
		}
	}
	if raw, present := q["transferId"]; present {
		if _, err := intent.ObjectNameFromID(raw[0]); err != nil || len(raw) > 1 {
			return bad("transferId", "Query parameter transferId must be one transfer intent id, such as int_transfer_01J….")
		}
		f.IntentID = raw[0]
	}
	for _, name := range []string{"createdAfter", "createdBefore"} {
		if len(q[name]) > 1 {
			return bad(name, "Query parameter "+name+" may be given once.")
		}
	}
	var berr *boundError
	if f.After, f.Before, berr = parseBounds(q.Get("createdAfter"), q.Has("createdAfter"), q.Get("createdBefore"), q.Has("createdBefore")); berr != nil {
		return bad(berr.param, "Query parameter "+berr.detail)
	}
	return f, true
}

// boundError is a bad time bound: which one, and why.
type boundError struct{ param, detail string }

// parseBounds reads an optional time range, each end an RFC 3339 timestamp, exclusive; an end
// before its start is refused.
func parseBounds(after string, hasAfter bool, before string, hasBefore bool) (time.Time, time.Time, *boundError) {
	var a, b time.Time
	for _, bound := range []struct {
		name    string
		value   string
		present bool
		into    *time.Time
	}{{"createdAfter", after, hasAfter, &a}, {"createdBefore", before, hasBefore, &b}} {
		if !bound.present {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, bound.value)
		if err != nil || t.Year() < 2000 {
			// Before 2000 is no event of this service, and year 1 would read as no bound.
			return a, b, &boundError{bound.name, bound.name + " must be an RFC 3339 timestamp after 2000, such as 2026-01-02T15:04:05Z."}
		}
		*bound.into = t.UTC()
	}
	if !a.IsZero() && !b.IsZero() && !a.Before(b) {
		return a, b, &boundError{"createdBefore", "createdBefore must be later than createdAfter: the range is empty or inverted."}
	}
	return a, b, nil
}

// eventJSON is an event as GET /v2/events serves it (OpenAPI Event): the body every delivery
// sends, with the intent's id and each endpoint's delivery.
type eventJSON struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	CreatedAt   time.Time       `json:"createdAt"`
	Environment string          `json:"environment"`
	Sequence    int             `json:"sequence"`
	TransferID  string          `json:"transferId"`
	Data        json.RawMessage `json:"data"`
	Deliveries  []deliveryJSON  `json:"deliveries"`
}

type deliveryJSON struct {
	Endpoint      string     `json:"endpoint"`
	State         string     `json:"state"`
	Attempts      int        `json:"attempts"`
	LastError     string     `json:"lastError,omitempty"`
	DeliveredAt   *time.Time `json:"deliveredAt,omitempty"`
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
}

func eventOf(ev *outbox.ListedEvent) eventJSON {
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(ev.Body, &body) // the service wrote it
	out := eventJSON{ID: ev.ID, Type: ev.Type, CreatedAt: ev.CreatedAt, Environment: ev.Environment, Sequence: ev.Sequence,
		TransferID: ev.IntentID, Data: body.Data, Deliveries: make([]deliveryJSON, len(ev.Deliveries))}
	if len(out.Data) == 0 {
		out.Data = json.RawMessage("null")
	}
	for i, d := range ev.Deliveries {
		out.Deliveries[i] = deliveryJSON{Endpoint: d.Endpoint, State: d.State, Attempts: d.Attempts, LastError: d.LastError,
			DeliveredAt: timeOrNil(d.DeliveredAt), NextAttemptAt: timeOrNil(d.NextAttemptAt)}
	}
	return out
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// writeEventsUnavailable answers 503 when PostgreSQL did not answer in time.
func (s *Server) writeEventsUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	s.log.V(1).Info("event log unavailable", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
	w.Header().Set("Retry-After", "5")
	s.problems.Write(w, r, problem.ServiceUnavailable, "The event log did not answer in time; retry after the Retry-After seconds.", nil)
}

// replayRequest is the body of POST /v2/webhooks/{name}/replay (OpenAPI WebhookReplayRequest).
type replayRequest struct {
	CreatedAfter  *string  `json:"createdAfter"`
	CreatedBefore *string  `json:"createdBefore"`
	EventIDs      []string `json:"eventIds"`
	Cursor        *string  `json:"cursor"`
}

// replayResult is its answer (OpenAPI WebhookReplayResult).
type replayResult struct {
	Replayed   int    `json:"replayed"`
	HasMore    bool   `json:"hasMore"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// replayWebhook is POST /v2/webhooks/{name}/replay: the account's events of a time range (or by
// id) queued again to its endpoint, under their original ids, at most delivery.MaxReplay a call.
func (s *Server) replayWebhook(w http.ResponseWriter, r *http.Request) {
	if s.deps.Events == nil {
		s.problems.Write(w, r, problem.ServiceUnavailable, "Events are not served by this instance (it has no --archive-url).", nil)
		return
	}
	name, ok := s.endpointName(w, r)
	if !ok {
		return
	}
	body, ok := s.readJSONBody(w, r)
	if !ok {
		return
	}
	req, perr := decodeReplay(body)
	if perr != nil {
		s.writeTransferError(w, r, perr)
		return
	}
	key, _ := KeyFrom(r)
	if !s.accountAllows(w, r, "webhook-replay", key.Account, replaysPerMinute, "replays") {
		return
	}
	res, err := s.deps.Events.Replay(r.Context(), key.Account, string(key.Environment), name, req)
	if err != nil {
		s.writeWebhookError(w, r, name, err)
		return
	}
	out := replayResult{Replayed: res.Queued, HasMore: res.More}
	if res.More {
		out.NextCursor = encodeCursor(res.Last.CreatedAt.Format(time.RFC3339Nano), res.Last.ID)
	}
	s.writeJSON(w, r, http.StatusAccepted, out)
}

// decodeReplay is the schema check of a replay body: a range (createdAfter and createdBefore,
// with the cursor of the call before) or eventIds, not both.
func decodeReplay(body []byte) (EventReplay, *intent.Problem) {
	var req replayRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must be a JSON object " +
			`{"createdAfter": "<RFC 3339>", "createdBefore": "<RFC 3339>"} or {"eventIds": ["evt_…"]}: ` + strings.TrimPrefix(err.Error(), "json: ")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must hold exactly one JSON object"}
	}
	hasRange := req.CreatedAfter != nil || req.CreatedBefore != nil || req.Cursor != nil
	switch {
	case hasRange && req.EventIDs != nil:
		return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "eventIds", Detail: "give a time range or eventIds, not both"}
	case req.EventIDs != nil:
		return decodeReplayIDs(req.EventIDs)
	case req.CreatedAfter == nil || req.CreatedBefore == nil:
		return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "createdAfter",
			Detail: "a replay takes a time range, createdAfter and createdBefore (both), or eventIds"}
	}
	after, before, berr := parseBounds(*req.CreatedAfter, true, *req.CreatedBefore, true)
	if berr != nil {
		return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Field: berr.param, Detail: berr.detail}
	}
	out := EventReplay{After: after, Before: before}
	if req.Cursor != nil {
		key, ok := decodeCursor(*req.Cursor, 2)
		var t time.Time
		var err error
		if ok {
			t, err = time.Parse(time.RFC3339Nano, key[0])
		}
		if !ok || err != nil || !eventIDPattern.MatchString(key[1]) {
			return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "cursor",
				Detail: "cursor must be the nextCursor of the replay before"}
		}
		out.Cursor = &outbox.Cursor{CreatedAt: t, ID: key[1]}
	}
	return out, nil
}

func decodeReplayIDs(ids []string) (EventReplay, *intent.Problem) {
	if len(ids) == 0 || len(ids) > maxReplayIDs {
		return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "eventIds",
			Detail: fmt.Sprintf("eventIds must hold 1 to %d event ids", maxReplayIDs)}
	}
	for _, id := range ids {
		if !eventIDPattern.MatchString(id) {
			return EventReplay{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "eventIds",
				Detail: "each of eventIds must be an event id, evt_ and a ULID"}
		}
	}
	return EventReplay{IDs: ids}, nil
}

// accountAllows counts an operation of the account against its own per-minute limit (shared by
// every key of the account), and answers 429 with Retry-After itself when it is exceeded.
func (s *Server) accountAllows(w http.ResponseWriter, r *http.Request, operation, account string, limit int, what string) bool {
	d := s.deps.Limiter.Allow(r.Context(), operation+":"+account, limit, s.deps.Clock.Now())
	if d.Allowed {
		return true
	}
	retry := ratelimit.Seconds(d.RetryAfter)
	w.Header().Set("Retry-After", strconv.Itoa(retry))
	s.problems.Write(w, r, problem.RateLimited, fmt.Sprintf("Your account's limit of %d webhook %s per minute is reached; retry after %d seconds.",
		limit, what, retry), nil)
	return false
}

// endpointName reads the {name} of a webhook route: a WebhookEndpoint's name.
func (s *Server) endpointName(w http.ResponseWriter, r *http.Request) (string, bool) {
	name := r.PathValue("name")
	if !endpointNamePattern.MatchString(name) {
		s.problems.Write(w, r, problem.BadRequest, "Path parameter name must be a WebhookEndpoint's name (lower-case letters, digits, '-' and '.').",
			problem.Details{"parameter": "name"})
		return "", false
	}
	return name, true
}

// writeWebhookError answers the errors of the webhook routes: not the caller's endpoint (404), an
// endpoint that receives nothing now (409), an event id of no event of theirs (422), and
// PostgreSQL or the cache not answering (503).
func (s *Server) writeWebhookError(w http.ResponseWriter, r *http.Request, name string, err error) {
	var unserved *WebhookUnservedError
	switch {
	case errors.Is(err, ErrWebhookNotFound):
		s.problems.Write(w, r, problem.NotFound, "Your account has no WebhookEndpoint "+name+" in this key's environment.", nil)
	case errors.As(err, &unserved):
		s.problems.Write(w, r, problem.Conflict, "WebhookEndpoint "+name+" receives no delivery now: "+unservedReasons[unserved.Reason]+".",
			problem.Details{"reason": unserved.Reason})
	case errors.Is(err, outbox.ErrUnknownEvent):
		s.problems.Write(w, r, problem.ValidationFailed, "One of eventIds is not an event of your account in this key's environment "+
			"of a type the endpoint subscribes to (or it is older than the events' retention); nothing was queued.", problem.Details{"field": "eventIds"})
	default:
		s.writeEventsUnavailable(w, r, err)
	}
}

// unservedReasons say why an endpoint receives nothing, by endpoint.Stop reason.
var unservedReasons = map[string]string{
	endpoint.StopDeleted:         "it is being deleted",
	endpoint.StopDisabled:        "it is disabled (spec.disabled, or its deliveries stopped after failing for days: change its spec to resume them)",
	endpoint.StopLimit:           "your account has more WebhookEndpoints than the service's limit per account, and this is one of the newest",
	endpoint.StopAccountDisabled: "your account is disabled",
}
