// Package service assembles the Transfer Intent Service on a controller-runtime manager: the
// controllers that fill the read models, the transfer domain and the intent store, browser
// sign-in with its session Secret, and the HTTP API with its readiness gate.
//
// cmd/ parses flags into Options and calls Setup; the test harness (internal/servicetest) calls
// the same Setup, so tests run the assembly that ships.
package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	intentsv1alpha1 "github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apihealth"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/archiver"
	"github.com/transferintent/transfer-intent-service/internal/chain/chaindata"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/chain/watcher"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
	"github.com/transferintent/transfer-intent-service/internal/orderbook"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/quotestore"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
	"github.com/transferintent/transfer-intent-service/internal/version"
	"github.com/transferintent/transfer-intent-service/internal/webauth"
)

// LeaderElectionID names the Lease the replicas of one instance elect their leader with.
const LeaderElectionID = "transfer-intent-service.intents.transferintent.io"

// Options are the service's settings; cmd/ sets them from flags.
type Options struct {
	// Namespace holds every resource this instance serves (--namespace); required.
	Namespace string
	// Site is the external URL, problem base URL and body limit of every HTTP surface; Setup gives
	// it to the API and to sign-in, so pages, problems and the API agree.
	Site problem.Site
	// API are the HTTP server's own settings (its Site is set from Site).
	API apiserver.Options
	// Web are the sign-in settings (its Site is set from Site).
	Web webauth.Options
	// SessionSecretName is the Secret in Namespace holding the session signing keys.
	SessionSecretName string
	// Transfers are the settings of simulation, creation and the intent lifecycle.
	Transfers TransferOptions
	// Metrics receives the API's request metrics (controller-runtime's metrics.Registry in the
	// operator); nil leaves them unregistered, as tests want.
	Metrics prometheus.Registerer
	// Redis, when its URL is set, holds the rate-limit windows and the sign-in throttle shared by
	// every replica; without it each replica counts its own.
	Redis RedisOptions
	// Archive, when its URL is set, moves finished intents out of the API server into PostgreSQL
	// and serves them from there; without it they stay TransferIntents until the retention ends
	// (meant for small installs).
	Archive ArchiveOptions
	// Webhooks tune webhook delivery (with an archive: the delivery log is in its database).
	Webhooks WebhookOptions
	// Market tunes the request for quotes of the Filler resources (internal/rfq).
	Market MarketOptions
	// AccessLog, when set, writes the API's access log (apiserver.Deps.AccessLog); otherwise the
	// API's logger does.
	AccessLog logr.Logger
}

// ArchiveOptions reach the PostgreSQL archive of finished intents (internal/archive).
type ArchiveOptions struct {
	// URL is postgres://user:password@host:port/db?sslmode=…; it may hold a password and is never
	// logged. Empty: no archive.
	URL string
	// After is how long a confirmed, failed or expired intent stays a TransferIntent before it
	// moves to the archive, so that clients and kubectl see its final state there for a while.
	After time.Duration
	// Timeout bounds each archive call on the request path.
	Timeout time.Duration
	// Rate bounds the intents moved per second, each a delete on the API server
	// (archiver.DefaultRate when zero).
	Rate float64
}

// DefaultArchiveAfter is the default of ArchiveOptions.After.
const DefaultArchiveAfter = 10 * time.Minute

// RedisOptions reach the Redis shared by the replicas.
type RedisOptions struct {
	// URL is redis://[:password@]host:port/db (rediss:// for TLS); it may hold a password and
	// is never logged.
	URL string
	// Timeout bounds each call on the request path; past it the replica counts on its own.
	Timeout time.Duration
}

