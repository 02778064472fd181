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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/jackc/pgx/v5"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// These tests run the real thing: kube-apiserver and etcd from KUBEBUILDER_ASSETS (make test sets
// it; by hand: KUBEBUILDER_ASSETS=$(make -s envtest-assets) go test ./hack/localcluster/), the
// CRDs and samples of config/, kubectl, go-ethereum's node and PostgreSQL from POSTGRES_BINDIR
// (make test sets it too; hack/postgres.sh prints it) on loopback ports of their own.

// fakeManagerEnv makes the test binary act as the manager (see TestMain): the file it names
// collects the pid of each fake manager once localcluster has seen it healthy. fakeManagerExit
// makes it exit with that code at once instead.
// localclusterEnv makes it localcluster itself.
const (
	fakeManagerEnv  = "LOCALCLUSTER_TEST_FAKE_MANAGER"
	fakeManagerExit = "LOCALCLUSTER_TEST_FAKE_MANAGER_EXIT"
	localclusterEnv = "LOCALCLUSTER_TEST_MAIN"
)

func TestMain(m *testing.M) {
	if pids := os.Getenv(fakeManagerEnv); pids != "" {
		os.Exit(fakeManager(pids, os.Args[1:]))
	}
	if os.Getenv(localclusterEnv) != "" {
		main()
		os.Exit(0)
	}
	setControllerRuntimeLogger()
	os.Exit(m.Run())
}

// fakeManager stands in for bin/manager: it serves /healthz on --health-probe-bind-address and,
// once localcluster has probed it, appends its pid to pidFile; it stops on SIGTERM. As `manager
// filler` it writes what it was started with to pidFile.<pid>.filler (fakeFiller), and stops on
// SIGTERM.
func fakeManager(pidFile string, args []string) int {
	if code := os.Getenv(fakeManagerExit); code != "" {
		n, _ := strconv.Atoi(code)
		return n
	}
	if len(args) > 0 && args[0] == "filler" {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM)
		record, err := json.Marshal(fakeFiller{
			Pid: os.Getpid(), Args: args[1:], APIKey: os.Getenv("TIS_API_KEY"), OrdersKey: os.Getenv("TIS_FILLER_KEY"),
		})
		if err == nil {
			err = os.WriteFile(fmt.Sprintf("%s.%d.filler", pidFile, os.Getpid()), record, 0o600)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake filler:", err)
			return 2
		}
		<-stop
		return 0
	}
	if os.Getenv("KUBECONFIG") == "" {
		fmt.Fprintln(os.Stderr, "fake manager: no KUBECONFIG")
		return 3
	}
	var probe string
	for i, a := range args {
		if a == "--health-probe-bind-address" && i+1 < len(args) {
			probe = args[i+1]
		}
	}
	l, err := net.Listen("tcp", probe)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake manager:", err)
		return 2
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	var record sync.Once
	go func() {
		_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			if r.URL.Path != "/healthz" {
				return
			}
			record.Do(func() {
				if f, err := os.OpenFile(pidFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
					_, _ = fmt.Fprintln(f, os.Getpid())
					_ = f.Close()
				}
			})
		}))
	}()
	<-stop
	return 0
}

