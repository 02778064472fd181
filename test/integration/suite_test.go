// Package integration runs the operator's parts together against a real API server (envtest):
// the controllers fill the read models from real objects, and the HTTP API serves them on a
// loopback port. These tests show what a client meets, end to end, without a cluster.
package integration

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
)

var (
	ctx        context.Context
	cancel     context.CancelFunc
	testEnv    *envtest.Environment
	k8sClient  client.Client
	namespace  string
	apiURL     string
	validator  *openapitest.Validator
	readModels controller.ReadModels
)

func TestIntegration(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Integration Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	Expect(assets).NotTo(BeEmpty(), "KUBEBUILDER_ASSETS must name the folder with kube-apiserver and etcd (make test sets it)")
	ctx, cancel = context.WithCancel(context.Background())

	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())

	scheme := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(scheme)).To(Succeed())
	Expect(v1alpha1.AddToScheme(scheme)).To(Succeed())
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
	namespace = "tis-" + utilrand.String(6)
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}})).To(Succeed())

	// The same wiring as cmd/main.go: controllers -> read models -> HTTP API.
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
	})
	Expect(err).NotTo(HaveOccurred())
	readModels = controller.NewReadModels()
	Expect(controller.SetupWithManager(mgr, readModels)).To(Succeed())

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	apiURL = "http://" + listener.Addr().String()
	full, v2, err := openapi.Documents(apiURL)
	Expect(err).NotTo(HaveOccurred())
	opts := apiserver.DefaultOptions()
	opts.BaseURL = apiURL
	api := apiserver.New(opts, apiserver.Deps{
		Keys: readModels.Keys, Tokens: readModels.Tokens, OpenAPI: full, OpenAPIV2: v2,
	}, ctrl.Log.WithName("api"))
	Expect(mgr.Add(api.Runnable(listener))).To(Succeed())
	Expect(mgr.Add(api.ReadinessGate(mgr.GetCache()))).To(Succeed())

	validator, err = openapitest.New()
	Expect(err).NotTo(HaveOccurred())

	go func() {
		defer GinkgoRecover()
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
	Eventually(func() int { return get("/health", "").StatusCode }).WithTimeout(30 * time.Second).Should(Equal(http.StatusOK))
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
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
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	Expect(validator.CheckResponse(req, resp.StatusCode, resp.Header, b)).To(Succeed())
	return response{StatusCode: resp.StatusCode, Header: resp.Header, Body: string(b)}
}