// TransferOptions are the settings of simulation, creation and the intent lifecycle.
type TransferOptions struct {
	// QuoteTTL is how long a simulation's fees are quoted for.
	QuoteTTL time.Duration
	// IntentTTL is the deadline of an intent created without one.
	IntentTTL time.Duration
	// MaxDeadline is how far ahead a request's deadline may be.
	MaxDeadline time.Duration
	// Retention is how long a confirmed, failed or expired intent is kept before it is deleted.
	Retention time.Duration
	// ClaimTimeout is how long an unfinished Idempotency-Key claim blocks retries.
	ClaimTimeout time.Duration
	// Fees is the fee schedule.
	Fees intent.FeeSchedule
	// FeeShareBps puts each swap and bridge route's minimum amount where the fees would take this
	// share of it (intent.Config.FeeShareBps).
	FeeShareBps uint
	// ChainRPC bounds the simulation's reads of each Chain's JSON-RPC node (spec.rpc): per-call
	// deadline and circuit breaker. Its Metrics are set from Options.Metrics.
	ChainRPC chaindata.Options
	// Watch are the chain watcher's settings (its Metrics are set from Options.Metrics).
	Watch watcher.Options
	// SubmissionTimeout bounds the node lookup of a hash reported on POST
	// /v2/transfers/{id}/submission.
	SubmissionTimeout time.Duration
	// AttesterKeyFile holds the attester's hex private key (a mounted Secret); empty: bridge
	// fills are confirmed but not attested.
	AttesterKeyFile string
	// OrderAccountKeyFile holds the installation's key of the orders' account word
	// (intent.AccountWord, 32 bytes or more, a mounted Secret); empty: the unkeyed hash of the
	// account's name.
	OrderAccountKeyFile string
}

// DefaultOptions are the defaults of the flags. Namespace is left empty: the caller knows it.
func DefaultOptions() Options {
	return Options{
		Site:              problem.DefaultSite(),
		API:               apiserver.DefaultOptions(),
		Web:               webauth.DefaultOptions(),
		SessionSecretName: webauth.DefaultSessionSecretName,
		Transfers: TransferOptions{
			QuoteTTL:     intent.DefaultQuoteTTL,
			IntentTTL:    intent.DefaultIntentTTL,
			MaxDeadline:  intent.DefaultMaxDeadline,
			Retention:    controller.DefaultIntentRetention,
			ClaimTimeout: intentstore.DefaultClaimTimeout,
			Fees:         intent.DefaultFeeSchedule(),
			FeeShareBps:  intent.DefaultFeeShareBps,
			ChainRPC: chaindata.Options{
				CallTimeout: chaindata.DefaultCallTimeout, Failures: chaindata.DefaultFailures,
				Cooldown: chaindata.DefaultCooldown, GasMarginPercent: chaindata.DefaultGasMarginPercent,
			},
			Watch: watcher.Options{
				Lookback: watcher.DefaultLookback, CallTimeout: watcher.DefaultCallTimeout,
				ProgressInterval: watcher.DefaultProgressInterval,
			},
			SubmissionTimeout: watcher.DefaultSubmissionTimeout,
		},
		Redis:   RedisOptions{Timeout: ratelimit.DefaultRedisTimeout},
		Archive: ArchiveOptions{After: DefaultArchiveAfter, Timeout: postgres.DefaultTimeout, Rate: archiver.DefaultRate},
	}
}

// sharedStore connects to the Redis of opts, or returns nil without a URL. The client keeps to
// each call's deadline (go-redis ignores context deadlines unless told).
func sharedStore(opts RedisOptions, namespace string, metrics prometheus.Registerer, log logr.Logger) (*ratelimit.RedisStore, error) {
	if opts.URL == "" {
		log.Info("no --redis-url: rate limits and sign-in throttling are counted per replica, and a simulation's firm quote is known to its replica only")
		return nil, nil
	}
	ro, err := redis.ParseURL(opts.URL)
	if err != nil {
		// The parser's error may quote the URL, and with it a password.
		return nil, errors.New("--redis-url is not a redis:// or rediss:// URL")
	}
	ro.ContextTimeoutEnabled = true
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout, ro.PoolTimeout = opts.Timeout, opts.Timeout, opts.Timeout, opts.Timeout
	log.Info("rate limits, sign-in throttling and simulations (firm quotes) are shared in Redis", "redis", ro.Addr, "db", ro.DB)
	// The namespace keeps instances (staging, prod) that share one Redis apart.
	return ratelimit.NewRedisStore(redis.NewClient(ro), "tis:"+namespace+":", ratelimit.StoreOptions{
		Timeout: opts.Timeout, Metrics: metrics, Log: log.WithName("redis"),
	})
}

// NewScheme returns the scheme of the service's manager and clients: the built-in kinds and ours.
func NewScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(intentsv1alpha1.AddToScheme(scheme))
	return scheme
}

