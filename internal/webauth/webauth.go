// Package webauth is browser sign-in for Accounts and API key management by a signed-in person:
// the /sign-in and /keys pages, POST /auth/sign-in and /auth/sign-out, and the key endpoints
// under /auth (create, list, disable, delete); the read-only /intents pages, on which a
// signed-in person follows the account's transfer intents; and the /webhooks page, which lists,
// creates (showing the new signing secret once) and deletes the account's WebhookEndpoints.
//
// It is mounted by internal/apiserver outside the /v2 authentication gate, behind the same
// correlation ids, problem details and readiness. A session only ever manages keys and shows the
// account's intents and webhook endpoints on the pages: /v2 reads the api-key header and nothing else (a session cookie
// never replaces it).
//
// Security decisions, in one place:
//   - The session is a cookie (see session.go) signed with HMAC-SHA256 by a key from a Secret, so
//     every replica accepts it; it lasts --session-ttl (8 h) at most and --session-idle-timeout
//     (30 min) unused. The account is looked up on every request, so disabling or deleting the
//     Account ends its sessions at once; sign-out is recorded on the Account's status
//     (revoke.go), and a new password ends the sessions of the old one, on every replica and
//     across restarts.
//   - State-changing requests pass net/http's CrossOriginProtection (Sec-Fetch-Site, then Origin
//     against Host): a cross-site POST or DELETE is 403 `forbidden`. The cookie is also
//     SameSite=Strict, and JSON endpoints refuse other media types (415), which a cross-site form
//     cannot send.
//   - Failed sign-ins are limited per (email, client address) and per client address (throttle.go),
//     and slowed per account by a short, growing closure that a browser which signed in to the
//     account before does not meet (backoff.go, device.go): nobody elsewhere can lock the owner
//     out. Every failure has the same answer and costs one bcrypt comparison, known email or not.
//   - A new key is shown once: only its sha256 hash is written to the ApiKey, and no log line,
//     event or error carries the key.
package webauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/kubeapi"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/strictjson"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=apikeys,verbs=create;patch;delete
// +kubebuilder:rbac:groups="",resources=secrets,verbs=create

// Options are the settings of the sign-in and key management endpoints, from flags.
type Options struct {
	// Site is the external URL, problem base URL and body limit, shared with the API; the service
	// (internal/service) sets it from its one Site value. The base URL's path, if any, prefixes
	// the links and redirects of the pages.
	problem.Site
	// SessionTTL is how long a session lasts after sign-in (--session-ttl), however it is used.
	SessionTTL time.Duration
	// SessionIdleTimeout ends a session unused for this long (--session-idle-timeout).
	SessionIdleTimeout time.Duration
	// ClientFailures limits failed sign-ins per (email, client address), AddressFailures per
	// client address; AccountBackoff slows guessing at one account from anywhere (see
	// BackoffPolicy) without locking its owner out.
	ClientFailures  ThrottlePolicy
	AddressFailures ThrottlePolicy
	AccountBackoff  BackoffPolicy
	// WriteTimeout bounds each call to the Kubernetes API behind an /auth request (a key's
	// creation, disabling or deletion, a sign-out), well under the HTTP write timeout.
	WriteTimeout time.Duration
	// TrustedProxies are the addresses of reverse proxies whose X-Forwarded-For is believed when
	// finding the client address (--trusted-proxies). Empty: the peer address is the client.
	TrustedProxies []netip.Prefix
	// WebhookEndpointLimit is the most WebhookEndpoints of an account that are served
	// (--webhook-endpoints-per-account): the /webhooks page creates none beyond it. Below 1, no
	// limit.
	WebhookEndpointLimit int
}

// DefaultOptions are the defaults of the flags.
func DefaultOptions() Options {
	return Options{
		Site:               problem.DefaultSite(),
		SessionTTL:         8 * time.Hour,
		SessionIdleTimeout: 30 * time.Minute,
		WriteTimeout:       5 * time.Second,
		ClientFailures:     ThrottlePolicy{Limit: 5, Window: 15 * time.Minute},
		AddressFailures:    ThrottlePolicy{Limit: 20, Window: 15 * time.Minute},
		AccountBackoff:     BackoffPolicy{Free: 10, Window: 15 * time.Minute, Base: time.Second, Max: 5 * time.Minute},
	}
}

