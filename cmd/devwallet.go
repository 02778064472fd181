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
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

const devwalletUsage = `Usage: manager devwallet send [flags] INTENT_ID

Reads the intent from the API (GET /v2/transfers/{id}), signs its tx with a development wallet and
sends it to the chain's node, then prints the transaction hash. The chain watcher then moves the
intent to submitted and confirmed. With --report it also reports the hash on
POST /v2/transfers/{id}/submission.

Without --key it signs with the well-known development account #1 (0x70997970C51812dc3A010C7d01b50e0d17dc79C8),
whose key is public, and only on a local chain (chain id 1337, 1338 or 31337): never use it for value.

  export TIS_API_KEY=sk_test_...        # the key that created the intent
  manager devwallet send int_transfer_01...

manager devwallet sign INTENT_ID signs a gasless intent's typed data and posts the signature (see its -h).
manager devwallet price --feed ADDRESS --price USD moves a local price feed (see its -h).
`

// localChainIDs are the chain ids on which the public development key may sign.
var localChainIDs = map[int64]bool{1337: true, 1338: true, 31337: true}

// localRPC is the node of each chain `make run` starts, the default of --rpc.
var localRPC = map[int64]string{1337: "http://127.0.0.1:8545", 1338: "http://127.0.0.1:8546"}

