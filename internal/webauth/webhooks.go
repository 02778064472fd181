package webauth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// The /webhooks page lists the signed-in account's WebhookEndpoints and creates and deletes them
// with plain form posts (no script). A new endpoint's signing secret is generated here, in the
// Secret the operator would generate (endpoint.GeneratedSecret), and shown on the answer
// to the create, once: the page never reads it again. See docs/decisions.md, "Webhooks".

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=webhookendpoints,verbs=get;list;watch;create;delete

// formContentType is the media type of the page's form posts.
const formContentType = "application/x-www-form-urlencoded"

// webhookEventTypes are the event types the form offers, in lifecycle order.
var webhookEventTypes = []v1alpha1.WebhookEventType{
	v1alpha1.WebhookEventTransferCreated, v1alpha1.WebhookEventTransferSubmitted, v1alpha1.WebhookEventTransferConfirmed,
	v1alpha1.WebhookEventTransferFailed, v1alpha1.WebhookEventTransferExpired,
}

// webhookRow is one row of the endpoints table.
type webhookRow struct {
	Name, Environment, URL string
	EventTypes             []string
	// Ready is True, False or Unknown (no status yet); Reason and Message are the Ready condition's.
	Ready, Reason, Message string
	LastError              string
	Created                string
}

// eventTypeBox is one checkbox of the form.
type eventTypeBox struct {
	Value   string
	Checked bool
}

// webhookForm is what the form shows: empty, or what was posted when it is shown again with an error.
type webhookForm struct {
	Name, Environment, URL string
	EventTypes             []eventTypeBox
}

// createdEndpoint is the endpoint just created, with its secret: on that answer only.
type createdEndpoint struct {
	Name, Secret string
}

type webhooksData struct {
	Title, Page string
	Account     registry.Account
	Endpoints   []webhookRow
	Form        webhookForm
	// Error is what was wrong with the post, Field the form field it is about ("" when none).
	Error, Field string
	Created      *createdEndpoint
	// Deleted names the endpoint just deleted.
	Deleted string
	// createdSpec is the spec of Created, listed while the cache does not have it yet.
	createdSpec v1alpha1.WebhookEndpointSpec
}

// newWebhookForm is the form with the posted values, every event type checked when none was posted.
func newWebhookForm(name, env, rawURL string, checked []v1alpha1.WebhookEventType) webhookForm {
	f := webhookForm{Name: name, Environment: cmp.Or(env, string(v1alpha1.EnvironmentTest)), URL: rawURL}
	for _, t := range webhookEventTypes {
		f.EventTypes = append(f.EventTypes, eventTypeBox{Value: string(t), Checked: len(checked) == 0 || slices.Contains(checked, t)})
	}
	return f
}

// webhooksPage is GET /webhooks: the signed-in account's endpoints and the form to create one.
func (h *Handler) webhooksPage(w http.ResponseWriter, r *http.Request) {
	account, ok := h.pageSession(w, r)
	if !ok {
		return
	}
	data := webhooksData{Form: newWebhookForm("", "", "", nil)}
	if d := r.URL.Query().Get("deleted"); d != "" && len(validation.IsDNS1123Label(d)) == 0 {
		data.Deleted = d
	}
	h.renderWebhooks(w, r, account, http.StatusOK, data)
}

