package apiserver

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/strictjson"
)

// TransferService is the transfer domain. *intent.Service implements it.
type TransferService interface {
	// Simulate is the dry run of POST /v2/transfers/simulate.
	Simulate(ctx context.Context, account string, p intent.Parsed) (intent.SimulationResult, error)
	// Prepare plans an intent to create with a fresh nonce.
	Prepare(ctx context.Context, account string, p intent.Parsed, nonce [32]byte) (intent.Plan, error)
}

// ownerOf is whose intents a key sees: its account's, in its environment only.
func ownerOf(key registry.Key) intentstore.Owner {
	return intentstore.Owner{Account: key.Account, Environment: v1alpha1.Environment(key.Environment)}
}

// IntentStore stores intents and serves them from memory. *intentstore.Store implements it.
type IntentStore interface {
	// Create stores a new intent, or returns the one created earlier with the same idempotency key.
	Create(ctx context.Context, req intentstore.CreateRequest) (intentstore.Created, error)
	// Get returns the owner's intent with the id; another account's, or another environment's,
	// intent is not found.
	Get(ctx context.Context, owner intentstore.Owner, id string) (*v1alpha1.TransferIntent, bool, error)
	// List returns a page of the owner's intents, newest first, and whether more follow.
	List(owner intentstore.Owner, typ v1alpha1.IntentType, after string, limit int) ([]intentstore.Summary, bool)
	// AttestedOrder returns the intent whose order (by orderId) has an attested fill.
	AttestedOrder(orderID string) (*v1alpha1.TransferIntent, bool)
}

// SubmissionRecorder checks a reported transaction hash against the intent's transaction on its
// chain and records it. Its refusals are *intent.Problem values. *watcher.Submissions implements it.
type SubmissionRecorder interface {
	Submit(ctx context.Context, ti *v1alpha1.TransferIntent, hash common.Hash) (*v1alpha1.TransferIntent, error)
}

// IdempotencyKeyHeader makes POST /v2/transfers safe to retry.
const IdempotencyKeyHeader = "Idempotency-Key"

// maxIdempotencyKeyLength is the OpenAPI bound of the Idempotency-Key header.
const maxIdempotencyKeyLength = 255

// transferRequestFields are the members of the transfer request (OpenAPI TransferRequest), in
// the order a problem lists them.
var transferRequestFields = []string{"from", "to", "asset", "amount", "deadline", "callData"}

