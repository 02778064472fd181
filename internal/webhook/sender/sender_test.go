package sender

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
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