// renderWebhooks lists the account's endpoints and renders the page with data and status.
func (h *Handler) renderWebhooks(w http.ResponseWriter, r *http.Request, account registry.Account, status int, data webhooksData) {
	data.Title, data.Page, data.Account = "Webhooks", "webhooks", account
	var list v1alpha1.WebhookEndpointList
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.WriteTimeout)
	defer cancel()
	// Only the session's account's endpoints, by the index the controllers read.
	if err := h.deps.Cache.List(ctx, &list, client.InNamespace(h.deps.Namespace),
		client.MatchingFields{endpoint.AccountField: account.Name}); err != nil {
		h.writeFailed(w, r, "listing WebhookEndpoints", err, "account", account.Name)
		return
	}
	items := list.Items
	// The cache may not have the endpoint just created yet, or may still have the one just deleted.
	if data.Created != nil && !slices.ContainsFunc(items, func(ep v1alpha1.WebhookEndpoint) bool { return ep.Name == data.Created.Name }) {
		items = append(items, v1alpha1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Name: data.Created.Name}, Spec: data.createdSpec})
	}
	items = slices.DeleteFunc(items, func(ep v1alpha1.WebhookEndpoint) bool {
		return ep.Name == data.Deleted || ep.Spec.AccountRef.Name != account.Name
	})
	slices.SortFunc(items, func(a, b v1alpha1.WebhookEndpoint) int { return cmp.Compare(a.Name, b.Name) })
	for i := range items {
		data.Endpoints = append(data.Endpoints, webhookRowOf(&items[i]))
	}
	h.renderStatus(w, r, h.pages.webhooks, data, status)
}

func webhookRowOf(ep *v1alpha1.WebhookEndpoint) webhookRow {
	row := webhookRow{Name: ep.Name, Environment: string(ep.Spec.Environment), URL: ep.Spec.URL,
		Ready: "Unknown", LastError: ep.Status.LastError}
	for _, t := range ep.Spec.EventTypes {
		row.EventTypes = append(row.EventTypes, string(t))
	}
	if !ep.CreationTimestamp.IsZero() {
		row.Created = displayTime(ep.CreationTimestamp.Time)
	}
	for _, c := range ep.Status.Conditions {
		if c.Type == v1alpha1.ConditionReady && c.ObservedGeneration == ep.Generation {
			row.Ready, row.Reason, row.Message = string(c.Status), c.Reason, c.Message
		}
	}
	return row
}

// atEndpointLimit reports whether the account has as many endpoints as the limit (from the cache:
// two creates at once may both pass, and the controller then stalls the newer one).
func (h *Handler) atEndpointLimit(ctx context.Context, account string) (bool, error) {
	if h.opts.WebhookEndpointLimit < 1 {
		return false, nil
	}
	var list v1alpha1.WebhookEndpointList
	if err := h.deps.Cache.List(ctx, &list, client.InNamespace(h.deps.Namespace), client.MatchingFields{endpoint.AccountField: account}); err != nil {
		return false, err
	}
	n := 0
	for i := range list.Items {
		if list.Items[i].DeletionTimestamp.IsZero() {
			n++
		}
	}
	return n >= h.opts.WebhookEndpointLimit, nil
}

