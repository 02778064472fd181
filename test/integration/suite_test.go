// Package integration runs the operator's parts together against a real API server (envtest):
// the controllers fill the read models from real objects, and the HTTP API serves them on a
// loopback port. These tests show what a client meets, end to end, without a cluster.
package integration

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
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
)

func TestIntegration(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Integration Suite")
}

// The service as cmd/main.go assembles it (service.Setup), on loopback; it stops at the end of
// the suite.
var _ = BeforeSuite(func() {
	ctx = GinkgoTB().Context() // cancelled at the end of the suite
	stack = servicetest.Start(GinkgoTB(), servicetest.WithLogOutput(GinkgoWriter))
	k8sClient, namespace, apiURL, readModels = stack.Client, stack.Namespace, stack.URL, stack.Models

	var err error
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