// A second run on the same state directory finds what the first left: an intent and a ConfigMap
// created in the first (same UIDs: not recreated by the samples), the samples applied again without
// error, and the local chain at or past its last block with the first run's transaction, its
// contracts at the samples' addresses, funded once, attested by the same kept key.
func TestDataKeptAcrossRestarts(t *testing.T) {
	o := testOptions(t)
	o.noOperator = true

	start := time.Now()
	first := startForTest(t, o)
	freshStart := time.Since(start)
	if first.chains == nil {
		t.Fatal("the local chain did not start")
	}
	k8s := kubeClient(t, first)
	ctx := t.Context()
	intent := testIntent()
	if err := k8s.Create(ctx, intent); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kept", Namespace: o.namespace}, Data: map[string]string{"run": "first"}}
	if err := k8s.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	recipient := common.HexToAddress("0x000000000000000000000000000000000000bEEF")
	receipt := sendValue(t, first.chains.chains[0].Chain, recipient, big.NewInt(123_456))
	headBefore := blockNumber(t, first.chains.chains[0].URL)
	attesterBefore := crypto.PubkeyToAddress(first.chains.attester.PublicKey)
	chainURL := first.chains.chains[0].URL
	first.stop()
	if _, err := blockNumberErr(chainURL); err == nil {
		t.Fatal("the local chain still answers after stop")
	}

	start = time.Now()
	second := startForTest(t, o)
	restart := time.Since(start)
	t.Logf("start on a new state directory %s, restart on the kept data %s (block %d)", freshStart.Round(time.Millisecond), restart.Round(time.Millisecond), headBefore)
	if second.chains == nil {
		t.Fatal("the local chain did not start on the kept data")
	}
	k8s = kubeClient(t, second)

	gotIntent := &v1alpha1.TransferIntent{}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(intent), gotIntent); err != nil {
		t.Fatalf("the intent created in the first run: %v", err)
	}
	if gotIntent.UID != intent.UID || gotIntent.Spec.Request.Amount != intent.Spec.Request.Amount {
		t.Errorf("intent after restart: uid %s amount %s; want %s %s", gotIntent.UID, gotIntent.Spec.Request.Amount, intent.UID, intent.Spec.Request.Amount)
	}
	gotCM := &corev1.ConfigMap{}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(cm), gotCM); err != nil {
		t.Fatalf("the ConfigMap created in the first run: %v", err)
	}
	if gotCM.UID != cm.UID || gotCM.Data["run"] != "first" {
		t.Errorf("ConfigMap after restart: uid %s data %v; want uid %s", gotCM.UID, gotCM.Data, cm.UID)
	}
	sample := &v1alpha1.Chain{}
	if err := k8s.Get(ctx, client.ObjectKey{Namespace: o.namespace, Name: "local-dev"}, sample); err != nil {
		t.Fatalf("the Chain sample after the samples were applied again: %v", err)
	}

	chain := second.chains.chains[0]
	eth, err := ethclient.Dial(chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	if head := blockNumber(t, chain.URL); head < headBefore {
		t.Errorf("head after restart %d, before %d", head, headBefore)
	}
	kept, err := eth.TransactionReceipt(ctx, receipt.TxHash)
	if err != nil {
		t.Fatalf("the first run's transaction %s: %v", receipt.TxHash.Hex(), err)
	}
	if kept.BlockHash != receipt.BlockHash {
		t.Errorf("the first run's transaction is in block %s, was in %s", kept.BlockHash.Hex(), receipt.BlockHash.Hex())
	}
	if balance, err := eth.BalanceAt(ctx, recipient, nil); err != nil || balance.Int64() != 123_456 {
		t.Errorf("balance of %s after restart = %v, %v; want 123456", recipient.Hex(), balance, err)
	}
	usdc := contracts.NewTestToken()
	out, err := eth.CallContract(ctx, callMsg(sampleUSDC, usdc.PackBalanceOf(devWallet())), nil)
	if err != nil {
		t.Fatal(err)
	}
	if balance, err := usdc.UnpackBalanceOf(out); err != nil || balance.Cmp(devWalletUSDC) != 0 {
		t.Errorf("demo wallet holds %v USDC base units (%v); want %s, minted once", balance, err, devWalletUSDC)
	}
	checkGaslessWallet(ctx, t, eth)
	if got := crypto.PubkeyToAddress(second.chains.attester.PublicKey); got != attesterBefore {
		t.Errorf("attester %s after restart, %s before", got.Hex(), attesterBefore.Hex())
	}
	checkFillersFunded(ctx, t, eth)
	second.stop()
}

// A manager killed with SIGKILL is started again while the control plane and the chain keep
// running (the same API server answers the same kubeconfig; the chain's blocks go on); Ctrl-C
// (ctx) then stops the manager and the rest, and run returns 0.
func TestKilledManagerIsRestartedAndTheControlPlaneStaysUp(t *testing.T) {
	o := testOptions(t)
	o.managerPath = os.Args[0]
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Setenv(fakeManagerEnv, pidFile)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx, o, nil) }()

	first := waitForManager(t, pidFile, 1, done)
	headBefore := blockNumber(t, "http://"+o.devChainAddr)
	k8s := kubeconfigClient(t, o.kubeconfigPath)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "before-the-kill", Namespace: o.namespace}}
	if err := k8s.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}

	killed := time.Now()
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	second := waitForManager(t, pidFile, 2, done)
	t.Logf("manager %d killed, %d healthy %s later", first, second, time.Since(killed).Round(time.Millisecond))
	if second == first {
		t.Fatalf("pid %d twice", first)
	}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(cm), cm); err != nil {
		t.Fatalf("the control plane after the manager was killed: %v", err)
	}
	// A new chain makes no block until the clock catches up with its set-up's (aheadOfTheClock).
	deadline := time.Now().Add(time.Minute)
	head := blockNumber(t, "http://"+o.devChainAddr)
	for head <= headBefore && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond) // polling the chain's head, within the deadline
		head = blockNumber(t, "http://"+o.devChainAddr)
	}
	if head <= headBefore {
		t.Errorf("the local chain is at block %d a minute after the kill, was at %d", head, headBefore)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("run returned %d after Ctrl-C, want 0", code)
		}
	case <-time.After(time.Minute):
		t.Fatal("run did not return a minute after Ctrl-C")
	}
	if err := syscall.Kill(second, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("manager %d still there after run returned: %v", second, err)
	}
	if _, err := blockNumberErr("http://" + o.devChainAddr); err == nil {
		t.Error("the local chain still answers after run returned")
	}
}