// AccountDirectory finds accounts; *registry.Accounts implements it.
type AccountDirectory interface {
	Get(name string) (registry.Account, bool)
	ByEmail(email string) (registry.Account, bool)
}

// KeyStore is the API key index /v2 authenticates with; *registry.KeyIndex implements it. The
// handlers write to it right after the API server accepted a change, so that the change holds on
// this replica at once; the ApiKey controller later publishes the same (Upsert is idempotent).
type KeyStore interface {
	Upsert(hash string, k registry.Key) (conflictWith string)
	Delete(keyID string)
	ByAccount(name string) []registry.Key
}

// SessionKeySource returns the session signing keys: the first signs, any verifies.
// *SessionSecret implements it; StaticSessionKeys is for tests.
type SessionKeySource interface {
	SessionKeys(ctx context.Context) ([][]byte, error)
}

// Deps are what the handlers read from and write to.
type Deps struct {
	Accounts AccountDirectory
	Keys     KeyStore
	// Cache reads Secrets (password hashes) and Accounts: the manager's cache.
	Cache client.Reader
	// APIReader reads an Account from the API server itself before a sign-out is recorded on
	// its status (mgr.GetAPIReader()); Status writes that status (mgr.GetClient().Status()).
	APIReader client.Reader
	Status    client.SubResourceWriter
	// Writer creates, patches and deletes ApiKeys: the manager's client, whose writes go to the
	// API server directly.
	Writer client.Writer
	// Namespace is where the Accounts, their Secrets and the ApiKeys live (--namespace).
	Namespace   string
	SessionKeys SessionKeySource
	// Events records key creation, disabling and deletion on the ApiKey; optional.
	Events events.EventRecorder
	// Clock is the time source of sessions, expiry checks and throttling; clock.RealClock when nil.
	Clock clock.PassiveClock
	// Shared, when set, counts failed sign-ins in Redis for every replica; otherwise each replica
	// counts its own.
	Shared *ratelimit.RedisStore
	// Intents are read by the /intents pages, always for the signed-in account; without it those
	// pages answer 503.
	Intents IntentReader
	// Chains is the chain table: it links the intents' transactions to their chains' block
	// explorers and gives the refund terms of their settlement contracts; optional.
	Chains transferrecord.Chains
}

// Handler serves the pages and the /auth endpoints. Mount it as apiserver.Deps.Web.
type Handler struct {
	opts     Options
	deps     Deps
	log      logr.Logger
	problems problem.Writer
	// basePath is the path of BaseURL without its trailing slash ("" or e.g. "/api").
	basePath        string
	secureCookies   bool
	clientThrottle  Attempts
	addressThrottle Attempts
	accountBackoff  Attempts
	crossOrigin     *http.CrossOriginProtection
	pages           *pages
	// revoked are the sessions this replica signed out, refused before its cache shows it.
	revoked revokedSet
	mux     *http.ServeMux
}

