package main

import (
	"flag"

	"github.com/transferintent/transfer-intent-service/internal/service"
)

// bindWebAuthFlags binds the flags of browser sign-in and key management; o holds the defaults.
// --trusted-proxies goes to *trustedProxies as written: run parses it, so that a bad value is
// reported like any other start-up error.
func bindWebAuthFlags(fs *flag.FlagSet, o *service.Options, trustedProxies *string) {
	fs.StringVar(&o.SessionSecretName, "session-secret-name", o.SessionSecretName,
		"Secret (in --namespace) holding the session signing keys (data keys current, and previous while rotating); created with a random key if missing.")
	fs.DurationVar(&o.Web.SessionTTL, "session-ttl", o.Web.SessionTTL, "Lifetime of a browser session after sign-in, however it is used.")
	fs.DurationVar(&o.Web.SessionIdleTimeout, "session-idle-timeout", o.Web.SessionIdleTimeout,
		"A browser session unused for this long ends (at least 2m, at most --session-ttl).")
	fs.StringVar(trustedProxies, "trusted-proxies", "",
		"Comma-separated addresses or CIDRs of reverse proxies whose X-Forwarded-For names the client, for sign-in throttling.")
}
