package apiserver

import (
	"context"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	"k8s.io/utils/clock"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// KeyIndex authenticates API keys by the hash of the whole key. *registry.KeyIndex implements it.
type KeyIndex interface {
	// Authenticate returns the key when it exists, is enabled, has not expired at now and its
	// account exists and is enabled.
	Authenticate(hash string, now time.Time) (registry.Key, bool)
	// Recheck says why the key keyID, which authenticated with hash, is refused at now ("" while
	// it is not); an event stream asks it on every change and on a short timer.
	Recheck(hash, keyID string, now time.Time) registry.Refusal
	// Changed returns a channel closed at the index's next change.
	Changed() <-chan struct{}
}

// TokenSource is the served token registry. *registry.TokenRegistry implements it.
type TokenSource interface {
	// List returns the served tokens, sorted by chain then symbol.
	List() []registry.Token
	// OnChange registers fn to be called after every change of the served set.
	OnChange(fn func())
}

// APIHealth tells whether the Kubernetes API server answers (*apihealth.Checker).
type APIHealth interface {
	// State is "ok", or why the API server does not answer.
	State() string
}

// TransferService is the transfer domain. *intent.Service implements it.
type TransferService interface {
	// Simulate is the dry run of POST /v2/transfers/simulate.
	Simulate(ctx context.Context, account string, p intent.Parsed) (intent.SimulationResult, error)
	// Prepare plans an intent to create with a fresh nonce.
	Prepare(ctx context.Context, account string, p intent.Parsed, nonce [32]byte) (intent.Plan, error)
	// WithNonce is a valid plan with the order's nonce in place of the throw-away one it was
	// planned with.
	WithNonce(account string, p intent.Parsed, plan intent.Plan, nonce [32]byte) (intent.Plan, error)
}

// IntentStore stores intents and serves them from memory. *intentstore.Store implements it.
type IntentStore interface {
	// Create stores a new intent, or returns the one created earlier with the same idempotency key.
	Create(ctx context.Context, req intentstore.CreateRequest) (intentstore.Created, error)
	// Get returns the owner's intent with the id; another account's, or another environment's,
	// intent is not found.
	Get(ctx context.Context, owner intentstore.Owner, id string) (*v1alpha1.TransferIntent, bool, error)
	// List returns a page of the owner's intents that match the filter, newest first, and
	// whether more follow.
	List(ctx context.Context, owner intentstore.Owner, filter intentstore.Filter, after string, limit int) ([]transferrecord.Summary, bool, error)
	// AttestedOrder returns the intent whose order (by orderId) has an attested fill.
	AttestedOrder(ctx context.Context, orderID string) (*v1alpha1.TransferIntent, bool, error)
}

// SubmissionRecorder checks a reported transaction hash against the intent's transaction on its
// chain and records it. Its refusals are *intent.Problem values. *watcher.Submissions implements it.
type SubmissionRecorder interface {
	Submit(ctx context.Context, ti *v1alpha1.TransferIntent, hash common.Hash) (*v1alpha1.TransferIntent, error)
}

// Deps are what the handlers read from. Nil optional fields get defaults in New.
type Deps struct {
	Keys   KeyIndex
	Tokens TokenSource
	// OpenAPI is the full document as JSON (GET /openapi.json); OpenAPIV2 the /v2 part (GET /v2/openapi.json).
	OpenAPI   []byte
	OpenAPIV2 []byte
	// Limiter counts requests per key; an in-memory sliding window by default.
	Limiter ratelimit.Limiter
	// Clock is the time source of expiry and rate windows.
	Clock clock.PassiveClock
	// Metrics receives request counts and latencies.
	Metrics *Metrics
	// Catalog is the chain table and token registry the key-environment check of transfer
	// requests reads (intent.RegistryCatalog in the operator).
	Catalog intent.Catalog
	// Transfers simulates and plans transfer intents (*intent.Service).
	Transfers TransferService
	// Intents stores and lists transfer intents (*intentstore.Store). Without Catalog,
	// Transfers and Intents the /v2/transfers routes answer 503.
	Intents IntentStore
	// AccessLog, when it has a sink, receives the access log line of each request (the operator
	// gives it an unsampled logger, so that no request goes unrecorded under load); otherwise the
	// server's logger does.
	AccessLog logr.Logger
	// APIHealth, when set, adds the Kubernetes API server's reachability to /health.
	APIHealth APIHealth
	// Dependencies, when set, adds the other dependencies' states to /health ("redis", "chain
	// eip155:1"...): each "ok" or a fixed phrase saying why not. Any other than "ok" makes the
	// service "degraded"; none of them makes it unready (a replica serves without them).
	Dependencies func(ctx context.Context) map[string]string
	// Submissions checks and records the transaction hash a client reports for its intent
	// (POST /v2/transfers/{id}/submission; *watcher.Submissions). Nil answers that route with 503.
	Submissions SubmissionRecorder
	// Gasless allocates Permit2 nonces of gasless creates, takes their signatures and cancels, and
	// serves the order book (*orderbook.Book). Nil answers those routes with 503, and a gasless
	// create gets a random nonce.
	Gasless GaslessBook
	// Webhooks sends test events (POST /v2/webhooks/{name}/test). Nil answers that route with 503.
	Webhooks WebhookTester
	// Events lists accounts' events and replays them (GET /v2/events, POST
	// /v2/webhooks/{name}/replay). Nil (no database) answers those routes with 503.
	Events EventLog
	// Feed hands the TransferIntent informer's changes to the event streams of
	// GET /v2/transfers/{id}/events (register its EventHandler on the informer). Nil answers that
	// route with 503.
	Feed *IntentFeed
	// Web serves browser sign-in and API key management (internal/webauth): /auth/..., GET /keys
	// and GET /sign-in. It is outside the /v2 auth gate: a session never replaces an API key.
	// Nil leaves those paths unserved.
	Web http.Handler
}