// createWebhook is POST /webhooks: it creates an endpoint of the signed-in account with a new
// signing secret, and answers the page with the secret, this once.
func (h *Handler) createWebhook(w http.ResponseWriter, r *http.Request) {
	account, ok := h.pageSession(w, r)
	if !ok {
		return
	}
	form, ok := h.parseForm(w, r)
	if !ok {
		return
	}
	for name := range form {
		if !slices.Contains([]string{"name", "environment", "url", "eventTypes"}, name) {
			h.problems.Write(w, r, problem.BadRequest, fmt.Sprintf("The form has an unknown field %q.", name), problem.Details{"field": name})
			return
		}
	}
	name := strings.TrimSpace(form.Get("name"))
	env := v1alpha1.Environment(form.Get("environment"))
	rawURL := strings.TrimSpace(form.Get("url"))
	var eventTypes []v1alpha1.WebhookEventType
	for _, t := range form["eventTypes"] {
		eventTypes = append(eventTypes, v1alpha1.WebhookEventType(t))
	}
	data := webhooksData{Form: newWebhookForm(name, string(env), rawURL, eventTypes)}
	invalid := func(status int, field, msg string) {
		data.Error, data.Field = msg, field
		h.renderWebhooks(w, r, account, status, data)
	}
	if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
		invalid(http.StatusBadRequest, "name", "Name: "+strings.Join(errs, "; ")+" (for example orders-prod).")
		return
	}
	if len(endpoint.GeneratedSecretName(name)) > validation.DNS1123SubdomainMaxLength {
		invalid(http.StatusBadRequest, "name", "Name: too long.")
		return
	}
	spec := v1alpha1.WebhookEndpointSpec{
		AccountRef: v1alpha1.LocalObjectReference{Name: account.Name}, Environment: env, URL: rawURL, EventTypes: eventTypes,
	}
	// The CRD's rules and the controller's address check (an address literal of the service's own
	// network is refused), so that the person sees the mistake now rather than in the status.
	if errs := endpoint.ValidateSpec(&spec); len(errs) > 0 {
		e := errs[0]
		field := strings.TrimPrefix(e.Field, "spec.")
		if i := strings.IndexByte(field, '['); i >= 0 {
			field = field[:i]
		}
		msg := e.Detail
		switch field {
		case "environment":
			msg = "Choose the test or the live environment."
		case "eventTypes":
			msg = "Choose at least one event type, among those listed."
		case "url":
			msg = "URL: " + e.Detail + "."
		}
		invalid(http.StatusBadRequest, field, msg)
		return
	}

	ctx, cancel := context.WithTimeout(r.Context(), h.opts.WriteTimeout)
	defer cancel()
	owner, ok := h.liveAccount(ctx, w, r, account)
	if !ok {
		return
	}
	if full, err := h.atEndpointLimit(ctx, account.Name); err != nil {
		h.writeFailed(w, r, "listing WebhookEndpoints", err, "account", account.Name)
		return
	} else if full {
		invalid(http.StatusConflict, "name", fmt.Sprintf("Your account has %d WebhookEndpoints, the most this service serves per account: "+
			"delete one before you create another.", h.opts.WebhookEndpointLimit))
		return
	}
	secret, err := signing.NewSecret(nil)
	if err != nil {
		h.internalError(w, r, "generating a webhook secret", err)
		return
	}
	ep := &v1alpha1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Namespace: h.deps.Namespace, Name: name,
			Annotations: map[string]string{CreatedByAnnotation: "sign-in-session"}},
		Spec: spec,
	}
	// The owner reference the controller adds, from the start.
	if err := endpoint.SetOwner(ep, owner); err != nil {
		h.internalError(w, r, "owner-referencing a WebhookEndpoint", err, "account", account.Name)
		return
	}
	if err := h.deps.Writer.Create(ctx, ep); err != nil {
		switch {
		case apierrors.IsAlreadyExists(err):
			invalid(http.StatusConflict, "name", fmt.Sprintf("A webhook endpoint named %q exists already: choose another name.", name))
		case apierrors.IsInvalid(err):
			invalid(http.StatusBadRequest, "", "The Kubernetes API refused the endpoint: "+invalidCauses(err))
		default:
			h.writeFailedSaying(w, r, "The Kubernetes API did not answer in time; the endpoint may have been created: reload the page to see, and retry.",
				"creating a WebhookEndpoint", err, "account", account.Name, "endpoint", name)
		}
		return
	}
	if secret, err = h.createWebhookSecret(ctx, ep, secret); err != nil {
		// The endpoint exists; the operator generates its secret, which this page cannot show.
		h.writeFailedSaying(w, r, "The endpoint was created, but its signing secret could not be stored in time: delete the endpoint and create it again.",
			"creating a WebhookEndpoint's secret", err, "account", account.Name, "endpoint", name)
		return
	}
	h.event(ep, owner, "Created", "CreateWebhookEndpoint", fmt.Sprintf("webhook endpoint %s (%s) created from a browser session of Account %s",
		name, env, account.Name))
	h.log.Info("webhook endpoint created", "endpoint", name, "account", account.Name, "environment", string(env),
		"correlationId", problem.CorrelationID(ctx))
	data = webhooksData{Form: newWebhookForm("", "", "", nil), Created: &createdEndpoint{Name: name, Secret: secret}, createdSpec: spec}
	h.renderWebhooks(w, r, account, http.StatusCreated, data)
}

