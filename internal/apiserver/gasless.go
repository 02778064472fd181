package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/orderbook"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// GaslessBook is the gasless intents' side of the service (*orderbook.Book): Permit2 nonces,
// signatures, cancels and the order book fillers read. Its refusals are *intent.Problem values.
type GaslessBook interface {
	// Nonce is the order nonce of a new gasless intent of user on chainID (CAIP-2).
	Nonce(ctx context.Context, chainID string, user common.Address) ([32]byte, error)
	// Sign checks signature on chain and records it.
	Sign(ctx context.Context, ti *v1alpha1.TransferIntent, signature []byte) (*v1alpha1.TransferIntent, error)
	// Cancel withdraws the intent's order from the book.
	Cancel(ctx context.Context, ti *v1alpha1.TransferIntent, reason string) (*v1alpha1.TransferIntent, error)
	// List returns a page of env's listed orders, oldest first, after the position after (nil:
	// from the first), and whether more follow.
	List(env v1alpha1.Environment, f orderbook.Filter, after *orderbook.Position, limit int) ([]orderbook.Order, bool)
}

// maxSignatureBytes bounds a posted signature: a Safe's is 65 bytes per owner, and no account
// the service serves needs 32 owners' signatures for one order.
const maxSignatureBytes = 65 * 32

// gaslessRoutes are the routes of gasless intents; without Deps.Gasless they answer 503.
func (s *Server) gaslessRoutes() map[string]http.Handler {
	routes := map[string]http.Handler{
		"POST /v2/transfers/{id}/signature": http.HandlerFunc(s.signTransfer),
		"POST /v2/transfers/{id}/cancel":    http.HandlerFunc(s.cancelTransfer),
		"GET /v2/orders":                    http.HandlerFunc(s.listOrders),
	}
	if s.deps.Gasless == nil || s.deps.Intents == nil {
		unavailable := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.problems.Write(w, r, problem.ServiceUnavailable, "Gasless intents are not configured on this server.", nil)
		})
		for pattern := range routes {
			routes[pattern] = unavailable
		}
	}
	return routes
}

// gaslessNonce is the order nonce of a create: a Permit2 nonce for a gasless one, random otherwise.
func (s *Server) gaslessNonce(ctx context.Context, parsed intent.Parsed) ([32]byte, error) {
	if !parsed.Gasless || s.deps.Gasless == nil {
		return intent.NewNonce()
	}
	return s.deps.Gasless.Nonce(ctx, parsed.From.Chain.String(), common.HexToAddress(parsed.From.Address))
}

// signTransfer is POST /v2/transfers/{id}/signature: the user's signature of the intent's
// Permit2 typed data. It is checked on the origin chain before it is accepted; the intent is then
// signed, and its order offered to fillers (GET /v2/orders).
func (s *Server) signTransfer(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readJSONBody(w, r)
	if !ok {
		return
	}
	sig, perr := decodeSignature(body)
	if perr != nil {
		s.writeTransferError(w, r, perr)
		return
	}
	obj, ok := s.callersIntent(w, r)
	if !ok {
		return
	}
	written, err := s.deps.Gasless.Sign(r.Context(), obj, sig)
	if err != nil {
		s.writeTransferError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, s.transferRecord(written))
}

// cancelTransfer is POST /v2/transfers/{id}/cancel: the soft cancel of a gasless intent (no
// longer offered); its record carries the hard cancel, Permit2's invalidateUnorderedNonces, for
// the user to send. Its body is optional: none, or a CancelRequest ({} from a generated client,
// or {"reason": "..."}).
func (s *Server) cancelTransfer(w http.ResponseWriter, r *http.Request) {
	reason, ok := s.readCancelReason(w, r)
	if !ok {
		return
	}
	obj, ok := s.callersIntent(w, r)
	if !ok {
		return
	}
	written, err := s.deps.Gasless.Cancel(r.Context(), obj, reason)
	if err != nil {
		s.writeTransferError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, s.transferRecord(written))
}

// maxCancelReasonChars bounds a cancel's reason (characters; the CRD's cancelReason agrees).
const maxCancelReasonChars = 200

// readCancelReason reads a cancel's optional body: none (Content-Length 0, whatever the
// Content-Type) is no reason; otherwise an application/json CancelRequest, an object with at
// most reason, a string of 1 to maxCancelReasonChars characters without control characters.
// Anything else is a 400 problem (415 for another media type), written here.
func (s *Server) readCancelReason(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.ContentLength == 0 {
		return "", true
	}
	body, ok := s.readJSONBody(w, r)
	if !ok {
		return "", false
	}
	reason, perr := cancelReason(body)
	if perr != nil {
		s.writeTransferError(w, r, perr)
		return "", false
	}
	return reason, true
}

