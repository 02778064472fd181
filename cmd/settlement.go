package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	intentsv1alpha1 "github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

const settlementUsage = `Usage: manager settlement deploy [flags]

Deploys this release's settlement contract (contracts/src/Settlement.sol) through the deterministic
deployment proxy 0x4e59b44847b379578588920ca78fbf26c0b4956c with CREATE2 and a zero salt: the same
release with the same --attester, --guardian, --refund-delay and Permit2 lands at the same address on
every chain. Before any transaction it checks that the node serves the chain's id, that Permit2 is
at the Chain's permit2Address (the canonical address by default), that the guardian is not the
attester, that the refund delay is at least the contract's minimum (1h) and the environment's
slowest bridge finality plus the attestation's latency, and that the deployer can pay. Where the
chain already holds this release's contract at that address it prints it and sends nothing. Where
the chain lacks the proxy it first deploys it with its presigned transaction.

manager settlement address --key-file FILE prints the address of a hex key file (the attester's,
the guardian's, the deployer's), for --attester and --guardian.

The chain: a Chain manifest (--chain-file), a Chain of the cluster (--chain NAME, with --kubeconfig
and --namespace), or --rpc-url with --chain-id. --rpc-url overrides a Chain's spec.rpc (needed when
the Chain reads its URL from a Secret).

  manager settlement deploy --chain-file chain.yaml --key-file deployer.key \
    --attester 0x90F79bf6EB2c4f870365E785982E1f101E93b906 --guardian 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
  manager settlement deploy --kubeconfig .local/kubeconfig --chain local-dev --key-file deployer.key \
    --attester ... --guardian ... --patch
`

// settlementSettings is what the settlement deploy flags set.
type settlementSettings struct {
	chainFile, chainName, namespace, kubeconfig string
	rpcURL                                      string
	chainID                                     uint64
	finalitySeconds                             int64
	keyFile                                     string
	attester, guardian, permit2                 string
	refundDelay                                 time.Duration
	dryRun, patch                               bool
	argsFile                                    string
	timeout                                     time.Duration
}

