package main

import (
	"flag"
	"fmt"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/webauth"
)

// webAuthConfig is what the flags set for browser sign-in and key management.
type webAuthConfig struct {
	sessionSecretName string
	sessionTTL        time.Duration
	trustedProxies    string
}

func bindWebAuthFlags(fs *flag.FlagSet, c *webAuthConfig) {
	defaults := webauth.DefaultOptions()
	fs.StringVar(&c.sessionSecretName, "session-secret-name", webauth.DefaultSessionSecretName,
		"Secret (in --namespace) holding the session signing keys (data keys current, and previous while rotating); created with a random key if missing.")
	fs.DurationVar(&c.sessionTTL, "session-ttl", defaults.SessionTTL, "Lifetime of a browser session after sign-in.")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", "",
		"Comma-separated addresses or CIDRs of reverse proxies whose X-Forwarded-For names the client, for sign-in throttling.")
}

// newWebAuth builds the sign-in and key management handler and the Runnable that loads (or
// creates) the session Secret.
func newWebAuth(c config, mgr ctrl.Manager, rm controller.ReadModels) (*webauth.Handler, *webauth.SessionSecret, error) {
	proxies, err := webauth.ParseTrustedProxies(c.web.trustedProxies)
	if err != nil {
		return nil, nil, fmt.Errorf("--trusted-proxies: %w", err)
	}
	sessions := &webauth.SessionSecret{
		Cache:     mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Writer:    mgr.GetClient(),
		Namespace: c.namespace,
		Name:      c.web.sessionSecretName,
		Log:       ctrl.Log.WithName("sessions"),
	}
	opts := webauth.DefaultOptions()
	opts.BaseURL = c.api.BaseURL
	opts.ProblemBaseURL = c.api.ProblemBaseURL
	opts.MaxBodyBytes = c.api.MaxBodyBytes
	opts.SessionTTL = c.web.sessionTTL
	opts.TrustedProxies = proxies
	web, err := webauth.New(opts, webauth.Deps{
		Accounts:    rm.Accounts,
		Keys:        rm.Keys,
		Reader:      mgr.GetClient(),
		Writer:      mgr.GetClient(),
		Namespace:   c.namespace,
		SessionKeys: sessions,
		Events:      mgr.GetEventRecorder(controller.EventReporter),
	}, ctrl.Log.WithName("web"))
	if err != nil {
		return nil, nil, err
	}
	return web, sessions, nil
}
