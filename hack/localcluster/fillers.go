/*
Copyright 2026 The Transfer Intent Service Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// make run is a market: the two Fillers of config/samples, filler-a and filler-b, are served by
// two reference fillers, each a `manager filler` process of its own (the command a filler would
// run), with its own key, inventory and spread, and its quote endpoint where its Filler's quoteURL
// points. Processes rather than goroutines so that one can be stopped by itself (kill its pid) to
// watch a winner that does not fill: the other fills once the exclusivity ends, at the decayed
// price. A filler that stops is not started again until the next make run, for that reason.
//
// Each filler starts once the manager has generated its Filler's signing secret (the Secret
// <name>-filler-secret): localcluster copies it to <state-dir>/fillers/<name>.secret for the
// filler's --quote-secret-file. Its key, the well-known development account #4 or #5 (PUBLIC: the
// local chains only), goes to <name>.key, its output to <name>.log, and its pid to <name>.pid
// while it runs (`kill $(cat .local/fillers/filler-a.pid)` in the README's walk).

// marketFiller is one reference filler of make run's market.
type marketFiller struct {
	// name is the Filler resource of config/samples it serves.
	name string
	// key is its hex private key: a well-known development account, whose address is the
	// Filler's payout address in the samples.
	key string
	// premiumBps is its spread: it quotes, and fills at, the order's floor plus this many bps.
	premiumBps uint
}

// marketFillers are make run's fillers. filler-a quotes higher (30 bps above the floor against
// filler-b's 10), so it wins the requests for quotes it is asked with filler-b: the README's walk
// stops it to show filler-b filling after filler-a's exclusivity.
var marketFillers = []marketFiller{
	// The well-known development account #4, 0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65.
	{name: "filler-a", key: "47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a", premiumBps: 30},
	// The well-known development account #5, 0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc.
	{name: "filler-b", key: "8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba", premiumBps: 10},
}

func (f marketFiller) privateKey() *ecdsa.PrivateKey {
	key, err := crypto.HexToECDSA(f.key)
	if err != nil {
		panic(err) // a constant above
	}
	return key
}

func (f marketFiller) address() common.Address {
	return crypto.PubkeyToAddress(f.privateKey().PublicKey)
}

// The manager's market flags in make run: short enough to watch a whole auction in the README's
// walk (the defaults are 30 s and 1 min), and counters on the Fillers' status within seconds.
// Later manager flags (RUN_ARGS) override them.
var marketManagerArgs = []string{
	// The samples' quote endpoints are on 127.0.0.1 (--webhook-allow-loopback allows it too; this
	// says so for the market on its own).
	"--rfq-allow-loopback",
	"--rfq-exclusivity", "10s",
	"--auction-decay-window", "30s",
	"--filler-status-interval", "5s",
}

const (
	fillersSubdir = "fillers"
	// fillerStopGrace is how long a filler gets to stop after SIGTERM before it is killed: its
	// step is a few calls to the local chains.
	fillerStopGrace = 5 * time.Second
	// secretPoll is how often a filler waiting for its Filler's Secret looks again.
	secretPoll = 500 * time.Millisecond
)

// fundFillers gives each market filler its inventory on c where it holds none: fillerUSDC of the
// demo USDC when its balance is zero, fillerEther when it has no ether. A new chain funded
// filler-a in its set-up (setUpChain); a chain kept from a release before the market gets both
// here, and so does a filler that spent everything.
func fundFillers(c *devchain.Chain) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := c.Backend.Client()
	usdc := contracts.NewTestToken()
	for _, f := range marketFillers {
		addr := f.address()
		out, err := client.CallContract(ctx, ethereum.CallMsg{To: &sampleUSDC, Data: usdc.PackBalanceOf(addr)}, nil)
		if err != nil {
			return fmt.Errorf("reading the USDC of %s: %w", f.name, err)
		}
		tokens, err := usdc.UnpackBalanceOf(out)
		if err != nil {
			return fmt.Errorf("reading the USDC of %s: %w", f.name, err)
		}
		if tokens.Sign() == 0 {
			if err := c.MintTo(sampleUSDC, addr, fillerUSDC); err != nil {
				return fmt.Errorf("funding %s: %w", f.name, err)
			}
		}
		wei, err := client.BalanceAt(ctx, addr, nil)
		if err != nil {
			return fmt.Errorf("reading the balance of %s: %w", f.name, err)
		}
		if wei.Sign() == 0 {
			if err := c.Fund(addr, fillerEther); err != nil {
				return fmt.Errorf("funding %s: %w", f.name, err)
			}
		}
	}
	return nil
}

// fillerRun is how localcluster runs the market's fillers.
type fillerRun struct {
	managerPath string
	stateDir    string
	namespace   string
	apiURL      string
	// chains are the --chain flags: every local chain, with make run's settlement contract.
	chains []string
	k8s    client.Client
}

// newFillerRun is the fillers of lc, run with the manager binary at managerPath.
func newFillerRun(lc *localCluster, managerPath string) (*fillerRun, error) {
	scheme := runtime.NewScheme()
	if err := errors.Join(corev1.AddToScheme(scheme), v1alpha1.AddToScheme(scheme)); err != nil {
		return nil, err
	}
	k8s, err := client.New(lc.admin, client.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("creating a client: %w", err)
	}
	r := &fillerRun{
		managerPath: managerPath, stateDir: lc.o.stateDir, namespace: lc.o.namespace,
		apiURL: "http://" + lc.o.apiAddr, k8s: k8s,
	}
	for _, c := range lc.chains.chains {
		r.chains = append(r.chains, fmt.Sprintf("%s,%s,%s", c.ID, c.URL, deploy.LocalAddress().Hex()))
	}
	return r, nil
}

// start runs each of the named fillers (marketFillers' names) until ctx ends or stop is called:
// each waits for its Filler's Secret, then runs as a process. stop stops them all and waits.
func (r *fillerRun) start(ctx context.Context, names []string) (stop func(), err error) {
	dir := filepath.Join(r.stateDir, fillersSubdir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	var run []marketFiller
	for _, name := range names {
		i := fillerIndex(name)
		if i < 0 {
			return nil, fmt.Errorf("no filler %q in make run's market (%s)", name, strings.Join(fillerNames(), ", "))
		}
		run = append(run, marketFillers[i])
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, f := range run {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.run(ctx, f, dir)
		}()
	}
	return func() { cancel(); wg.Wait() }, nil
}

// run runs one filler until ctx ends or it stops by itself.
func (r *fillerRun) run(ctx context.Context, f marketFiller, dir string) {
	secret, listen, err := r.waitForFiller(ctx, f.name)
	if err != nil {
		if ctx.Err() == nil {
			log.Printf("%s not started: %v", f.name, err)
		}
		return
	}
	keyFile, secretFile := filepath.Join(dir, f.name+".key"), filepath.Join(dir, f.name+".secret")
	logPath := filepath.Join(dir, f.name+".log")
	if err := errors.Join(writePrivateFile(keyFile, []byte(f.key)), writePrivateFile(secretFile, secret)); err != nil {
		log.Printf("%s not started: %v", f.name, err)
		return
	}
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) //nolint:gosec // localcluster's own file
	if err != nil {
		log.Printf("%s not started: %v", f.name, err)
		return
	}
	defer out.Close() //nolint:errcheck // written by the child; nothing buffered here
	args := []string{"filler",
		"--api", r.apiURL, "--key-file", keyFile, "--interval", devBlockInterval.String(),
		"--premium-bps", strconv.FormatUint(uint64(f.premiumBps), 10),
		"--quote-listen", listen, "--quote-secret-file", secretFile,
	}
	for _, c := range r.chains {
		args = append(args, "--chain", c)
	}
	cmd := exec.Command(r.managerPath, args...) //nolint:gosec // localcluster's own manager binary
	// The public filler key of the samples, for the gasless orders of GET /v2/orders (each filler
	// opens those it would fill: the winner of their auction during its exclusivity) and for the
	// attestations of its bridge fills. Not the demo key: two fillers asking for an attestation
	// every second would spend its 50 requests a minute, and the user's requests would be 429.
	cmd.Env = append(os.Environ(), "TIS_API_KEY="+demoFillerKey, "TIS_FILLER_KEY="+demoFillerKey)
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group, so that a Ctrl-C reaches localcluster only, which stops the fillers
	// before the chains; and gone with localcluster should that be killed outright.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		log.Printf("%s not started: %v", f.name, err)
		return
	}
	pid := cmd.Process.Pid
	pidFile := filepath.Join(dir, f.name+".pid")
	if err := writePrivateFile(pidFile, []byte(strconv.Itoa(pid)+"\n")); err != nil {
		log.Print(err) // only the README's kill reads it
	}
	defer os.Remove(pidFile) //nolint:errcheck // a stale one names a pid that is gone
	log.Printf("%s (%s, quoting and filling at %d bps above the floor) quotes on http://%s/quote as pid %d (`kill %d` stops it until the next make run); its log: %s",
		f.name, f.address().Hex(), f.premiumBps, listen, pid, pid, logPath)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		log.Printf("%s (pid %d) stopped (%s); the market goes on without it until the next make run (see %s)", f.name, pid, describeExit(err), logPath)
	case <-ctx.Done():
		signalGroup(pid, syscall.SIGTERM)
		timer := time.NewTimer(fillerStopGrace)
		defer timer.Stop()
		select {
		case err := <-exited:
			log.Printf("%s (pid %d) stopped with make run (%s)", f.name, pid, describeExit(err))
		case <-timer.C:
			log.Printf("%s did not stop within %s; killing it", f.name, fillerStopGrace)
			signalGroup(pid, syscall.SIGKILL)
			log.Printf("%s (pid %d) killed (%s)", f.name, pid, describeExit(<-exited))
		}
	}
}

// waitForFiller waits until the Filler name exists with its generated signing secret, and returns
// the secret and the address its quoteURL names, which must be on loopback: the filler listens
// there. The manager generates the Secret when it first reconciles the Filler.
func (r *fillerRun) waitForFiller(ctx context.Context, name string) ([]byte, string, error) {
	told := false
	t := time.NewTicker(secretPoll)
	defer t.Stop()
	for {
		var f v1alpha1.Filler
		var s corev1.Secret
		err := r.k8s.Get(ctx, client.ObjectKey{Namespace: r.namespace, Name: name}, &f)
		if err == nil {
			err = r.k8s.Get(ctx, client.ObjectKey{Namespace: r.namespace, Name: controller.FillerSecretName(name)}, &s)
		}
		secret := s.Data[signing.DefaultSecretKey]
		switch {
		case err == nil && len(secret) > 0:
			listen, err := loopbackListen(f.Spec.QuoteURL)
			return secret, listen, err
		case err != nil && !apierrors.IsNotFound(err) && ctx.Err() == nil:
			return nil, "", err
		case !told:
			log.Printf("%s waits for the Filler %s and its signing secret (Secret %s), which the manager generates",
				name, name, controller.FillerSecretName(name))
			told = true
		}
		select {
		case <-ctx.Done():
			return nil, "", ctx.Err()
		case <-t.C:
		}
	}
}

// loopbackListen is the host:port of a quoteURL on a loopback address.
func loopbackListen(quoteURL string) (string, error) {
	u, err := url.Parse(quoteURL)
	if err != nil {
		return "", fmt.Errorf("its quoteURL: %w", err)
	}
	ip := net.ParseIP(u.Hostname())
	if u.Scheme != "http" || u.Port() == "" || ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("its quoteURL %s is not http on a loopback address and port, where a local filler could listen", quoteURL)
	}
	return u.Host, nil
}

func fillerIndex(name string) int {
	for i, f := range marketFillers {
		if f.name == name {
			return i
		}
	}
	return -1
}

func fillerNames() []string {
	names := make([]string, len(marketFillers))
	for i, f := range marketFillers {
		names[i] = f.name
	}
	return names
}

// fillerInventory describes a filler's inventory for the log.
func fillerInventory() string {
	return fmt.Sprintf("%s USDC and %s ETH on each chain", formatUSDC(fillerUSDC), new(big.Int).Quo(fillerEther, big.NewInt(1e18)))
}