// ManagerOptions are the manager options every instance needs, whatever else its flags set: the
// scheme, and a cache that watches only namespace, so several instances (staging, prod) can share
// a cluster, and keeps only what the service reads: managedFields and last-applied annotations are
// dropped from every cached object, and TransferIntents, the one kind that grows with traffic,
// are compacted (intentstore.CacheTransform; docs/capacity.md).
func ManagerOptions(namespace string) ctrl.Options {
	return ctrl.Options{
		Scheme:           NewScheme(),
		LeaderElectionID: LeaderElectionID,
		// The Lease lives with the resources the instance serves, in or out of a cluster.
		LeaderElectionNamespace: namespace,
		// The process ends when the manager stops, so the lease can be handed over at once
		// instead of after its duration.
		LeaderElectionReleaseOnCancel: true,
		Cache: cache.Options{
			DefaultNamespaces: map[string]cache.Config{namespace: {}},
			DefaultTransform: func(obj any) (any, error) {
				intentstore.StripForCache(obj)
				return obj, nil
			},
			ByObject: map[client.Object]cache.ByObject{
				&intentsv1alpha1.TransferIntent{}: {Transform: intentstore.CacheTransform()},
			},
		},
	}
}

// Service is the assembled service; its parts are exposed for tests to read.
type Service struct {
	// API is the HTTP server, added to the manager as a Runnable.
	API *apiserver.Server
	// APIDeps are what API was built from.
	APIDeps apiserver.Deps
	// Models are the read models the controllers fill and the API reads.
	Models controller.ReadModels
	// Sessions provides the session signing keys from their Secret.
	Sessions *webauth.SessionSecret
	// Intents stores transfer intents and serves them from the informer-fed index.
	Intents *intentstore.Store
	// Watcher follows each Chain with an RPC endpoint (on the leader).
	Watcher *watcher.Watcher
	// Archiver moves finished intents to the archive (on the leader); nil without one.
	Archiver *archiver.Archiver
	// Market asks the Ready fillers of a route (Models.Fillers) for quotes (every replica).
	Market *rfq.Market
	// Fades counts the fillers' fades; the Market skips fillers past their threshold.
	Fades *rfq.Fades
}

// Setup registers the whole service on mgr: the controllers, the intent store, browser sign-in
// and its session Secret, the API on apiListener (nil: opts.API.BindAddress), the gate that opens
// the API once the caches have synced, and the readyz check. Call it once, before mgr.Start.
// Each subsystem is set up by a function of its own, in the order their dependencies need.
func Setup(mgr ctrl.Manager, opts Options, apiListener net.Listener, log logr.Logger) (*Service, error) {
	if opts.Namespace == "" {
		return nil, errors.New("service: Options.Namespace is required")
	}
	s := &Service{Models: controller.NewReadModels()}
	attester, err := loadAttester(opts.Transfers.AttesterKeyFile, log)
	if err != nil {
		return nil, err
	}
	if opts.Metrics != nil {
		if err := opts.Metrics.Register(version.NewBuildInfo()); err != nil {
			return nil, fmt.Errorf("registering tis_build_info: %w", err)
		}
	}
	rpcMetrics, err := jsonrpc.NewMetrics(opts.Metrics)
	if err != nil {
		return nil, fmt.Errorf("registering the chain RPC metrics: %w", err)
	}
	if err := s.setupMarket(mgr, opts.Market, opts.Webhooks.AllowLoopback, opts.Metrics); err != nil {
		return nil, err
	}
	published, err := s.setupControllers(mgr, opts, attester, rpcMetrics)
	if err != nil {
		return nil, err
	}
	catalog := intent.RegistryCatalog{Chains: s.Models.Chains, Tokens: s.Models.Tokens}
	opts.API.Site, opts.Web.Site = opts.Site, opts.Site
	opts.Web.WebhookEndpointLimit = opts.Webhooks.endpointLimit()
	shared, err := sharedStore(opts.Redis, opts.Namespace, opts.Metrics, log)
	if err != nil {
		return nil, err
	}
	transfers, chainData, err := newTransfers(opts.Transfers, catalog, attester, rpcMetrics, quoteStore(opts.Redis, shared, log), s.auction(opts.Market, log), s.Models.Accounts)
	if err != nil {
		return nil, err
	}
	// The chains' views follow heads until the manager stops.
	if err := mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		<-ctx.Done()
		chainData.Close()
		return nil
	})); err != nil {
		return nil, err
	}
	db, err := setupDatabase(mgr, opts.Archive, log)
	if err != nil {
		return nil, err
	}
	archived, err := s.setupArchive(mgr, opts, db, log)
	if err != nil {
		return nil, err
	}
	storeOpts := intentstore.Options{Namespace: opts.Namespace, ClaimTimeout: opts.Transfers.ClaimTimeout, Archive: archived}
	if s.Intents, err = intentstore.SetupWithManager(mgr, storeOpts); err != nil {
		return nil, err
	}
	submissions, err := s.setupWatcher(mgr, opts, attester, rpcMetrics, chainData.ObserveHead, log)
	if err != nil {
		return nil, err
	}
	book, err := setupOrderBook(mgr, submissions.Writer, s.Models.Chains, shared, rpcMetrics)
	if err != nil {
		return nil, err
	}
	webhooks, events, err := s.setupWebhooks(mgr, opts, catalog, db, log)
	if err != nil {
		return nil, err
	}
	web, err := s.setupWeb(mgr, opts, shared, catalog, log)
	if err != nil {
		return nil, err
	}
	limiter, err := setupLimiter(mgr, shared)
	if err != nil {
		return nil, err
	}
	feed, err := setupFeed(mgr, opts.Namespace, fadeWatch{market: s.Market, fades: s.Fades, now: time.Now})
	if err != nil {
		return nil, err
	}
	deps := apiserver.Deps{
		AccessLog:   opts.AccessLog,
		Limiter:     limiter,
		Keys:        s.Models.Keys,
		Tokens:      s.Models.Tokens,
		Metrics:     apiserver.NewMetrics(opts.Metrics),
		Web:         web,
		Catalog:     catalog,
		Transfers:   transfers,
		Intents:     s.Intents,
		Submissions: submissions,
		Gasless:     book,
		Webhooks:    webhooks,
		Events:      events,
		Feed:        feed,
	}
	if err := s.setupAPI(mgr, opts, deps, dependencies{redis: shared, database: db}, published, apiListener, log); err != nil {
		return nil, err
	}
	return s, nil
}

