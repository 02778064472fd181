package webauth

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// addWebhook creates an endpoint of the account directly, as GitOps would.
func (h *harness) addWebhook(account, name string) *v1alpha1.WebhookEndpoint {
	h.t.Helper()
	ep := &v1alpha1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNamespace, Name: name},
		Spec: v1alpha1.WebhookEndpointSpec{
			AccountRef:  v1alpha1.LocalObjectReference{Name: account},
			Environment: v1alpha1.EnvironmentTest,
			URL:         "https://" + account + ".example.com/hooks/" + name,
			EventTypes:  []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferConfirmed},
		},
	}
	if err := h.client.Create(context.Background(), ep); err != nil {
		h.t.Fatal(err)
	}
	return ep
}

// webhookForm is a form post to /webhooks from this site's own page.
func webhookFormPost(cookie, name, env, rawURL string, eventTypes ...string) request {
	v := url.Values{"name": {name}, "environment": {env}, "url": {rawURL}, "eventTypes": eventTypes}
	return request{method: http.MethodPost, path: "/webhooks", body: v.Encode(), contentType: formContentType, cookie: cookie,
		header: http.Header{"Sec-Fetch-Site": {"same-origin"}}}
}

var secretInPage = regexp.MustCompile(`<code id="new-secret-value">([^<]*)</code>`)

func (h *harness) endpoint(name string) (*v1alpha1.WebhookEndpoint, bool) {
	h.t.Helper()
	var ep v1alpha1.WebhookEndpoint
	err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: name}, &ep)
	if apierrors.IsNotFound(err) {
		return nil, false
	}
	if err != nil {
		h.t.Fatal(err)
	}
	return &ep, true
}

// A created endpoint is the account's, owned by its Account as the controller makes it, with its
// secret in the Secret the operator would generate; the answer shows the secret, and nothing
// afterwards does (the page, the logs, the events).
func TestCreateWebhookShowsTheSecretOnce(t *testing.T) {
	h := newHarness(t)
	alice := h.addAccount("alice")
	cookie := h.signIn(alice)
	resp, body := h.do(webhookFormPost(cookie, "orders", "live", "https://hooks.example.com/tis", "transfer.confirmed", "transfer.failed"))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); csp != contentSecurityPolicy {
		t.Fatalf("CSP %q", csp)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("Cache-Control %q", cc)
	}
	m := secretInPage.FindSubmatch(body)
	if m == nil {
		t.Fatalf("no secret on the page:\n%s", body)
	}
	shown := html.UnescapeString(string(m[1]))
	if key, err := signing.ParseSecret(shown); err != nil || len(key) != signing.SecretBytes {
		t.Fatalf("shown secret is not whsec_ and 32 bytes: %v", err)
	}

	ep, ok := h.endpoint("orders")
	if !ok {
		t.Fatal("no endpoint created")
	}
	if ep.Spec.AccountRef.Name != "alice" || ep.Spec.Environment != v1alpha1.EnvironmentLive || ep.Spec.URL != "https://hooks.example.com/tis" ||
		len(ep.Spec.EventTypes) != 2 || ep.Spec.SecretRef != nil {
		t.Fatalf("spec %+v", ep.Spec)
	}
	if len(ep.OwnerReferences) != 1 || ep.OwnerReferences[0].UID != alice.uid || ep.OwnerReferences[0].Kind != "Account" ||
		*ep.OwnerReferences[0].Controller || !*ep.OwnerReferences[0].BlockOwnerDeletion {
		t.Fatalf("owner references %+v", ep.OwnerReferences)
	}
	var secret corev1.Secret
	if err := h.client.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: "orders-webhook-secret"}, &secret); err != nil {
		t.Fatal(err)
	}
	if string(secret.Data["secret"]) != shown || string(secret.Data[signing.SecretKeyObserved]) != shown {
		t.Fatal("the Secret does not hold the shown secret as the operator would")
	}
	if !metav1.IsControlledBy(&secret, ep) {
		t.Fatalf("the Secret is not controlled by the endpoint: %+v", secret.OwnerReferences)
	}

	// Listed afterwards, without the secret.
	resp, body = h.do(request{method: http.MethodGet, path: "/webhooks", cookie: cookie})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("page: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(string(body), `data-name="orders"`) || !strings.Contains(string(body), "https://hooks.example.com/tis") {
		t.Fatalf("the endpoint is not listed:\n%s", body)
	}
	if strings.Contains(string(body), shown) || strings.Contains(string(body), signing.SecretPrefix) {
		t.Fatal("the page shows the secret again")
	}
	// Posting the form again (a reload of the answer) shows no secret and creates nothing.
	resp, body = h.do(webhookFormPost(cookie, "orders", "live", "https://hooks.example.com/tis", "transfer.confirmed"))
	if resp.StatusCode != http.StatusConflict || strings.Contains(string(body), signing.SecretPrefix) {
		t.Fatalf("second post: %d\n%s", resp.StatusCode, body)
	}
	if strings.Contains(h.logs.String(), shown) || strings.Contains(strings.Join(h.drainEvents(), "\n"), shown) {
		t.Fatal("the secret is in a log line or an event")
	}
}

