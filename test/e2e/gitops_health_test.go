package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// `kubectl wait`, which CI scripts and people use to wait for an apply, on every kind: Ready for
// good objects; Stalled, at once and with the reason in its message, for a refused one.
var _ = Describe("kubectl wait", Ordered, func() {
	BeforeAll(func() {
		out, err := kubectl("apply", "--namespace", namespace, "-k", "config/samples")
		Expect(err).NotTo(HaveOccurred(), "kubectl apply -k config/samples:\n%s", out)
	})

	for _, resource := range []string{"chains", "tokendefinitions", "accounts", "apikeys"} {
		It("--for=condition=Ready returns for every sample of "+resource, func() {
			out, err := kubectl("wait", "--namespace", namespace, "--for=condition=Ready", "--all", resource, "--timeout=2m")
			Expect(err).NotTo(HaveOccurred(), out)
		})
	}

	It("--for=condition=Ready returns for a TransferIntent once it moved (here: expired)", func() {
		// Intents are written by the API; one applied by hand is reconciled the same way. A new,
		// pending intent has no conditions and no status.phase (they are implied until its first
		// transition): the controller labels it with its type at once, and Ready comes with its
		// expiry a few seconds on, when the status.phase field selector finds it expired.
		manifest := filepath.Join(GinkgoT().TempDir(), "intent.yaml")
		expires := time.Now().Add(5 * time.Second).UTC().Format(time.RFC3339)
		Expect(os.WriteFile(manifest, []byte(strings.ReplaceAll(`apiVersion: intents.transferintent.io/v1alpha1
kind: TransferIntent
metadata:
  name: int-transfer-01kb0000000000000000000e2e
spec:
  id: int_transfer_01KB0000000000000000000E2E
  accountRef: {name: demo}
  environment: test
  type: transfer
  fromChain: "eip155:11155111"
  toChain: "eip155:11155111"
  orderId: "0x00000000000000000000000000000000000000000000000000000000000000aa"
  request:
    from: "eip155:11155111:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    to: "eip155:11155111:0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
    asset: {in: "eip155:11155111:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"}
    amount: "1.5"
  expiresAt: EXPIRES
`, "EXPIRES", expires)), 0o600)).To(Succeed())
		out, err := kubectl("apply", "--namespace", namespace, "-f", manifest)
		Expect(err).NotTo(HaveOccurred(), out)
		out, err = kubectl("wait", "--namespace", namespace, `--for=jsonpath={.metadata.labels.intents\.transferintent\.io/type}=transfer`,
			"transferintent/int-transfer-01kb0000000000000000000e2e", "--timeout=2m")
		Expect(err).NotTo(HaveOccurred(), out)
		out, err = kubectl("wait", "--namespace", namespace, "--for=condition=Ready", "transferintent/int-transfer-01kb0000000000000000000e2e", "--timeout=2m")
		Expect(err).NotTo(HaveOccurred(), out)
		out, err = kubectl("get", "--namespace", namespace, "transferintent/int-transfer-01kb0000000000000000000e2e",
			"-o", "jsonpath={.status.phase}")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(Equal("expired"))
		out, err = kubectl("get", "--namespace", namespace, "transferintents", "--field-selector", "status.phase=expired", "-o", "name")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(ContainSubstring("int-transfer-01kb0000000000000000000e2e"))
	})

	It("--for=condition=Stalled returns at once for a refused TokenDefinition, whose message says why", func() {
		// The same chain and address as the sample ethereum-usdc, which is older: a conflict.
		manifest := filepath.Join(GinkgoT().TempDir(), "conflict.yaml")
		Expect(os.WriteFile(manifest, []byte(`apiVersion: intents.transferintent.io/v1alpha1
kind: TokenDefinition
metadata:
  name: ethereum-usdc-copy
spec:
  symbol: USDC2
  chainId: "eip155:1"
  address: "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
  decimals: 6
`), 0o600)).To(Succeed())
		out, err := kubectl("wait", "--namespace", namespace, "--for=condition=Ready", "tokendefinition/ethereum-usdc", "--timeout=2m")
		Expect(err).NotTo(HaveOccurred(), out)
		out, err = kubectl("apply", "--namespace", namespace, "-f", manifest)
		Expect(err).NotTo(HaveOccurred(), out)
		out, err = kubectl("wait", "--namespace", namespace, "--for=condition=Stalled", "tokendefinition/ethereum-usdc-copy", "--timeout=30s")
		Expect(err).NotTo(HaveOccurred(), out)
		message, err := runKubectl("get", "--namespace", namespace, "tokendefinition/ethereum-usdc-copy",
			"-o", `jsonpath={.status.conditions[?(@.type=="Stalled")].message}`)
		Expect(err).NotTo(HaveOccurred(), message)
		Expect(message).To(HavePrefix("Conflict: "))
		Expect(message).To(ContainSubstring("ethereum-usdc"))
	})
})
