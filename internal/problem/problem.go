// Package problem builds RFC 9457 problem details. It holds the one catalogue of problem types the
// service can answer with; handlers name a Type and never build problem JSON themselves.
package problem

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Type is one entry of the catalogue: the short name that ends the type URI, its title and status.
type Type struct {
	Slug   string
	Title  string
	Status int
}

// The catalogue. Slugs and statuses of the first block are fixed by the interface contract (docs/architecture.md lists them).
var (
	BadRequest                       = Type{"bad-request", "Bad Request", http.StatusBadRequest}
	MissingAPIKey                    = Type{"missing-api-key", "Missing API Key", http.StatusUnauthorized}
	InvalidAPIKey                    = Type{"invalid-api-key", "Invalid API Key", http.StatusForbidden}
	ChainNotAllowedForKeyEnvironment = Type{"chain-not-allowed-for-key-environment", "Chain Not Allowed For Key Environment", http.StatusForbidden}
	ValidationFailed                 = Type{"validation-failed", "Validation Failed", http.StatusUnprocessableEntity}
	CurrencyError                    = Type{"CurrencyError", "Currency Error", http.StatusUnprocessableEntity}
	RateLimited                      = Type{"rate-limited", "Rate Limit Exceeded", http.StatusTooManyRequests}
	TransferServiceFailure           = Type{"transfer-service-failure", "Transfer Service Failure", http.StatusInternalServerError}

	// Our additions (docs/decisions.md): every failure is a problem, including the server's own.
	NotFound             = Type{"not-found", "Not Found", http.StatusNotFound}
	MethodNotAllowed     = Type{"method-not-allowed", "Method Not Allowed", http.StatusMethodNotAllowed}
	PayloadTooLarge      = Type{"payload-too-large", "Payload Too Large", http.StatusRequestEntityTooLarge}
	UnsupportedMediaType = Type{"unsupported-media-type", "Unsupported Media Type", http.StatusUnsupportedMediaType}
	ServiceUnavailable   = Type{"service-unavailable", "Service Unavailable", http.StatusServiceUnavailable}
	InternalError        = Type{"internal-error", "Internal Server Error", http.StatusInternalServerError}
	Unauthorized         = Type{"unauthorized", "Unauthorized", http.StatusUnauthorized}
	Forbidden            = Type{"forbidden", "Forbidden", http.StatusForbidden}
	Conflict             = Type{"conflict", "Conflict", http.StatusConflict}

	// Firm quotes (issue 27): a create naming a simulation, or a minimum output, it cannot keep.
	QuoteExpired  = Type{"quote-expired", "Quote Expired", http.StatusUnprocessableEntity}
	QuoteMismatch = Type{"quote-mismatch", "Quote Mismatch", http.StatusUnprocessableEntity}
	MinAmountOut  = Type{"min-amount-out", "Minimum Output Not Met", http.StatusUnprocessableEntity}
	// The integrator fee a request sets, refused by its Account's fee policy.
	FeeNotAllowed          = Type{"fee-not-allowed", "Fee Not Allowed", http.StatusUnprocessableEntity}
	FeeRecipientNotAllowed = Type{"fee-recipient-not-allowed", "Fee Recipient Not Allowed", http.StatusUnprocessableEntity}

	// Gasless intents (issue 34): a signature the service will not offer to fillers, each for its
	// own reason (internal/chain/gasless names them), and the order book's key.
	SignatureInvalid      = Type{"signature-invalid", "Signature Invalid", http.StatusUnprocessableEntity}
	NonceUsed             = Type{"nonce-used", "Permit2 Nonce Used", http.StatusUnprocessableEntity}
	InsufficientBalance   = Type{"insufficient-balance", "Insufficient Balance", http.StatusUnprocessableEntity}
	Permit2AllowanceShort = Type{"permit2-allowance-short", "Permit2 Allowance Short", http.StatusUnprocessableEntity}
	OpenWouldRevert       = Type{"open-would-revert", "Open Would Revert", http.StatusUnprocessableEntity}
	FillerKeyRequired     = Type{"filler-key-required", "Filler Key Required", http.StatusForbidden}
	// The bound of a wallet's outstanding orders (issue 47): a signature whose order, with the
	// user's other signed orders of the token, takes more than the wallet holds.
	OrdersExceedFunds = Type{"orders-exceed-funds", "Orders Exceed Funds", http.StatusUnprocessableEntity}

	// Live status streams (issue 35): a key, or the server, holds as many event streams as it may.
	TooManyStreams = Type{"too-many-streams", "Too Many Streams", http.StatusTooManyRequests}
)

// Catalogue lists every Type, for documentation and for tests that compare it with the OpenAPI document.
var Catalogue = []Type{
	BadRequest, MissingAPIKey, InvalidAPIKey, ChainNotAllowedForKeyEnvironment, ValidationFailed,
	CurrencyError, RateLimited, TransferServiceFailure, NotFound, MethodNotAllowed, PayloadTooLarge,
	UnsupportedMediaType, ServiceUnavailable, InternalError, Unauthorized, Forbidden, Conflict,
	QuoteExpired, QuoteMismatch, MinAmountOut, FeeNotAllowed, FeeRecipientNotAllowed,
	SignatureInvalid, NonceUsed, InsufficientBalance, Permit2AllowanceShort, OpenWouldRevert, OrdersExceedFunds, FillerKeyRequired,
	TooManyStreams,
}

// bySlug indexes Catalogue by short name.
var bySlug = func() map[string]Type {
	m := make(map[string]Type, len(Catalogue))
	for _, t := range Catalogue {
		m[t.Slug] = t
	}
	return m
}()