// setupDatabase, with an archive URL, connects to PostgreSQL on every replica (in the background:
// a manager starts while PostgreSQL is down); nil without a URL.
func setupDatabase(mgr ctrl.Manager, opts ArchiveOptions, log logr.Logger) (*postgres.DB, error) {
	if opts.URL == "" {
		log.Info("no --archive-url: finished intents stay TransferIntents until --intent-retention (meant for small installs)")
		return nil, nil
	}
	db := postgres.New(opts.URL, postgres.Options{Timeout: opts.Timeout}, log.WithName("archive"))
	return db, mgr.Add(db)
}

// setupArchive, with a database, reads the archive of finished intents on every replica and adds
// the archiver (leader only); intentstore.NoArchive without one.
func (s *Service) setupArchive(mgr ctrl.Manager, opts Options, db *postgres.DB, log logr.Logger) (intentstore.Archive, error) {
	if db == nil {
		return intentstore.NoArchive, nil
	}
	archived := archive.New(db)
	metrics, err := archiver.NewMetrics(opts.Metrics)
	if err != nil {
		return nil, err
	}
	s.Archiver = &archiver.Archiver{
		Cache: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Writer: mgr.GetClient(), Archive: archived, Namespace: opts.Namespace,
		Options: archiver.Options{After: opts.Archive.After, Rate: opts.Archive.Rate, Retention: opts.Transfers.Retention},
		Log:     log.WithName("archiver"), Metrics: metrics,
	}
	log.Info("finished intents move to the archive", "after", opts.Archive.After)
	return archived, mgr.Add(s.Archiver)
}

// setupControllers registers the controllers, which fill the read models on every replica and
// write status on the leader; published tells readiness what they have handled.
func (s *Service) setupControllers(mgr ctrl.Manager, opts Options, attester *settlement.Attester, rpcMetrics *jsonrpc.Metrics) (*controller.Published, error) {
	published := controller.NewPublished()
	intentMetrics, err := controller.NewIntentMetrics(opts.Metrics)
	if err != nil {
		return nil, err
	}
	controllerOpts := []controller.Option{
		controller.WithIntentRetention(opts.Transfers.Retention), controller.WithPublished(published), controller.WithRPCMetrics(rpcMetrics),
		controller.WithIntentMetrics(intentMetrics),
	}
	controllerOpts = append(controllerOpts, controller.WithTrustedSources(opts.Transfers.Watch.TrustedSources),
		controller.WithWebhookEndpointLimit(opts.Webhooks.endpointLimit()), controller.WithFillerStats(s.Market.Stats, opts.Market.StatusInterval))
	if attester != nil {
		controllerOpts = append(controllerOpts, controller.WithAttester(attester.Address()))
	}
	if err := controller.SetupWithManager(mgr, s.Models, controllerOpts...); err != nil {
		return nil, err
	}
	return published, nil
}

