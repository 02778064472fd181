package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

const devwalletSignUsage = `Usage: manager devwallet sign [flags] INTENT_ID

Signs a gasless intent as its user's wallet would: reads the intent from the API
(GET /v2/transfers/{id}), signs its gasless.typedData (Permit2's PermitWitnessTransferFrom, whose
witness is the order) with EIP-712, checks that the key is the order's user, posts the signature
on POST /v2/transfers/{id}/signature and prints it. A filler then opens the order with openFor and
pays its gas. With --print-only it prints the signature and posts nothing.

Without --key it signs with the well-known development account #2 (0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC),
make run's gasless wallet, whose key is public, and only on a local chain (chain id 1337, 1338 or
31337): never use it for value.

  export TIS_API_KEY=sk_test_...        # the key that created the intent
  manager devwallet sign int_transfer_01...
`

// runDevwalletSign is `devwallet sign`; it returns the process exit code.
func runDevwalletSign(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("devwallet sign", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, devwalletSignUsage); fs.PrintDefaults() }
	api := fs.String("api", "http://127.0.0.1:8080", "Base URL of the Transfer Intent Service API.")
	apiKey := fs.String("api-key", os.Getenv("TIS_API_KEY"), "API key that owns the intent (default $TIS_API_KEY).")
	keyHex := fs.String("key", "", "Hex private key to sign with (default: the public gasless development key, local chains only).")
	printOnly := fs.Bool("print-only", false, "Print the signature; do not post it.")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *apiKey == "" {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sig, err := devwalletSign(ctx, devwalletSettings{api: *api, apiKey: *apiKey, key: *keyHex}, *printOnly, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "devwallet: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, hexutil.Encode(sig))
	return 0
}

// gaslessRecord is the part of a gasless intent's record that devwallet sign reads.
type gaslessRecord struct {
	Execution string `json:"execution"`
	Gasless   *struct {
		Order struct {
			User string `json:"user"`
		} `json:"order"`
		TypedData json.RawMessage `json:"typedData"`
	} `json:"gasless"`
}

// devwalletSign fetches the intent, signs its typed data and, unless printOnly, posts the signature.
func devwalletSign(ctx context.Context, s devwalletSettings, printOnly bool, id string) ([]byte, error) {
	var rec gaslessRecord
	if err := apiCall(ctx, s, http.MethodGet, "/v2/transfers/"+id, nil, &rec); err != nil {
		return nil, err
	}
	if rec.Gasless == nil || len(rec.Gasless.TypedData) == 0 {
		return nil, fmt.Errorf("intent %s is not gasless (execution %q): sign its tx with devwallet send", id, rec.Execution)
	}
	var typed apitypes.TypedData
	if err := json.Unmarshal(rec.Gasless.TypedData, &typed); err != nil {
		return nil, fmt.Errorf("gasless.typedData: %w", err)
	}
	chainID := (*big.Int)(typed.Domain.ChainId)
	if chainID == nil || !chainID.IsInt64() {
		return nil, errors.New("gasless.typedData's domain has no chain id")
	}
	key, err := gaslessKey(s.key, chainID.Int64())
	if err != nil {
		return nil, err
	}
	if err := checkUser(crypto.PubkeyToAddress(key.PublicKey), rec.Gasless.Order.User, typed); err != nil {
		return nil, err
	}
	sig, err := signTyped(key, typed)
	if err != nil || printOnly {
		return sig, err
	}
	body, err := json.Marshal(map[string]string{"signature": hexutil.Encode(sig)})
	if err != nil {
		return nil, err
	}
	if err := apiCall(ctx, s, http.MethodPost, "/v2/transfers/"+id+"/signature", bytes.NewReader(body), nil); err != nil {
		return nil, fmt.Errorf("posting the signature %s: %w", hexutil.Encode(sig), err)
	}
	return sig, nil
}

// gaslessKey is the key given, or the public gasless development key on a local chain.
func gaslessKey(hexKey string, chainID int64) (*ecdsa.PrivateKey, error) {
	if hexKey == "" {
		if !localChainIDs[chainID] {
			return nil, fmt.Errorf("the public development key signs only on local chains (1337, 1338, 31337), not %d; pass --key", chainID)
		}
		hexKey = devchain.WellKnownGaslessWalletKey
	}
	return crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
}

// checkUser refuses to sign for another user than the key's: the order's user and the witness's
// of the typed data. Permit2 would refuse the signature anyway; a wallet does not sign what it
// cannot use, and the API would only answer a problem.
func checkUser(signer common.Address, orderUser string, typed apitypes.TypedData) error {
	witness, _ := typed.Message["witness"].(map[string]any)
	witnessUser, _ := witness["user"].(string)
	for _, u := range []struct{ what, user string }{
		{"gasless.order.user", orderUser}, {"the user of gasless.typedData's witness", witnessUser},
	} {
		if !common.IsHexAddress(u.user) || common.HexToAddress(u.user) != signer {
			return fmt.Errorf("%s is %q, the key is %s: not signing another user's order", u.what, u.user, signer.Hex())
		}
	}
	return nil
}

// signTyped is key's EIP-712 signature of typed, r || s || v with v in {27, 28}, as wallets'
// eth_signTypedData_v4 answers it.
func signTyped(key *ecdsa.PrivateKey, typed apitypes.TypedData) ([]byte, error) {
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		return nil, fmt.Errorf("hashing gasless.typedData: %w", err)
	}
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		return nil, err
	}
	sig[64] += 27
	return sig, nil
}