// simulateTransfer is POST /v2/transfers/simulate. Nothing is executed and nothing is stored.
func (s *Server) simulateTransfer(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	parsed, ok := s.readTransferRequest(w, r, key)
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
	parsed, ok := s.readTransferRequest(w, r, key)
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
	switch {
	case errors.Is(err, intentstore.ErrIdempotencyKeyReused):
		s.problems.Write(w, r, problem.ValidationFailed,
			"The Idempotency-Key was already used with a different request body; use a new key for a new request.",
			problem.Details{"header": IdempotencyKeyHeader})
		return
	case errors.Is(err, intentstore.ErrUnavailable):
		// Bounded: the store gave up within its write timeout. The outcome is unknown, so the
		// client retries, with its Idempotency-Key to be safe.
		s.log.Info("transfer not stored: the Kubernetes API did not answer in time", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
		w.Header().Set("Retry-After", "5")
		detail := "The intent store did not answer in time; retry after the Retry-After seconds with the same Idempotency-Key."
		if idemKey == "" {
			detail = "The intent store did not answer in time, and the intent may have been stored: list your intents before " +
				"retrying, or send an Idempotency-Key so that a retry is safe."
		}
		s.problems.Write(w, r, problem.ServiceUnavailable, detail, nil)
		return
	case errors.Is(err, intentstore.ErrIdempotencyInProgress):
		w.Header().Set("Retry-After", strconv.Itoa(ratelimit.Seconds(intentstore.RetryAfter(err))))
		s.problems.Write(w, r, problem.Conflict,
			"A request with this Idempotency-Key is still being processed; retry after the Retry-After seconds.",
			problem.Details{"header": IdempotencyKeyHeader})
		return
	case err != nil:
		s.writeTransferError(w, r, err)
		return
	}
	status := http.StatusOK
	if res.New {
		status = http.StatusCreated
	}
	w.Header().Set("Location", s.problems.BaseURL+"/v2/transfers/"+res.Intent.Spec.ID)
	s.writeJSON(w, r, status, transferRecord(res.Intent))
}

// draftIntent plans the intent and builds its object. It runs inside Create, only when an intent
// is to be created (not on an idempotent replay).
func (s *Server) draftIntent(ctx context.Context, key registry.Key, parsed intent.Parsed) (*v1alpha1.TransferIntent, error) {
	nonce, err := intent.NewNonce()
	if err != nil {
		return nil, err
	}
	plan, err := s.deps.Transfers.Prepare(ctx, key.Account, parsed, nonce)
	if err != nil {
		return nil, err
	}
	if !plan.Valid {
		return nil, &invalidIntentError{reasons: plan.Errors}
	}
	return intentstore.NewObject(intentstore.Draft{
		ID: intent.NewIntentID(s.deps.Clock.Now()), Account: key.Account, APIKey: key.ID,
		Environment: key.Environment, Parsed: parsed, Plan: plan,
	})
}

// invalidIntentError refuses to store an intent that simulation would report as valid:false: a
// stored intent is a promise that its tx can be submitted.
type invalidIntentError struct{ reasons []string }

func (e *invalidIntentError) Error() string { return strings.Join(e.reasons, "; ") }

// getTransfer is GET /v2/transfers/{id}: the full record of one of the caller's intents.
func (s *Server) getTransfer(w http.ResponseWriter, r *http.Request) {
	if obj, ok := s.callersIntent(w, r); ok {
		s.writeJSON(w, r, http.StatusOK, transferRecord(obj))
	}
}

// callersIntent finds the caller's intent named by the path's id, or answers 400 (a malformed
// id) or 404 (unknown, or another account's) itself.
func (s *Server) callersIntent(w http.ResponseWriter, r *http.Request) (*v1alpha1.TransferIntent, bool) {
	key, _ := KeyFrom(r)
	id := r.PathValue("id")
	if _, err := intent.ObjectNameFromID(id); err != nil {
		s.problems.Write(w, r, problem.BadRequest,
			"Path parameter id must be an intent id: int_transfer_ followed by a ULID.", problem.Details{"parameter": "id"})
		return nil, false
	}
	obj, found, err := s.deps.Intents.Get(r.Context(), ownerOf(key), id)
	if errors.Is(err, intentstore.ErrUnavailable) {
		w.Header().Set("Retry-After", "5")
		s.problems.Write(w, r, problem.ServiceUnavailable, "The intent store did not answer in time; retry after the Retry-After seconds.", nil)
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
	s.writeJSON(w, r, http.StatusOK, transferRecord(written))
}

// decodeSubmission is the schema check of a submission body: exactly {"hash": "0x<64 hex>"}.
func decodeSubmission(body []byte) (common.Hash, *intent.Problem) {
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || members == nil {
		return common.Hash{}, &intent.Problem{Kind: intent.KindBadRequest, Detail: `the request body must be a JSON object {"hash": "0x..."}`}
	}
	if _, err := dec.Token(); err != io.EOF {
		return common.Hash{}, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must hold exactly one JSON object"}
	}
	for name := range members {
		if name != "hash" {
			return common.Hash{}, &intent.Problem{Kind: intent.KindBadRequest, Field: name,
				Detail: fmt.Sprintf("unknown field %q: a submission has only hash", name)}
		}
	}
	var hex string
	raw, ok := members["hash"]
	if !ok || len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &hex) != nil || !isTxHash(hex) {
		return common.Hash{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "hash",
			Detail: "must be a transaction hash: 0x followed by 64 hex digits"}
	}
	return common.HexToHash(hex), nil
}

// isTxHash reports whether s is 0x and 64 hex digits.
func isTxHash(s string) bool {
	if len(s) != 66 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}

// listTransfers is GET /v2/transfers: the caller's intents, newest first, a page at a time.
func (s *Server) listTransfers(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	q := r.URL.Query()
	var typ v1alpha1.IntentType
	if raw, present := q["type"]; present {
		t, err := intent.ParseType(raw[0])
		if err != nil || len(raw) > 1 {
			s.problems.Write(w, r, problem.BadRequest, "Query parameter type must be one of transfer, swap or bridge.",
				problem.Details{"parameter": "type"})
			return
		}
		typ = v1alpha1.IntentType(t)
	}
	p, ok := s.parsePage(w, r, q, 1)
	if !ok {
		return
	}
	var after string
	if p.cursor != nil {
		after = p.cursor[0]
		if _, err := intent.ObjectNameFromID(after); err != nil {
			s.problems.Write(w, r, problem.BadRequest, "Query parameter cursor is not a cursor this service issued; "+
				"take it from the Link header of the previous page.", problem.Details{"parameter": "cursor"})
			return
		}
	}
	if p.limit == 0 {
		p.limit = defaultPageLimit
	}
	items, more := s.deps.Intents.List(ownerOf(key), typ, after, p.limit)
	if more && len(items) > 0 {
		s.setNextLink(w, r, encodeCursor(items[len(items)-1].ID))
	}
	writeJSONBytes(w, http.StatusOK, appendSummaries(make([]byte, 0, 256*len(items)+2), items))
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

// readTransferRequest runs the checks every transfer request goes through, in the contract's
// order: media type (415), size (413), schema (400), key environment (403). It answers the
// request itself when one fails.
func (s *Server) readTransferRequest(w http.ResponseWriter, r *http.Request, key registry.Key) (intent.Parsed, bool) {
	body, ok := s.readJSONBody(w, r)
	if !ok {
		return intent.Parsed{}, false
	}
	req, perr := decodeTransferRequest(body)
	if perr == nil {
		parsed, err := intent.ParseRequest(req)
		if err == nil {
			return parsed, s.checkKeyEnvironment(w, r, key, parsed)
		}
		perr = asProblem(err)
	}
	// Every parse failure is a bad-request problem (ParseRequest's contract).
	s.writeTransferError(w, r, perr)
	return intent.Parsed{}, false
}

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

// readJSONBody checks the media type (415) and reads the body within the size limit (413),
// answering the request itself when either fails.
func (s *Server) readJSONBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	// Two Content-Type headers are ambiguous: refuse rather than pick one.
	types := r.Header.Values("Content-Type")
	if mt, _, err := mime.ParseMediaType(strings.Join(types, ",")); len(types) != 1 || err != nil || mt != "application/json" {
		s.problems.Write(w, r, problem.UnsupportedMediaType, "The request body must be application/json, in one Content-Type header.", nil)
		return nil, false
	}
	body, err := s.readBody(w, r)
	if errBodyTooLarge(err) {
		s.problems.Write(w, r, problem.PayloadTooLarge,
			fmt.Sprintf("The request body exceeds the limit of %d bytes.", s.opts.MaxBodyBytes), nil)
		return nil, false
	}
	if err != nil {
		s.problems.Write(w, r, problem.BadRequest, "The request body could not be read.", nil)
		return nil, false
	}
	if err := strictjson.Check(body); err != nil {
		s.problems.Write(w, r, problem.BadRequest, "The request body is not valid JSON: "+err.Error()+".", nil)
		return nil, false
	}
	return body, true
}

func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := s.opts.MaxBodyBytes
	if limit <= 0 {
		return io.ReadAll(r.Body)
	}
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}

