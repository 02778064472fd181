package apiserver

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// ownerOf is whose intents a key sees: its account's, in its environment only.
func ownerOf(key registry.Key) intentstore.Owner {
	return intentstore.Owner{Account: key.Account, Environment: v1alpha1.Environment(key.Environment)}
}

// IdempotencyKeyHeader makes POST /v2/transfers safe to retry.
const IdempotencyKeyHeader = "Idempotency-Key"

// maxIdempotencyKeyLength is the OpenAPI bound of the Idempotency-Key header.
const maxIdempotencyKeyLength = 255

// transferRoutes are the /v2/transfers routes. A server built without the transfer dependencies
// (some tests) answers them with 503, decided here once rather than in every handler.
func (s *Server) transferRoutes() map[string]http.Handler {
	routes := map[string]http.Handler{
		"GET /v2/transfers":                    http.HandlerFunc(s.listTransfers),
		"POST /v2/transfers":                   http.HandlerFunc(s.createTransfer),
		"POST /v2/transfers/simulate":          http.HandlerFunc(s.simulateTransfer),
		"GET /v2/transfers/{id}":               http.HandlerFunc(s.getTransfer),
		"POST /v2/transfers/{id}/submission":   http.HandlerFunc(s.submitTransfer),
		"GET /v2/orders/{orderId}/attestation": http.HandlerFunc(s.getAttestation),
		// Without it GET /v2/transfers/simulate would read "simulate" as an intent id (400).
		"GET /v2/transfers/simulate": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", "POST")
			s.problems.Write(w, r, problem.MethodNotAllowed, "GET is not allowed here; allowed: POST.", nil)
		}),
	}
	if s.deps.Transfers == nil || s.deps.Intents == nil || s.deps.Catalog == nil {
		unavailable := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.problems.Write(w, r, problem.ServiceUnavailable, "Transfers are not configured on this server.", nil)
		})
		for pattern := range routes {
			routes[pattern] = unavailable
		}
	}
	return routes
}

// simulateTransfer is POST /v2/transfers/simulate. Nothing is executed and nothing is stored.
func (s *Server) simulateTransfer(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	parsed, ok := s.readTransferRequest(w, r, key, false)
	if !ok {
		return
	}
	res, err := s.deps.Transfers.Simulate(r.Context(), key.Account, parsed)
	if err != nil {
		s.writeTransferError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, res)
}

// createTransfer is POST /v2/transfers.
func (s *Server) createTransfer(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	idemKey, ok := s.idempotencyKey(w, r)
	if !ok {
		return
	}
	parsed, ok := s.readTransferRequest(w, r, key, true)
	if !ok {
		return
	}
	res, err := s.deps.Intents.Create(r.Context(), intentstore.CreateRequest{
		Owner:          ownerOf(key),
		IdempotencyKey: idemKey,
		RequestHash:    intentstore.RequestHash(parsed),
		Build: func(ctx context.Context) (*v1alpha1.TransferIntent, error) {
			return s.draftIntent(ctx, key, parsed)
		},
	})
	if err != nil {
		s.writeCreateError(w, r, idemKey, err)
		return
	}
	status := http.StatusOK
	if res.New {
		status = http.StatusCreated
	}
	w.Header().Set("Location", s.problems.BaseURL+"/v2/transfers/"+res.Intent.Spec.ID)
	s.writeJSON(w, r, status, s.transferRecord(res.Intent))
}

// draftIntent plans the intent and builds its object. It runs inside Create, only when an intent
// is to be created (not on an idempotent replay).
func (s *Server) draftIntent(ctx context.Context, key registry.Key, parsed intent.Parsed) (*v1alpha1.TransferIntent, error) {
	// Plan and validate with a throw-away nonce; a gasless order's Permit2 nonce is taken only
	// for a valid plan, so that a refused request spends none of the user's nonces.
	provisional, err := intent.NewNonce()
	if err != nil {
		return nil, err
	}
	plan, err := s.deps.Transfers.Prepare(ctx, key.Account, parsed, provisional)
	if err != nil {
		return nil, err
	}
	if !plan.Valid {
		return nil, &invalidIntentError{reasons: plan.Errors}
	}
	if parsed.Gasless && s.deps.Gasless != nil {
		nonce, err := s.gaslessNonce(ctx, parsed)
		if err != nil {
			return nil, err
		}
		if plan, err = s.deps.Transfers.WithNonce(key.Account, parsed, plan, nonce); err != nil {
			return nil, err
		}
	}
	return intentstore.NewObject(intentstore.Draft{
		ID: intent.NewIntentID(s.deps.Clock.Now()), Account: key.Account, APIKey: key.ID,
		Environment: key.Environment, Parsed: parsed, Plan: plan,
	})
}

// getTransfer is GET /v2/transfers/{id}: the full record of one of the caller's intents.
func (s *Server) getTransfer(w http.ResponseWriter, r *http.Request) {
	if obj, ok := s.callersIntent(w, r); ok {
		s.writeJSON(w, r, http.StatusOK, s.transferRecord(obj))
	}
}

// callersIntent finds the caller's intent named by the path's id, or answers 400 (a malformed
// id) or 404 (unknown, or another account's) itself.
func (s *Server) callersIntent(w http.ResponseWriter, r *http.Request) (*v1alpha1.TransferIntent, bool) {
	if _, ok := s.intentName(w, r); !ok {
		return nil, false
	}
	return s.findIntent(w, r)
}

