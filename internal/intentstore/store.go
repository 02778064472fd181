package intentstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"golang.org/x/sync/singleflight"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/kubeapi"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=transferintents,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update;patch;delete

// Defaults of Options.
const (
	DefaultClaimTimeout = 15 * time.Second
	DefaultRecentWindow = 10 * time.Second
)

// Options configure a Store.
type Options struct {
	// Namespace holds the intents and claims; required.
	Namespace string
	// ClaimTimeout is how long a claim without its intent is considered in progress; after it the
	// claim is abandoned and may be taken over. A create gives up after half of it, so a claim
	// this old cannot belong to a request still running. Default DefaultClaimTimeout.
	ClaimTimeout time.Duration
	// RecentWindow: Get asks the API server for an intent missing from the cache only when its id
	// is at most this old, so a client that creates on one replica and reads on another does not
	// see a 404 before the watch delivered it, and an unknown id costs no API call. Default
	// DefaultRecentWindow; negative disables the fallback.
	RecentWindow time.Duration
	// Clock is the time source of claim ages; clock.RealClock{} by default.
	Clock clock.PassiveClock
	// WriteTimeout bounds a whole Create (its claim and its writes), well under the HTTP server's
	// write timeout, so that a stalled API server costs a client seconds and a 503, not a hang.
	// Default DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Archive holds the finished intents that left the API server: Get, List and a retried Create
	// read it for what the index no longer has. NoArchive when nil: every intent is a resource.
	Archive Archive
}

// DefaultWriteTimeout bounds a Create.
const DefaultWriteTimeout = 5 * time.Second

// ErrUnavailable wraps a failure of the Kubernetes API (a missed deadline, a refused or reset
// connection, a 503, 504 or 429 from it): the request may be retried, with its Idempotency-Key,
// once the API server answers again. The intent may or may not have been stored.
var ErrUnavailable = errors.New("the Kubernetes API did not answer in time")

// Store creates intents and serves them from memory. It is safe for concurrent use.
type Store struct {
	// writer writes to the API server (the manager's client: writes are never cached), each write
	// a span of the request's trace when it is traced (tracedWriter).
	writer client.Writer
	// apiReader reads from the API server, bypassing the cache: claims, and intents created on
	// another replica a moment ago.
	apiReader client.Reader
	// cache reads from the informer cache (ListFromCache).
	cache client.Reader

	opts    Options
	index   *index
	flights singleflight.Group
	synced  func() bool
}

