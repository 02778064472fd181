// Package apikey makes new API keys and the ApiKey resources that stand for them. A key is shown
// once to its owner and only its hash is kept: this package returns both, and callers store only
// Hash.
package apikey

import (
	"crypto/rand"
	"fmt"
	"io"
	"regexp"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// alphabet is the characters of a key's random part: 62 symbols, no punctuation, so keys survive
// copy and paste, shells and URLs.
const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomLength is the length of a key's random part (the contract's key format: a prefix and 64
// random characters).
const RandomLength = 64

// displayRandomChars is how many random characters the display prefix keeps: enough for a person
// to tell keys apart (62^4 ≈ 15 million), far too few to help guess one (62^60 remain).
const displayRandomChars = 4

// Key is a newly generated key.
type Key struct {
	// Plaintext is the whole key; show it once and forget it.
	Plaintext string
	// Hash is "sha256:<hex>" of Plaintext, the only form that is stored.
	Hash string
	// DisplayPrefix is the environment prefix and the first random characters, e.g. sk_test_AbCd.
	DisplayPrefix string
	// Environment is the key's environment.
	Environment registry.Environment
}

// Prefix returns the key prefix of env: sk_test_ or sk_live_.
func Prefix(env registry.Environment) (string, error) {
	switch env {
	case registry.EnvironmentTest:
		return "sk_test_", nil
	case registry.EnvironmentLive:
		return "sk_live_", nil
	}
	return "", fmt.Errorf("unknown environment %q: want test or live", env)
}

// WellFormed reports whether k has the shape of a key: a prefix of Prefix and RandomLength
// characters of alphabet. The auth gate checks it before hashing and looking a key up.
func WellFormed(k string) bool {
	rest, ok := strings.CutPrefix(k, "sk_test_")
	if !ok {
		if rest, ok = strings.CutPrefix(k, "sk_live_"); !ok {
			return false
		}
	}
	if len(rest) != RandomLength {
		return false
	}
	for i := range len(rest) {
		if !inAlphabet[rest[i]] {
			return false
		}
	}
	return true
}

// inAlphabet marks the bytes of alphabet. WellFormed runs on every request, and strings.Trim
// with a cutset built the set again each time (a few per cent of a GET /v2/tokens).
var inAlphabet = func() (set [256]bool) {
	for i := range len(alphabet) {
		set[alphabet[i]] = true
	}
	return set
}()

// Generate makes a key for env from crypto/rand.
func Generate(env registry.Environment) (Key, error) { return generate(env, rand.Reader) }

func generate(env registry.Environment, random io.Reader) (Key, error) {
	prefix, err := Prefix(env)
	if err != nil {
		return Key{}, err
	}
	body, err := randomString(random, RandomLength)
	if err != nil {
		return Key{}, fmt.Errorf("reading randomness: %w", err)
	}
	plaintext := prefix + body
	return Key{
		Plaintext:     plaintext,
		Hash:          registry.HashKey(plaintext),
		DisplayPrefix: prefix + body[:displayRandomChars],
		Environment:   env,
	}, nil
}

// randomString draws n characters uniformly from alphabet. Bytes of 248 and above are rejected:
// 248 = 4*62 is the largest multiple of 62 below 256, so b%62 is unbiased for the rest.
func randomString(random io.Reader, n int) (string, error) {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4)
	for len(out) < n {
		if _, err := io.ReadFull(random, buf); err != nil {
			return "", err
		}
		for _, b := range buf {
			if b >= 248 {
				continue
			}
			out = append(out, alphabet[b%62])
			if len(out) == n {
				break
			}
		}
	}
	return string(out), nil
}

// nameChars are the characters a key name loses when it becomes part of an object name.
var nameChars = regexp.MustCompile(`[^a-z0-9-]+`)

// ObjectName is the ApiKey object name of a key: <account>-<name>-<8 hex of the hash>, readable
// in kubectl and unique per key, so that a rotated key with the same name is a new object rather
// than an (immutable) change of the old one. `manager keygen` and POST /auth/api-key/create use it.
func ObjectName(account, name, hash string) string {
	slug := strings.Trim(nameChars.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(slug) > 40 {
		slug = strings.TrimRight(slug[:40], "-")
	}
	base := account
	if len(base) > 200 {
		base = strings.TrimRight(base[:200], "-.")
	}
	if slug != "" {
		base += "-" + slug
	}
	return base + "-" + hash[len(registry.KeyHashPrefix):len(registry.KeyHashPrefix)+8]
}

// Object returns the ApiKey resource that stands for k: named by ObjectName and holding only the
// key's hash. `manager keygen` prints it as a manifest; POST /auth/api-key/create creates it.
func (k Key) Object(namespace, account, name string, expiresAt *metav1.Time) *v1alpha1.ApiKey {
	return &v1alpha1.ApiKey{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.GroupVersion.String(), Kind: "ApiKey"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: ObjectName(account, name, k.Hash)},
		Spec: v1alpha1.ApiKeySpec{
			AccountRef:    v1alpha1.LocalObjectReference{Name: account},
			Environment:   v1alpha1.Environment(k.Environment),
			KeyHash:       k.Hash,
			DisplayPrefix: k.DisplayPrefix,
			DisplayName:   name,
			ExpiresAt:     expiresAt,
		},
	}
}

// SetOwner makes account the owner of key: the garbage collector deletes the key with its
// Account, and a foreground deletion of the Account waits for its keys (blockOwnerDeletion). A
// reference to an earlier Account of the same name (deleted and created again) is replaced, so
// that the collector does not delete the key for the old one. The ApiKey controller and the key
// API both set it.
func SetOwner(key *v1alpha1.ApiKey, account *v1alpha1.Account) error {
	return controllerutil.SetOwnerReference(account, key, v1alpha1.Scheme(),
		controllerutil.WithBlockOwnerDeletion(true), notController)
}

// notController marks the reference as a plain owner: the ApiKey controller, not the Account's,
// manages keys.
func notController(ref *metav1.OwnerReference) { ref.Controller = ptr.To(false) }

// KeyFromApiKey is the key index entry of an ApiKey, which the ApiKey controller publishes. The key
// management API uses it too, to publish a key it has just written without waiting for the watch.
func KeyFromApiKey(obj *v1alpha1.ApiKey) registry.Key {
	spec := &obj.Spec
	k := registry.Key{
		ID:                 obj.Name,
		Account:            spec.AccountRef.Name,
		Environment:        registry.Environment(spec.Environment),
		DisplayPrefix:      spec.DisplayPrefix,
		DisplayName:        spec.DisplayName,
		Disabled:           spec.Disabled,
		RateLimitPerMinute: spec.RateLimitPerMinute,
		Filler:             spec.Role == v1alpha1.ApiKeyRoleFiller,
		CreatedAt:          obj.CreationTimestamp.Time,
		UID:                string(obj.UID),
		Generation:         obj.Generation,
	}
	if k.RateLimitPerMinute == 0 {
		k.RateLimitPerMinute = registry.DefaultRateLimitPerMinute
	}
	if spec.ExpiresAt != nil {
		k.ExpiresAt = spec.ExpiresAt.Time
	}
	return k
}
