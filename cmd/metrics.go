package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"path/filepath"

	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// metricsFlags are the flags of the metrics endpoint.
type metricsFlags struct {
	addr   string
	secure bool
	// certPath is the directory of the serving certificate and key (a mounted Secret); empty: a
	// self-signed certificate made at start, which no scraper can verify.
	certPath, certName, keyName string
	enableHTTP2                 bool
}

func bindMetricsFlags(fs *flag.FlagSet, m *metricsFlags) {
	fs.StringVar(&m.addr, "metrics-bind-address", "0",
		"Address of the metrics endpoint, e.g. :8443 (https) or :8080 (http); 0 disables it.")
	fs.BoolVar(&m.secure, "metrics-secure", true, "Serve metrics over https with authentication and authorization.")
	fs.StringVar(&m.certPath, "metrics-cert-path", "",
		"Directory holding the metrics server's certificate and key (e.g. a mounted kubernetes.io/tls Secret); they are reloaded when they change. Empty: a self-signed certificate made at start.")
	fs.StringVar(&m.certName, "metrics-cert-name", "tls.crt", "File name of the metrics server's certificate in --metrics-cert-path.")
	fs.StringVar(&m.keyName, "metrics-cert-key", "tls.key", "File name of the metrics server's private key in --metrics-cert-path.")
	fs.BoolVar(&m.enableHTTP2, "enable-http2", false, "Allow HTTP/2 on the metrics server (off: HTTP/2 rapid-reset and stream-cancel CVEs).")
}

// metricsServer is the metrics server's options and, when a certificate directory is given, the
// watcher that serves its current certificate: the manager must run the watcher (mgr.Add), or a
// renewed certificate is never read.
func metricsServer(m metricsFlags) (metricsserver.Options, *certwatcher.CertWatcher, error) {
	var tlsOpts []func(*tls.Config)
	if !m.enableHTTP2 {
		tlsOpts = append(tlsOpts, func(cfg *tls.Config) { cfg.NextProtos = []string{"http/1.1"} })
	}
	opts := metricsserver.Options{BindAddress: m.addr, SecureServing: m.secure, TLSOpts: tlsOpts}
	if m.secure {
		opts.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	if m.certPath == "" {
		return opts, nil, nil
	}
	if !m.secure {
		return opts, nil, errors.New("--metrics-cert-path needs --metrics-secure: plain http serves no certificate")
	}
	// New reads the pair once, so a missing or broken certificate stops the start here rather than
	// falling back to a self-signed one that the ServiceMonitor would refuse.
	watcher, err := certwatcher.New(filepath.Join(m.certPath, m.certName), filepath.Join(m.certPath, m.keyName))
	if err != nil {
		return opts, nil, err
	}
	opts.TLSOpts = append(opts.TLSOpts, func(cfg *tls.Config) { cfg.GetCertificate = watcher.GetCertificate })
	return opts, watcher, nil
}