// BySlug returns the catalogue's type with the short name, for layers (such as the domain) that
// name problems by short name.
func BySlug(slug string) (Type, bool) {
	t, ok := bySlug[slug]
	return t, ok
}

// ContentType is the media type of every problem response.
const ContentType = "application/problem+json"

// Shared header values: net/http only reads them, so one slice serves every response.
var (
	contentTypeValue = []string{ContentType}
	noStoreValue     = []string{"no-store"}
)

// Details is the optional extra data of a problem (for example chainId and keyEnv).
type Details map[string]any

// Body is the JSON shape of a problem (RFC 9457 with correlationId and details).
type Body struct {
	Type          string  `json:"type"`
	Title         string  `json:"title"`
	Status        int     `json:"status"`
	Detail        string  `json:"detail"`
	Instance      string  `json:"instance"`
	CorrelationID string  `json:"correlationId"`
	Details       Details `json:"details,omitempty"`
}

// Writer writes problems with the service's URLs: type = ProblemBaseURL/<slug>, instance = BaseURL +
// the request's path and query.
type Writer struct {
	BaseURL        string
	ProblemBaseURL string
}

// NewWriter trims trailing slashes so that joining never doubles them.
func NewWriter(baseURL, problemBaseURL string) Writer {
	return Writer{BaseURL: strings.TrimRight(baseURL, "/"), ProblemBaseURL: strings.TrimRight(problemBaseURL, "/")}
}

// TypeURI is the type URI of t.
func (w Writer) TypeURI(t Type) string { return w.ProblemBaseURL + "/" + t.Slug }

// Body builds the problem body for a request without writing it.
func (w Writer) Body(r *http.Request, t Type, detail string, details Details) Body {
	return Body{
		Type:          w.TypeURI(t),
		Title:         t.Title,
		Status:        t.Status,
		Detail:        Bound(detail, MaxDetailBytes),
		Instance:      w.BaseURL + boundURI(r),
		CorrelationID: CorrelationID(r.Context()),
		Details:       boundDetails(details),
	}
}

// Bounds of what a problem may carry of the client's input: a message that quotes a 60 KB amount
// must not answer 60 KB, nor twice that.
const (
	MaxDetailBytes       = 512
	MaxDetailsValueBytes = 256
)

// Bound cuts s to at most max bytes, at a rune boundary, marking the cut with "…".
func Bound(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// MaxInstanceBytes bounds the request URI a problem's instance repeats; a longer one is reduced
// to its path (itself bounded), since the query is the client's input.
const MaxInstanceBytes = 512

func boundURI(r *http.Request) string {
	uri := r.URL.RequestURI()
	if len(uri) <= MaxInstanceBytes {
		return uri
	}
	path := r.URL.EscapedPath()
	if len(path) > MaxInstanceBytes {
		path = path[:MaxInstanceBytes]
	}
	return path
}

func boundDetails(details Details) Details {
	var out Details
	for k, v := range details {
		if str, ok := v.(string); ok && len(str) > MaxDetailsValueBytes {
			if out == nil {
				out = maps.Clone(details)
			}
			out[k] = Bound(str, MaxDetailsValueBytes)
		}
	}
	if out == nil {
		return details
	}
	return out
}

// Write answers the request with problem t. Headers already set on rw (Retry-After, Allow,
// WWW-Authenticate, rate-limit headers) are kept.
func (w Writer) Write(rw http.ResponseWriter, r *http.Request, t Type, detail string, details Details) {
	body, err := json.Marshal(w.Body(r, t, detail, details))
	if err != nil {
		// Details hold only numbers and strings; this cannot fail, but never answer without a body.
		body = []byte(`{"type":"` + w.TypeURI(InternalError) + `","title":"Internal Server Error","status":500}`)
	}
	h := rw.Header()
	h["Content-Type"] = contentTypeValue
	h["Cache-Control"] = noStoreValue
	delete(h, "Content-Length")
	rw.WriteHeader(t.Status)
	_, _ = rw.Write(body)
}

type correlationKey struct{}

// Carrier is whatever a request's context carries that knows the request's correlation id. The
// HTTP server puts its per-request state here, so one context value serves every layer.
type Carrier interface {
	CorrelationID() string
}

// WithCarrier returns a context that carries c.
func WithCarrier(ctx context.Context, c Carrier) context.Context {
	return context.WithValue(ctx, correlationKey{}, c)
}

// CarrierFrom returns the Carrier of ctx, or nil.
func CarrierFrom(ctx context.Context) Carrier {
	c, _ := ctx.Value(correlationKey{}).(Carrier)
	return c
}

// CorrelationID returns the correlation id carried by ctx, or "" when there is none.
func CorrelationID(ctx context.Context) string {
	if c := CarrierFrom(ctx); c != nil {
		return c.CorrelationID()
	}
	return ""
}

// Site is what every HTTP surface of the service (the /v2 API, sign-in and its pages) shares, so
// that problems, links and limits agree wherever a client meets them: one value, set from the
// --base-url, --problem-base-url and --max-body-bytes flags.
type Site struct {
	// BaseURL is the service's external URL, e.g. https://api.example.com: it prefixes a problem's
	// instance, the links and redirects of the pages, and the OpenAPI servers entry; https makes
	// the session cookie Secure.
	BaseURL string
	// ProblemBaseURL prefixes a problem type's short name.
	ProblemBaseURL string
	// MaxBodyBytes bounds request bodies; larger ones get 413.
	MaxBodyBytes int64
}

// DefaultSite is the Site of the flags' defaults.
func DefaultSite() Site {
	return Site{BaseURL: "http://localhost:8080", ProblemBaseURL: "https://problems.transferintent.io", MaxBodyBytes: 64 << 10}
}