// New returns a store over the clients; SetupWithManager is the usual way to get one. Tests may
// pass nil clients for the parts they do not use.
func New(writer client.Writer, apiReader, cache client.Reader, opts Options) (*Store, error) {
	if opts.Namespace == "" {
		return nil, errors.New("intentstore: Options.Namespace is required")
	}
	if opts.ClaimTimeout <= 0 {
		opts.ClaimTimeout = DefaultClaimTimeout
	}
	if opts.RecentWindow == 0 {
		opts.RecentWindow = DefaultRecentWindow
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.Archive == nil {
		opts.Archive = NoArchive
	}
	return &Store{
		writer: tracedWriter{writer}, apiReader: apiReader, cache: cache, opts: opts,
		index:  newIndex(opts.Namespace),
		synced: func() bool { return true },
	}, nil
}

// SetupWithManager creates the store of the manager: it registers the in-memory index's event
// handler on the TransferIntent informer. Call it before the manager starts, and gate readiness on
// HasSynced. No field index of the cache is registered: the in-memory index is the only index of
// intents by account, so the cache holds no second one (docs/capacity.md).
func SetupWithManager(mgr ctrl.Manager, opts Options) (*Store, error) {
	s, err := New(mgr.GetClient(), mgr.GetAPIReader(), mgr.GetCache(), opts)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	inf, err := mgr.GetCache().GetInformer(ctx, &v1alpha1.TransferIntent{})
	if err != nil {
		return nil, fmt.Errorf("getting the TransferIntent informer: %w", err)
	}
	reg, err := inf.AddEventHandler(s.EventHandler())
	if err != nil {
		return nil, fmt.Errorf("watching TransferIntents: %w", err)
	}
	s.synced = reg.HasSynced
	janitor := &ClaimJanitor{Store: s, APIReader: mgr.GetAPIReader(), Log: mgr.GetLogger().WithName("claim-janitor")}
	if err := mgr.Add(janitor); err != nil {
		return nil, err
	}
	return s, nil
}

// EventHandler is the informer event handler that feeds the in-memory index. SetupWithManager
// registers it; benchmarks and tests call it directly to fill the index the same way.
func (s *Store) EventHandler() toolscache.ResourceEventHandler { return eventHandler{s.index} }

// HasSynced reports whether the index has received every intent of the informer's initial list.
func (s *Store) HasSynced() bool { return s.synced() }

// WaitForSync blocks until HasSynced or ctx ends, and reports HasSynced.
func (s *Store) WaitForSync(ctx context.Context) bool {
	return toolscache.WaitForCacheSync(ctx.Done(), s.synced)
}

// Len is the number of intents served.
func (s *Store) Len() int { return s.index.count() }

// List returns up to limit summaries of the account's intents that match the filter, newest
// first, after the intent with id `after` (exclusive, "" for the first page); more
// says whether another page follows. With an archive, live and archived intents are one list: the
// index is read first, then the archive, and an intent moves to the archive before it leaves the
// index, so an intent moving meanwhile is in one of the two reads at least (and counted once when
// in both). An archive that does not answer fails the list (ErrArchiveUnavailable) rather than
// silently leaving out the finished intents.
func (s *Store) List(ctx context.Context, owner Owner, filter Filter, after string, limit int) (items []transferrecord.Summary, more bool, err error) {
	live, liveMore := s.index.page(owner, filter, after, limit)
	archiveFilter, archiveMayMatch := filter.archiveFilter()
	if limit <= 0 || !archiveMayMatch {
		return live, liveMore, nil
	}
	archived, err := s.listArchived(ctx, owner, archiveFilter, after, limit+1)
	if err != nil {
		return nil, false, err
	}
	if len(archived) == 0 {
		return live, liveMore, nil // what the merge would make of it, without the copy
	}
	items = mergePages(live, archived, limit)
	// More follow when either source has more than this page took of it.
	more = liveMore || len(live)+len(archived) > len(items)
	return items, more, nil
}

// Get returns the owner's intent with the id. The object is shared: do not modify it. An intent
// of another account, or of the account's other environment, is not found, exactly like an
// unknown one.
func (s *Store) Get(ctx context.Context, owner Owner, id string) (*v1alpha1.TransferIntent, bool, error) {
	name, err := intent.ObjectNameFromID(id)
	if err != nil {
		return nil, false, nil //nolint:nilerr // a malformed id names no intent: not found, like an unknown one
	}
	if e := s.index.get(name); e != nil {
		if e.owner != owner {
			return nil, false, nil
		}
		return e.obj, true, nil
	}
	if s.recent(id) && s.apiReader != nil {
		if obj, found, err := s.getRecent(ctx, owner, name); err != nil || found {
			return obj, found, err
		}
	}
	// The archive keeps the canonical id; the path may have spelt it in lower case.
	canonical, err := intent.IDFromObjectName(name)
	if err != nil {
		return nil, false, nil //nolint:nilerr // not an intent's name: not found
	}
	return s.archived(ctx, owner, canonical)
}

// getRecent reads an intent created a moment ago, maybe on another replica, from the API server.
func (s *Store) getRecent(ctx context.Context, owner Owner, name string) (*v1alpha1.TransferIntent, bool, error) {
	var obj v1alpha1.TransferIntent
	ctx, cancel := context.WithTimeout(ctx, min(s.opts.WriteTimeout, 2*time.Second))
	defer cancel()
	if err := s.apiReader.Get(ctx, client.ObjectKey{Namespace: s.opts.Namespace, Name: name}, &obj); err != nil {
		if err = client.IgnoreNotFound(err); err != nil && kubeapi.Unreachable(err) {
			return nil, false, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		return nil, false, err
	}
	if s.index.newEntry(&obj) == nil || OwnerOf(&obj) != owner {
		return nil, false, nil
	}
	return &obj, true, nil
}

// AttestedOrder returns the intent whose order (by orderId, lower-case bytes32 hex) has an
// attested fill, live or archived. The object is shared: do not modify it.
func (s *Store) AttestedOrder(ctx context.Context, orderID string) (*v1alpha1.TransferIntent, bool, error) {
	if e := s.index.attestedOrder(orderID); e != nil {
		return e.obj, true, nil
	}
	return s.archivedAttestedOrder(ctx, orderID)
}

// recent reports whether the id was minted within RecentWindow (or slightly in the future, for
// clock skew between replicas).
func (s *Store) recent(id string) bool {
	if s.opts.RecentWindow < 0 {
		return false
	}
	t := intent.IDTime(id)
	now := s.opts.Clock.Now()
	return !t.IsZero() && t.After(now.Add(-s.opts.RecentWindow)) && t.Before(now.Add(s.opts.RecentWindow))
}

// ListFromCache lists the account's intents from the informer cache, unsorted, by reading every
// cached intent of the namespace. It is the plain cache path List improves on; tests use it to
// check that both agree.
func (s *Store) ListFromCache(ctx context.Context, account string) ([]v1alpha1.TransferIntent, error) {
	var list v1alpha1.TransferIntentList
	if err := s.cache.List(ctx, &list, client.InNamespace(s.opts.Namespace)); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(list.Items, func(ti v1alpha1.TransferIntent) bool { return ti.Spec.AccountRef.Name != account }), nil
}

// CreateRequest is one request to create an intent.
type CreateRequest struct {
	// Owner is the key's account and environment; the intent Build makes must be theirs.
	Owner Owner
	// IdempotencyKey is the client's Idempotency-Key header; empty for none.
	IdempotencyKey string
	// RequestHash is RequestHash of the parsed request; it tells a retry from another request
	// under the same key.
	RequestHash string
	// Build makes the intent to store (NewObject of a fresh draft). It runs only when an intent
	// must be created, at most once per Create; its error is returned unchanged.
	Build func(ctx context.Context) (*v1alpha1.TransferIntent, error)
}

// Created is the outcome of Create. Intent is shared: do not modify it.
type Created struct {
	Intent *v1alpha1.TransferIntent
	// New is false for an idempotent replay: the intent was created by an earlier request.
	New bool
}

// Create stores a new intent, or returns the one an earlier request with the same idempotency
// key created. See the package documentation for the idempotency protocol.
func (s *Store) Create(ctx context.Context, req CreateRequest) (Created, error) {
	c, err := s.createWithin(ctx, req)
	// An archive that did not answer says so itself; its network error must not read as the
	// Kubernetes API's.
	if err != nil && !errors.Is(err, ErrArchiveUnavailable) && kubeapi.Unreachable(err) {
		return c, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return c, err
}

func (s *Store) createWithin(ctx context.Context, req CreateRequest) (Created, error) {
	if req.IdempotencyKey == "" {
		ctx, cancel := context.WithTimeout(ctx, s.opts.WriteTimeout)
		defer cancel()
		obj, err := s.build(ctx, req, "")
		if err != nil {
			return Created{}, err
		}
		if err := s.create(ctx, obj); err != nil {
			return Created{}, err
		}
		return Created{Intent: obj, New: true}, nil
	}
	keyHash := IdempotencyKeyHash(req.Owner, req.IdempotencyKey)
	// Concurrent retries of one request on this replica share one attempt. The flight key
	// includes the body, so a concurrent request with another body runs on its own and meets
	// the claim.
	var ran bool
	v, err, _ := s.flights.Do(keyHash+"/"+req.RequestHash, func() (any, error) {
		ran = true
		// The attempt must not stop half-way because the client that started it went away: the
		// claim would wait ClaimTimeout for an intent that never comes.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(s.opts.WriteTimeout, s.opts.ClaimTimeout/2))
		defer cancel()
		return s.createClaimed(actx, req, keyHash)
	})
	if err != nil {
		return Created{}, err
	}
	c := v.(Created)
	c.New = c.New && ran
	return c, nil
}

func (s *Store) build(ctx context.Context, req CreateRequest, keyHash string) (*v1alpha1.TransferIntent, error) {
	obj, err := req.Build(ctx)
	if err != nil {
		return nil, err
	}
	obj.Namespace = s.opts.Namespace
	obj.Spec.RequestHash = req.RequestHash
	obj.Spec.IdempotencyKeyHash = keyHash
	return obj, nil
}

// create writes the intent and indexes it at once, for read-your-writes on this replica.
func (s *Store) create(ctx context.Context, obj *v1alpha1.TransferIntent) error {
	if err := s.writer.Create(ctx, obj); err != nil {
		return fmt.Errorf("creating TransferIntent %s: %w", obj.Name, err)
	}
	s.index.upsert(obj, true)
	return nil
}
