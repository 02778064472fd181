// Package harness runs the service as the suites under test/ need it: the manager binary built
// from ./cmd, started as a process against a real kube-apiserver and etcd, its log in
// test/artifacts. test/e2e uses the manager process with a control plane of its own; for the fault
// suites the harness also holds on to the processes they break: the API server can be stalled
// (SIGSTOP), resumed, killed (SIGKILL) and started again on its port with its etcd, the manager
// killed and started again. It also drives creates and checks what the API server stored (lost and
// duplicated intents).
package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/transferintent/transfer-intent-service/internal/service"
)

// RepoRoot is the module root, found from this file's path.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Artifacts is test/artifacts, where the suites keep the logs of the processes they run.
func Artifacts(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(RepoRoot(), "test", "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Assets is KUBEBUILDER_ASSETS as make sets it, or what hack/control-plane.sh prints (building
// kube-apiserver and etcd if this machine has none yet).
func Assets(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir
	}
	cmd := exec.Command(filepath.Join(RepoRoot(), "hack", "control-plane.sh"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hack/control-plane.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// ControlPlane is etcd and a kube-apiserver with the CRDs installed, and an admin identity.
type ControlPlane struct {
	// Client talks to the API server as the admin, without a cache.
	Client client.Client
	// Kubeconfig is a file with the admin's credentials, for the manager.
	Kubeconfig string

	env    *envtest.Environment
	admin  *rest.Config
	pid    int      // of the running kube-apiserver
	binary string   // its path
	args   []string // its arguments, to start it again the same way
	// restarted is the kube-apiserver this harness started again after a kill (nil before).
	restarted *exec.Cmd
	exited    chan struct{}
	logPath   string
}

// StartControlPlane starts the control plane until the test ends.
func StartControlPlane(t testing.TB) *ControlPlane {
	t.Helper()
	// envtest and the clients log through controller-runtime's logger; without one set, it prints
	// a stack trace saying so. What matters is in the processes' logs.
	logf.SetLogger(logr.Discard())
	cp := &ControlPlane{env: &envtest.Environment{
		BinaryAssetsDirectory: Assets(t),
		CRDDirectoryPaths:     []string{filepath.Join(RepoRoot(), "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}, logPath: filepath.Join(Artifacts(t), "faults-kube-apiserver.log")}
	_, err := cp.env.Start()
	// Registered before checking the error: Start can fail after the processes are up.
	t.Cleanup(func() {
		_ = syscall.Kill(cp.pid, syscall.SIGCONT) // a test that failed while the API server was stalled
		cp.stopRestarted()
		if err := cp.env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	if err != nil {
		t.Fatalf("starting envtest: %v", err)
	}
	user, err := cp.env.AddUser(envtest.User{Name: "faults-admin", Groups: []string{"system:masters"}}, &rest.Config{QPS: -1})
	must(t, err)
	cp.admin = user.Config()
	kubeconfig, err := user.KubeConfig()
	must(t, err)
	cp.Kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	must(t, os.WriteFile(cp.Kubeconfig, kubeconfig, 0o600))
	cp.Client, err = client.New(cp.admin, client.Options{Scheme: service.NewScheme()})
	must(t, err)
	cp.findAPIServer(t)
	return cp
}

// findAPIServer finds the kube-apiserver envtest started (a child of this process listening on
// the envtest port) and remembers how it was started. envtest does not expose its process.
func (cp *ControlPlane) findAPIServer(t testing.TB) {
	t.Helper()
	port := "--secure-port=" + cp.env.ControlPlane.APIServer.Port
	entries, err := os.ReadDir("/proc")
	must(t, err)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || parentOf(pid) != os.Getpid() {
			continue
		}
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil {
			continue
		}
		argv := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		if filepath.Base(argv[0]) != "kube-apiserver" || !containsArg(argv[1:], port) {
			continue
		}
		cp.pid, cp.binary, cp.args = pid, argv[0], argv[1:]
		return
	}
	t.Fatalf("no kube-apiserver child of this process has %s (Linux /proc is needed)", port)
}

func containsArg(args []string, want string) bool {
	for _, a := range args {
		if a == want {
			return true
		}
	}
	return false
}

// parentOf reads the parent pid from /proc/<pid>/stat (its fourth field, after the command name
// in parentheses, which may hold spaces).
func parentOf(pid int) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return -1
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// Stall stops the API server with SIGSTOP: connections are accepted by the kernel and never
// answered, the worst outage a client can meet.
func (cp *ControlPlane) Stall(t testing.TB) {
	t.Helper()
	must(t, syscall.Kill(cp.pid, syscall.SIGSTOP))
}

// Resume continues a stalled API server (SIGCONT).
func (cp *ControlPlane) Resume(t testing.TB) {
	t.Helper()
	must(t, syscall.Kill(cp.pid, syscall.SIGCONT))
}

// Kill ends the API server with SIGKILL and waits until it is gone; etcd keeps running.
func (cp *ControlPlane) Kill(t testing.TB) {
	t.Helper()
	must(t, syscall.Kill(cp.pid, syscall.SIGKILL))
	deadline := time.Now().Add(20 * time.Second)
	for processAlive(cp.pid) {
		if time.Now().After(deadline) {
			t.Fatalf("kube-apiserver %d still runs 20 s after SIGKILL", cp.pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processAlive reports whether pid runs (a zombie, dead but not reaped, does not).
func processAlive(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// Restart starts the killed API server again with its arguments (same port, certificates and
// etcd) and waits until it answers /readyz.
func (cp *ControlPlane) Restart(t testing.TB) {
	t.Helper()
	if processAlive(cp.pid) {
		t.Fatal("Restart: the API server still runs")
	}
	logFile, err := os.OpenFile(cp.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	must(t, err)
	cmd := exec.Command(cp.binary, cp.args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		t.Fatalf("starting kube-apiserver again: %v", err)
	}
	cp.stopRestarted() // an earlier restart, killed since
	cp.restarted, cp.pid, cp.exited = cmd, cmd.Process.Pid, make(chan struct{})
	exited := cp.exited
	go func() {
		_ = cmd.Wait()
		_ = logFile.Close()
		close(exited)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for cp.Ready(context.Background()) != nil {
		select {
		case <-exited:
			t.Fatalf("kube-apiserver exited while starting again; see %s", cp.logPath)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("kube-apiserver not ready 60 s after starting again; see %s", cp.logPath)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Ready asks the API server's /readyz, within a second.
func (cp *ControlPlane) Ready(ctx context.Context) error {
	cs, err := kubernetes.NewForConfig(rest.CopyConfig(cp.admin))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return cs.Discovery().RESTClient().Get().AbsPath("/readyz").Do(ctx).Error()
}

// stopRestarted ends the API server this harness started, before envtest stops etcd and removes
// the certificates it runs with.
func (cp *ControlPlane) stopRestarted() {
	if cp.restarted == nil {
		return
	}
	_ = syscall.Kill(cp.restarted.Process.Pid, syscall.SIGCONT)
	_ = syscall.Kill(cp.restarted.Process.Pid, syscall.SIGTERM)
	select {
	case <-cp.exited:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(cp.restarted.Process.Pid, syscall.SIGKILL)
		<-cp.exited
	}
	cp.restarted = nil
}

// Namespace creates a namespace with a random name.
func (cp *ControlPlane) Namespace(t testing.TB, prefix string) string {
	t.Helper()
	name := prefix + "-" + utilrand.String(6)
	must(t, cp.Client.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}))
	return name
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