// A manager that stops before it ever came up (a bad flag, a port in use) ends make run with its
// exit code at once instead of being restarted forever.
func TestManagerThatNeverComesUpEndsTheRun(t *testing.T) {
	t.Setenv(fakeManagerEnv, filepath.Join(t.TempDir(), "pids"))
	t.Setenv(fakeManagerExit, "7")
	done := make(chan int, 1)
	go func() {
		done <- superviseManager(t.Context(), nil, managerProcess{
			path: os.Args[0], kubeconfig: "unused", healthURL: healthURL(freeport.MustAddr(t)),
		})
	}()
	select {
	case code := <-done:
		if code != 7 {
			t.Errorf("exit code %d, want the manager's 7", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the supervisor is still running a manager that exits at once")
	}
}

// A localcluster killed with SIGKILL (it cannot stop anything then) leaves etcd and
// kube-apiserver running, etcd holding the kept data directory; the next localcluster stops them
// and starts on the kept data: the object created before the kill is there, and the chain is back
// with its contracts and keys.
func TestStartAfterLocalclusterWasKilled(t *testing.T) {
	o := testOptions(t)
	o.samplesDir = ""
	cmd := exec.Command(os.Args[0], "--state-dir", o.stateDir, "--no-operator", "--assets", o.assetsDir,
		"--crd-dir", o.crdDir, "--samples", "", "--api-bind-address", o.apiAddr,
		"--dev-chain-address", o.devChainAddr, "--second-chain-address", "", "--postgres-port", "0")
	cmd.Env = append(os.Environ(), localclusterEnv+"=1")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// exited is closed once the process is gone (and waited for).
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	url := "http://" + o.devChainAddr
	funder, err := crypto.HexToECDSA(devchain.WellKnownFunderKey)
	if err != nil {
		t.Fatal(err)
	}
	// Up: the kubeconfig written and the chain set up (the funder's set-up transactions and the
	// start's price posts mined; the test's own must come after them, or it takes a nonce a price
	// post is using: "replacement transaction underpriced", seen under make flake-hunt's load).
	deadline := time.Now().Add(90 * time.Second)
	for {
		_, kubeconfigErr := os.Stat(o.kubeconfigPath)
		if nonce, err := funderNonce(url, funder); err == nil && nonce >= setUpTxs+uint64(len(priceFeeds)) && kubeconfigErr == nil {
			break
		}
		select {
		case <-exited:
			t.Fatalf("localcluster exited while starting: %v", cmd.ProcessState)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("localcluster not up within 90 s")
		}
	}
	ctx := t.Context()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "before-the-crash", Namespace: o.namespace}}
	if err := kubeconfigClient(t, o.kubeconfigPath).Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	receipt := sendValue(t, &devchain.Chain{URL: url, ID: big.NewInt(devChainID), Funder: funder},
		common.HexToAddress("0x000000000000000000000000000000000000dEaD"), big.NewInt(1))
	recorded, err := os.ReadFile(filepath.Join(o.stateDir, controlPlanePIDsFile))
	if err != nil {
		t.Fatalf("the control plane's processes were not recorded: %v", err)
	}
	var leftovers []process
	for _, line := range strings.Split(strings.TrimSpace(string(recorded)), "\n") {
		var p process
		if _, err := fmt.Sscan(line, &p.pid, &p.start, &p.name); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		leftovers = append(leftovers, p)
	}
	t.Cleanup(func() { // should the test fail before they are stopped
		for _, p := range leftovers {
			if isRunning(p) {
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
			}
		}
	})

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	for _, p := range leftovers {
		if !isRunning(p) {
			t.Fatalf("%s stopped with the localcluster that was killed; this test expects it left over", p)
		}
	}

	start := time.Now()
	lc := startForTest(t, o)
	t.Logf("started %s after the kill, on the kept data, stopping %v", time.Since(start).Round(time.Millisecond), leftovers)
	for _, p := range leftovers {
		if isRunning(p) {
			t.Errorf("%s still runs", p)
		}
	}
	if err := kubeClient(t, lc).Get(ctx, client.ObjectKeyFromObject(cm), cm); err != nil {
		t.Errorf("the object created before the crash: %v", err)
	}
	// go-ethereum's database may lose its last writes to a SIGKILL (make run's Ctrl-C closes it
	// cleanly): the chain must be back, set up and consistent, not necessarily at its last block.
	if lc.chains == nil {
		t.Fatal("the local chain did not start on the data kept by the killed localcluster")
	}
	eth, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	_, err = eth.TransactionReceipt(ctx, receipt.TxHash)
	t.Logf("the chain continues at block %d; the transaction sent in block %d before the crash kept: %v",
		blockNumber(t, url), receipt.BlockNumber, err == nil)
}

