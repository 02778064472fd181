package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/transferintent/transfer-intent-service/pkg/client"
)

// The README's walk-through, with the built binary and kubectl as a user runs them: a key from
// `manager keygen`, applied with kubectl, works on /v2 for tokens, simulation and creation, and a
// malformed manifest is refused by kubectl apply with messages that say what is wrong.
var _ = Describe("the README's flow", Ordered, func() {
	var key string

	BeforeAll(func() {
		// Idempotent: the samples spec may or may not have run first (containers are shuffled).
		out, err := kubectl("apply", "--namespace", namespace, "-k", "config/samples")
		Expect(err).NotTo(HaveOccurred(), "kubectl apply -k config/samples:\n%s", out)

		By("generating a key with `manager keygen` and applying its manifest with kubectl")
		cmd := exec.Command(managerBin, "keygen", "--env", "test", "--account", "demo", "--name", "e2e", "--namespace", namespace)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), "manager keygen: %s", stderr.String())
		first, manifest, ok := strings.Cut(string(stdout), "\n")
		Expect(ok).To(BeTrue())
		Expect(first).To(MatchRegexp(`^sk_test_[0-9A-Za-z]{64}$`))
		Expect(manifest).NotTo(ContainSubstring(first), "the manifest holds the key itself")
		key = first
		out, err = kubectl("apply", "-f", writeTemp("apikey.yaml", manifest))
		Expect(err).NotTo(HaveOccurred(), "kubectl apply of the keygen manifest:\n%s", out)
	})

	It("lists the sample tokens of a chain with the new key", func() {
		Eventually(func() (string, error) {
			if err := manager.Running(); err != nil {
				return "", StopTrying(err.Error())
			}
			status, body, err := api(http.MethodGet, "/v2/tokens?chain-id=eip155:11155111", key, "")
			if err != nil || status != http.StatusOK {
				return "", fmt.Errorf("GET /v2/tokens: %d %s %w", status, body, err)
			}
			return body, nil
		}).WithTimeout(readyTimeout).WithPolling(pollInterval).Should(
			ContainSubstring(`"address":"eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"`))
	})

	It("simulates and creates a transfer on a testnet, and refuses a mainnet one", func() {
		const transfer = `{"from":"eip155:11155111:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",` +
			`"to":"eip155:11155111:0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",` +
			`"asset":"eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238","amount":"10"}`
		status, body, err := api(http.MethodPost, "/v2/transfers/simulate", key, transfer)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusOK), body)
		Expect(body).To(ContainSubstring(`"valid":true`))
		// ERC-20 transfer(address,uint256) of 10 USDC (10000000 base units) to the recipient.
		Expect(body).To(ContainSubstring(`"data":"0xa9059cbb000000000000000000000000fb6916095ca1df60bb79ce92ce3ea74c37c5d3590000000000000000000000000000000000000000000000000000000000989680"`))

		status, body, err = api(http.MethodPost, "/v2/transfers", key, transfer)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusCreated), body)
		id := regexp.MustCompile(`"id":"(int_transfer_[0-9A-Z]{26})"`).FindStringSubmatch(body)
		Expect(id).To(HaveLen(2), body)
		// Listed by its type label; its Status column is blank while it is pending (implied, not
		// written), and no field selector of status.phase finds it as anything else yet.
		out, err := kubectl("get", "transferintents", "--namespace", namespace, "-l", "intents.transferintent.io/type=transfer")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(ContainSubstring(id[1]))
		out, err = kubectl("get", "transferintents", "--namespace", namespace, "--field-selector", "status.phase=expired", "-o", "name")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).NotTo(ContainSubstring(strings.ToLower(strings.ReplaceAll(id[1], "_", "-"))))

		mainnet := strings.ReplaceAll(strings.ReplaceAll(transfer, "eip155:11155111", "eip155:1"),
			"0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
		status, body, err = api(http.MethodPost, "/v2/transfers/simulate", key, mainnet)
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusForbidden), body)
		Expect(body).To(ContainSubstring(`"details":{"chainId":1,"keyEnv":"test"}`))
	})

	It("lists tokens, simulates, creates, gets and lists a transfer through the generated client (pkg/client)", func(ctx SpecContext) {
		c, err := client.NewClientWithResponses("http://"+apiAddr, client.WithAPIKey(key),
			client.WithHTTPClient(&http.Client{Timeout: 10 * time.Second}))
		Expect(err).NotTo(HaveOccurred())

		chain := client.Caip2ChainId("eip155:11155111")
		tokens, err := c.ListTokensWithResponse(ctx, &client.ListTokensParams{ChainId: &chain})
		Expect(err).NotTo(HaveOccurred())
		Expect(tokens.JSON200).NotTo(BeNil(), "%d %s", tokens.StatusCode(), tokens.Body)
		var usdc string
		for _, t := range *tokens.JSON200 {
			if t.Symbol == "USDC" {
				usdc = t.Address
			}
		}
		Expect(usdc).To(Equal("eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"))

		req := client.TransferRequest{
			From:   "eip155:11155111:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
			To:     "eip155:11155111:0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
			Amount: "2.5",
		}
		Expect(req.Asset.FromCaip10AccountId(usdc)).To(Succeed())
		sim, err := c.SimulateTransferWithResponse(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(sim.JSON200).NotTo(BeNil(), "%d %s", sim.StatusCode(), sim.Body)
		Expect(sim.JSON200.Valid).To(BeTrue())
		Expect(sim.JSON200.Tx).NotTo(BeNil())

		create := client.CreateTransferRequest{From: req.From, To: req.To, Amount: req.Amount, SimulationId: &sim.JSON200.SimulationId}
		Expect(create.Asset.FromCaip10AccountId(usdc)).To(Succeed())
		idempotencyKey := "e2e-client-" + key[len(key)-8:]
		created, err := c.CreateTransferWithResponse(ctx, &client.CreateTransferParams{IdempotencyKey: &idempotencyKey}, create)
		Expect(err).NotTo(HaveOccurred())
		Expect(created.JSON201).NotTo(BeNil(), "%d %s", created.StatusCode(), created.Body)
		Expect(created.JSON201.Status).To(Equal(client.Pending))
		Expect(created.JSON201.Tx).To(Equal(*sim.JSON200.Tx), "the created intent's transaction is the simulated one")

		got, err := c.GetTransferWithResponse(ctx, created.JSON201.Id)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.JSON200).NotTo(BeNil(), "%d %s", got.StatusCode(), got.Body)
		Expect(got.JSON200.Id).To(Equal(created.JSON201.Id))
		Expect(got.JSON200.Type).To(Equal(client.Transfer))

		list, err := c.ListTransfersWithResponse(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(list.JSON200).NotTo(BeNil(), "%d %s", list.StatusCode(), list.Body)
		ids := make([]string, 0, len(*list.JSON200))
		for _, t := range *list.JSON200 {
			ids = append(ids, t.Id)
		}
		Expect(ids).To(ContainElement(created.JSON201.Id))

		By("a problem decodes into the response's problem field")
		other := req
		other.From, other.To = "eip155:1:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "eip155:1:0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
		Expect(other.Asset.FromCaip10AccountId("eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")).To(Succeed())
		refused, err := c.SimulateTransferWithResponse(ctx, other)
		Expect(err).NotTo(HaveOccurred())
		Expect(refused.ApplicationproblemJSON403).NotTo(BeNil(), "%d %s", refused.StatusCode(), refused.Body)
		Expect(refused.ApplicationproblemJSON403.Type).To(HaveSuffix("/chain-not-allowed-for-key-environment"))
	})

	It("refuses a malformed TokenDefinition at kubectl apply, saying what is wrong", func() {
		bad := `apiVersion: intents.transferintent.io/v1alpha1
kind: TokenDefinition
metadata:
  name: bad-token
spec:
  symbol: USDC
  chainId: "eip155:01"
  address: "eip155:8453:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
  decimals: -1
`
		out, err := kubectl("apply", "--namespace", namespace, "-f", writeTemp("bad-token.yaml", bad))
		Expect(err).To(HaveOccurred(), "kubectl accepted a malformed TokenDefinition:\n%s", out)
		Expect(out).To(SatisfyAll(
			ContainSubstring("an eip155 chainId must be eip155:<decimal chain id without leading zeros>"),
			ContainSubstring("address must be a CAIP-10 account on chainId"),
			ContainSubstring("spec.decimals"),
		))
	})
})

// api calls the manager's HTTP API with an optional key and JSON body.
func api(method, path, key, body string) (int, string, error) {
	req, err := http.NewRequest(method, "http://"+apiAddr+path, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	if key != "" {
		req.Header.Set("api-key", key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// writeTemp writes content to a file in the spec's temporary directory and returns its path.
func writeTemp(name, content string) string {
	path := filepath.Join(GinkgoT().TempDir(), name)
	Expect(os.WriteFile(path, []byte(content), 0o600)).To(Succeed())
	return path
}