// newTransfers builds the transfer domain (simulation and creation) over the read models and the
// chains' nodes.
func newTransfers(opts TransferOptions, catalog intent.RegistryCatalog, attester *settlement.Attester, rpcMetrics *jsonrpc.Metrics,
	quotes intent.QuoteStore, auction intent.AuctionConfig, feePolicies intent.FeePolicies) (*intent.Service, *chaindata.Reader, error) {
	rpcOpts := opts.ChainRPC
	rpcOpts.Metrics = rpcMetrics
	chainData, err := chaindata.New(rpcOpts)
	if err != nil {
		return nil, nil, fmt.Errorf("setting up chain RPC: %w", err)
	}
	fees := opts.Fees
	var accountKey []byte
	if opts.OrderAccountKeyFile != "" {
		if accountKey, err = os.ReadFile(opts.OrderAccountKeyFile); err != nil {
			return nil, nil, fmt.Errorf("reading --order-account-key-file: %w", err)
		}
		if accountKey = bytes.TrimSpace(accountKey); len(accountKey) < 32 {
			return nil, nil, errors.New("--order-account-key-file holds fewer than 32 bytes")
		}
	}
	svc, err := intent.NewService(intent.Config{
		AccountKey: accountKey,
		Catalog:    catalog, Fees: &fees, QuoteTTL: opts.QuoteTTL, IntentTTL: opts.IntentTTL, MaxDeadline: opts.MaxDeadline,
		ChainData: chainData, BridgesUnavailable: bridgesUnavailable(attester),
		SingleSourceAttestation: opts.Watch.SingleSourceAttestation, TrustedSources: opts.Watch.TrustedSources,
		Quotes: quotes, FeeShareBps: feeShare(opts.FeeShareBps), Auction: auction, FeePolicies: feePolicies,
	})
	return svc, chainData, err
}

// feeShare bounds the flag's value: NewService refuses anything above 100% (and zero is the
// default there), so an overflowing uint32 cannot wrap into an accepted share.
func feeShare(bps uint) uint32 {
	if bps > intent.BpsDenominator {
		return intent.BpsDenominator + 1
	}
	return uint32(bps)
}

// quoteStore keeps the simulations of firm quotes in this replica's memory, written through to
// Redis when there is one, so that a create on any replica keeps a simulation's quote.
func quoteStore(opts RedisOptions, shared *ratelimit.RedisStore, log logr.Logger) intent.QuoteStore {
	local := intent.NewMemoryQuotes(intent.DefaultMaxQuotes, nil)
	if shared == nil {
		return local
	}
	return &quotestore.Shared{Local: local, Client: shared.Client, Prefix: shared.Prefix, Timeout: opts.Timeout, Log: log.WithName("quotes")}
}

// setupWeb registers browser sign-in and the Secret of its session signing keys. The pages read
// the signed-in account's intents from the intent store (set up before) and link their
// transactions to the catalog's block explorers.
func (s *Service) setupWeb(mgr ctrl.Manager, opts Options, shared *ratelimit.RedisStore, catalog intent.RegistryCatalog, log logr.Logger) (*webauth.Handler, error) {
	s.Sessions = &webauth.SessionSecret{
		Cache:     mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Writer:    mgr.GetClient(),
		Namespace: opts.Namespace,
		Name:      opts.SessionSecretName,
		Log:       log.WithName("sessions"),
	}
	web, err := webauth.New(opts.Web, webauth.Deps{
		Shared:      shared,
		Accounts:    s.Models.Accounts,
		Keys:        s.Models.Keys,
		Cache:       mgr.GetClient(),
		APIReader:   mgr.GetAPIReader(),
		Writer:      mgr.GetClient(),
		Status:      mgr.GetClient().Status(),
		Namespace:   opts.Namespace,
		SessionKeys: s.Sessions,
		Events:      mgr.GetEventRecorder(controller.EventReporter),
		Intents:     s.Intents,
		Chains:      catalog.Chain,
	}, log.WithName("web"))
	if err != nil {
		return nil, err
	}
	if err := mgr.Add(s.Sessions); err != nil {
		return nil, err
	}
	return web, nil
}