// intentName is the object name of the intent the path's id names, or a 400 answered here.
func (s *Server) intentName(w http.ResponseWriter, r *http.Request) (string, bool) {
	name, err := intent.ObjectNameFromID(r.PathValue("id"))
	if err != nil {
		s.problems.Write(w, r, problem.BadRequest,
			"Path parameter id must be an intent id: int_transfer_ followed by a ULID.", problem.Details{"parameter": "id"})
		return "", false
	}
	return name, true
}

// findIntent reads the caller's intent of the path's well-formed id, live or archived, or answers
// 404 (unknown, or another account's) or 503 itself.
func (s *Server) findIntent(w http.ResponseWriter, r *http.Request) (*v1alpha1.TransferIntent, bool) {
	key, _ := KeyFrom(r)
	id := r.PathValue("id")
	obj, found, err := s.deps.Intents.Get(r.Context(), ownerOf(key), id)
	if errors.Is(err, intentstore.ErrUnavailable) || errors.Is(err, intentstore.ErrArchiveUnavailable) {
		s.writeStoreUnavailable(w, r, err)
		return nil, false
	}
	if err != nil {
		s.log.Error(err, "reading a transfer intent", "correlationId", problem.CorrelationID(r.Context()), "id", id)
		s.problems.Write(w, r, problem.InternalError, "The intent could not be read; retry later.", nil)
		return nil, false
	}
	if !found {
		s.problems.Write(w, r, problem.NotFound, "No transfer intent "+id+" exists for this account.", nil)
		return nil, false
	}
	return obj, true
}

// submitTransfer is POST /v2/transfers/{id}/submission: the client reports the hash of the
// transaction it sent for its intent. The service accepts it only when the chain's node has it
// and it is the intent's exact transaction from the intent's from; the watcher then follows its
// receipt. Reporting the hash the intent already follows answers the intent again (200).
func (s *Server) submitTransfer(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readJSONBody(w, r)
	if !ok {
		return
	}
	hash, perr := decodeSubmission(body)
	if perr != nil {
		s.writeTransferError(w, r, perr)
		return
	}
	obj, ok := s.callersIntent(w, r)
	if !ok {
		return
	}
	if s.deps.Submissions == nil {
		s.problems.Write(w, r, problem.ServiceUnavailable, "Transaction reports are not configured on this server.", nil)
		return
	}
	written, err := s.deps.Submissions.Submit(r.Context(), obj, hash)
	if err != nil {
		var p *intent.Problem
		if errors.As(err, &p) && p.Kind == intent.KindUnavailable {
			w.Header().Set("Retry-After", "5")
		}
		s.writeTransferError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, s.transferRecord(written))
}

// listTransfers is GET /v2/transfers: the caller's intents that match the filters, newest first,
// a page at a time. A hash nobody has seen yet answers an empty page, not 404: a client polls
// with it right after broadcasting.
func (s *Server) listTransfers(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	q := r.URL.Query()
	filter, ok := s.transferFilter(w, r, q)
	if !ok {
		return
	}
	after, limit, ok := s.intentPage(w, r, q)
	if !ok {
		return
	}
	items, more, err := s.deps.Intents.List(r.Context(), ownerOf(key), filter, after, limit)
	if err != nil {
		s.writeStoreUnavailable(w, r, err)
		return
	}
	if more && len(items) > 0 {
		s.setNextLink(w, r, encodeCursor(items[len(items)-1].ID))
	}
	writeJSONBytes(w, http.StatusOK, appendSummaries(make([]byte, 0, 256*len(items)+2), items, s.explorerOf))
}

// intentPage reads the limit and cursor of a list ordered by intent id (the transfers, the order
// book): the id the page starts after ("" for the first) and the page size. It answers a bad value
// with a 400 itself.
func (s *Server) intentPage(w http.ResponseWriter, r *http.Request, q url.Values) (after string, limit int, ok bool) {
	p, ok := s.parsePage(w, r, q, 1)
	if !ok {
		return "", 0, false
	}
	if p.cursor != nil {
		after = p.cursor[0]
		if _, err := intent.ObjectNameFromID(after); err != nil {
			s.problems.Write(w, r, problem.BadRequest, "Query parameter cursor is not a cursor this service issued; "+
				"take it from the Link header of the previous page.", problem.Details{"parameter": "cursor"})
			return "", 0, false
		}
	}
	if p.limit == 0 {
		p.limit = defaultPageLimit
	}
	return after, p.limit, true
}

// idempotencyKey reads the optional Idempotency-Key header; a malformed one is a 400.
func (s *Server) idempotencyKey(w http.ResponseWriter, r *http.Request) (string, bool) {
	values := r.Header.Values(IdempotencyKeyHeader)
	if len(values) == 0 {
		return "", true
	}
	k := values[0]
	valid := len(values) == 1 && len(k) >= 1 && len(k) <= maxIdempotencyKeyLength
	for i := 0; valid && i < len(k); i++ {
		valid = k[i] >= 0x20 && k[i] < 0x7f
	}
	if !valid {
		s.problems.Write(w, r, problem.BadRequest,
			"Header Idempotency-Key must appear once, with 1 to 255 printable ASCII characters.",
			problem.Details{"header": IdempotencyKeyHeader})
		return "", false
	}
	return k, true
}