// createWebhookSecret creates the endpoint's Secret with secret, as the operator would, and
// returns the secret the endpoint is signed with: secret, or the operator's when it generated one
// first (it does as soon as it sees the endpoint without a Secret).
func (h *Handler) createWebhookSecret(ctx context.Context, ep *v1alpha1.WebhookEndpoint, secret string) (string, error) {
	obj, err := endpoint.GeneratedSecret(ep, secret)
	if err != nil {
		return "", err
	}
	err = h.deps.Writer.Create(ctx, obj)
	if err == nil || !apierrors.IsAlreadyExists(err) {
		return secret, err
	}
	if err := h.deps.APIReader.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		return "", err
	}
	value := string(obj.Data[signing.DefaultSecretKey])
	if !metav1.IsControlledBy(obj, ep) {
		return "", fmt.Errorf("secret %s exists and is not the endpoint's", obj.Name)
	}
	if _, err := signing.ParseSecret(value); err != nil {
		return "", err
	}
	return value, nil
}

// invalidCauses is the API server's reasons for refusing an object, without the object's values.
func invalidCauses(err error) string {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return "invalid."
	}
	var out []string
	for _, c := range status.Status().Details.Causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return strings.Join(out, "; ") + "."
}

// deleteWebhook is POST /webhooks/{name}/delete: it deletes one of the account's endpoints (the
// garbage collector deletes its generated Secret) and sends the browser back to /webhooks.
func (h *Handler) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	account, ok := h.pageSession(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	notFound := func() {
		h.problems.Write(w, r, problem.NotFound, fmt.Sprintf("The signed-in account has no webhook endpoint %q.", name), nil)
	}
	if len(validation.IsDNS1123Label(name)) > 0 {
		notFound()
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.WriteTimeout)
	defer cancel()
	// From the API server, not the cache: an endpoint created a moment ago is found.
	var ep v1alpha1.WebhookEndpoint
	if err := h.deps.APIReader.Get(ctx, types.NamespacedName{Namespace: h.deps.Namespace, Name: name}, &ep); err != nil {
		if apierrors.IsNotFound(err) {
			notFound()
			return
		}
		h.writeFailed(w, r, "reading a WebhookEndpoint", err, "endpoint", name)
		return
	}
	if ep.Spec.AccountRef.Name != account.Name {
		notFound() // another account's endpoint is not found, like an unknown one
		return
	}
	// The UID precondition: the very endpoint checked above, not one created since under its name.
	if err := h.deps.Writer.Delete(ctx, &ep, client.Preconditions{UID: &ep.UID}); err != nil && !apierrors.IsNotFound(err) {
		h.writeFailed(w, r, "deleting a WebhookEndpoint", err, "endpoint", name)
		return
	}
	var owner v1alpha1.Account
	if err := h.deps.Cache.Get(ctx, types.NamespacedName{Namespace: h.deps.Namespace, Name: account.Name}, &owner); err == nil {
		h.event(&owner, nil, "WebhookEndpointDeleted", "DeleteWebhookEndpoint", "webhook endpoint "+name+" deleted from a browser session")
	}
	h.log.Info("webhook endpoint deleted", "endpoint", name, "account", account.Name, "correlationId", problem.CorrelationID(ctx))
	h.redirect(w, "/webhooks?deleted="+url.QueryEscape(name))
}

// parseForm reads a form post's fields, answering 415, 413 or 400 itself when it cannot.
func (h *Handler) parseForm(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	if mediaType(r) != formContentType {
		h.problems.Write(w, r, problem.UnsupportedMediaType, "Send the form as "+formContentType+".", nil)
		return nil, false
	}
	r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		if errBodyTooLarge(err) {
			h.problems.Write(w, r, problem.PayloadTooLarge, fmt.Sprintf("The body is larger than %d bytes.", h.opts.MaxBodyBytes), nil)
			return nil, false
		}
		h.problems.Write(w, r, problem.BadRequest, "The form could not be read.", nil)
		return nil, false
	}
	return r.PostForm, true
}
