package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// The name the scraper verifies, as the ServiceMonitor's tlsConfig.serverName does.
const metricsServerName = "controller-manager-metrics-service.test.svc"

// The real manager, as the Deployment runs it (--metrics-secure, --metrics-cert-path), serves
// /metrics over TLS with the certificate on disk to a scraper that verifies it against the CA
// and authenticates with a ServiceAccount token bound to config/rbac's metrics-reader; after
// the files are replaced (a renewed Secret), new connections get the new certificate.
func TestMetricsServedWithTheMountedCertificateAndItsRenewal(t *testing.T) {
	cluster := testenv.Start(t)
	token := scraperToken(t, cluster)
	ca := newTestCA(t)
	dir := t.TempDir()
	first := ca.writeLeaf(t, dir)

	addr := freeport.MustAddr(t)
	c := config{metrics: metricsFlags{addr: addr, secure: true, certPath: dir, certName: "tls.crt", keyName: "tls.key"},
		probeAddr: "0", leaseDuration: 15 * time.Second, renewDeadline: 10 * time.Second, retryPeriod: 2 * time.Second}
	c.service.Namespace = "default"
	mgr, err := newManager(c, cluster.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-stopped; err != nil {
			t.Errorf("the manager stopped with %v", err)
		}
	})

	scrape := scraper(ca.pool, "https://"+addr+"/metrics")
	var served *big.Int
	testenv.WaitFor(t, 30*time.Second, "/metrics over TLS, verified against the CA", func() error {
		serial, body, err := scrape(token)
		if err != nil {
			return err
		}
		if !strings.Contains(body, "certwatcher_read_certificate_total") {
			return errors.New("the answer lacks the certificate watcher's metrics")
		}
		served = serial
		return nil
	})
	if served.Cmp(first) != 0 {
		t.Fatalf("served certificate %v, want the one on disk, %v", served, first)
	}
	if _, _, err := scrape(""); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a scrape without a token got %v, want 401", err)
	}

	renewed := ca.writeLeaf(t, dir)
	renewedAt := time.Now()
	// The watcher sees the files change (fsnotify) or reads them again within its 10 s poll.
	testenv.WaitFor(t, 30*time.Second, "the renewed certificate to be served", func() error {
		serial, _, err := scrape(token)
		if err != nil {
			return err
		}
		if serial.Cmp(renewed) != 0 {
			return fmt.Errorf("serves certificate %v, not the renewed %v", serial, renewed)
		}
		return nil
	})
	t.Logf("the renewed certificate was served %v after the files were replaced", time.Since(renewedAt).Round(time.Millisecond))
}

// Given a certificate directory without the files, the manager refuses to start instead of
// serving a self-signed certificate no scraper would accept.
func TestMetricsCertificateMissingFailsTheStart(t *testing.T) {
	_, _, err := metricsServer(metricsFlags{addr: ":0", secure: true, certPath: t.TempDir(), certName: "tls.crt", keyName: "tls.key"})
	if err == nil {
		t.Error("a missing certificate was accepted")
	}
	_, _, err = metricsServer(metricsFlags{addr: ":0", secure: false, certPath: t.TempDir(), certName: "tls.crt", keyName: "tls.key"})
	if err == nil || !strings.Contains(err.Error(), "--metrics-secure") {
		t.Errorf("a certificate for plain http gave %v", err)
	}
}

// The flag config/components/prometheus adds to the Deployment is one the manager parses, into
// the directory the component mounts the Secret at.
func TestPrometheusComponentsCertFlagParses(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "config", "components", "prometheus", "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	arg := regexp.MustCompile(`--metrics-cert-path=\S+`).FindString(string(raw))
	if arg == "" {
		t.Fatal("config/components/prometheus passes no --metrics-cert-path")
	}
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	var m metricsFlags
	bindMetricsFlags(fs, &m)
	if err := fs.Parse([]string{arg}); err != nil {
		t.Fatal(err)
	}
	patch, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "config", "components", "prometheus", "manager_metrics_cert_patch.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(patch), "mountPath: "+m.certPath+"\n") || m.certName != "tls.crt" || m.keyName != "tls.key" {
		t.Errorf("the manager reads %s/{%s,%s}, which the component's patch does not mount", m.certPath, m.certName, m.keyName)
	}
}

// scraper returns a function that GETs url on a new connection each time (so each sees the
// certificate served now), verifying the server against pool and metricsServerName, and returns
// the serial of the certificate served and the body.
func scraper(pool *x509.CertPool, url string) func(token string) (*big.Int, string, error) {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DisableKeepAlives: true,
		TLSClientConfig:   &tls.Config{RootCAs: pool, ServerName: metricsServerName, MinVersion: tls.VersionTLS12},
	}}
	return func(token string) (*big.Int, string, error) {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return nil, "", err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, "", err
		}
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, "", err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, "", fmt.Errorf("%s: %s", resp.Status, body)
		}
		return resp.TLS.PeerCertificates[0].SerialNumber, string(body), nil
	}
}

// scraperToken is a token of a new ServiceAccount bound to config/rbac's metrics-reader
// ClusterRole, as a Prometheus is.
func scraperToken(t *testing.T, cluster *testenv.Cluster) string {
	t.Helper()
	ctx := context.Background()
	raw, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "config", "rbac", "metrics_reader_role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(raw, role); err != nil {
		t.Fatal(err)
	}
	ns := cluster.CreateNamespace(t)
	account := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "prometheus", Namespace: ns}}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: ns + "-metrics-reader"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: account.Name, Namespace: ns}},
	}
	for _, o := range []client.Object{role, account, binding} {
		if err := cluster.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	clientset, err := kubernetes.NewForConfig(cluster.Config)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := clientset.CoreV1().ServiceAccounts(ns).CreateToken(ctx, account.Name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token
}

// testCA is a certificate authority whose leaves the test writes as a kubernetes.io/tls Secret
// mounts them: tls.crt and tls.key in one directory.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: randomSerial(t), Subject: pkix.Name{CommonName: "test metrics CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

// writeLeaf writes a new serving certificate for metricsServerName and its key into dir, each
// file replaced in one rename, and returns its serial.
func (ca *testCA) writeLeaf(t *testing.T, dir string) *big.Int {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: randomSerial(t), Subject: pkix.Name{CommonName: metricsServerName},
		DNSNames: []string{metricsServerName}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	// The key first: the watcher reloads on either file's change, and a certificate without its
	// key is refused (and retried), not served.
	replaceFile(t, filepath.Join(dir, "tls.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	replaceFile(t, filepath.Join(dir, "tls.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	return tmpl.SerialNumber
}

func replaceFile(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func randomSerial(t *testing.T) *big.Int {
	t.Helper()
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
