package controller

import (
	"context"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// An RPC URL read from a Secret passes the rule the CRD applies to spec.rpc.url: https, or plain
// http to a loopback node only. A plain http URL of another host in the Secret is not served (as
// the node or as a witness), and the Ready message says why without quoting the URL.
var _ = DescribeTable("An RPC URL read from a Secret is served only when https or loopback http",
	func(url string, served bool) {
		t := GinkgoTB()
		for _, as := range []string{"rpc", "witnessRpcs[0]"} {
			chain := &v1alpha1.Chain{
				ObjectMeta: metav1.ObjectMeta{Name: "devnet", Namespace: testNamespace, Generation: 1},
				Spec: v1alpha1.ChainSpec{
					ChainID: "eip155:31337", Environment: v1alpha1.EnvironmentTest, DisplayName: "Devnet",
					NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2,
					DefaultGasPriceWei: "1000000000", NativeTokenPriceUSD: "3000",
				},
			}
			fromSecret := v1alpha1.ChainRPC{URLSecretRef: &v1alpha1.SecretKeyReference{Name: "rpc-url"}}
			if as == "rpc" {
				chain.Spec.RPC = &fromSecret
			} else {
				// The node itself is a plain loopback URL, so that the witness is the one in question.
				chain.Spec.RPC = &v1alpha1.ChainRPC{URL: "http://localhost:9545"}
				chain.Spec.WitnessRPCs = []v1alpha1.ChainRPC{fromSecret}
			}
			secret := &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Name: "rpc-url", Namespace: testNamespace},
				Data:       map[string][]byte{"url": []byte(url)},
			}
			c := fakeClient(t, chain, secret)
			chains := registry.NewChainTable()
			r := &ChainReconciler{writer: writer{Client: c, Recorder: events.NewFakeRecorder(10)}, Chains: chains}
			if _, err := r.Reconcile(context.Background(), request("devnet")); err != nil {
				t.Fatal(err)
			}
			row, ok := chains.Get("eip155:31337")
			if !ok {
				t.Fatalf("%s: the chain is not served", as)
			}
			var got bool
			if as == "rpc" {
				got = row.RPCURL == url
			} else {
				got = slices.Contains(row.WitnessURLs, url)
			}
			if got != served {
				t.Errorf("%s from the Secret: served = %v, want %v (rpc %q, witnesses %q)", as, got, served, row.RPCURL, row.WitnessURLs)
			}
			if as == "rpc" && !served && row.RPCURL != "" {
				t.Errorf("rpc from the Secret: the row holds another URL %q", row.RPCURL)
			}
			cond := readyOf(t, c, chain)
			if cond == nil || cond.Reason != v1alpha1.ReasonValid {
				t.Fatalf("%s: Ready = %+v, want Valid (the chain is served, without the endpoint)", as, cond)
			}
			refused := strings.Contains(cond.Message, "does not hold an https (or loopback http) URL")
			if refused == served {
				t.Errorf("%s: Ready message %q; want the refusal named: %v", as, cond.Message, !served)
			}
			if strings.Contains(cond.Message, "s3cr3t") {
				t.Errorf("%s: Ready message quotes the URL: %q", as, cond.Message)
			}
		}
	},
	Entry("https", "https://rpc.example.com/v1/s3cr3t", true),
	Entry("loopback http", "http://127.0.0.1:8545/s3cr3t", true),
	Entry("plain http", "http://rpc.example.com/v1/s3cr3t", false),
	Entry("plain http to a private address", "http://10.0.0.7:8545/s3cr3t", false),
)
