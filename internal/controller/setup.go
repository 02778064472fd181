// Package controller reconciles the custom resources of the Transfer Intent Service into the
// in-memory read models of internal/registry, and reports on each object in its Ready condition.
//
// The read models are in memory, so deleting an object needs no finalizer: the reconcile of a
// deleted object (NotFound) withdraws it, and a restarted operator rebuilds every read model from
// the watch.
//
// Each kind with a read model has two controllers fed by the same informers and running the same
// decisions. Its projection runs on every replica, publishes into the read models and writes
// nothing, so that every replica serves /v2 fully. Its reconciler runs on the elected leader only,
// as kubebuilder's and Flux's do, and writes status, events and metadata. No write path asks
// whether it leads: a projection has no way to write, a reconciler runs only where it may.
// The projections are controllers rather than bare informer handlers because their objects depend
// on each other (a token on its chain, a key on its account, a chain on its RPC Secret) and a
// controller's queue re-runs dependents and retries failed reads.
package controller

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=chains;tokendefinitions;accounts;apikeys;transferintents,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=chains/status;tokendefinitions/status;accounts/status;apikeys/status;transferintents/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=chains/finalizers;tokendefinitions/finalizers;accounts/finalizers;apikeys/finalizers;transferintents/finalizers,verbs=update
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=apikeys;transferintents,verbs=create;delete
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// EventReporter is the reporting controller named in the events the operator emits.
const EventReporter = v1alpha1.OperatorName

// ReadModels are the in-memory models the controllers fill and the HTTP API reads.
type ReadModels struct {
	Chains   *registry.ChainTable
	Tokens   *registry.TokenRegistry
	Keys     *registry.KeyIndex
	Accounts *registry.Accounts
	// Fillers are the Ready fillers by route, which the request for quotes asks (internal/rfq).
	Fillers *registry.FillerDirectory
}

// NewReadModels returns empty read models.
func NewReadModels() ReadModels {
	return ReadModels{
		Chains:   registry.NewChainTable(),
		Tokens:   registry.NewTokenRegistry(),
		Keys:     registry.NewKeyIndex(),
		Accounts: registry.NewAccounts(),
		Fillers:  registry.NewFillerDirectory(),
	}
}

// Index is one field index of the cache. SetupWithManager registers them all; a test on a fake
// client registers them with fake.NewClientBuilder().WithIndex(ix.Object, ix.Field, ix.Extract).
type Index struct {
	Object  client.Object
	Field   string
	Extract client.IndexerFunc
}

// Indexes returns every field index the controllers read.
func Indexes() []Index {
	return []Index{
		{&v1alpha1.Chain{}, ChainIDField, ChainByChainID},
		{&v1alpha1.Chain{}, ChainRPCSecretField, ChainByRPCSecret},
		{&v1alpha1.TokenDefinition{}, ChainIDField, TokenDefinitionByChainID},
		{&v1alpha1.Account{}, AccountPasswordSecretField, AccountByPasswordSecret},
		{&v1alpha1.ApiKey{}, ApiKeyAccountField, ApiKeyByAccount},
		{&v1alpha1.WebhookEndpoint{}, endpoint.AccountField, endpoint.ByAccount},
		{&v1alpha1.WebhookEndpoint{}, WebhookEndpointSecretField, WebhookEndpointBySecret},
		{&v1alpha1.Filler{}, FillerAccountField, FillerByAccount},
		{&v1alpha1.TransferIntent{}, v1alpha1.PhaseField, intentstatus.IndexByPhase},
	}
}

// Option changes a setting of the controllers from its default.
type Option func(*options)

type options struct {
	intentRetention  time.Duration
	endpointLimit    int
	probeInterval    time.Duration
	probeTimeout     time.Duration
	attester         common.Address
	trusted          registry.TrustedSources
	published        *Published
	rpcMetrics       *jsonrpc.Metrics
	intentMetrics    *IntentMetrics
	fillerStats      func(string) rfq.Stats
	fillerStatsEvery time.Duration
}

// WithFillerStats makes the Filler reconciler write the market's counters of each filler (and its
// Fading condition) on its status every interval (DefaultFillerStatsInterval when 0): stats is
// rfq.Market.Stats of the replica's market.
func WithFillerStats(stats func(name string) rfq.Stats, interval time.Duration) Option {
	return func(o *options) { o.fillerStats, o.fillerStatsEvery = stats, interval }
}

// ProbeCaller names the Chain controller's probes in the jsonrpc metrics.
const ProbeCaller = "probe"

// WithRPCMetrics makes the Chain controller's probes count their round trips in m.
func WithRPCMetrics(m *jsonrpc.Metrics) Option {
	return func(o *options) { o.rpcMetrics = m }
}