func asProblem(err error) *intent.Problem {
	var p *intent.Problem
	if errors.As(err, &p) {
		return p
	}
	return &intent.Problem{Kind: intent.KindBadRequest, Detail: err.Error()}
}

// decodeTransferRequest is the schema check of the body (OpenAPI TransferRequest): one JSON
// object, members named exactly (encoding/json alone would take "FROM" for "from"), no unknown
// members, and strings where strings belong. Each failure names the member.
func decodeTransferRequest(body []byte) (intent.Request, *intent.Problem) {
	var req intent.Request
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must be a JSON object"}
		}
		return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body is not valid JSON: " +
			strings.TrimPrefix(err.Error(), "json: ")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must hold exactly one JSON object"}
	}
	if members == nil {
		return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must be a JSON object"}
	}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(transferRequestFields, name) {
			return req, &intent.Problem{Kind: intent.KindBadRequest, Field: name, Detail: fmt.Sprintf(
				"unknown field %q: a transfer request has only from, to, asset, amount, deadline and callData", name)}
		}
	}
	strs := map[string]*string{"from": &req.From, "to": &req.To, "amount": &req.Amount,
		"deadline": &req.Deadline, "callData": &req.CallData}
	for _, name := range transferRequestFields {
		raw, present := members[name]
		if !present {
			continue
		}
		if name == "asset" {
			if err := req.Asset.UnmarshalJSON(raw); err != nil {
				return req, asProblem(err)
			}
			continue
		}
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, strs[name]) != nil {
			return req, &intent.Problem{Kind: intent.KindBadRequest, Field: name, Detail: "must be a string"}
		}
	}
	return req, nil
}

