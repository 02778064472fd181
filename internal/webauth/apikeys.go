package webauth

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// CreatedByAnnotation marks ApiKeys created from a browser session, to tell them from keys
// committed to a GitOps repository.
const CreatedByAnnotation = "intents.transferintent.io/created-by"

// maxKeyNameLength is spec.displayName's bound (and the OpenAPI name's).
const maxKeyNameLength = 63

// createKeyRequest is the body of POST /auth/api-key/create.
type createKeyRequest struct {
	Name        string  `json:"name"`
	Environment string  `json:"environment"`
	ExpiresAt   *string `json:"expiresAt"`
}

// apiKeyJSON is an API key without the key (OpenAPI ApiKey).
type apiKeyJSON struct {
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	Environment   string     `json:"environment"`
	DisplayPrefix string     `json:"displayPrefix"`
	CreatedAt     time.Time  `json:"createdAt"`
	ExpiresAt     *time.Time `json:"expiresAt"`
	Disabled      bool       `json:"disabled"`
}

// createdKeyJSON is a new key, with the key shown this once (OpenAPI CreatedApiKey).
type createdKeyJSON struct {
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	Environment   string     `json:"environment"`
	Key           string     `json:"key"`
	DisplayPrefix string     `json:"displayPrefix"`
	CreatedAt     time.Time  `json:"createdAt"`
	ExpiresAt     *time.Time `json:"expiresAt"`
}

// createKey creates an ApiKey owned by the signed-in account and answers with the key, once.
func (h *Handler) createKey(w http.ResponseWriter, r *http.Request, account registry.Account) {
	var req createKeyRequest
	if !h.decodeJSON(w, r, &req, "name", "environment", "expiresAt") {
		return
	}
	name, env, expiresAt, ok := h.validateCreate(w, r, &req)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.WriteTimeout)
	defer cancel()
	owner, ok := h.liveAccount(ctx, w, r, account)
	if !ok {
		return
	}
	if held, limit := len(h.deps.Keys.ByAccount(account.Name)), owner.Spec.APIKeyLimit(); held >= limit {
		// Each key brings its own rate limit and stream bound: the bound on keys is what keeps
		// an account from multiplying them (docs/settlement.md, threat model).
		h.problems.Write(w, r, problem.ValidationFailed,
			fmt.Sprintf("This account holds %d API keys, the most it may (Account spec.maxApiKeys); delete one before creating another.", held),
			problem.Details{"limit": limit})
		return
	}

	generated, err := apikey.Generate(env)
	if err != nil {
		h.internalError(w, r, "generating an API key", err)
		return
	}
	obj := generated.Object(h.deps.Namespace, account.Name, name, expiresAt)
	obj.Annotations = map[string]string{CreatedByAnnotation: "sign-in-session"}
	// The same reference the ApiKey controller adds, from the start.
	if err := apikey.SetOwner(obj, owner); err != nil {
		h.internalError(w, r, "owner-referencing an ApiKey", err, "account", account.Name)
		return
	}
	if err := h.deps.Writer.Create(ctx, obj); err != nil {
		// The key may have been created all the same, its plaintext never shown: harmless (it can
		// be deleted from the list), but the person should look before creating another.
		h.writeFailedSaying(w, r, "The Kubernetes API did not answer in time; the key may have been created without being shown: list your keys, delete it if it is there, and retry.",
			"creating an ApiKey", err, "account", account.Name, "keyId", obj.Name)
		return
	}
	// Usable on /v2 at once on this replica; other replicas learn it from the watch.
	entry := registryKey(obj, h.deps.Clock.Now())
	h.deps.Keys.Upsert(obj.Spec.KeyHash, entry)
	h.event(obj, owner, "Created", "CreateApiKey", fmt.Sprintf("API key %q (%s) created from a browser session of Account %s",
		name, generated.DisplayPrefix, account.Name))
	h.log.Info("API key created", "keyId", obj.Name, "account", account.Name, "environment", string(env),
		"correlationId", problem.CorrelationID(ctx))

	view := keyView(entry)
	writeJSON(w, http.StatusCreated, createdKeyJSON{
		ID:            view.ID,
		Name:          view.Name,
		Environment:   view.Environment,
		Key:           generated.Plaintext,
		DisplayPrefix: view.DisplayPrefix,
		CreatedAt:     view.CreatedAt,
		ExpiresAt:     view.ExpiresAt,
	})
}

