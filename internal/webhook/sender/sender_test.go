package sender

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
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
	if res := s.Send(context.Background(), attempt(srv.URL+"/slow"), time.Now()); res.OK() || time.Since(start) > 2*time.Second {
		t.Errorf("a receiver that never answers: %+v after %s; want a failure at the timeout", res, time.Since(start))
	}
}