// WithIntentMetrics makes the TransferIntent controller count what it decides in m.
func WithIntentMetrics(m *IntentMetrics) Option {
	return func(o *options) { o.intentMetrics = m }
}

// WithPublished makes the projections record what they handle in p, for readiness (WaitFor).
func WithPublished(p *Published) Option {
	return func(o *options) { o.published = p }
}

// WithAttester tells the Chain controller the address of the service's attester key, which each
// Chain's settlement contract must accept (none by default: the service then refuses bridges).
func WithAttester(addr common.Address) Option {
	return func(o *options) { o.attester = addr }
}

// WithTrustedSources tells the Chain controller the operator's trusted RPC hosts per chain
// (--attestation-trusted-hosts): a chain on the list has its settlement contract used only when
// its node, which verifies the contract, is on it.
func WithTrustedSources(t registry.TrustedSources) Option {
	return func(o *options) { o.trusted = t }
}

// WithWebhookEndpointLimit sets the most WebhookEndpoints of one account that are served
// (endpoint.Admitted); the newer ones beyond it are Stalled with EndpointLimitExceeded. Below 1:
// no limit (the default).
func WithWebhookEndpointLimit(n int) Option {
	return func(o *options) { o.endpointLimit = n }
}

// WithIntentRetention sets how long terminal transfer intents are kept before they are deleted
// (DefaultIntentRetention by default).
func WithIntentRetention(d time.Duration) Option {
	return func(o *options) { o.intentRetention = d }
}

// Defaults of the Chain controller's probe of each Chain's node.
const (
	DefaultProbeInterval = 30 * time.Second
	DefaultProbeTimeout  = 2 * time.Second
)

// WithChainProbe sets how often and with which deadline the Chain controller probes each Chain's
// RPC node (DefaultProbeInterval, DefaultProbeTimeout).
func WithChainProbe(interval, timeout time.Duration) Option {
	return func(o *options) { o.probeInterval, o.probeTimeout = interval, timeout }
}