// setupLimiter returns the API's rate limiter: this replica's sliding windows, shared through
// Redis when there is one.
func setupLimiter(mgr ctrl.Manager, shared *ratelimit.RedisStore) (ratelimit.Limiter, error) {
	// The rate limiter forgets keys idle for a whole window, so deleted and rarely used keys do
	// not hold memory for the life of the process.
	local := ratelimit.NewSlidingWindow()
	if err := mgr.Add(&ratelimit.Janitor{Limiter: local, Interval: ratelimit.Window, Clock: clock.RealClock{}}); err != nil {
		return nil, err
	}
	if shared == nil {
		return local, nil
	}
	if err := mgr.Add(closeOnStop{shared.Client}); err != nil {
		return nil, err
	}
	return ratelimit.NewShared(shared, local), nil
}

// setupAPI completes deps with the health checks and the OpenAPI documents, and registers the
// HTTP server, its readiness gate and the readyz check.
func (s *Service) setupAPI(mgr ctrl.Manager, opts Options, deps apiserver.Deps, outside dependencies,
	published *controller.Published, apiListener net.Listener, log logr.Logger) error {
	var err error
	if deps.OpenAPI, deps.OpenAPIV2, err = openapi.Documents(opts.Site.BaseURL); err != nil {
		return fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	if deps.APIHealth, err = newAPIHealth(mgr); err != nil {
		return err
	}
	if deps.Dependencies, err = dependencyHealth(mgr, opts.Namespace, outside); err != nil {
		return err
	}
	s.APIDeps = deps
	s.API = apiserver.New(opts.API, s.APIDeps, log.WithName("api"))
	if err := mgr.Add(s.API.Runnable(apiListener)); err != nil {
		return err
	}
	if err := mgr.Add(s.API.ReadinessGate(mgr.GetCache(), s.Intents.WaitForSync, published.WaitFor(mgr.GetCache(), opts.Namespace))); err != nil {
		return err
	}
	return mgr.AddReadyzCheck("readyz", s.API.ReadyzCheck)
}

// loadAttester loads the key that attests bridge fills; nil without a key file.
func loadAttester(keyFile string, log logr.Logger) (*settlement.Attester, error) {
	if keyFile == "" {
		log.Info("no --attester-key-file: bridges are refused (valid: false), since no filler could be repaid")
		return nil, nil
	}
	attester, err := settlement.LoadAttester(keyFile)
	if err != nil {
		return nil, err
	}
	log.Info("bridge fills will be attested", "attester", attester.Address().Hex())
	return attester, nil
}

// bridgesUnavailable is why bridges cannot settle without an attester ("" with one).
func bridgesUnavailable(attester *settlement.Attester) string {
	if attester != nil {
		return ""
	}
	return "bridges are unavailable: the service has no attester key (--attester-key-file), so a filler could never be repaid on the origin chain"
}

// setupWatcher adds the chain watcher (leader only) with its index of pending and submitted
// intents, fed from the TransferIntent informer, and returns the submission checker, which shares
// the watcher's status writer.
func (s *Service) setupWatcher(mgr ctrl.Manager, opts Options, attester *settlement.Attester, rpcMetrics *jsonrpc.Metrics,
	heads func(chain string, head uint64), log logr.Logger) (*watcher.Submissions, error) {
	index := watcher.NewIndex()
	inf, err := mgr.GetCache().GetInformer(context.Background(), &intentsv1alpha1.TransferIntent{})
	if err != nil {
		return nil, fmt.Errorf("getting the TransferIntent informer: %w", err)
	}
	reg, err := inf.AddEventHandler(index.EventHandler())
	if err != nil {
		return nil, fmt.Errorf("watching TransferIntents for the chain watcher: %w", err)
	}
	writer := &intentstatus.Writer{
		Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Written: index.Upsert,
		Events: mgr.GetEventRecorder(watcher.EventReporter),
	}
	watchOpts := opts.Transfers.Watch
	watchOpts.Metrics = opts.Metrics
	watchOpts.Attester = attester
	watchOpts.RPCMetrics = rpcMetrics
	watchOpts.Heads = heads
	watchOpts.FillerName = s.Models.Fillers.NameOf
	s.Watcher, err = watcher.New(watcher.Watcher{
		Namespace: opts.Namespace, Chains: s.Models.Chains, Index: index, Synced: reg.HasSynced,
		Writer: writer, Cache: mgr.GetClient(), Options: watchOpts, Log: log.WithName("chain-watcher"),
	})
	if err != nil {
		return nil, fmt.Errorf("setting up the chain watcher: %w", err)
	}
	if err := mgr.Add(s.Watcher); err != nil {
		return nil, err
	}
	return &watcher.Submissions{
		Chains: s.Models.Chains, Writer: writer, Index: index, Timeout: opts.Transfers.SubmissionTimeout, RPCMetrics: rpcMetrics,
	}, nil
}

// setupOrderBook adds the gasless intents' side on every replica: Permit2 nonces (shared in Redis
// when there is one), signatures and cancels written through the watcher's writer, and the order
// book fed by the TransferIntent informer.
func setupOrderBook(mgr ctrl.Manager, writer *intentstatus.Writer, chains *registry.ChainTable, shared *ratelimit.RedisStore, rpcMetrics *jsonrpc.Metrics) (*orderbook.Book, error) {
	nonces := &gasless.Nonces{}
	if shared != nil {
		nonces.Redis, nonces.Prefix = shared.Client, shared.Prefix+"permit2:"
	}
	book := &orderbook.Book{Chains: chains, Writer: writer, Nonces: nonces, RPCMetrics: rpcMetrics, Log: mgr.GetLogger().WithName("order-book")}
	inf, err := mgr.GetCache().GetInformer(context.Background(), &intentsv1alpha1.TransferIntent{})
	if err != nil {
		return nil, fmt.Errorf("getting the TransferIntent informer: %w", err)
	}
	if _, err := inf.AddEventHandler(book.EventHandler()); err != nil {
		return nil, fmt.Errorf("watching TransferIntents for the order book: %w", err)
	}
	// Every replica reads the wallets of its book's signed orders again, so that orders whose
	// funds or Permit2 nonce went leave the book (orderbook/reserve.go).
	if err := mgr.Add(book); err != nil {
		return nil, fmt.Errorf("adding the order book's recheck: %w", err)
	}
	return book, nil
}

// setupFeed hands the TransferIntent informer's changes to the API's event streams, on every
// replica (a stream is served by whichever replica the client reached), and to the fillers' fade
// record, which every replica keeps.
func setupFeed(mgr ctrl.Manager, namespace string, fades fadeWatch) (*apiserver.IntentFeed, error) {
	feed := apiserver.NewIntentFeed(mgr.GetCache(), namespace)
	inf, err := mgr.GetCache().GetInformer(context.Background(), &intentsv1alpha1.TransferIntent{})
	if err != nil {
		return nil, fmt.Errorf("getting the TransferIntent informer: %w", err)
	}
	if _, err := inf.AddEventHandler(feed.EventHandler()); err != nil {
		return nil, fmt.Errorf("watching TransferIntents for the event streams: %w", err)
	}
	if _, err := inf.AddEventHandler(fades); err != nil {
		return nil, fmt.Errorf("watching TransferIntents for the fillers' fades: %w", err)
	}
	return feed, nil
}

// closeOnStop closes a client when the manager stops.
type closeOnStop struct{ c io.Closer }

func (c closeOnStop) Start(ctx context.Context) error {
	<-ctx.Done()
	return c.c.Close()
}

// NeedLeaderElection is false: every replica holds its own client.
func (closeOnStop) NeedLeaderElection() bool { return false }

// newAPIHealth follows the API server's reachability on every replica, for /health and /readyz.
func newAPIHealth(mgr ctrl.Manager) (*apihealth.Checker, error) {
	clientset, err := kubernetes.NewForConfig(mgr.GetConfig())
	if err != nil {
		return nil, fmt.Errorf("building the API server probe: %w", err)
	}
	rest := clientset.Discovery().RESTClient()
	checker := &apihealth.Checker{Log: mgr.GetLogger().WithName("apihealth"), Probe: func(ctx context.Context) error {
		return rest.Get().AbsPath("/version").Do(ctx).Error()
	}}
	if err := mgr.Add(checker); err != nil {
		return nil, err
	}
	if err := mgr.AddReadyzCheck("kubernetes-api", checker.Check); err != nil {
		return nil, err
	}
	return checker, nil
}