// New builds the handler.
func New(opts Options, deps Deps, log logr.Logger) (*Handler, error) {
	if deps.Accounts == nil || deps.Keys == nil || deps.Cache == nil || deps.APIReader == nil || deps.Writer == nil ||
		deps.Status == nil || deps.SessionKeys == nil {
		return nil, errors.New("webauth: Accounts, Keys, Cache, APIReader, Writer, Status and SessionKeys are required")
	}
	if deps.Namespace == "" {
		return nil, errors.New("webauth: Namespace is required")
	}
	if deps.Clock == nil {
		deps.Clock = clock.RealClock{}
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultOptions().WriteTimeout
	}
	if opts.SessionTTL <= 0 {
		return nil, fmt.Errorf("webauth: session TTL %s must be positive", opts.SessionTTL)
	}
	if opts.SessionIdleTimeout < 2*seenRefresh || opts.SessionIdleTimeout > opts.SessionTTL {
		return nil, fmt.Errorf("webauth: session idle timeout %s must be at least %s and at most the session TTL %s",
			opts.SessionIdleTimeout, 2*seenRefresh, opts.SessionTTL)
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultOptions().MaxBodyBytes
	}
	base, err := url.Parse(opts.BaseURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("webauth: base URL %q is not an absolute URL", opts.BaseURL)
	}
	h := &Handler{
		opts:            opts,
		deps:            deps,
		log:             log,
		problems:        problem.NewWriter(opts.BaseURL, opts.ProblemBaseURL),
		basePath:        strings.TrimRight(base.Path, "/"),
		secureCookies:   base.Scheme == "https",
		clientThrottle:  localAttempts{NewThrottle(opts.ClientFailures)},
		addressThrottle: localAttempts{NewThrottle(opts.AddressFailures)},
		accountBackoff:  newLocalBackoff(opts.AccountBackoff),
		crossOrigin:     http.NewCrossOriginProtection(),
	}
	if deps.Shared != nil {
		names := keyNamer{prefix: "signin:", keys: deps.SessionKeys}
		h.clientThrottle = NewSharedAttempts(deps.Shared, opts.ClientFailures, names)
		h.addressThrottle = NewSharedAttempts(deps.Shared, opts.AddressFailures, names)
		h.accountBackoff = NewSharedBackoff(deps.Shared, opts.AccountBackoff, names)
	}
	// Behind a proxy the Host header may not be the public host; the base URL's origin is ours.
	if err := h.crossOrigin.AddTrustedOrigin(base.Scheme + "://" + base.Host); err != nil {
		return nil, fmt.Errorf("webauth: %w", err)
	}
	h.crossOrigin.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.problems.Write(w, r, problem.Forbidden, "Cross-site requests are refused: send it from this site's own pages or without a browser.", nil)
	}))
	if h.pages, err = newPages(h.basePath); err != nil {
		return nil, err
	}
	h.mux = http.NewServeMux()
	h.handle("GET /sign-in", h.signInPage)
	h.handle("GET /keys", h.keysPage)
	h.handle("GET /intents", h.intentsPage)
	h.handle("GET /intents/{id}", h.intentPage)
	h.handle("GET /webhooks", h.webhooksPage)
	h.handle("POST /webhooks", h.sameOrigin(h.createWebhook))
	h.handle("POST /webhooks/{name}/delete", h.sameOrigin(h.deleteWebhook))
	h.handle("GET /auth/assets/{name}", h.asset)
	h.handle("POST /auth/sign-in", h.sameOrigin(h.signIn))
	h.handle("POST /auth/sign-out", h.sameOrigin(h.signOut))
	h.handle("POST /auth/api-key/create", h.sameOrigin(h.signedIn(h.createKey)))
	h.handle("GET /auth/api-keys", h.signedIn(h.listKeys))
	h.handle("POST /auth/api-keys/{id}/disable", h.sameOrigin(h.signedIn(h.disableKey)))
	h.handle("DELETE /auth/api-keys/{id}", h.sameOrigin(h.signedIn(h.deleteKey)))
	return h, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// handle registers fn and names its route in metrics and logs.
func (h *Handler) handle(pattern string, fn http.HandlerFunc) {
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		apiserver.SetRoute(r, pattern)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fn(w, r)
	})
}

// sameOrigin refuses cross-site requests (CSRF) with 403 before anything else is looked at.
func (h *Handler) sameOrigin(next http.HandlerFunc) http.HandlerFunc {
	protected := h.crossOrigin.Handler(next)
	return protected.ServeHTTP
}

// signedInHandler is a handler that runs with the request's signed-in account.
type signedInHandler func(w http.ResponseWriter, r *http.Request, account registry.Account)

// signedIn answers 401 unless the request carries a valid session of a usable account.
func (h *Handler) signedIn(next signedInHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		account, ok, err := h.session(w, r)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		if !ok {
			h.problems.Write(w, r, problem.Unauthorized, "Sign in first: this needs a session of an enabled account.", nil)
			return
		}
		next(w, r, account)
	}
}

// unavailable answers 503 when what a session is checked against (the session keys, the Account,
// its password Secret) cannot be read.
func (h *Handler) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	h.log.Error(err, "checking a session", "correlationId", problem.CorrelationID(r.Context()))
	w.Header().Set("Retry-After", "5")
	h.problems.Write(w, r, problem.ServiceUnavailable, "Sessions cannot be checked right now; retry shortly.", nil)
}