// When the operator generated the endpoint's Secret first, the answer shows the operator's secret.
func TestCreateWebhookShowsTheOperatorsSecretWhenItWasFirst(t *testing.T) {
	var operators string
	h := newHarness(t, withInterceptor(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if s, ok := obj.(*corev1.Secret); ok && strings.HasSuffix(s.Name, "-webhook-secret") {
				var ep v1alpha1.WebhookEndpoint
				if err := c.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: strings.TrimSuffix(s.Name, "-webhook-secret")}, &ep); err != nil {
					return err
				}
				operators, _ = signing.NewSecret(nil)
				first, err := endpoint.GeneratedSecret(&ep, operators)
				if err != nil {
					return err
				}
				if err := c.Create(ctx, first); err != nil {
					return err
				}
			}
			return c.Create(ctx, obj, opts...)
		},
	}))
	cookie := h.signIn(h.addAccount("alice"))
	resp, body := h.do(webhookFormPost(cookie, "orders", "test", "https://hooks.example.com/tis", "transfer.created"))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	if m := secretInPage.FindSubmatch(body); m == nil || html.UnescapeString(string(m[1])) != operators {
		t.Fatalf("the page does not show the secret the endpoint is signed with:\n%s", body)
	}
}

// The page lists the session's account's endpoints only, and another account's endpoint cannot be
// deleted: it is not found, like an unknown one.
func TestWebhooksPageIsScopedToTheAccount(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	h.addAccount("bob")
	h.addWebhook("alice", "alice-orders")
	h.addWebhook("bob", "bob-orders")
	resp, body := h.do(request{method: http.MethodGet, path: "/webhooks", cookie: cookie})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("page: %d %s", resp.StatusCode, body)
	}
	page := string(body)
	if !strings.Contains(page, `data-name="alice-orders"`) {
		t.Fatalf("alice's endpoint is not listed:\n%s", page)
	}
	if strings.Contains(page, "bob") {
		t.Fatalf("bob's endpoint is on alice's page:\n%s", page)
	}
	for _, name := range []string{"bob-orders", "nobody"} {
		resp, body = h.do(request{method: http.MethodPost, path: "/webhooks/" + name + "/delete", cookie: cookie,
			header: http.Header{"Sec-Fetch-Site": {"same-origin"}}})
		assertProblem(t, resp, body, problem.NotFound)
	}
	if _, ok := h.endpoint("bob-orders"); !ok {
		t.Fatal("bob's endpoint was deleted by alice")
	}
	// Alice deletes her own, and is sent back to the page, which no longer lists it.
	resp, body = h.do(request{method: http.MethodPost, path: "/webhooks/alice-orders/delete", cookie: cookie,
		header: http.Header{"Sec-Fetch-Site": {"same-origin"}}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(resp.Header.Get("Location"), "/webhooks?deleted=alice-orders") {
		t.Fatalf("delete: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	if _, ok := h.endpoint("alice-orders"); ok {
		t.Fatal("alice's endpoint was not deleted")
	}
}

// The form's posts from another site are refused before anything is looked at (CSRF).
func TestWebhooksCrossSitePostsAreRefused(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	h.addWebhook("alice", "kept")
	for _, hd := range []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Sec-Fetch-Site": {"same-site"}},
		{"Origin": {"https://evil.example"}},
	} {
		r := webhookFormPost(cookie, "evil", "test", "https://evil.example/hook", "transfer.created")
		r.header = hd
		resp, body := h.do(r)
		assertProblem(t, resp, body, problem.Forbidden)
		resp, body = h.do(request{method: http.MethodPost, path: "/webhooks/kept/delete", cookie: cookie, header: hd})
		assertProblem(t, resp, body, problem.Forbidden)
	}
	if _, ok := h.endpoint("evil"); ok {
		t.Fatal("a cross-site post created an endpoint")
	}
	if _, ok := h.endpoint("kept"); !ok {
		t.Fatal("a cross-site post deleted an endpoint")
	}
}

// A URL the CRD or the controller would refuse, and any other mistake of the form, is the page
// again with the error and the posted values, status 400, and nothing is created.
func TestCreateWebhookRefusesBadInput(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	for _, tc := range []struct {
		name, env, url string
		types          []string
		field, says    string
	}{
		{"a", "live", "http://hooks.example.com/x", []string{"transfer.created"}, "url", "https"},
		{"a", "live", "http://127.0.0.1:8080/x", []string{"transfer.created"}, "url", "https"},
		{"a", "test", "http://hooks.example.com/x", []string{"transfer.created"}, "url", "loopback"},
		{"a", "test", "https://10.1.2.3/x", []string{"transfer.created"}, "url", "private address"},
		{"a", "live", "https://169.254.169.254/latest", []string{"transfer.created"}, "url", "link-local"},
		{"a", "test", "https://[fd00::1]/x", []string{"transfer.created"}, "url", "private address"},
		{"a", "test", "https://user:pw@hooks.example.com/x", []string{"transfer.created"}, "url", "user information"},
		{"a", "test", "not a url", []string{"transfer.created"}, "url", "https"},
		{"Orders", "test", "https://hooks.example.com/x", []string{"transfer.created"}, "name", "lower case"},
		{"", "test", "https://hooks.example.com/x", []string{"transfer.created"}, "name", "Name"},
		{"a", "prod", "https://hooks.example.com/x", []string{"transfer.created"}, "environment", "test or the live"},
		{"a", "test", "https://hooks.example.com/x", nil, "eventTypes", "at least one"},
		{"a", "test", "https://hooks.example.com/x", []string{"transfer.refunded"}, "eventTypes", "at least one"},
	} {
		resp, body := h.do(webhookFormPost(cookie, tc.name, tc.env, tc.url, tc.types...))
		page := string(body)
		if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%+v: %d %s", tc, resp.StatusCode, page)
		}
		if !strings.Contains(page, `data-field="`+tc.field+`"`) || !strings.Contains(page, tc.says) {
			t.Errorf("%+v: the page does not say what is wrong:\n%s", tc, page)
		}
		if strings.Contains(page, "new-secret") {
			t.Errorf("%+v: a secret panel on a refused post", tc)
		}
	}
	var list v1alpha1.WebhookEndpointList
	if err := h.client.List(context.Background(), &list); err != nil || len(list.Items) != 0 {
		t.Fatalf("endpoints created from bad input: %v %d", err, len(list.Items))
	}
	// A form that is not a form, or has fields the page does not send, is a problem.
	resp, body := h.do(request{method: http.MethodPost, path: "/webhooks", body: `{"name":"a"}`, contentType: "application/json", cookie: cookie})
	assertProblem(t, resp, body, problem.UnsupportedMediaType)
	r := webhookFormPost(cookie, "a", "test", "https://hooks.example.com/x", "transfer.created")
	r.body += "&secretRef=mine"
	resp, body = h.do(r)
	assertProblem(t, resp, body, problem.BadRequest)
}

