// Package webauthtest runs the whole service for integration and browser tests: a real API server
// (envtest) with the CRDs, the manager with every controller, and the HTTP API with sign-in and
// key management, listening on 127.0.0.1 on a random port.
package webauthtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
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
	"github.com/transferintent/transfer-intent-service/internal/webauth"
)

// Stack is the running service.
type Stack struct {
	// URL is the API's base URL, e.g. http://127.0.0.1:41234.
	URL string
	// Namespace is the one namespace the operator serves (random).
	Namespace string
	// Client talks to the API server directly, not through the manager's cache.
	Client client.Client
	// Models are the read models the controllers fill and the API reads.
	Models controller.ReadModels
	// Logs holds every log line of the manager, the controllers and the API.
	Logs *LogBuffer
	// SessionSecretName is the session Secret the operator created.
	SessionSecretName string
}

// Start runs the stack until the test ends. It fails the test, with what to do, when the envtest
// binaries are missing.
func Start(t testing.TB) *Stack {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		t.Fatal("KUBEBUILDER_ASSETS is not set: point it at the directory holding kube-apiserver and etcd, " +
			"for example export KUBEBUILDER_ASSETS=$PWD/bin/k8s/1.36.3-linux-amd64 (make test builds and sets it)")
	}
	logs := &LogBuffer{}
	logger := zap.New(zap.WriteTo(logs), zap.UseDevMode(true), zap.Level(zapcore.Level(-2)))
	logf.SetLogger(logger)

	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(repoRoot(t), "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Logf("stopping envtest: %v", err)
		}
	})

	scheme := k8sruntime.NewScheme()
	must(t, clientgoscheme.AddToScheme(scheme))
	must(t, v1alpha1.AddToScheme(scheme))
	direct, err := client.New(cfg, client.Options{Scheme: scheme})
	must(t, err)
	s := &Stack{
		Namespace:         "tis-" + utilrand.String(6),
		Client:            direct,
		Models:            controller.NewReadModels(),
		Logs:              logs,
		SessionSecretName: webauth.DefaultSessionSecretName,
	}
	ctx, cancel := context.WithCancel(context.Background())
	must(t, direct.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.Namespace}}))

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	s.URL = "http://" + listener.Addr().String()

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{s.Namespace: {}}},
	})
	must(t, err)
	must(t, controller.SetupWithManager(mgr, s.Models))

	sessions := &webauth.SessionSecret{
		Cache:     mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Writer:    mgr.GetClient(),
		Namespace: s.Namespace,
		Name:      s.SessionSecretName,
		Log:       logger.WithName("sessions"),
	}
	webOpts := webauth.DefaultOptions()
	webOpts.BaseURL = s.URL
	web, err := webauth.New(webOpts, webauth.Deps{
		Accounts:    s.Models.Accounts,
		Keys:        s.Models.Keys,
		Reader:      mgr.GetClient(),
		Writer:      mgr.GetClient(),
		Namespace:   s.Namespace,
		SessionKeys: sessions,
		Events:      mgr.GetEventRecorder(controller.EventReporter),
	}, logger.WithName("web"))
	must(t, err)
	full, v2, err := openapi.Documents(s.URL)
	must(t, err)
	apiOpts := apiserver.DefaultOptions()
	apiOpts.BaseURL = s.URL
	apiOpts.ShutdownTimeout = time.Second
	api := apiserver.New(apiOpts, apiserver.Deps{
		Keys:      s.Models.Keys,
		Tokens:    s.Models.Tokens,
		OpenAPI:   full,
		OpenAPIV2: v2,
		Web:       web,
	}, logger.WithName("api"))
	must(t, mgr.Add(sessions))
	must(t, mgr.Add(api.Runnable(listener)))
	must(t, mgr.Add(api.ReadinessGate(mgr.GetCache())))

	stopped := make(chan error, 1)
	go func() { stopped <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-stopped:
			if err != nil {
				t.Errorf("manager: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("the manager did not stop within 30s")
		}
		if t.Failed() {
			t.Logf("operator log (last 200 lines):\n%s", logs.Tail(200))
		}
	})

	// Ready: the caches have synced and the session keys are loaded.
	waitFor(t, 60*time.Second, "the API to be ready and the session Secret to exist", func() error {
		resp, err := http.Get(s.URL + "/health")
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /health: %d", resp.StatusCode)
		}
		_, err = sessions.SessionKeys(ctx)
		return err
	})
	return s
}

// Account is a test account and its password.
type Account struct {
	Object   *v1alpha1.Account
	Email    string
	Password string
}

// CreateAccount creates an Account with a password Secret and waits until it can sign in.
func (s *Stack) CreateAccount(t testing.TB, displayName string) Account {
	t.Helper()
	ctx := context.Background()
	name := "acct-" + utilrand.String(8)
	a := Account{Email: name + "@example.com", Password: "correct horse " + utilrand.String(8)}
	hash, err := bcrypt.GenerateFromPassword([]byte(a.Password), bcrypt.MinCost)
	must(t, err)
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.Namespace, Name: name + "-password"},
		Data:       map[string][]byte{"passwordHash": hash},
	}
	must(t, s.Client.Create(ctx, secret))
	a.Object = &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.Namespace, Name: name},
		Spec: v1alpha1.AccountSpec{
			DisplayName:       displayName,
			Email:             a.Email,
			PasswordSecretRef: &v1alpha1.SecretKeyReference{Name: secret.Name},
		},
	}
	must(t, s.Client.Create(ctx, a.Object))
	waitFor(t, 10*time.Second, "Account "+name+" in the account directory", func() error {
		if acct, ok := s.Models.Accounts.ByEmail(a.Email); !ok || acct.Name != name {
			return errors.New("not yet")
		}
		return nil
	})
	return a
}

// waitFor polls check every 20ms until it returns nil, failing the test at the deadline.
func waitFor(t testing.TB, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting %s for %s: %v", timeout, what, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// repoRoot is the module root, found from this file's path.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the repository root")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// RepoRoot is the module root, for tests that write artifacts.
func RepoRoot(t testing.TB) string { return repoRoot(t) }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// LogBuffer is a concurrency-safe log destination.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything logged so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Tail returns the last n lines.
func (b *LogBuffer) Tail(n int) string {
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