// writeFailed answers a failed call to the Kubernetes API: 503 with Retry-After when the API
// server could not be reached in time, or the object kept changing under optimistic locking (the
// client may retry), 500 otherwise. Either way it logs.
func (h *Handler) writeFailed(w http.ResponseWriter, r *http.Request, msg string, err error, kv ...any) {
	h.writeFailedSaying(w, r, "The Kubernetes API did not answer in time; retry shortly.", msg, err, kv...)
}

// writeFailedSaying is writeFailed with the 503's detail.
func (h *Handler) writeFailedSaying(w http.ResponseWriter, r *http.Request, detail, msg string, err error, kv ...any) {
	if !kubeapi.Unreachable(err) && !apierrors.IsConflict(err) {
		h.internalError(w, r, msg, err, kv...)
		return
	}
	if errors.Is(err, context.Canceled) {
		h.log.V(1).Info(msg+": the client went away", append(kv, "correlationId", problem.CorrelationID(r.Context()))...)
	} else {
		h.log.Error(err, msg, append(kv, "correlationId", problem.CorrelationID(r.Context()))...)
	}
	w.Header().Set("Retry-After", "5")
	h.problems.Write(w, r, problem.ServiceUnavailable, detail, nil)
}

// internalError logs err and answers 500 without telling the client what failed.
func (h *Handler) internalError(w http.ResponseWriter, r *http.Request, msg string, err error, kv ...any) {
	h.log.Error(err, msg, append(kv, "correlationId", problem.CorrelationID(r.Context()))...)
	h.problems.Write(w, r, problem.InternalError, "The server failed to handle the request.", nil)
}

// writeJSON answers with a JSON body that must not be cached: it is one person's data.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own types are encoded
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// mediaType returns the request's media type without parameters, "" when there is none.
func mediaType(r *http.Request) string {
	// Two Content-Type headers are ambiguous: no media type.
	if len(r.Header.Values("Content-Type")) != 1 {
		return ""
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// decodeJSON reads a JSON object body into v, allowing only the named members (exact case), and
// answers 415, 413 or 400 itself when it cannot; it reports whether v was filled.
func (h *Handler) decodeJSON(w http.ResponseWriter, r *http.Request, v any, members ...string) bool {
	if mediaType(r) != "application/json" {
		h.problems.Write(w, r, problem.UnsupportedMediaType, "Send the body as application/json.", nil)
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	if err != nil {
		if errBodyTooLarge(err) {
			h.problems.Write(w, r, problem.PayloadTooLarge,
				"The body is larger than "+strconv.FormatInt(h.opts.MaxBodyBytes, 10)+" bytes.", nil)
			return false
		}
		h.problems.Write(w, r, problem.BadRequest, "The body could not be read.", nil)
		return false
	}
	if err := strictjson.Check(body); err != nil {
		h.problems.Write(w, r, problem.BadRequest, "The body must be a JSON object: "+err.Error()+".", nil)
		return false
	}
	// Decoding into a map first catches what encoding/json lets through: unknown members in any
	// case, and a member spelled in another case than the documented one.
	var object map[string]json.RawMessage
	if err := json.Unmarshal(body, &object); err != nil || object == nil {
		h.problems.Write(w, r, problem.BadRequest, "The body must be a JSON object.", nil)
		return false
	}
	for name := range object {
		if !slices.Contains(members, name) {
			h.problems.Write(w, r, problem.BadRequest, fmt.Sprintf("The body has an unknown field %q; allowed: %s.",
				name, strings.Join(members, ", ")), problem.Details{"field": name})
			return false
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		detail := "The body does not match the expected shape."
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			detail = fmt.Sprintf("Field %q must be a JSON %s.", typeErr.Field, jsonKind(typeErr.Type.Kind().String()))
		}
		h.problems.Write(w, r, problem.BadRequest, detail, nil)
		return false
	}
	return true
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "struct", "map":
		return "object"
	case "slice", "array":
		return "array"
	}
	return "number"
}

// ParseTrustedProxies parses --trusted-proxies: a comma-separated list of CIDR prefixes or
// single addresses, e.g. "10.0.0.0/8,fd00::/8,192.0.2.10". Empty means none.
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR prefix", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