// A chain that a killed localcluster left part way through its set-up (here: the USDC deployed,
// nothing else) is set up from where it stopped, so its contracts still land at the samples'
// addresses and the demo wallet is funded once.
func TestSetUpResumesWhereAChainStopped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "eip155-1337")
	c, _, err := openDevChain(devChainID, dir, freeport.MustAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	if _, err := c.Deploy("Local USD Coin", "USDC", 6); err != nil {
		t.Fatal(err)
	}
	done, err := setUpProgress(c)
	if err != nil || done != 1 {
		t.Fatalf("progress after the first set-up transaction = %d, %v; want 1", done, err)
	}
	filler := common.HexToAddress("0x00000000000000000000000000000000000F111e")
	if err := setUpChain(c, done, filler); err != nil {
		t.Fatal(err)
	}
	if err := checkChain(c, dir); err != nil {
		t.Fatal(err)
	}
	if done, err := setUpProgress(c); err != nil || done != setUpTxs {
		t.Errorf("progress after the set-up = %d, %v; want %d", done, err, setUpTxs)
	}
	usdc := contracts.NewTestToken()
	out, err := c.Backend.Client().CallContract(t.Context(), callMsg(sampleUSDC, usdc.PackBalanceOf(devWallet())), nil)
	if err != nil {
		t.Fatal(err)
	}
	if balance, err := usdc.UnpackBalanceOf(out); err != nil || balance.Cmp(devWalletUSDC) != 0 {
		t.Errorf("demo wallet holds %v USDC base units (%v); want %s", balance, err, devWalletUSDC)
	}
	feed := contracts.NewTestPriceFeed()
	roundOf := func(addr common.Address) contracts.LatestRoundDataOutput {
		t.Helper()
		out, err := c.Backend.Client().CallContract(t.Context(), callMsg(addr, feed.PackLatestRoundData()), nil)
		if err != nil {
			t.Fatal(err)
		}
		round, err := feed.UnpackLatestRoundData(out)
		if err != nil {
			t.Fatal(err)
		}
		return round
	}
	for addr, want := range map[common.Address]*big.Int{sampleETHFeed: devETHPrice, sampleUSDCFeed: devUSDCPrice} {
		before := roundOf(addr)
		if before.Answer.Cmp(want) != 0 {
			t.Errorf("the feed at %s answers %v; want %v", addr.Hex(), before.Answer, want)
		}
		if err := refreshPrices(c); err != nil {
			t.Fatal(err)
		}
		if after := roundOf(addr); after.Answer.Cmp(want) != 0 || after.RoundId.Cmp(before.RoundId) <= 0 || after.UpdatedAt.Cmp(before.UpdatedAt) < 0 {
			t.Errorf("after a refresh the feed at %s holds %+v; want the same answer in a later round", addr.Hex(), after)
		}
	}
}

// A chain kept from a make run before the settlement contract moved to its CREATE2 address holds
// an older contract at the funder's nonce-1 address: checkChain says so, and the start deploys this
// release's contract at deploy.LocalAddress() beside it, once.
func TestAChainKeptWithAnOlderContractGetsThisRelease(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "eip155-1337")
	c, _, err := openDevChain(devChainID, dir, freeport.MustAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	if _, err := c.Deploy("Local USD Coin", "USDC", 6); err != nil {
		t.Fatal(err)
	}
	oldAttester, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	old, err := c.DeploySettlement(crypto.PubkeyToAddress(oldAttester.PublicKey), settlement.MinRefundDelay)
	if err != nil {
		t.Fatal(err)
	}
	filler := common.HexToAddress("0x00000000000000000000000000000000000F111e")
	if err := setUpChain(c, 2, filler); err != nil {
		t.Fatal(err)
	}
	if err := checkChain(c, dir); err == nil || !strings.Contains(err.Error(), deploy.LocalAddress().Hex()) {
		t.Fatalf("checkChain of a chain with the old contract at %s only: %v", old.Hex(), err)
	}
	redeployed, err := c.DeployLocalSettlement()
	if err != nil || !redeployed {
		t.Fatalf("DeployLocalSettlement = %v, %v; want a deployment", redeployed, err)
	}
	if err := checkChain(c, dir); err != nil {
		t.Fatal(err)
	}
	if again, err := c.DeployLocalSettlement(); err != nil || again {
		t.Fatalf("a second DeployLocalSettlement = %v, %v; want nothing sent", again, err)
	}
}

// make run's attester is the well-known account #3, written where the file is missing; a file of
// an earlier make run's own attester is refused with the way out.
func TestTheLocalAttesterIsTheWellKnownKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attester.key")
	k, err := loadDevAttester(path)
	if err != nil {
		t.Fatal(err)
	}
	if k.address() != deploy.LocalArgs().Attester || !k.made {
		t.Fatalf("a new attester is %s (made %v), want %s", k.address().Hex(), k.made, deploy.LocalArgs().Attester.Hex())
	}
	other, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(common.Bytes2Hex(crypto.FromECDSA(other))), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadDevAttester(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("an earlier run's attester file: %v", err)
	}
}