// checkKeyEnvironment refuses a request naming a known chain of the other environment with 403
// chain-not-allowed-for-key-environment: a test key acts on testnets only, a live key on mainnets
// only. Unknown chains are left to the domain, which refuses them with 422.
func (s *Server) checkKeyEnvironment(w http.ResponseWriter, r *http.Request, key registry.Key, parsed intent.Parsed) bool {
	for _, c := range parsed.KnownChains(s.deps.Catalog) {
		if c.Environment == key.Environment || c.NumericID == nil {
			continue
		}
		s.problems.Write(w, r, problem.ChainNotAllowedForKeyEnvironment,
			fmt.Sprintf("A %s key cannot act on chain %s, a %s chain.", key.Environment, c.ID, c.Environment),
			problem.Details{"chainId": json.Number(c.NumericID.String()), "keyEnv": string(key.Environment)})
		return false
	}
	return true
}

// writeTransferError answers a refusal of the domain or a failure of the transfer service.
func (s *Server) writeTransferError(w http.ResponseWriter, r *http.Request, err error) {
	var p *intent.Problem
	var invalid *invalidIntentError
	switch {
	case errors.As(err, &p):
		// Domain kinds are the catalogue's short names; an unknown kind is still a refusal.
		t, ok := problem.BySlug(string(p.Kind))
		if !ok {
			t = problem.ValidationFailed
		}
		var details problem.Details
		if p.Field != "" || len(p.Details) > 0 {
			details = problem.Details{}
			for k, v := range p.Details {
				details[k] = v
			}
			if p.Field != "" {
				details["field"] = p.Field
			}
		}
		s.problems.Write(w, r, t, p.Error(), details)
	case errors.As(err, &invalid):
		s.problems.Write(w, r, problem.ValidationFailed,
			"The intent would not succeed as submitted: "+invalid.Error()+".", problem.Details{"errors": invalid.reasons})
	default:
		if r.Context().Err() != nil {
			// The client went away: nothing failed but its request.
			s.log.V(1).Info("transfer request abandoned by the client", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
		} else {
			s.log.Error(err, "transfer service failure", "correlationId", problem.CorrelationID(r.Context()))
		}
		s.problems.Write(w, r, problem.TransferServiceFailure,
			"The transfer service failed to process the request; retry later.", nil)
	}
}

func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.writeTransferError(w, r, err)
		return
	}
	writeJSONBytes(w, status, body)
}

