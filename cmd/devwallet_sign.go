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

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

const devwalletSignUsage = `Usage: manager devwallet sign [flags] INTENT_ID

Signs a gasless intent as its user's wallet would: reads the intent from the API
(GET /v2/transfers/{id}), rebuilds the Permit2 PermitWitnessTransferFrom of its order (Permit2 of
--permit2 as verifying contract, the order's settlement contract as spender, its input amount, the
order as witness) and refuses unless the served gasless.typedData is exactly that, checks that the
key is the order's user, signs with EIP-712, posts the signature on
POST /v2/transfers/{id}/signature and prints it. Plain http goes to loopback only. A filler then opens the order with openFor and
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
	permit2 := fs.String("permit2", contracts.CanonicalPermit2.Hex(), "The Permit2 contract the signature may be for (the typed data's verifying contract).")
	settler := fs.String("settlement", "", "When set, the settlement contract the order must name as its origin settler (the Permit2 spender).")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *apiKey == "" {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !common.IsHexAddress(*permit2) || (*settler != "" && !common.IsHexAddress(*settler)) {
		fmt.Fprintln(stderr, "devwallet: --permit2 and --settlement must be 0x addresses")
		return 2
	}
	trust := signTrust{permit2: common.HexToAddress(*permit2)}
	if *settler != "" {
		trust.settlement = common.HexToAddress(*settler)
	}
	sig, err := devwalletSign(ctx, devwalletSettings{api: *api, apiKey: *apiKey, key: *keyHex}, trust, *printOnly, fs.Arg(0))
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
		Permit2   string                   `json:"permit2"`
		Order     transferrecord.OrderJSON `json:"order"`
		TypedData json.RawMessage          `json:"typedData"`
	} `json:"gasless"`
}

// signTrust is what the wallet knows without asking the server: the Permit2 a signature may be
// for, and (when given) the settlement contract that may spend it.
type signTrust struct {
	permit2, settlement common.Address
}

// devwalletSign fetches the intent, rebuilds its typed data from its order, checks that the
// served typed data is exactly that, signs it and, unless printOnly, posts the signature.
func devwalletSign(ctx context.Context, s devwalletSettings, trust signTrust, printOnly bool, id string) ([]byte, error) {
	var rec gaslessRecord
	if err := apiCall(ctx, s, http.MethodGet, "/v2/transfers/"+id, nil, &rec); err != nil {
		return nil, err
	}
	if rec.Gasless == nil || len(rec.Gasless.TypedData) == 0 {
		return nil, fmt.Errorf("intent %s is not gasless (execution %q): sign its tx with devwallet send", id, rec.Execution)
	}
	var served apitypes.TypedData
	if err := json.Unmarshal(rec.Gasless.TypedData, &served); err != nil {
		return nil, fmt.Errorf("gasless.typedData: %w", err)
	}
	chainID := (*big.Int)(served.Domain.ChainId)
	if chainID == nil || !chainID.IsInt64() {
		return nil, errors.New("gasless.typedData's domain has no chain id")
	}
	key, err := gaslessKey(s.key, chainID.Int64())
	if err != nil {
		return nil, err
	}
	if err := checkUser(crypto.PubkeyToAddress(key.PublicKey), rec.Gasless.Order.User, served); err != nil {
		return nil, err
	}
	typed, err := rebuildTypedData(rec.Gasless.Order, rec.Gasless.Permit2, served, trust)
	if err != nil {
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

// rebuildTypedData is the typed data the wallet signs, rebuilt from the record's order with the
// service's own builder (settlement.PermitTypedData), never taken from the server as sent: the
// ERC-7683 envelope must be the one its orderData makes (settlement.Gasless), the verifying
// contract the trusted Permit2, the spender the order's origin settler (the one of --settlement
// when given), the amount and the witness the order's; and the served typed data must hash to the
// same digest, or nothing is signed. Rebuilding, not comparing field by field, keeps working when
// the order gains fields.
func rebuildTypedData(rec transferrecord.OrderJSON, permit2 string, served apitypes.TypedData, trust signTrust) (apitypes.TypedData, error) {
	refuse := func(format string, args ...any) (apitypes.TypedData, error) {
		return apitypes.TypedData{}, fmt.Errorf("not signing: "+format, args...)
	}
	if !common.IsHexAddress(permit2) || common.HexToAddress(permit2) != trust.permit2 {
		return refuse("the record's Permit2 is %q, not %s (--permit2)", permit2, trust.permit2.Hex())
	}
	order, err := settlement.Decode(common.FromHex(rec.OrderData))
	if err != nil {
		return refuse("gasless.order.orderData is not an order: %v", err)
	}
	g, err := settlement.Gasless(order, uint64(rec.OpenDeadline))
	if err != nil {
		return refuse("the order: %v", err)
	}
	if want := transferrecord.OrderJSONOf(g); want != rec {
		return refuse("gasless.order is not the envelope of its orderData: served %+v, rebuilt %+v", rec, want)
	}
	if trust.settlement != (common.Address{}) && g.OriginSettler != trust.settlement {
		return refuse("the order's settlement contract is %s, not %s (--settlement)", g.OriginSettler.Hex(), trust.settlement.Hex())
	}
	typed, err := settlement.PermitTypedData(g, trust.permit2)
	if err != nil {
		return refuse("rebuilding the typed data: %v", err)
	}
	want, err := settlement.PermitDigest(typed)
	if err != nil {
		return refuse("hashing the rebuilt typed data: %v", err)
	}
	got, err := settlement.PermitDigest(served)
	if err != nil || got != want || served.PrimaryType != typed.PrimaryType {
		return refuse("gasless.typedData (%s, digest %s) is not the Permit2 transfer of the order (digest %s)", served.PrimaryType, got.Hex(), want.Hex())
	}
	return typed, nil
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