// The local Chains and USDC definitions of the samples name the price feeds make run deploys.
func TestSamplesNameTheLocalPriceFeeds(t *testing.T) {
	for file, addr := range map[string]common.Address{
		"../../config/samples/intents_v1alpha1_chain.yaml":           sampleETHFeed,
		"../../config/samples/intents_v1alpha1_tokendefinition.yaml": sampleUSDCFeed,
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), `address: "`+addr.Hex()+`"`); n != 2 {
			t.Errorf("%s names the feed %s %d times; want twice (eip155:1337 and eip155:1338)", file, addr.Hex(), n)
		}
	}
}

// The samples' ApiKeys hold the hashes of the public keys make run uses, and the filler's is a
// filler key.
func TestSamplesHoldTheDemoKeys(t *testing.T) {
	for file, key := range map[string]string{
		"../../config/samples/intents_v1alpha1_apikey.yaml":        demoAPIKey,
		"../../config/samples/intents_v1alpha1_apikey_filler.yaml": demoFillerKey,
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		hash := sha256.Sum256([]byte(key))
		if !strings.Contains(string(data), `keyHash: "sha256:`+hex.EncodeToString(hash[:])+`"`) {
			t.Errorf("%s does not hold the hash of the key %s...", file, key[:12])
		}
		if filler := strings.Contains(string(data), "\n  role: filler\n"); filler != (key == demoFillerKey) {
			t.Errorf("%s: role filler %v; want it only on the filler's key", file, filler)
		}
	}
}

// The archive's PostgreSQL keeps its data across a stop and a start (the second start makes no new
// cluster), stops cleanly (a fast shutdown, not crash recovery at the next start), and --reset
// removes its data and its log.
func TestPostgresDataKeptAcrossRestartsAndReset(t *testing.T) {
	bindir := os.Getenv("POSTGRES_BINDIR")
	if bindir == "" {
		t.Fatal(`POSTGRES_BINDIR is not set: run make test, or POSTGRES_BINDIR="$(hack/postgres.sh)" go test ./hack/localcluster/`)
	}
	// Not t.TempDir: its parent is private to the test's user, and as root the server runs as
	// the postgres user, who must reach the state directory.
	dir, err := os.MkdirTemp("", "localcluster-postgres-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	o := options{
		stateDir: dir, kubeconfigPath: filepath.Join(dir, "kubeconfig"), attesterKeyPath: filepath.Join(dir, chainsSubdir, "attester.key"),
		postgresPort: freeport.MustPort(t), postgresBindir: bindir,
	}
	ctx := t.Context()

	start := time.Now()
	pg, err := startPostgres(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.stop)
	fresh := time.Since(start)
	if pg.url != "postgres://postgres@127.0.0.1:"+strconv.Itoa(o.postgresPort)+"/postgres?sslmode=disable" {
		t.Errorf("url %s", pg.url)
	}
	conn, err := pgx.Connect(ctx, pg.url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "create table kept (run text); insert into kept values ('first')"); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(ctx)
	pg.stop()
	if err := pingPostgres(ctx, pg.url); err == nil {
		t.Fatal("PostgreSQL still answers after stop")
	}
	if logged, _ := os.ReadFile(filepath.Join(dir, postgresLogFile)); !strings.Contains(string(logged), "database system is shut down") {
		t.Errorf("no clean shutdown in the log:\n%s", logged)
	}

	start = time.Now()
	pg, err = startPostgres(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.stop)
	t.Logf("start with a new cluster %s, on the kept one %s", fresh.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	conn, err = pgx.Connect(ctx, pg.url)
	if err != nil {
		t.Fatal(err)
	}
	var run string
	if err := conn.QueryRow(ctx, "select run from kept").Scan(&run); err != nil || run != "first" {
		t.Errorf("the first run's row after a restart: %q, %v", run, err)
	}
	_ = conn.Close(ctx)
	if logged, _ := os.ReadFile(filepath.Join(dir, postgresLogFile)); strings.Contains(string(logged), "not properly shut down") {
		t.Errorf("the second start recovered from a crash:\n%s", logged)
	}

	pg.stop()
	if err := resetState(o); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{postgresSubdir, postgresLogFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after reset: %v", name, err)
		}
	}
}