// runDevwallet is the devwallet subcommand; it returns the process exit code.
func runDevwallet(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "price" {
		return runDevwalletPrice(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sign" {
		return runDevwalletSign(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "send" {
		fmt.Fprint(stderr, devwalletUsage)
		return 2
	}
	fs := flag.NewFlagSet("devwallet send", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, devwalletUsage); fs.PrintDefaults() }
	api := fs.String("api", "http://127.0.0.1:8080", "Base URL of the Transfer Intent Service API.")
	apiKey := fs.String("api-key", os.Getenv("TIS_API_KEY"), "API key that owns the intent (default $TIS_API_KEY).")
	rpcURL := fs.String("rpc", "", "JSON-RPC URL of the intent's chain (default: make run's node of that chain, port 8545 for 1337, 8546 for 1338).")
	keyHex := fs.String("key", "", "Hex private key to sign with (default: the public development key, local chains only).")
	report := fs.Bool("report", false, "Also report the hash on POST /v2/transfers/{id}/submission.")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *apiKey == "" {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hash, err := devwalletSend(ctx, devwalletSettings{api: *api, apiKey: *apiKey, rpc: *rpcURL, key: *keyHex, report: *report}, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "devwallet: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, hash.Hex())
	return 0
}

type devwalletSettings struct {
	api, apiKey, rpc, key string
	report                bool
}

// devwalletSend fetches the intent, signs its tx and sends it.
func devwalletSend(ctx context.Context, s devwalletSettings, id string) (common.Hash, error) {
	var rec struct {
		Request struct {
			From string `json:"from"`
		} `json:"request"`
		Tx struct {
			To      string `json:"to"`
			Data    string `json:"data"`
			Value   string `json:"value"`
			ChainID int64  `json:"chainId"`
			Gas     uint64 `json:"gas"`
		} `json:"tx"`
	}
	if err := apiCall(ctx, s, http.MethodGet, "/v2/transfers/"+id, nil, &rec); err != nil {
		return common.Hash{}, err
	}
	key, err := signingKey(s.key, rec.Tx.ChainID)
	if err != nil {
		return common.Hash{}, err
	}
	if s.rpc == "" {
		if s.rpc = localRPC[rec.Tx.ChainID]; s.rpc == "" {
			return common.Hash{}, fmt.Errorf("chain %d is not one make run starts: pass --rpc", rec.Tx.ChainID)
		}
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	if !strings.HasSuffix(strings.ToLower(rec.Request.From), strings.ToLower(from.Hex())) {
		return common.Hash{}, fmt.Errorf("the intent is from %s, the wallet is %s", rec.Request.From, from.Hex())
	}
	// Dialled through the service's node client like every other caller; transactions go through
	// go-ethereum's ethclient over it. devwallet is a local tool: its errors go to whoever gave it
	// the URL.
	rpcClient, err := jsonrpc.Dial(ctx, fmt.Sprintf("eip155:%d", rec.Tx.ChainID), s.rpc, jsonrpc.Options{Caller: "devwallet"})
	if err != nil {
		return common.Hash{}, err
	}
	node := ethclient.NewClient(rpcClient.Raw())
	defer node.Close()
	chainID, err := node.ChainID(ctx)
	if err != nil {
		return common.Hash{}, fmt.Errorf("asking the node for its chain id: %w", err)
	}
	if chainID.Int64() != rec.Tx.ChainID {
		return common.Hash{}, fmt.Errorf("the node serves chain %v, the intent's tx is for chain %d", chainID, rec.Tx.ChainID)
	}
	if err := approveOrder(ctx, node, key, chainID, rec.Tx.To, rec.Tx.Data); err != nil {
		return common.Hash{}, err
	}
	signed, err := signAndSend(ctx, node, key, chainID, rec.Tx.To, rec.Tx.Data, rec.Tx.Value, rec.Tx.Gas)
	if err != nil {
		return common.Hash{}, err
	}
	if s.report {
		body := fmt.Sprintf(`{"hash":%q}`, signed.Hash().Hex())
		if err := apiCall(ctx, s, http.MethodPost, "/v2/transfers/"+id+"/submission", strings.NewReader(body), nil); err != nil {
			return signed.Hash(), fmt.Errorf("sent %s, but reporting it failed: %w", signed.Hash().Hex(), err)
		}
	}
	return signed.Hash(), nil
}

// signAndSend signs the transaction of the payload with key and sends it.
func signAndSend(ctx context.Context, node *ethclient.Client, key *ecdsa.PrivateKey, chainID *big.Int, to, data, value string, gas uint64) (*types.Transaction, error) {
	tx, err := buildTx(ctx, node, crypto.PubkeyToAddress(key.PublicKey), chainID, to, data, value, gas)
	if err != nil {
		return nil, err
	}
	signed, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), tx)
	if err != nil {
		return nil, err
	}
	if err := node.SendTransaction(ctx, signed); err != nil {
		return nil, fmt.Errorf("sending: %w", err)
	}
	return signed, nil
}

// approveOrder lets the settlement contract pull an order's ERC-20 escrow when the wallet's
// allowance is short (what a wallet does with the simulation's approval), and waits until the
// approval is mined, so that the open that follows can be estimated. Other transactions pass.
func approveOrder(ctx context.Context, node *ethclient.Client, key *ecdsa.PrivateKey, chainID *big.Int, to, data string) error {
	order, isOrder := orderOf(data)
	if !isOrder || order.TokenIn == settlement.Native {
		return nil // nothing to approve
	}
	erc20 := contracts.NewTestToken()
	spender := common.HexToAddress(to)
	allowance, err := bind.Call(erc20.Instance(node, order.TokenIn), &bind.CallOpts{Context: ctx},
		erc20.PackAllowance(crypto.PubkeyToAddress(key.PublicKey), spender), erc20.UnpackAllowance)
	if err != nil {
		return fmt.Errorf("reading the allowance: %w", err)
	}
	if allowance.Cmp(order.AmountIn) >= 0 {
		return nil
	}
	approval, err := signAndSend(ctx, node, key, chainID, order.TokenIn.Hex(), hexutil.Encode(erc20.PackApprove(spender, order.AmountIn)), "0", 0)
	if err != nil {
		return fmt.Errorf("approving: %w", err)
	}
	receipt, err := bind.WaitMined(ctx, node, approval.Hash())
	if err != nil {
		return fmt.Errorf("waiting for the approval %s: %w", approval.Hash().Hex(), err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return fmt.Errorf("the approval %s reverted", approval.Hash().Hex())
	}
	return nil
}

// orderOf decodes the order of an open() calldata; false for any other calldata (a transfer, or
// data buildTx will refuse).
func orderOf(data string) (settlement.Order, bool) {
	calldata, err := hexutil.Decode(data)
	if err != nil {
		return settlement.Order{}, false
	}
	order, err := settlement.OrderOfOpenData(calldata)
	return order, err == nil
}

// signingKey is the key given, or the public development key on a local chain.
func signingKey(hexKey string, chainID int64) (*ecdsa.PrivateKey, error) {
	if hexKey == "" {
		if !localChainIDs[chainID] {
			return nil, fmt.Errorf("the public development key signs only on local chains (1337, 1338, 31337), not %d; pass --key", chainID)
		}
		hexKey = devchain.WellKnownWalletKey
	}
	return crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
}

// buildTx is the EIP-1559 transaction of the payload from `from`, with the node's nonce and fees.
func buildTx(ctx context.Context, node *ethclient.Client, from common.Address, chainID *big.Int, to, data, value string, gas uint64) (*types.DynamicFeeTx, error) {
	toAddr := common.HexToAddress(to)
	calldata, err := hexutil.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("tx.data: %w", err)
	}
	wei, ok := new(big.Int).SetString(value, 10)
	if !ok {
		return nil, fmt.Errorf("tx.value %q is not a decimal integer", value)
	}
	nonce, err := node.PendingNonceAt(ctx, from)
	if err != nil {
		return nil, err
	}
	tip, err := node.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, err
	}
	head, err := node.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, err
	}
	if gas == 0 {
		if gas, err = node.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &toAddr, Value: wei, Data: calldata}); err != nil {
			return nil, fmt.Errorf("estimating gas: %w", err)
		}
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	return &types.DynamicFeeTx{ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: &toAddr, Value: wei, Data: calldata}, nil
}

// apiCall calls the API with the key and decodes a 2xx JSON answer into out (when not nil).
func apiCall(ctx context.Context, s devwalletSettings, method, path string, body io.Reader, out any) error {
	if err := checkAPIURL(s.api); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(s.api, "/")+path, body)
	if err != nil {
		return err
	}
	req.Header.Set(apiserver.APIKeyHeader, s.apiKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return errors.New(method + " " + path + ": " + resp.Status + ": " + string(b))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// checkAPIURL refuses to send the API key (and to take typed data to sign) over plain http to any
// host but loopback: anyone on the path could read the key or change what is signed.
func checkAPIURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("--api %q: %w", raw, err)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return nil
		}
		return fmt.Errorf("--api %s: plain http only to loopback (127.0.0.1, ::1, localhost); use https", raw)
	}
	return fmt.Errorf("--api %s: want an http(s) URL", raw)
}