// SetupWithManager registers every controller and field index with the manager. The controllers
// run on every replica (see the package comment); call it once per manager.
func SetupWithManager(mgr ctrl.Manager, rm ReadModels, opts ...Option) error {
	o := options{probeInterval: DefaultProbeInterval, probeTimeout: DefaultProbeTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if rm.Chains == nil || rm.Tokens == nil || rm.Keys == nil || rm.Accounts == nil || rm.Fillers == nil {
		return errors.New("controller: every read model must be set (see NewReadModels)")
	}
	for _, ix := range Indexes() {
		if err := mgr.GetFieldIndexer().IndexField(context.Background(), ix.Object, ix.Field, ix.Extract); err != nil {
			return fmt.Errorf("indexing %T by %s: %w", ix.Object, ix.Field, err)
		}
	}
	w := writer{Client: mgr.GetClient(), Recorder: mgr.GetEventRecorder(EventReporter), Clock: clock.RealClock{}}
	projection := writer{Client: readOnly{mgr.GetClient()}, Clock: clock.RealClock{}, project: true, published: o.published}
	// No breaker: a probe runs every probeInterval, and its failure is what it reports.
	probes := jsonrpc.NewPool(jsonrpc.Options{Caller: ProbeCaller, Timeout: o.probeTimeout, Metrics: o.rpcMetrics})
	newChains := func(w writer) *ChainReconciler {
		return &ChainReconciler{writer: w, Chains: rm.Chains, ProbeInterval: o.probeInterval,
			Probe: func(ctx context.Context, chain, url string) (*big.Int, uint64, error) {
				node, err := probes.Client(ctx, chain, url)
				if err != nil {
					return nil, 0, err
				}
				return node.Probe(ctx)
			},
			ProbeSettlement: func(ctx context.Context, chain, url string, contract, permit2 common.Address) (jsonrpc.Settlement, error) {
				node, err := probes.Client(ctx, chain, url)
				if err != nil {
					return jsonrpc.Settlement{}, err
				}
				return node.ProbeSettlement(ctx, contract, permit2)
			},
			Attester: o.attester, TrustedSources: o.trusted,
		}
	}
	newFillers := func(w writer) *FillerReconciler {
		r := &FillerReconciler{writer: w, Fillers: rm.Fillers}
		if !w.project { // the counters and Fading are written on the status, by the leader
			r.Stats, r.StatsInterval = o.fillerStats, o.fillerStatsEvery
		}
		return r
	}
	// Each read model's kind runs twice: its projection on every replica (the read models every
	// replica serves from), its reconciler on the leader (status, events, metadata). The transfer
	// intents' read model is the intent store's informer handler, so their reconciler runs alone;
	// webhook endpoints have no read model yet (nothing delivers), so theirs does too.
	controllers := []struct {
		kind  string
		setup func(ctrl.Manager) error
	}{
		{"TransferIntent", (&TransferIntentReconciler{writer: w, Retention: o.intentRetention, Metrics: o.intentMetrics}).SetupWithManager},
		{"WebhookEndpoint", (&WebhookEndpointReconciler{writer: w, Limit: o.endpointLimit}).SetupWithManager},
	}
	for _, w := range []writer{projection, w} {
		controllers = append(controllers, []struct {
			kind  string
			setup func(ctrl.Manager) error
		}{
			{"Chain", newChains(w).SetupWithManager},
			{"TokenDefinition", (&TokenDefinitionReconciler{writer: w, Chains: rm.Chains, Tokens: rm.Tokens}).SetupWithManager},
			{"Account", (&AccountReconciler{writer: w, Keys: rm.Keys, Accounts: rm.Accounts}).SetupWithManager},
			{"ApiKey", (&ApiKeyReconciler{writer: w, Keys: rm.Keys}).SetupWithManager},
			{"Filler", newFillers(w).SetupWithManager},
		}...)
	}
	for _, c := range controllers {
		if err := c.setup(mgr); err != nil {
			return fmt.Errorf("setting up the %s controller: %w", c.kind, err)
		}
	}
	return nil
}

// controllerOptions run a projection on every replica and a reconciler that writes on the elected
// leader only (controller-runtime's default). A reconciler started on election lists every object
// first, so statuses decided while another replica led are caught up without a resync.
func (w *writer) controllerOptions() controller.Options {
	return controller.Options{NeedLeaderElection: ptr.To(!w.project)}
}

// controllerName names the projection of a kind apart from its reconciler (metrics, logs).
func (w *writer) controllerName(kind string) string {
	if w.project {
		return kind + "-projection"
	}
	return kind
}

// enqueuer is a source that hands its controller's work queue to code outside the informer
// events: the read models' change listeners and the leader resync. Requests added before the
// controller started are kept and handed over when it starts.
type enqueuer struct {
	mu    sync.Mutex
	queue workqueue.TypedRateLimitingInterface[reconcile.Request]
	// pending is a set: a leader-only controller never starts on a follower, and its listeners
	// keep adding; a set stays bounded by the number of objects.
	pending map[reconcile.Request]struct{}
}

// Start implements source.Source.
func (e *enqueuer) Start(_ context.Context, queue workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.queue = queue
	for req := range e.pending {
		queue.Add(req)
	}
	e.pending = nil
	return nil
}

func (e *enqueuer) String() string { return "read-model listener" }

func (e *enqueuer) add(reqs []reconcile.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.queue == nil {
		if e.pending == nil {
			e.pending = map[reconcile.Request]struct{}{}
		}
		for _, req := range reqs {
			e.pending[req] = struct{}{}
		}
		return
	}
	for _, req := range reqs {
		e.queue.Add(req)
	}
}

// listenerContext is the context of the read models' change listeners, which run outside any
// request or reconcile: their cache reads are in memory and need no deadline.
var listenerContext = logf.IntoContext(context.Background(), logf.Log.WithName("read-model-listener"))

// requestsFor lists, from the cache, the objects whose index field has one of the values, and
// returns a request for each.
func requestsFor(ctx context.Context, c client.Reader, list client.ObjectList, indexField string, values []string, opts ...client.ListOption) []reconcile.Request {
	var reqs []reconcile.Request
	for _, v := range values {
		if err := c.List(ctx, list, append(opts, client.MatchingFields{indexField: v})...); err != nil {
			// Only an unregistered index or a stopped cache make a cache List fail: a bug, not
			// a transient condition.
			logf.FromContext(ctx).Error(err, "listing dependents", "index", indexField, "value", v)
			continue
		}
		reqs = append(reqs, requestsOf(list)...)
	}
	return reqs
}

// requestsOf returns a request for each item of a list.
func requestsOf(list client.ObjectList) []reconcile.Request {
	var reqs []reconcile.Request
	_ = meta.EachListItem(list, func(obj runtime.Object) error {
		if o, ok := obj.(client.Object); ok {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(o)})
		}
		return nil
	})
	return reqs
}

// secretDataChanged lets through Secret updates that change the data, which is all the
// controllers read of a Secret.
var secretDataChanged = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		before, ok1 := e.ObjectOld.(*corev1.Secret)
		after, ok2 := e.ObjectNew.(*corev1.Secret)
		return !ok1 || !ok2 || !equality.Semantic.DeepEqual(before.Data, after.Data) ||
			!equality.Semantic.DeepEqual(before.StringData, after.StringData)
	},
}