// The manager's own --archive-url, in any form Go's flag package reads, replaces the local
// PostgreSQL.
func TestSetsFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--zap-log-level=debug"}, false},
		{[]string{"--archive-url=postgres://u@db/x"}, true},
		{[]string{"-archive-url", "postgres://u@db/x"}, true},
		{[]string{"--archive-url="}, true}, // no archive at all
		{[]string{"--archive-url-x=1"}, false},
		{[]string{"--archive-after=1m"}, false},
		{[]string{"--", "--archive-url=x"}, false},
	} {
		if got := setsFlag(tc.args, "archive-url"); got != tc.want {
			t.Errorf("setsFlag(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// A second localcluster on the same state directory is refused while the first holds it, and a
// reset too; once the first is gone the lock is free again.
func TestStateDirectoryIsLocked(t *testing.T) {
	dir := t.TempDir()
	release, err := lockState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockState(dir); err == nil || !strings.Contains(err.Error(), "in use by another localcluster (pid "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second lock: %v", err)
	}
	if err := resetState(options{stateDir: dir, kubeconfigPath: filepath.Join(dir, "kubeconfig"), attesterKeyPath: filepath.Join(dir, "chains", "attester.key")}); err == nil {
		t.Error("reset while locked succeeded")
	}
	release()
	again, err := lockState(dir)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again()
}

// testOptions are make run's options on a state directory, ports and a chain of the test's own,
// with the repository's CRDs and samples; no second chain, to save a second.
func testOptions(t *testing.T) options {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		t.Fatal("KUBEBUILDER_ASSETS is not set: run make test, or KUBEBUILDER_ASSETS=$(make -s envtest-assets) go test ./hack/localcluster/")
	}
	dir := t.TempDir()
	return options{
		stateDir:        dir,
		kubeconfigPath:  filepath.Join(dir, "kubeconfig"),
		attesterKeyPath: filepath.Join(dir, chainsSubdir, "attester.key"),
		namespace:       "default",
		crdDir:          "../../config/crd/bases",
		samplesDir:      "../../config/samples",
		apiAddr:         freeport.MustAddr(t),
		probeAddr:       freeport.MustAddr(t),
		assetsDir:       assets,
		devChainAddr:    freeport.MustAddr(t),
	}
}

// startForTest starts the cluster as run does, holding the state directory's lock until stop.
func startForTest(t *testing.T, o options) *testCluster {
	t.Helper()
	release, err := lockState(o.stateDir)
	if err != nil {
		t.Fatal(err)
	}
	lc, err := startCluster(t.Context(), o, o.assetsDir)
	tc := &testCluster{localCluster: lc, release: release}
	t.Cleanup(tc.stop)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

type testCluster struct {
	*localCluster
	release func()
	stopped bool
}

func (tc *testCluster) stop() {
	if tc.stopped {
		return
	}
	tc.stopped = true
	tc.localCluster.stop()
	tc.release()
}

func kubeClient(t *testing.T, lc *testCluster) client.Client {
	t.Helper()
	c, err := client.New(lc.admin, client.Options{Scheme: testenv.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func kubeconfigClient(t *testing.T, path string) client.Client {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{Scheme: testenv.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testIntent is a stored transfer on the local chain, as the API would create it.
func testIntent() *v1alpha1.TransferIntent {
	const ulid = "01JC0000000000000000000000"
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-" + strings.ToLower(ulid), Namespace: "default"},
		Spec: v1alpha1.TransferIntentSpec{
			ID: "int_transfer_" + ulid, AccountRef: v1alpha1.LocalObjectReference{Name: "demo"},
			Environment: v1alpha1.EnvironmentTest, Type: v1alpha1.IntentTypeTransfer,
			FromChain: "eip155:1337", ToChain: "eip155:1337",
			OrderID: "0x" + strings.Repeat("ab", 32),
			Request: v1alpha1.TransferRequest{
				From:   "eip155:1337:" + devWallet().Hex(),
				To:     "eip155:1337:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
				Asset:  v1alpha1.TransferAsset{In: "eip155:1337:" + sampleUSDC.Hex()},
				Amount: "25",
			},
			ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour).Truncate(time.Second)),
		},
	}
}

// sendValue sends wei from the chain's funder to to over JSON-RPC and waits for a block (the
// cluster's ticker makes one a second) to hold it.
func sendValue(t *testing.T, c *devchain.Chain, to common.Address, wei *big.Int) *types.Receipt {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	eth, err := ethclient.Dial(c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	from := crypto.PubkeyToAddress(c.Funder.PublicKey)
	nonce, err := eth.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	head, err := eth.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := eth.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(c.Funder, types.LatestSignerForChainID(c.ID), &types.DynamicFeeTx{
		ChainID: c.ID, Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))),
		Gas: 21_000, To: &to, Value: wei,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	receipt, err := bind.WaitMined(ctx, eth, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return receipt
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

func blockNumber(t *testing.T, url string) uint64 {
	t.Helper()
	n, err := blockNumberErr(url)
	if err != nil {
		t.Fatalf("eth_blockNumber on %s: %v", url, err)
	}
	return n
}

func funderNonce(url string, funder *ecdsa.PrivateKey) (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	eth, err := ethclient.DialContext(ctx, url)
	if err != nil {
		return 0, err
	}
	defer eth.Close()
	return eth.NonceAt(ctx, crypto.PubkeyToAddress(funder.PublicKey), nil)
}

func blockNumberErr(url string) (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	eth, err := ethclient.DialContext(ctx, url)
	if err != nil {
		return 0, err
	}
	defer eth.Close()
	return eth.BlockNumber(ctx)
}

// waitForManager waits until pidFile holds n pids (the nth fake manager is up) and returns the
// last, failing if run returns first.
func waitForManager(t *testing.T, pidFile string, n int, done <-chan int) int {
	t.Helper()
	deadline := time.After(90 * time.Second)
	for {
		data, _ := os.ReadFile(pidFile)
		if lines := strings.Fields(string(data)); len(lines) >= n {
			pid, err := strconv.Atoi(lines[n-1])
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		select {
		case code := <-done:
			t.Fatalf("run returned %d while waiting for manager number %d", code, n)
		case <-deadline:
			t.Fatalf("no manager number %d within 90 s", n)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// fakeFiller is what a fake `manager filler` was started with.
type fakeFiller struct {
	Pid               int
	Args              []string
	APIKey, OrdersKey string
}

// flag is the value of the flag name in the filler's arguments, each value when it repeats.
func (f fakeFiller) flag(name string) []string {
	var values []string
	for i, a := range f.Args {
		if a == "--"+name && i+1 < len(f.Args) {
			values = append(values, f.Args[i+1])
		}
	}
	return values
}

// make run is a market: each filler of --fillers starts once its Filler's signing secret exists
// (the manager generates it; here the test), as `manager filler` with its well-known key, its
// spread, a copy of the secret and the address its Filler's quoteURL names, on every local chain,
// with the demo filler key; each is funded; stopping the market stops the processes.
func TestTheMarketsFillersStartWithTheirFillersSecrets(t *testing.T) {
	o := testOptions(t)
	o.noOperator = true
	o.managerPath = os.Args[0]
	o.fillers = fillerNames()
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Setenv(fakeManagerEnv, pidFile)
	lc := startForTest(t, o)
	k8s := kubeClient(t, lc)
	ctx := t.Context()

	// filler-b's endpoint moves to a port of the test's own: a filler listens where its Filler says.
	listen := map[string]string{"filler-a": "127.0.0.1:9101", "filler-b": freeport.MustAddr(t)}
	var fillerB v1alpha1.Filler
	if err := k8s.Get(ctx, client.ObjectKey{Namespace: o.namespace, Name: "filler-b"}, &fillerB); err != nil {
		t.Fatalf("the sample Filler filler-b: %v", err)
	}
	fillerB.Spec.QuoteURL = "http://" + listen["filler-b"] + "/quote"
	if err := k8s.Update(ctx, &fillerB); err != nil {
		t.Fatal(err)
	}
	stop := startMarket(ctx, o, lc.localCluster)
	t.Cleanup(stop)
	secrets := map[string]string{}
	for _, name := range o.fillers {
		secrets[name] = "whsec_" + hex.EncodeToString([]byte(name+" signing secret"))
		if err := k8s.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: controller.FillerSecretName(name), Namespace: o.namespace},
			Data:       map[string][]byte{signing.DefaultSecretKey: []byte(secrets[name])},
		}); err != nil {
			t.Fatal(err)
		}
	}

	var started []fakeFiller
	deadline := time.Now().Add(30 * time.Second)
	for {
		started = nil
		records, _ := filepath.Glob(pidFile + ".*.filler")
		for _, path := range records {
			data, err := os.ReadFile(path)
			var f fakeFiller
			if err == nil && json.Unmarshal(data, &f) == nil {
				started = append(started, f)
			}
		}
		// localcluster writes a pid file just after the process starts, so maybe after its record.
		pidFiles, _ := filepath.Glob(filepath.Join(o.stateDir, fillersSubdir, "*.pid"))
		if len(started) == len(o.fillers) && len(pidFiles) == len(o.fillers) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond) // polling the fake fillers' records, within the deadline
	}
	if len(started) != len(o.fillers) {
		t.Fatalf("%d fillers started within 30 s; want %d", len(started), len(o.fillers))
	}
	chain := lc.chains.chains[0]
	seen := map[string]bool{}
	for _, f := range started {
		keyFile := f.flag("key-file")
		if len(keyFile) != 1 {
			t.Fatalf("filler pid %d started without one --key-file: %v", f.Pid, f.Args)
		}
		key, err := os.ReadFile(keyFile[0])
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(marketFillers, func(m marketFiller) bool { return m.key == string(key) })
		if i < 0 {
			t.Fatalf("filler pid %d holds a key of no market filler", f.Pid)
		}
		m := marketFillers[i]
		seen[m.name] = true
		if got := f.flag("premium-bps"); !slices.Equal(got, []string{strconv.FormatUint(uint64(m.premiumBps), 10)}) {
			t.Errorf("%s: --premium-bps %v; want %d", m.name, got, m.premiumBps)
		}
		if got := f.flag("quote-listen"); !slices.Equal(got, []string{listen[m.name]}) {
			t.Errorf("%s: --quote-listen %v; want %s, its Filler's quoteURL", m.name, got, listen[m.name])
		}
		if secretFile := f.flag("quote-secret-file"); len(secretFile) != 1 {
			t.Errorf("%s: --quote-secret-file %v", m.name, secretFile)
		} else if got, err := os.ReadFile(secretFile[0]); err != nil || string(got) != secrets[m.name] {
			t.Errorf("%s: its secret file holds %q (%v); want its Filler's secret", m.name, got, err)
		}
		wantChain := fmt.Sprintf("%s,%s,%s", chain.ID, chain.URL, deploy.LocalAddress().Hex())
		if got := f.flag("chain"); !slices.Equal(got, []string{wantChain}) {
			t.Errorf("%s: --chain %v; want %s", m.name, got, wantChain)
		}
		if got := f.flag("api"); !slices.Equal(got, []string{"http://" + o.apiAddr}) {
			t.Errorf("%s: --api %v; want http://%s", m.name, got, o.apiAddr)
		}
		if f.APIKey != demoFillerKey || f.OrdersKey != demoFillerKey {
			t.Errorf("%s: started without the demo filler key (for attestations and the order book)", m.name)
		}
		if pid, err := os.ReadFile(filepath.Join(o.stateDir, fillersSubdir, m.name+".pid")); err != nil || string(pid) != fmt.Sprintln(f.Pid) {
			t.Errorf("%s.pid holds %q (%v); want %d", m.name, pid, err, f.Pid)
		}
	}
	if len(seen) != len(o.fillers) {
		t.Errorf("fillers started: %v; want each of %v once", seen, o.fillers)
	}
	eth, err := ethclient.Dial(chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	checkFillersFunded(ctx, t, eth)

	stop()
	for _, f := range started {
		if err := syscall.Kill(f.Pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("filler pid %d still runs after the market stopped (%v)", f.Pid, err)
		}
	}
}

// The samples' Fillers name the market fillers' addresses as their payout addresses: filler-a on
// both local chains, filler-b on eip155:1338.
func TestSamplesNameTheMarketFillers(t *testing.T) {
	data, err := os.ReadFile("../../config/samples/intents_v1alpha1_filler.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"filler-a": 2, "filler-b": 1} {
		f := marketFillers[fillerIndex(name)]
		if n := strings.Count(string(data), `address: "`+f.address().Hex()+`"`); n != want {
			t.Errorf("the samples name %s's address %s %d times; want %d", name, f.address().Hex(), n, want)
		}
	}
}

// checkFillersFunded: each market filler holds its inventory, given once.
func checkFillersFunded(ctx context.Context, t *testing.T, eth *ethclient.Client) {
	t.Helper()
	usdc := contracts.NewTestToken()
	for _, f := range marketFillers {
		if balance, err := eth.BalanceAt(ctx, f.address(), nil); err != nil || balance.Cmp(fillerEther) != 0 {
			t.Errorf("%s holds %v wei (%v); want %s", f.name, balance, err, fillerEther)
		}
		out, err := eth.CallContract(ctx, callMsg(sampleUSDC, usdc.PackBalanceOf(f.address())), nil)
		if balance, unpackErr := usdc.UnpackBalanceOf(out); err != nil || unpackErr != nil || balance.Cmp(fillerUSDC) != 0 {
			t.Errorf("%s holds %v USDC base units (%v, %v); want %s", f.name, balance, err, unpackErr, fillerUSDC)
		}
	}
}

// checkGaslessWallet: the gasless wallet holds USDC and no ether, and Permit2 may pull its USDC
// (the permit it signed, which the funder sent).
func checkGaslessWallet(ctx context.Context, t *testing.T, eth *ethclient.Client) {
	t.Helper()
	usdc := contracts.NewTestToken()
	if balance, err := eth.BalanceAt(ctx, gaslessWallet(), nil); err != nil || balance.Sign() != 0 {
		t.Errorf("the gasless wallet holds %v wei (%v); want none", balance, err)
	}
	out, err := eth.CallContract(ctx, callMsg(sampleUSDC, usdc.PackBalanceOf(gaslessWallet())), nil)
	if balance, unpackErr := usdc.UnpackBalanceOf(out); err != nil || unpackErr != nil || balance.Cmp(devWalletUSDC) != 0 {
		t.Errorf("the gasless wallet holds %v USDC base units (%v, %v); want %s", balance, err, unpackErr, devWalletUSDC)
	}
	out, err = eth.CallContract(ctx, callMsg(sampleUSDC, usdc.PackAllowance(gaslessWallet(), contracts.CanonicalPermit2)), nil)
	if allowance, unpackErr := usdc.UnpackAllowance(out); err != nil || unpackErr != nil || allowance.Cmp(maxUint256) != 0 {
		t.Errorf("the gasless wallet allows Permit2 %v (%v, %v); want the most", allowance, err, unpackErr)
	}
}
