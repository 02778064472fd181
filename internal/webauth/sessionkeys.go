package webauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The session Secret. Its data holds the signing keys of sessions:
//
//	current   signs new sessions and verifies; required
//	previous  only verifies; optional, for rotation
//
// Each key is at least MinSessionKeyBytes bytes. To rotate without signing anyone out: move
// current to previous and put a new random key in current (every replica picks the change up
// from its cache within seconds); after one session TTL, remove previous. Replacing current
// alone signs everyone out, which is the emergency procedure when a key has leaked.
const (
	SessionKeyCurrent  = "current"
	SessionKeyPrevious = "previous"
	// MinSessionKeyBytes is the shortest key accepted: the HMAC-SHA256 block of security.
	MinSessionKeyBytes = 32
	// DefaultSessionSecretName is the default of --session-secret-name.
	DefaultSessionSecretName = "transfer-intent-session"
)

var errNoSessionKeys = errors.New("the session keys are not loaded yet")

// SessionSecret provides the session keys from a Secret in the operator's namespace.
//
// Start (a manager Runnable, on every replica) creates the Secret with a random current key when
// it does not exist, so a fresh install needs no setup. SessionKeys then reads the Secret from
// the cache on every call and re-parses it only when its resourceVersion changed, so a rotation
// applies without a restart. If the Secret later becomes unreadable (deleted, malformed), the
// last good keys stay in use and the problem is logged.
type SessionSecret struct {
	// Cache is the manager's cache (or its client), read on every request.
	Cache client.Reader
	// APIReader reads from the API server directly (mgr.GetAPIReader()): Start runs before the
	// cache has synced.
	APIReader client.Reader
	// Writer creates the Secret.
	Writer    client.Writer
	Namespace string
	Name      string
	Log       logr.Logger
	// RetryInterval spaces the attempts of Start while the API server cannot be reached.
	RetryInterval time.Duration

	loaded     atomic.Pointer[keySet]
	reportOnce sync.Map // resourceVersion -> struct{}: a malformed version is logged once
}

type keySet struct {
	resourceVersion string
	keys            [][]byte
}

// NeedLeaderElection is false: every replica serves sessions and needs the keys.
func (s *SessionSecret) NeedLeaderElection() bool { return false }

// Start makes sure the Secret exists and loads it, retrying until it succeeds or ctx ends.
func (s *SessionSecret) Start(ctx context.Context) error {
	interval := s.RetryInterval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	for {
		err := s.ensure(ctx)
		if err == nil {
			return nil
		}
		s.Log.Error(err, "loading the session Secret; retrying", "secret", s.Namespace+"/"+s.Name)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}

// ensure loads the Secret from the API server, creating it first when it does not exist.
func (s *SessionSecret) ensure(ctx context.Context) error {
	key := types.NamespacedName{Namespace: s.Namespace, Name: s.Name}
	var secret corev1.Secret
	err := s.APIReader.Get(ctx, key, &secret)
	if apierrors.IsNotFound(err) {
		created, cerr := s.create(ctx)
		switch {
		case cerr == nil:
			s.Log.Info("created the session Secret with a random signing key", "secret", key.String())
			secret, err = *created, nil
		case apierrors.IsAlreadyExists(cerr):
			// Another replica created it first.
			err = s.APIReader.Get(ctx, key, &secret)
		default:
			return fmt.Errorf("creating Secret %s: %w", key, cerr)
		}
	}
	if err != nil {
		return fmt.Errorf("reading Secret %s: %w", key, err)
	}
	keys, err := parseSessionSecret(&secret)
	if err != nil {
		return err
	}
	s.loaded.Store(&keySet{resourceVersion: secret.ResourceVersion, keys: keys})
	return nil
}

func (s *SessionSecret) create(ctx context.Context) (*corev1.Secret, error) {
	current := make([]byte, MinSessionKeyBytes)
	_, _ = rand.Read(current)
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: s.Namespace,
			Name:      s.Name,
			Labels: map[string]string{
				"app.kubernetes.io/name":       "transfer-intent-service",
				"app.kubernetes.io/component":  "session-keys",
				"app.kubernetes.io/managed-by": "transfer-intent-service",
			},
			Annotations: map[string]string{
				"transferintent.io/description": "Signing keys of browser sessions: `current` signs, `previous` (optional) still verifies. " +
					"Rotate by moving current to previous and writing a new random current of at least 32 bytes.",
			},
		},
		Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{SessionKeyCurrent: current},
	}
	if err := s.Writer.Create(ctx, secret); err != nil {
		return nil, err
	}
	return secret, nil
}

// SessionKeys implements SessionKeySource.
func (s *SessionSecret) SessionKeys(ctx context.Context) ([][]byte, error) {
	last := s.loaded.Load()
	var secret corev1.Secret
	err := s.Cache.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Name}, &secret)
	switch {
	case err == nil && last != nil && secret.ResourceVersion == last.resourceVersion:
		return last.keys, nil
	case err == nil:
		keys, perr := parseSessionSecret(&secret)
		if perr == nil {
			s.loaded.Store(&keySet{resourceVersion: secret.ResourceVersion, keys: keys})
			return keys, nil
		}
		if _, seen := s.reportOnce.LoadOrStore(secret.ResourceVersion, struct{}{}); !seen {
			s.Log.Error(perr, "the session Secret is malformed; keeping the last good keys", "secret", s.Namespace+"/"+s.Name)
		}
	case !apierrors.IsNotFound(err):
		if last == nil {
			return nil, err
		}
	}
	// Not in the cache yet (just created) or unusable: the keys Start loaded still hold.
	if last == nil {
		return nil, errNoSessionKeys
	}
	return last.keys, nil
}

// parseSessionSecret returns [current, previous] (previous only when present).
func parseSessionSecret(secret *corev1.Secret) ([][]byte, error) {
	current := secret.Data[SessionKeyCurrent]
	if len(current) < MinSessionKeyBytes {
		return nil, fmt.Errorf("secret %s/%s: key %q must hold at least %d bytes", secret.Namespace, secret.Name,
			SessionKeyCurrent, MinSessionKeyBytes)
	}
	keys := [][]byte{current}
	if previous, ok := secret.Data[SessionKeyPrevious]; ok {
		if len(previous) < MinSessionKeyBytes {
			return nil, fmt.Errorf("secret %s/%s: key %q must hold at least %d bytes", secret.Namespace, secret.Name,
				SessionKeyPrevious, MinSessionKeyBytes)
		}
		keys = append(keys, previous)
	}
	return keys, nil
}

// StaticSessionKeys is a fixed list of session keys (the first signs), for tests.
type StaticSessionKeys [][]byte

// SessionKeys implements SessionKeySource.
func (k StaticSessionKeys) SessionKeys(context.Context) ([][]byte, error) {
	if len(k) == 0 {
		return nil, errNoSessionKeys
	}
	return k, nil
}
