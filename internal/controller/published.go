package controller

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// Published records which objects the projections have handled since the replica started, so
// that readiness can wait until every object the caches held when they synced is in the read
// models. A synced cache is not enough: the projections publish from their work queues a moment
// later, and a replica marked ready in between answered 403 to valid API keys. Once the wait has
// returned, Published stops recording.
type Published struct {
	mu   sync.Mutex
	seen map[publishedKey]struct{}
	done bool
}

type publishedKey struct {
	kind string
	name types.NamespacedName
}

// NewPublished returns an empty record; give it to SetupWithManager with WithPublished.
func NewPublished() *Published { return &Published{seen: map[publishedKey]struct{}{}} }

func (p *Published) mark(kind string, name types.NamespacedName) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.seen[publishedKey{kind, name}] = struct{}{}
	}
}

// publishedKinds are the kinds whose projections fill read models the API serves from.
var publishedKinds = []struct {
	kind string
	list func() client.ObjectList
}{
	{"Chain", func() client.ObjectList { return &v1alpha1.ChainList{} }},
	{"TokenDefinition", func() client.ObjectList { return &v1alpha1.TokenDefinitionList{} }},
	{"Account", func() client.ObjectList { return &v1alpha1.AccountList{} }},
	{"ApiKey", func() client.ObjectList { return &v1alpha1.ApiKeyList{} }},
	{"Filler", func() client.ObjectList { return &v1alpha1.FillerList{} }},
}

// publishedPoll is how often WaitFor looks again.
const publishedPoll = 20 * time.Millisecond

// WaitFor returns a readiness wait: it lists each kind in namespace from reader (the synced
// cache) and returns true once every object listed has been handled by its projection, false
// when ctx ends first. Objects created after the list do not hold readiness back; a failed list
// is tried again.
func (p *Published) WaitFor(reader client.Reader, namespace string) func(context.Context) bool {
	return func(ctx context.Context) bool {
		t := time.NewTicker(publishedPoll)
		defer t.Stop()
		pending, err := listed(ctx, reader, namespace)
		for err != nil {
			select {
			case <-ctx.Done():
				return false
			case <-t.C:
			}
			pending, err = listed(ctx, reader, namespace)
		}
		for {
			if pending = p.unseen(pending); len(pending) == 0 {
				p.mu.Lock()
				p.done, p.seen = true, nil
				p.mu.Unlock()
				return true
			}
			select {
			case <-ctx.Done():
				return false
			case <-t.C:
			}
		}
	}
}

// listed is every object of the published kinds in namespace.
func listed(ctx context.Context, reader client.Reader, namespace string) ([]publishedKey, error) {
	var keys []publishedKey
	for _, k := range publishedKinds {
		list := k.list()
		if err := reader.List(ctx, list, client.InNamespace(namespace)); err != nil {
			return nil, err
		}
		for _, name := range names(list) {
			keys = append(keys, publishedKey{k.kind, name})
		}
	}
	return keys, nil
}

func (p *Published) unseen(keys []publishedKey) []publishedKey {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := keys[:0]
	for _, k := range keys {
		if _, ok := p.seen[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func names(list client.ObjectList) []types.NamespacedName {
	var out []types.NamespacedName
	switch l := list.(type) {
	case *v1alpha1.ChainList:
		for i := range l.Items {
			out = append(out, client.ObjectKeyFromObject(&l.Items[i]))
		}
	case *v1alpha1.TokenDefinitionList:
		for i := range l.Items {
			out = append(out, client.ObjectKeyFromObject(&l.Items[i]))
		}
	case *v1alpha1.AccountList:
		for i := range l.Items {
			out = append(out, client.ObjectKeyFromObject(&l.Items[i]))
		}
	case *v1alpha1.ApiKeyList:
		for i := range l.Items {
			out = append(out, client.ObjectKeyFromObject(&l.Items[i]))
		}
	}
	return out
}

// publishing wraps a projection's reconciler so that each request it handles, whatever the
// outcome, is recorded: an object whose projection fails must not keep the replica unready.
type publishing struct {
	reconcile.Reconciler
	kind      string
	published *Published
}

func (p publishing) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	defer p.published.mark(p.kind, req.NamespacedName) // a panic, recovered by controller-runtime, too
	return p.Reconciler.Reconcile(ctx, req)
}

// recording returns r, wrapped to record what it handles when w is a projection with a record.
func (w *writer) recording(kind string, r reconcile.Reconciler) reconcile.Reconciler {
	if !w.project || w.published == nil {
		return r
	}
	return publishing{Reconciler: r, kind: kind, published: w.published}
}
