// Package servicetest runs the whole service for integration and browser tests: a real API server
// (envtest) with the CRDs, and a manager built as in production on which service.Setup registers
// every controller, the intent store, sign-in and the HTTP API, listening on 127.0.0.1 on a
// random port.
package servicetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// Stack is the running service.
type Stack struct {
	// URL is the API's base URL, e.g. http://127.0.0.1:41234.
	URL string
	// Namespace is the one namespace the operator serves (random).
	Namespace string
	// Client talks to the API server directly, not through the manager's cache.
	Client client.Client
	// Config reaches the API server as its administrator (its /metrics too).
	Config *rest.Config
	// Models are the read models the controllers fill and the API reads.
	Models controller.ReadModels
	// Logs holds every log line of the manager, the controllers and the API.
	Logs *LogBuffer
	// SessionSecretName is the session Secret the operator created.
	SessionSecretName string
	// Service is what service.Setup assembled.
	Service *service.Service
	// Options are the options the service runs with.
	Options service.Options

	manager ctrl.Manager
	log     logr.Logger
}

// Option changes how Start runs the service.
type Option func(*settings)

type settings struct {
	service   []func(*service.Options)
	logOutput io.Writer
}

// WithServiceOptions changes the service's options after Start has set the test defaults
// (namespace, loopback BaseURL, a short shutdown).
func WithServiceOptions(change func(*service.Options)) Option {
	return func(s *settings) { s.service = append(s.service, change) }
}

// WithLogOutput writes the log to w as well as to Stack.Logs. A Ginkgo suite passes
// GinkgoWriter, which shows it with a failed spec: at the end of a suite GinkgoTB().Failed()
// no longer knows that a spec failed, so Start's own dump of the log does not happen there.
func WithLogOutput(w io.Writer) Option {
	return func(s *settings) { s.logOutput = w }
}

// Start runs the stack until the test ends (in a Ginkgo BeforeSuite pass GinkgoTB(): its Cleanup
// runs at the end of the suite). It fails the test, with what to do, when the envtest binaries
// are missing.
func Start(t testing.TB, options ...Option) *Stack {
	t.Helper()
	var set settings
	for _, o := range options {
		o(&set)
	}
	logs := &LogBuffer{}
	var out io.Writer = logs
	if set.logOutput != nil {
		out = io.MultiWriter(logs, set.logOutput)
	}
	logger := zap.New(zap.WriteTo(out), zap.UseDevMode(true), zap.Level(zapcore.Level(-2)))
	logf.SetLogger(logger)

	cluster := testenv.Start(t)
	s := &Stack{
		Namespace: cluster.CreateNamespace(t),
		Client:    cluster.Client,
		Config:    cluster.Config,
		Logs:      logs,
		log:       logger,
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	s.URL = "http://" + listener.Addr().String()

	s.Options = service.DefaultOptions()
	s.Options.Namespace = s.Namespace
	s.Options.Site.BaseURL = s.URL
	s.Options.API.ShutdownTimeout = time.Second
	for _, change := range set.service {
		change(&s.Options)
	}
	s.SessionSecretName = s.Options.SessionSecretName

	mgrOpts := service.ManagerOptions(s.Namespace)
	mgrOpts.Metrics = metricsserver.Options{BindAddress: "0"}
	mgrOpts.HealthProbeBindAddress = "0"
	mgrOpts.Logger = logger
	// Controller names are unique per process; a test binary may start more than one stack.
	mgrOpts.Controller.SkipNameValidation = ptr.To(true)
	s.manager, err = ctrl.NewManager(cluster.Config, mgrOpts)
	must(t, err)
	s.Service, err = service.Setup(s.manager, s.Options, listener, logger)
	must(t, err)
	s.Models = s.Service.Models

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- s.manager.Start(ctx) }()
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
	testenv.WaitFor(t, 60*time.Second, "the API to be ready and the session Secret to exist", func() error {
		resp, err := http.Get(s.URL + "/health")
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /health: %d", resp.StatusCode)
		}
		_, err = s.Service.Sessions.SessionKeys(ctx)
		return err
	})
	return s
}

// LaggingReplica serves a second API server, as another replica of the service would, and
// returns its URL. It shares the first one's manager, read models and domain, but its intent
// store has no informer: it knows only the intents it creates itself and what it reads live from
// the API server, like a replica whose watch has not delivered yet. It stops when the test ends.
func (s *Stack) LaggingReplica(t testing.TB) string {
	t.Helper()
	store, err := intentstore.New(s.manager.GetClient(), s.manager.GetAPIReader(), s.manager.GetCache(),
		intentstore.Options{Namespace: s.Namespace, ClaimTimeout: s.Options.Transfers.ClaimTimeout})
	must(t, err)
	deps := s.Service.APIDeps
	deps.Intents = store
	api := apiserver.New(s.Options.API, deps, s.log.WithName("lagging-replica"))
	api.MarkReady()
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return srv.URL
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
	testenv.WaitFor(t, 10*time.Second, "Account "+name+" in the account directory", func() error {
		if acct, ok := s.Models.Accounts.ByEmail(a.Email); !ok || acct.Name != name {
			return errors.New("not yet")
		}
		return nil
	})
	return a
}

// CreateKey creates a test-environment ApiKey of account, named name, and returns its plaintext
// once the API accepts it. change, when not nil, edits the spec first (a rate limit a benchmark
// cannot reach, say).
func (s *Stack) CreateKey(t testing.TB, account, name string, change func(*v1alpha1.ApiKeySpec)) string {
	t.Helper()
	k, err := apikey.Generate(registry.EnvironmentTest)
	must(t, err)
	obj := k.Object(s.Namespace, account, name, nil)
	if change != nil {
		change(&obj.Spec)
	}
	must(t, s.Client.Create(context.Background(), obj))
	testenv.WaitFor(t, 60*time.Second, "key "+name+" of "+account+" to authenticate", func() error {
		req, err := http.NewRequest(http.MethodGet, s.URL+"/v2/tokens", nil)
		if err != nil {
			return err
		}
		req.Header.Set("api-key", k.Plaintext)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /v2/tokens: %d", resp.StatusCode)
		}
		return nil
	})
	return k.Plaintext
}

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
