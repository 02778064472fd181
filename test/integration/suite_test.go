// Package integration runs the operator's parts together against a real API server (envtest):
// the controllers fill the read models from real objects, and the HTTP API serves them on a
// loopback port. These tests show what a client meets, end to end, without a cluster.
package integration

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ethereum/go-ethereum/crypto"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
)

var (
	ctx        context.Context
	k8sClient  client.Client
	namespace  string
	apiURL     string
	validator  *openapitest.Validator
	readModels controller.ReadModels
	stack      *servicetest.Stack
	// attesterKey is the service's attester (--attester-key-file); logs is everything it logged.
	attesterKey *ecdsa.PrivateKey
	logs        syncBuffer
	// serviceMetrics receives the service's own metrics (the watcher's, the API's, ...).
	serviceMetrics = prometheus.NewRegistry()
)

// syncBuffer is a bytes.Buffer safe for the service's log writer and the tests' reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// quoteTTL is the service's --quote-ttl here: how long a simulation's quote holds (its
// expiresAt). Shorter than the default minute so that the firm-quote spec sees a quote expire in
// seconds; long enough for it to simulate, move the prices and create within it.
const quoteTTL = 5 * time.Second

func TestIntegration(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Integration Suite")
}

// The service as cmd/main.go assembles it (service.Setup), on loopback; it stops at the end of
// the suite.
var _ = BeforeSuite(func() {
	ctx = GinkgoTB().Context() // cancelled at the end of the suite
	var err error
	attesterKey, err = crypto.GenerateKey()
	Expect(err).NotTo(HaveOccurred())
	keyFile := filepath.Join(GinkgoT().TempDir(), "attester.key")
	Expect(os.WriteFile(keyFile, []byte(hex.EncodeToString(crypto.FromECDSA(attesterKey))), 0o600)).To(Succeed())
	stack = servicetest.Start(GinkgoTB(), servicetest.WithLogOutput(io.MultiWriter(GinkgoWriter, &logs)),
		servicetest.WithServiceOptions(func(o *service.Options) {
			o.Transfers.AttesterKeyFile, o.Metrics = keyFile, serviceMetrics
			o.Transfers.QuoteTTL = quoteTTL
			// No spec here is about the simulation's node deadline (test/faults is), and the
			// production 300 ms was exceeded on a loaded machine (make flake-hunt): the simulation
			// then rightly falls back to typed prices, which the firm-quote specs read as wrong.
			o.Transfers.ChainRPC.CallTimeout = 10 * time.Second
		}))
	k8sClient, namespace, apiURL, readModels = stack.Client, stack.Namespace, stack.URL, stack.Models

	validator, err = openapitest.New()
	Expect(err).NotTo(HaveOccurred())
})

// response is an HTTP answer with its body read and checked against the OpenAPI document.
type response struct {
	StatusCode int
	Header     http.Header
	Body       string
}

// get calls the API over loopback with an optional api-key.
func get(path, key string) response {
	GinkgoHelper()
	return call(http.MethodGet, path, key, "")
}

func call(method, path, key, body string) response {
	GinkgoHelper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, apiURL+path, rd)
	Expect(err).NotTo(HaveOccurred())
	if key != "" {
		req.Header.Set(apiserver.APIKeyHeader, key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	Expect(validator.CheckResponse(req, resp.StatusCode, resp.Header, b)).To(Succeed())
	return response{StatusCode: resp.StatusCode, Header: resp.Header, Body: string(b)}
}