// Without a session the page and its posts send the browser to sign in.
func TestWebhooksWithoutASessionRedirect(t *testing.T) {
	h := newHarness(t)
	for _, r := range []request{
		{method: http.MethodGet, path: "/webhooks"},
		webhookFormPost("", "a", "test", "https://hooks.example.com/x", "transfer.created"),
		{method: http.MethodPost, path: "/webhooks/a/delete"},
	} {
		resp, body := h.do(r)
		if resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(resp.Header.Get("Location"), "/sign-in") {
			t.Fatalf("%s %s: %d %s", r.method, r.path, resp.StatusCode, body)
		}
	}
}

// A stalled Kubernetes API costs the create and the delete their write timeout and a 503 with
// Retry-After.
func TestWebhooksStalledAPIServerIs503(t *testing.T) {
	var stalled atomic.Bool
	wait := func(ctx context.Context) error {
		if stalled.Load() {
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}
	h := newHarness(t, func(o *Options) { o.WriteTimeout = 300 * time.Millisecond }, withInterceptor(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := wait(ctx); err != nil {
				return err
			}
			return c.Create(ctx, obj, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			if err := wait(ctx); err != nil {
				return err
			}
			return c.Delete(ctx, obj, opts...)
		},
	}))
	cookie := h.signIn(h.addAccount("alice"))
	h.addWebhook("alice", "kept")
	stalled.Store(true)
	for _, r := range []request{
		webhookFormPost(cookie, "orders", "test", "https://hooks.example.com/x", "transfer.created"),
		{method: http.MethodPost, path: "/webhooks/kept/delete", cookie: cookie, header: http.Header{"Sec-Fetch-Site": {"same-origin"}}},
	} {
		start := time.Now()
		resp, body := h.do(r)
		assertProblem(t, resp, body, problem.ServiceUnavailable)
		if resp.Header.Get("Retry-After") == "" || time.Since(start) > 3*time.Second {
			t.Fatalf("%s: Retry-After %q after %s", r.path, resp.Header.Get("Retry-After"), time.Since(start))
		}
	}
}

// The page creates no endpoint beyond the account's limit: the form answers 409 and says why;
// another account's endpoints do not count.
func TestCreateWebhookStopsAtTheAccountsLimit(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.WebhookEndpointLimit = 2 })
	alice := h.addAccount("alice")
	h.addAccount("bob")
	h.addWebhook("alice", "one")
	h.addWebhook("bob", "bobs")
	cookie := h.signIn(alice)
	if resp, body := h.do(webhookFormPost(cookie, "two", "test", "https://hooks.example.com/two", "transfer.confirmed")); resp.StatusCode != http.StatusCreated {
		t.Fatalf("the second endpoint: %d %s", resp.StatusCode, body)
	}
	resp, body := h.do(webhookFormPost(cookie, "three", "test", "https://hooks.example.com/three", "transfer.confirmed"))
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), "the most this service serves per account") {
		t.Fatalf("the third endpoint: %d\n%s", resp.StatusCode, body)
	}
	if _, ok := h.endpoint("three"); ok {
		t.Fatal("the third endpoint was created")
	}
}