// validateCreate checks the request beyond its JSON shape, answering 400 or 422 itself.
func (h *Handler) validateCreate(w http.ResponseWriter, r *http.Request, req *createKeyRequest) (
	name string, env registry.Environment, expiresAt *metav1.Time, ok bool,
) {
	name = strings.TrimSpace(req.Name)
	switch {
	case name == "":
		h.problems.Write(w, r, problem.BadRequest, "Field \"name\" is required: give the key a name.", problem.Details{"field": "name"})
		return
	case utf8.RuneCountInString(name) > maxKeyNameLength:
		h.problems.Write(w, r, problem.BadRequest, "Field \"name\" is longer than 63 characters.", problem.Details{"field": "name"})
		return
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		h.problems.Write(w, r, problem.BadRequest, "Field \"name\" contains control characters.", problem.Details{"field": "name"})
		return
	}
	switch env = registry.Environment(req.Environment); env {
	case "":
		env = registry.EnvironmentTest
	case registry.EnvironmentTest, registry.EnvironmentLive:
	default:
		h.problems.Write(w, r, problem.BadRequest, "Field \"environment\" must be \"test\" or \"live\".", problem.Details{"field": "environment"})
		return
	}
	if req.ExpiresAt != nil {
		t, err := time.Parse(time.RFC3339, *req.ExpiresAt)
		if err != nil {
			h.problems.Write(w, r, problem.BadRequest, "Field \"expiresAt\" must be an RFC 3339 date-time, e.g. 2030-01-31T00:00:00Z.",
				problem.Details{"field": "expiresAt"})
			return
		}
		if !t.After(h.deps.Clock.Now()) {
			h.problems.Write(w, r, problem.ValidationFailed, "Field \"expiresAt\" must be in the future.", problem.Details{"field": "expiresAt"})
			return
		}
		// metav1.Time is serialised to the second: keep what will be stored.
		expiresAt = &metav1.Time{Time: t.UTC().Truncate(time.Second)}
	}
	return name, env, expiresAt, true
}

// listKeys lists the signed-in account's keys, newest first, from the key index.
func (h *Handler) listKeys(w http.ResponseWriter, _ *http.Request, account registry.Account) {
	writeJSON(w, http.StatusOK, h.accountKeys(account.Name))
}

