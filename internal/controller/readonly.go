package controller

import (
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// errProjectionWrite is what a projection gets if it ever tries to write: projections fill read
// models on every replica, and only the leader's reconcilers may write.
var errProjectionWrite = errors.New("controller: a read-model projection tried to write to the API server")

// readOnly is the client of the projections: it reads from the cache, and every write fails, so
// that a write added to a shared reconcile path by mistake shows up as an error instead of a
// race between replicas.
type readOnly struct{ client.Client }

func (readOnly) Create(context.Context, client.Object, ...client.CreateOption) error {
	return errProjectionWrite
}

func (readOnly) Update(context.Context, client.Object, ...client.UpdateOption) error {
	return errProjectionWrite
}

func (readOnly) Patch(context.Context, client.Object, client.Patch, ...client.PatchOption) error {
	return errProjectionWrite
}

func (readOnly) Apply(context.Context, runtime.ApplyConfiguration, ...client.ApplyOption) error {
	return errProjectionWrite
}

func (readOnly) Delete(context.Context, client.Object, ...client.DeleteOption) error {
	return errProjectionWrite
}

func (readOnly) DeleteAllOf(context.Context, client.Object, ...client.DeleteAllOfOption) error {
	return errProjectionWrite
}

func (readOnly) Status() client.SubResourceWriter { return readOnlySubResource{} }

func (readOnly) SubResource(string) client.SubResourceClient { return readOnlySubResource{} }

// readOnlySubResource refuses every status or subresource write.
type readOnlySubResource struct{}

func (readOnlySubResource) Get(context.Context, client.Object, client.Object, ...client.SubResourceGetOption) error {
	return errProjectionWrite
}

func (readOnlySubResource) Create(context.Context, client.Object, client.Object, ...client.SubResourceCreateOption) error {
	return errProjectionWrite
}

func (readOnlySubResource) Update(context.Context, client.Object, ...client.SubResourceUpdateOption) error {
	return errProjectionWrite
}

func (readOnlySubResource) Patch(context.Context, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
	return errProjectionWrite
}

func (readOnlySubResource) Apply(context.Context, runtime.ApplyConfiguration, ...client.SubResourceApplyOption) error {
	return errProjectionWrite
}