// runSettlement is the settlement subcommand; it returns the process exit code.
func runSettlement(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "address" {
		return runSettlementAddress(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "deploy" {
		fmt.Fprint(stderr, settlementUsage)
		return 2
	}
	var s settlementSettings
	fs := flag.NewFlagSet("settlement deploy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, settlementUsage); fs.PrintDefaults() }
	fs.StringVar(&s.chainFile, "chain-file", "", "A Chain manifest (YAML) of the chain to deploy on.")
	fs.StringVar(&s.chainName, "chain", "", "The name of a Chain in the cluster (with --kubeconfig and --namespace).")
	fs.StringVar(&s.namespace, "namespace", "default", "The namespace of --chain.")
	fs.StringVar(&s.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "The kubeconfig of the cluster of --chain (default $KUBECONFIG).")
	fs.StringVar(&s.rpcURL, "rpc-url", "", "The chain's JSON-RPC endpoint (default: the Chain's spec.rpc.url).")
	fs.Uint64Var(&s.chainID, "chain-id", 0, "The EIP-155 chain id, without a Chain (with --rpc-url).")
	fs.Int64Var(&s.finalitySeconds, "finality-seconds", 0, "The environment's slowest bridge finality, without a Chain (with --chain-id).")
	fs.StringVar(&s.keyFile, "key-file", "", "File holding the deployer's hex private key; it pays the gas and gets no power over the contract.")
	fs.StringVar(&s.attester, "attester", "", "The attester's address: the manager's --attester-key-file.")
	fs.StringVar(&s.guardian, "guardian", "", "The guardian's address (pause, early refunds); never the attester.")
	fs.StringVar(&s.permit2, "permit2", "", "Permit2's address (default: the Chain's permit2Address, or the canonical "+contracts.CanonicalPermit2.Hex()+").")
	fs.DurationVar(&s.refundDelay, "refund-delay", time.Hour, "The delay between an order's deadline and its refund (whole seconds; at least 1h).")
	fs.BoolVar(&s.dryRun, "dry-run", false, "Check and estimate; send nothing.")
	fs.BoolVar(&s.patch, "patch", false, "Set the Chain's spec.settlementAddress in the cluster (with --chain).")
	fs.StringVar(&s.argsFile, "constructor-args-file", "", "Also write the constructor arguments' ABI encoding (hex) to this file, for a block explorer's verification.")
	fs.DurationVar(&s.timeout, "timeout", 5*time.Minute, "How long to wait for the node and the transactions.")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := settlementDeploy(ctx, s, stdout); err != nil {
		fmt.Fprintf(stderr, "settlement deploy: %v\n", err)
		var usage usageError
		if errors.As(err, &usage) {
			return 2
		}
		return 1
	}
	return 0
}

// usageError is a mistake in the flags.
type usageError struct{ error }

// target is the chain to deploy on, as the flags and the Chain name it.
type target struct {
	chain   *intentsv1alpha1.Chain // nil without a Chain
	cluster client.Client          // nil unless read from the cluster
	id      *big.Int
	rpcURL  string
	permit2 common.Address
	// minRefundDelay is the environment's slowest bridge finality plus the attestation's latency.
	minRefundDelay time.Duration
}

func settlementDeploy(ctx context.Context, s settlementSettings, stdout io.Writer) error {
	t, err := resolveTarget(ctx, s)
	if err != nil {
		return err
	}
	if s.keyFile == "" {
		return usageError{errors.New("--key-file is required")}
	}
	key, err := loadFillerKey(s.keyFile)
	if err != nil {
		return err
	}
	a, err := constructorArgs(s, t.permit2)
	if err != nil {
		return err
	}
	node, err := ethclient.DialContext(ctx, t.rpcURL)
	if err != nil {
		return fmt.Errorf("dialling %s: %w", redactedURL(t.rpcURL), err)
	}
	defer node.Close()
	res, err := deploy.Deploy(ctx, node, deploy.Request{ChainID: t.id, Args: a, Key: key, MinRefundDelay: t.minRefundDelay, DryRun: s.dryRun})
	if res != nil && (res.FundingTx != (common.Hash{}) || res.ProxyTx != (common.Hash{}) || res.Tx != (common.Hash{})) && err != nil {
		// Say what was sent before the failure.
		printSent(stdout, res)
	}
	if err != nil {
		return err
	}
	printResult(stdout, t, key, res, s.dryRun)
	if s.argsFile != "" {
		if err := os.WriteFile(s.argsFile, []byte(common.Bytes2Hex(res.ConstructorArgs)+"\n"), 0o644); err != nil { //nolint:gosec // public data
			return err
		}
	}
	if s.dryRun {
		return nil
	}
	if !s.patch {
		printPatch(stdout, t, res.Address)
		return nil
	}
	if err := patchChain(ctx, t, res.Address); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "patched: Chain %s/%s spec.settlementAddress = %s\n", t.chain.Namespace, t.chain.Name, res.Address.Hex())
	return nil
}

// resolveTarget reads the Chain (file or cluster) or the bare flags.
func resolveTarget(ctx context.Context, s settlementSettings) (*target, error) {
	t := &target{rpcURL: s.rpcURL, permit2: contracts.CanonicalPermit2}
	sources := 0
	for _, set := range []bool{s.chainFile != "", s.chainName != "", s.chainID != 0} {
		if set {
			sources++
		}
	}
	if sources != 1 {
		return nil, usageError{errors.New("name the chain once: --chain-file, --chain (in the cluster) or --chain-id with --rpc-url")}
	}
	if s.patch && s.chainName == "" {
		return nil, usageError{errors.New("--patch needs --chain (a Chain in the cluster)")}
	}
	var siblings []intentsv1alpha1.Chain
	switch {
	case s.chainFile != "":
		data, err := os.ReadFile(s.chainFile)
		if err != nil {
			return nil, err
		}
		t.chain = &intentsv1alpha1.Chain{}
		if err := yaml.UnmarshalStrict(data, t.chain); err != nil {
			return nil, fmt.Errorf("%s is not a Chain manifest: %w", s.chainFile, err)
		}
		if t.chain.Kind != "Chain" {
			return nil, fmt.Errorf("%s holds a %q, not a Chain (one object per file)", s.chainFile, t.chain.Kind)
		}
	case s.chainName != "":
		cfg, err := clientcmd.BuildConfigFromFlags("", s.kubeconfig)
		if err != nil {
			return nil, fmt.Errorf("reading the kubeconfig: %w", err)
		}
		c, err := client.New(cfg, client.Options{Scheme: service.NewScheme()})
		if err != nil {
			return nil, err
		}
		t.cluster = c
		t.chain = &intentsv1alpha1.Chain{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: s.namespace, Name: s.chainName}, t.chain); err != nil {
			return nil, fmt.Errorf("reading Chain %s/%s: %w", s.namespace, s.chainName, err)
		}
		var list intentsv1alpha1.ChainList
		if err := c.List(ctx, &list, client.InNamespace(s.namespace)); err != nil {
			return nil, fmt.Errorf("listing the Chains of %s: %w", s.namespace, err)
		}
		siblings = list.Items
	default:
		if s.rpcURL == "" {
			return nil, usageError{errors.New("--chain-id needs --rpc-url")}
		}
		t.id = new(big.Int).SetUint64(s.chainID)
		t.minRefundDelay = time.Duration(s.finalitySeconds)*time.Second + controller.AttestationLatency
		return t, nil
	}
	ref, err := caip.ParseChainID(t.chain.Spec.ChainID)
	if err != nil {
		return nil, fmt.Errorf("the Chain's chainId: %w", err)
	}
	id, ok := new(big.Int).SetString(ref.Reference, 10)
	if !ok || ref.Namespace != "eip155" {
		return nil, fmt.Errorf("the Chain's chainId %q is not an EVM chain (eip155:<n>)", t.chain.Spec.ChainID)
	}
	t.id = id
	if t.rpcURL == "" {
		if t.chain.Spec.RPC == nil || t.chain.Spec.RPC.URL == "" {
			return nil, usageError{errors.New("the Chain names no spec.rpc.url (or reads it from a Secret): give --rpc-url")}
		}
		t.rpcURL = t.chain.Spec.RPC.URL
	}
	if t.chain.Spec.Permit2Address != "" {
		t.permit2 = common.HexToAddress(t.chain.Spec.Permit2Address)
	}
	// The controller's rule: the environment's slowest bridge finality, plus the attestation.
	slowest := controller.BridgeFinality(chainRow(t.chain))
	for i := range siblings {
		if siblings[i].Spec.Environment == t.chain.Spec.Environment {
			slowest = max(slowest, controller.BridgeFinality(chainRow(&siblings[i])))
		}
	}
	t.minRefundDelay = slowest + controller.AttestationLatency
	return t, nil
}

// chainRow is as much of a Chain's row as its bridge finality needs.
func chainRow(c *intentsv1alpha1.Chain) registry.Chain {
	return registry.Chain{
		BlockTimeSeconds: c.Spec.BlockTimeSeconds, FinalitySeconds: c.Spec.FinalitySeconds,
		BridgeMinConfirmations: uint64(max(c.Spec.BridgeMinConfirmations, 0)), //nolint:gosec // not negative
	}
}

func constructorArgs(s settlementSettings, permit2 common.Address) (deploy.Args, error) {
	if s.permit2 != "" {
		if !common.IsHexAddress(s.permit2) {
			return deploy.Args{}, usageError{fmt.Errorf("--permit2 %q is not an address", s.permit2)}
		}
		permit2 = common.HexToAddress(s.permit2)
	}
	for name, v := range map[string]string{"--attester": s.attester, "--guardian": s.guardian} {
		if !common.IsHexAddress(v) {
			return deploy.Args{}, usageError{fmt.Errorf("%s %q is not an address", name, v)}
		}
	}
	if s.refundDelay%time.Second != 0 || s.refundDelay <= 0 {
		return deploy.Args{}, usageError{fmt.Errorf("--refund-delay %s is not a positive number of whole seconds", s.refundDelay)}
	}
	return deploy.Args{
		Attester: common.HexToAddress(s.attester), Guardian: common.HexToAddress(s.guardian),
		RefundDelay: uint64(s.refundDelay / time.Second), Permit2: permit2,
	}, nil
}

func printSent(w io.Writer, res *deploy.Result) {
	for _, tx := range []struct {
		what string
		hash common.Hash
	}{{"proxy deployer funding", res.FundingTx}, {"proxy deployment", res.ProxyTx}, {"settlement deployment", res.Tx}} {
		if tx.hash != (common.Hash{}) {
			fmt.Fprintf(w, "sent %s: %s\n", tx.what, tx.hash.Hex())
		}
	}
}

func printResult(w io.Writer, t *target, key *ecdsa.PrivateKey, res *deploy.Result, dryRun bool) {
	fmt.Fprintf(w, "chain:            eip155:%s (%s)\n", t.id, redactedURL(t.rpcURL))
	fmt.Fprintf(w, "address:          %s\n", res.Address.Hex())
	switch {
	case res.AlreadyDeployed:
		fmt.Fprintln(w, "status:           already deployed (this release's code with these arguments); nothing sent")
	case dryRun:
		fmt.Fprintln(w, "status:           dry run; nothing sent")
		fmt.Fprintf(w, "deployer:         %s\n", crypto.PubkeyToAddress(key.PublicKey).Hex())
		if res.ProxyMissing {
			fmt.Fprintf(w, "would first:      fund the proxy's deployer %s with %s wei and send its presigned deployment of %s\n",
				contracts.DeploymentProxyDeployer.Hex(), res.ProxyFunding, contracts.DeploymentProxy.Hex())
		}
		fmt.Fprintf(w, "would send:       to %s, value 0, %d bytes of data (salt ++ init code), gas limit %d, max fee %s wei/gas\n",
			contracts.DeploymentProxy.Hex(), len(res.Calldata), res.GasLimit, res.MaxFeePerGas)
		fmt.Fprintf(w, "at most:          %s wei (%s)\n", res.MaxCost, ether(res.MaxCost))
	default:
		if res.ProxyTx != (common.Hash{}) {
			fmt.Fprintf(w, "proxy deployed:   %s (funding %s)\n", res.ProxyTx.Hex(), res.FundingTx.Hex())
		}
		fmt.Fprintf(w, "transaction:      %s\n", res.Tx.Hex())
		fmt.Fprintf(w, "gas used:         %d\n", res.GasUsed)
		fmt.Fprintf(w, "paid:             %s wei (%s)\n", res.GasPaid, ether(res.GasPaid))
	}
	fmt.Fprintf(w, "constructor args: %s\n", common.Bytes2Hex(res.ConstructorArgs))
}

// printPatch prints what points the Chain at the contract: a kubectl patch and the manifest's line.
func printPatch(w io.Writer, t *target, addr common.Address) {
	patch, _ := json.Marshal(map[string]any{"spec": map[string]string{"settlementAddress": addr.Hex()}})
	name, ns := "<chain>", ""
	if t.chain != nil && t.chain.Name != "" {
		name = t.chain.Name
		if t.chain.Namespace != "" {
			ns = " -n " + t.chain.Namespace
		}
	}
	fmt.Fprintf(w, "\nPoint the Chain at it (--patch does this in the cluster):\n  kubectl patch chain %s%s --type merge -p '%s'\nor, in its manifest:\n  spec:\n    settlementAddress: %q\n",
		name, ns, patch, addr.Hex())
}

func patchChain(ctx context.Context, t *target, addr common.Address) error {
	before := t.chain.DeepCopy()
	t.chain.Spec.SettlementAddress = addr.Hex()
	if err := t.cluster.Patch(ctx, t.chain, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("patching Chain %s/%s: %w", t.chain.Namespace, t.chain.Name, err)
	}
	return nil
}

// ether formats wei in ether, to 9 decimals.
func ether(wei *big.Int) string {
	if wei == nil {
		return "0 ETH"
	}
	gwei := new(big.Int).Quo(wei, big.NewInt(1e9))
	whole, frac := new(big.Int).QuoRem(gwei, big.NewInt(1e9), new(big.Int))
	return whole.String() + "." + fmt.Sprintf("%09d", frac.Int64()) + " ETH"
}

// redactedURL is an RPC URL without what may be a credential (user info, path, query).
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the RPC URL"
	}
	return u.Scheme + "://" + u.Host
}

// runSettlementAddress prints the address of a key file's key.
func runSettlementAddress(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("settlement address", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyFile := fs.String("key-file", "", "File holding a hex private key.")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *keyFile == "" || fs.NArg() != 0 {
		fmt.Fprint(stderr, "Usage: manager settlement address --key-file FILE\n")
		return 2
	}
	key, err := loadFillerKey(*keyFile)
	if err != nil {
		fmt.Fprintf(stderr, "settlement address: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, crypto.PubkeyToAddress(key.PublicKey).Hex())
	return 0
}
