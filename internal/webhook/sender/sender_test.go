package sender

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

func attempt(url string) Attempt {
	secret, _ := signing.NewSecret(strings.NewReader(strings.Repeat("k", 64)))
	return Attempt{URL: url, EventID: "evt_01HZZZZZZZZZZZZZZZZZZZZZZZ", Body: []byte(`{}`), Secrets: []string{secret}}
}

// Loopback is reached only by a test endpoint, and only when the operator allowed it (make run).
func TestLoopbackOnlyWhenAllowed(t *testing.T) {
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits++
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	a := attempt(srv.URL + "/hooks")

	if res := New(Options{}).Send(context.Background(), a, time.Now()); !errors.Is(res.Err, ssrf.ErrRefused) {
		t.Errorf("a test endpoint on loopback, not allowed: %+v; want refused", res)
	}
	if res := New(Options{AllowLoopback: true}).Send(context.Background(), a, time.Now()); !res.OK() || res.Status != http.StatusNoContent {
		t.Errorf("a test endpoint on loopback, allowed: %+v", res)
	}
	a.Live = true
	if res := New(Options{AllowLoopback: true}).Send(context.Background(), a, time.Now()); !errors.Is(res.Err, ssrf.ErrRefused) {
		t.Errorf("a live endpoint on loopback: %+v; want refused whatever the option", res)
	}
	if hits != 1 {
		t.Errorf("the receiver got %d requests; want 1", hits)
	}
}

// A redirect is a failed attempt, not a new destination; a slow receiver fails at the timeout.
func TestRedirectsAreNotFollowedAndAttemptsAreBounded(t *testing.T) {
	var redirected bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		case "/elsewhere":
			redirected = true
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second):
			}
		}
	}))
	defer srv.Close()
	s := New(Options{AllowLoopback: true, Timeout: 300 * time.Millisecond})
	res := s.Send(context.Background(), attempt(srv.URL+"/moved"), time.Now())
	if res.OK() || res.Status != http.StatusTemporaryRedirect || redirected {
		t.Errorf("a redirect: %+v (followed: %v); want a failed attempt, not followed", res, redirected)
	}
	start := time.Now()
	if res := s.Send(context.Background(), attempt(srv.URL+"/slow"), time.Now()); res.OK() || res.ErrorType() != "timeout" || time.Since(start) > 2*time.Second {
		t.Errorf("a receiver that never answers: %+v after %s; want a failure at the timeout", res, time.Since(start))
	}
}

// ErrorType names the class of a failure and never its host, address or URL.
func TestErrorType(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer ok.Close()
	untrusted := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer untrusted.Close()
	closed := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	closed.Close()
	s := New(Options{AllowLoopback: true, Timeout: 2 * time.Second})
	badSecret := attempt(ok.URL)
	badSecret.Secrets = []string{"whsec_not base64"}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		a    Attempt
		want string
	}{
		{"delivered", context.Background(), attempt(ok.URL), ""},
		{"an error status", context.Background(), attempt(ok.URL + "/fail"), "503"},
		{"a refused destination", context.Background(), Attempt{URL: ok.URL, Live: true, Secrets: attempt("").Secrets}, "refused"},
		{"no listener", context.Background(), attempt(closed.URL), "connection"},
		{"an untrusted certificate", context.Background(), attempt(untrusted.URL), "tls"},
		{"a malformed secret", context.Background(), badSecret, "signing"},
		{"canceled", canceled, attempt(ok.URL), "canceled"},
	} {
		res := s.Send(tc.ctx, tc.a, time.Now())
		if got := res.ErrorType(); got != tc.want {
			t.Errorf("%s: ErrorType() = %q, want %q (%+v)", tc.name, got, tc.want, res)
		}
	}
	timedOut := Result{Err: describe(&url.Error{Op: "Post", URL: "https://h", Err: context.DeadlineExceeded})}
	if got := timedOut.ErrorType(); got != "timeout" {
		t.Errorf("a timeout: ErrorType() = %q", got)
	}
	if got := (Result{Err: &net.DNSError{Err: "no such host", Name: "h", IsNotFound: true}}).ErrorType(); got != "dns" {
		t.Errorf("a DNS failure: ErrorType() = %q", got)
	}
}

// What the endpoint's owner reads of a failure names no address, resolver or port state: a host
// that resolves to a private address, one that does not resolve, a closed port and a receiver that
// does not answer in time all read the same; a status code and a refused URL read as themselves.
func TestDescribeTellsNothingOfTheNetwork(t *testing.T) {
	s := New(Options{AllowLoopback: true, Timeout: 200 * time.Millisecond})
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String() + "/hooks"
	_ = closed.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // past the attempt's timeout (Close waits for the handler)
		case <-r.Context().Done():
		case <-time.After(time.Second):
		}
	}))
	defer slow.Close()

	private := fmt.Errorf("hooks.internal resolves to a refused address: %w", ssrf.Check(netip.MustParseAddr("10.0.0.5"), false))
	missing := fmt.Errorf("resolving hooks.internal: %w", &net.DNSError{Err: "no such host", Name: "hooks.internal", Server: "10.96.0.10:53", IsNotFound: true})
	results := map[string]Result{
		"resolves to a private address": {Err: private},
		"does not resolve":              {Err: missing},
		"closed port":                   s.Send(context.Background(), attempt(closedURL), time.Now()),
		"no answer in time":             s.Send(context.Background(), attempt(slow.URL+"/hooks"), time.Now()),
	}
	want := s.Describe(results["does not resolve"])
	for name, res := range results {
		got := s.Describe(res)
		if got != want {
			t.Errorf("%s reads %q; want the same as a name that does not resolve, %q", name, got, want)
		}
		for _, leak := range []string{"10.0.0.5", "10.96.0.10", "127.0.0.1", "refused", "no such host", "timeout", "private"} {
			if strings.Contains(got, leak) {
				t.Errorf("%s reads %q: it names %q", name, got, leak)
			}
		}
	}
	if got := s.Describe(Result{Status: 503, Err: errors.New("HTTP 503")}); got != "HTTP 503" {
		t.Errorf("a 503 reads %q", got)
	}
	if got := s.Describe(s.Send(context.Background(), attempt("https://10.0.0.7/hooks"), time.Now())); !strings.Contains(got, "10.0.0.7 is a private address") {
		t.Errorf("a URL that is a private address as written reads %q; want the URL's own refusal", got)
	}
}