// cancelReason is the schema check of a CancelRequest: a JSON object with at most a reason.
func cancelReason(body []byte) (string, *intent.Problem) {
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || members == nil {
		return "", &intent.Problem{Kind: intent.KindBadRequest, Detail: `the request body must be a JSON object: {} or {"reason": "..."}`}
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must hold exactly one JSON object"}
	}
	for member := range members {
		if member != "reason" {
			return "", &intent.Problem{Kind: intent.KindBadRequest, Field: member,
				Detail: fmt.Sprintf("unknown field %q: a cancel request has only reason", member)}
		}
	}
	raw, present := members["reason"]
	if !present {
		return "", nil
	}
	var reason string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &reason) != nil {
		return "", &intent.Problem{Kind: intent.KindBadRequest, Field: "reason", Detail: "reason must be a string"}
	}
	if n := utf8.RuneCountInString(reason); n == 0 || n > maxCancelReasonChars {
		return "", &intent.Problem{Kind: intent.KindBadRequest, Field: "reason",
			Detail: fmt.Sprintf("reason must be 1 to %d characters; leave it out for none", maxCancelReasonChars)}
	}
	if strings.IndexFunc(reason, unicode.IsControl) >= 0 || !utf8.ValidString(reason) {
		return "", &intent.Problem{Kind: intent.KindBadRequest, Field: "reason", Detail: "reason must not hold control characters (line breaks, tabs, ...)"}
	}
	return reason, nil
}

// listOrders is GET /v2/orders, the order book: signed gasless orders of every account in the
// key's environment, for filler keys only.
func (s *Server) listOrders(w http.ResponseWriter, r *http.Request) {
	key, _ := KeyFrom(r)
	if !key.Filler {
		s.problems.Write(w, r, problem.FillerKeyRequired,
			"The order book is read with a filler key (an ApiKey with spec.role filler, granted by the operator).", nil)
		return
	}
	q := r.URL.Query()
	f, ok := s.orderFilter(w, r, q)
	if !ok {
		return
	}
	after, limit, ok := s.orderPage(w, r, q)
	if !ok {
		return
	}
	orders, more := s.deps.Gasless.List(v1alpha1.Environment(key.Environment), f, after, limit)
	if more && len(orders) > 0 {
		last := orderbook.PositionOf(orders[len(orders)-1])
		s.setNextLink(w, r, encodeCursor(last.CreatedAt.UTC().Format(time.RFC3339Nano), last.OrderID))
	}
	s.writeJSON(w, r, http.StatusOK, orders)
}

// orderPage reads the order book's limit and cursor: the cursor is the position of the last order
// of the previous page (its createdAt and orderId, both fields of the entry), never an intent id.
func (s *Server) orderPage(w http.ResponseWriter, r *http.Request, q url.Values) (*orderbook.Position, int, bool) {
	p, ok := s.parsePage(w, r, q, 2)
	if !ok {
		return nil, 0, false
	}
	if p.limit == 0 {
		p.limit = defaultPageLimit
	}
	if p.cursor == nil {
		return nil, p.limit, true
	}
	at, err := time.Parse(time.RFC3339Nano, p.cursor[0])
	if err != nil || !orderIDPattern.MatchString(p.cursor[1]) {
		s.problems.Write(w, r, problem.BadRequest, "Query parameter cursor is not a cursor this service issued; "+
			"take it from the Link header of the previous page.", problem.Details{"parameter": "cursor"})
		return nil, 0, false
	}
	return &orderbook.Position{CreatedAt: at.UTC(), OrderID: p.cursor[1]}, p.limit, true
}

// orderFilter reads status, chainId and token; a bad value is a 400 naming the parameter.
func (s *Server) orderFilter(w http.ResponseWriter, r *http.Request, q url.Values) (orderbook.Filter, bool) {
	f := orderbook.Filter{Status: v1alpha1.IntentPhaseSigned}
	bad := func(name, detail string) (orderbook.Filter, bool) {
		s.problems.Write(w, r, problem.BadRequest, detail, problem.Details{"parameter": name})
		return f, false
	}
	for name, values := range q {
		if len(values) > 1 {
			return bad(name, fmt.Sprintf("Query parameter %s must appear once.", name))
		}
	}
	switch v := q.Get("status"); v {
	case "", string(v1alpha1.IntentPhaseSigned):
	case string(v1alpha1.IntentPhaseSubmitted):
		f.Status = v1alpha1.IntentPhaseSubmitted
	default:
		return bad("status", "Query parameter status must be signed or submitted: the book lists orders offered or opened, not settled ones.")
	}
	if v := q.Get("chainId"); v != "" {
		id, err := caip.ParseChainID(v)
		if err != nil {
			return bad("chainId", "Query parameter chainId must be a CAIP-2 chain id such as eip155:1.")
		}
		f.Chain = id.String()
	}
	if v := q.Get("token"); v != "" {
		id, err := caip.ParseAccountID(v)
		if err != nil {
			return bad("token", "Query parameter token must be a CAIP-10 token address such as eip155:1:0xA0b8....")
		}
		f.Token = id.String()
	}
	return f, true
}

// decodeSignature is the schema check of a signature body: exactly {"signature": "0x<hex>"}.
func decodeSignature(body []byte) ([]byte, *intent.Problem) {
	hex, ok, perr := oneStringMember(body, "signature", "a signature body")
	if perr != nil {
		return nil, perr
	}
	if !ok {
		return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "signature", Detail: "signature is required: 0x-prefixed hex"}
	}
	sig, err := hexutil.Decode(hex)
	if err != nil || len(sig) == 0 || len(sig) > maxSignatureBytes {
		return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "signature",
			Detail: fmt.Sprintf("signature must be 0x-prefixed hex of 1 to %d bytes (65 for an ECDSA signature)", maxSignatureBytes)}
	}
	return sig, nil
}
