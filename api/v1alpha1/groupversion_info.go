// Package v1alpha1 contains the API types of the Transfer Intent Service: chains, token
// definitions, accounts, API keys and transfer intents.
// +kubebuilder:object:generate=true
// +groupName=intents.transferintent.io
package v1alpha1

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of every kind in this package.
	GroupVersion = schema.GroupVersion{Group: "intents.transferintent.io", Version: "v1alpha1"}

	// SchemeBuilder registers the kinds of this package with a runtime.Scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the kinds of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Scheme returns a scheme of the kinds of this package alone, for code that must name them (owner
// references) without a manager's scheme at hand. It is built on first use: the kinds register
// themselves in init functions, which run after package variables are initialised.
var Scheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(AddToScheme(s))
	return s
})