// transferIntentJSON is the full record of an intent (OpenAPI TransferIntent): the summary, the
// request as sent (normalised), the tx payload and the key environment.
type transferIntentJSON struct {
	ID           string                      `json:"id"`
	Type         v1alpha1.IntentType         `json:"type"`
	Status       v1alpha1.IntentPhase        `json:"status"`
	OrderID      string                      `json:"orderId"`
	CreatedAt    string                      `json:"createdAt"`
	UpdatedAt    string                      `json:"updatedAt"`
	Metadata     intentMetadataJSON          `json:"metadata"`
	ResolvedPath []v1alpha1.IntentType       `json:"resolvedPath"`
	ExpiresAt    string                      `json:"expiresAt"`
	Request      intent.Request              `json:"request"`
	Tx           v1alpha1.TransactionPayload `json:"tx"`
	Environment  v1alpha1.Environment        `json:"environment"`
	BlockNumber  int64                       `json:"blockNumber,omitempty"`
	StatusDetail string                      `json:"statusDetail,omitempty"`
	Fill         *fillJSON                   `json:"fill,omitempty"`
	RefundHash   string                      `json:"refundHash,omitempty"`
}

// fillJSON is the OpenAPI Fill: where and by whom a swap or bridge was filled.
type fillJSON struct {
	ChainID     string `json:"chainId"`
	Hash        string `json:"hash"`
	BlockNumber int64  `json:"blockNumber,omitempty"`
	Filler      string `json:"filler"`
	AmountOut   string `json:"amountOut"`
}

type intentMetadataJSON struct {
	ChainID string `json:"chainId"`
	Hash    string `json:"hash,omitempty"`
}

func transferRecord(obj *v1alpha1.TransferIntent) transferIntentJSON {
	sum := intentstore.SummaryOf(obj)
	path := obj.Spec.ResolvedPath
	if len(path) == 0 {
		path = []v1alpha1.IntentType{obj.Spec.Type}
	}
	rec := transferIntentJSON{
		ID: sum.ID, Type: sum.Type, Status: sum.Status, OrderID: sum.OrderID,
		CreatedAt: formatTime(sum.CreatedAt), UpdatedAt: formatTime(sum.UpdatedAt),
		Metadata:     intentMetadataJSON{ChainID: sum.ChainID, Hash: sum.Hash},
		ResolvedPath: path,
		ExpiresAt:    formatTime(obj.Spec.ExpiresAt.Time),
		Request:      intentstore.RequestFromSpec(obj.Spec.Request),
		Environment:  obj.Spec.Environment,
	}
	if obj.Spec.Tx != nil {
		rec.Tx = *obj.Spec.Tx
	}
	rec.BlockNumber = obj.Status.BlockNumber
	if f := obj.Status.Fill; f != nil {
		rec.Fill = &fillJSON{ChainID: f.ChainID, Hash: f.Hash, BlockNumber: f.BlockNumber, Filler: f.Filler, AmountOut: f.AmountOut}
	}
	rec.RefundHash = obj.Status.RefundHash
	if c := meta.FindStatusCondition(obj.Status.Conditions, v1alpha1.ConditionTransaction); c != nil {
		rec.StatusDetail = c.Message
	}
	return rec
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// appendSummaries encodes a list page (OpenAPI TransferSummary items). It writes the JSON itself:
// every string but the hash has a fixed pattern the CRD enforces, and encoding a page of 100 with
// reflection would cost more than finding it.
func appendSummaries(b []byte, items []intentstore.Summary) []byte {
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		it := &items[i]
		b = append(b, `{"id":`...)
		b = appendJSONString(b, it.ID)
		b = append(b, `,"type":`...)
		b = appendJSONString(b, string(it.Type))
		b = append(b, `,"status":`...)
		b = appendJSONString(b, string(it.Status))
		b = append(b, `,"orderId":`...)
		b = appendJSONString(b, it.OrderID)
		b = append(b, `,"createdAt":"`...)
		b = it.CreatedAt.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","updatedAt":"`...)
		b = it.UpdatedAt.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","metadata":{"chainId":`...)
		b = appendJSONString(b, it.ChainID)
		if it.Hash != "" {
			b = append(b, `,"hash":`...)
			b = appendJSONString(b, it.Hash)
		}
		b = append(b, "}}"...)
	}
	return append(b, ']')
}

// appendJSONString quotes s for JSON; plain printable ASCII is copied, anything else goes
// through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