func (h *Handler) accountKeys(account string) []apiKeyJSON {
	keys := slices.Clone(h.deps.Keys.ByAccount(account))
	slices.SortFunc(keys, func(a, b registry.Key) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	out := make([]apiKeyJSON, 0, len(keys))
	for _, k := range keys {
		out = append(out, keyView(k))
	}
	return out
}

// disableKey sets spec.disabled on one of the account's keys; the key index refuses it at once.
func (h *Handler) disableKey(w http.ResponseWriter, r *http.Request, account registry.Account) {
	id := r.PathValue("id")
	if !h.ownsKey(account.Name, id) {
		h.keyNotFound(w, r, id)
		return
	}
	obj := &v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Namespace: h.deps.Namespace, Name: id}}
	patch := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"disabled":true}}`))
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.WriteTimeout)
	defer cancel()
	if err := h.deps.Writer.Patch(ctx, obj, patch); err != nil {
		if apierrors.IsNotFound(err) {
			h.deps.Keys.Delete(id)
			h.keyNotFound(w, r, id)
			return
		}
		h.writeFailed(w, r, "disabling an ApiKey", err, "keyId", id)
		return
	}
	entry := registryKey(obj, h.deps.Clock.Now())
	h.deps.Keys.Upsert(obj.Spec.KeyHash, entry)
	h.event(obj, nil, "Disabled", "DisableApiKey", "API key disabled from a browser session of Account "+account.Name)
	h.log.Info("API key disabled", "keyId", id, "account", account.Name, "correlationId", problem.CorrelationID(r.Context()))
	writeJSON(w, http.StatusOK, keyView(entry))
}

// deleteKey deletes one of the account's keys; the key index forgets it at once.
func (h *Handler) deleteKey(w http.ResponseWriter, r *http.Request, account registry.Account) {
	id := r.PathValue("id")
	if !h.ownsKey(account.Name, id) {
		h.keyNotFound(w, r, id)
		return
	}
	obj := &v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Namespace: h.deps.Namespace, Name: id}}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.WriteTimeout)
	defer cancel()
	if err := h.deps.Writer.Delete(ctx, obj); err != nil && !apierrors.IsNotFound(err) {
		h.writeFailed(w, r, "deleting an ApiKey", err, "keyId", id)
		return
	}
	h.deps.Keys.Delete(id)
	var owner v1alpha1.Account
	if err := h.deps.Cache.Get(r.Context(), types.NamespacedName{Namespace: h.deps.Namespace, Name: account.Name}, &owner); err == nil {
		h.event(&owner, nil, "ApiKeyDeleted", "DeleteApiKey", "API key "+id+" deleted from a browser session")
	}
	h.log.Info("API key deleted", "keyId", id, "account", account.Name, "correlationId", problem.CorrelationID(r.Context()))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// ownsKey reports whether the key is one of the account's. It asks the key index, which this
// handler updates itself, so a key created a moment ago is found before the cache has it.
func (h *Handler) ownsKey(account, id string) bool {
	return slices.ContainsFunc(h.deps.Keys.ByAccount(account), func(k registry.Key) bool { return k.ID == id })
}

func (h *Handler) keyNotFound(w http.ResponseWriter, r *http.Request, id string) {
	h.problems.Write(w, r, problem.NotFound, fmt.Sprintf("The signed-in account has no API key %q.", id), nil)
}

func (h *Handler) event(regarding, related runtime.Object, reason, action, note string) {
	if h.deps.Events != nil {
		h.deps.Events.Eventf(regarding, related, corev1.EventTypeNormal, reason, action, "%s", note)
	}
}

// registryKey is the key index entry of an ApiKey, as the ApiKey controller builds it.
func registryKey(obj *v1alpha1.ApiKey, now time.Time) registry.Key {
	k := apikey.KeyFromApiKey(obj)
	if k.CreatedAt.IsZero() { // a fake client in tests sets no timestamps
		k.CreatedAt = now.Truncate(time.Second)
	}
	return k
}

// keyView is the JSON of a key index entry. A key without a name (made by `manager keygen`
// without --name) is shown under its ID.
func keyView(k registry.Key) apiKeyJSON {
	v := apiKeyJSON{
		ID:            k.ID,
		Name:          k.DisplayName,
		Environment:   string(k.Environment),
		DisplayPrefix: k.DisplayPrefix,
		CreatedAt:     k.CreatedAt.UTC(),
		Disabled:      k.Disabled,
	}
	if v.Name == "" {
		v.Name = k.ID
		if len(v.Name) > maxKeyNameLength {
			v.Name = v.Name[:maxKeyNameLength]
		}
	}
	if !k.ExpiresAt.IsZero() {
		v.ExpiresAt = ptr.To(k.ExpiresAt.UTC())
	}
	return v
}

// liveAccount reads the signed-in account's Account, which a new key or endpoint is owned by. A
// deleted or deleting Account is answered 401 (the session outlived it); a failed read, 503 or
// 500 as writeFailed decides. ok is false once an answer was written.
func (h *Handler) liveAccount(ctx context.Context, w http.ResponseWriter, r *http.Request, account registry.Account) (*v1alpha1.Account, bool) {
	var owner v1alpha1.Account
	if err := h.deps.Cache.Get(ctx, types.NamespacedName{Namespace: h.deps.Namespace, Name: account.Name}, &owner); err != nil {
		if apierrors.IsNotFound(err) {
			h.problems.Write(w, r, problem.Unauthorized, "The signed-in account no longer exists.", nil)
			return nil, false
		}
		h.writeFailed(w, r, "reading the Account", err, "account", account.Name)
		return nil, false
	}
	if !owner.DeletionTimestamp.IsZero() {
		h.problems.Write(w, r, problem.Unauthorized, "The signed-in account no longer exists.", nil)
		return nil, false
	}
	return &owner, true
}
