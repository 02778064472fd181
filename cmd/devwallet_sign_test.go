package main

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// gaslessIntent is the record of GET /v2/transfers/{id} of a gasless bridge of user's on chainID,
// as the API answers it, and the typed data's digest.
func gaslessIntent(t *testing.T, user common.Address, chainID int64) (map[string]any, common.Hash) {
	t.Helper()
	settler := common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")
	openDeadline := time.Now().Add(10 * time.Minute)
	o := settlement.Order{
		OriginSettler: settler, OriginChainId: big.NewInt(chainID), User: user, DestinationChainId: big.NewInt(1338),
		Recipient: user, TokenIn: common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3"),
		TokenOut: common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3"), AmountIn: big.NewInt(5_000_000),
		MinAmountOut: big.NewInt(4_990_000), Deadline: uint64(openDeadline.Add(time.Hour).Unix()), //nolint:gosec // a test time
		Nonce: [32]byte{31: 7}, DestinationSettler: settler,
	}
	g, err := settlement.Gasless(o, uint64(openDeadline.Unix())) //nolint:gosec // a test time
	if err != nil {
		t.Fatal(err)
	}
	typed, err := settlement.PermitTypedData(g, contracts.CanonicalPermit2)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := settlement.TypedDataJSON(typed)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := settlement.PermitDigest(typed)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"id": "int_transfer_01JC0000000000000000000000", "status": "awaiting_signature", "execution": "gasless",
		"gasless": map[string]any{
			"permit2": contracts.CanonicalPermit2.Hex(), "nonce": g.Nonce.String(), "openDeadline": openDeadline.UTC().Format(time.RFC3339),
			"order": map[string]any{
				"originSettler": g.OriginSettler.Hex(), "user": g.User.Hex(), "nonce": g.Nonce.String(),
				"originChainId": g.OriginChainId.String(), "openDeadline": g.OpenDeadline, "fillDeadline": g.FillDeadline,
				"orderDataType": hexutil.Encode(g.OrderDataType[:]), "orderData": hexutil.Encode(g.OrderData),
			},
			"typedData": json.RawMessage(raw),
		},
	}, digest
}

// signatureAPI answers GET /v2/transfers/{id} with rec and records the bodies of
// POST /v2/transfers/{id}/signature.
type signatureAPI struct {
	*httptest.Server
	mu    sync.Mutex
	posts []string
}

func newSignatureAPI(t *testing.T, rec map[string]any) *signatureAPI {
	t.Helper()
	api := &signatureAPI{}
	path := "/v2/transfers/" + rec["id"].(string)
	api.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("api-key") != "sk_test_owner" {
			http.Error(w, "unknown key", http.StatusUnauthorized)
			return
		}
		switch {
		case r.Method == http.MethodGet && r.URL.Path == path:
		case r.Method == http.MethodPost && r.URL.Path == path+"/signature":
			body, _ := io.ReadAll(r.Body)
			api.mu.Lock()
			api.posts = append(api.posts, string(body))
			api.mu.Unlock()
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(rec)
	}))
	t.Cleanup(api.Close)
	return api
}

func (a *signatureAPI) posted() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.posts...)
}

func sign(api *signatureAPI, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	all := append([]string{"sign", "--api", api.URL, "--api-key", "sk_test_owner"}, args...)
	code := runDevwallet(append(all, "int_transfer_01JC0000000000000000000000"), &stdout, &stderr)
	return code, strings.TrimSpace(stdout.String()), stderr.String()
}

func hexKey(key *ecdsa.PrivateKey) string { return hex.EncodeToString(crypto.FromECDSA(key)) }

// devwallet sign signs the intent's typed data with the user's key and posts the signature, or
// with --print-only only prints it; it refuses, before posting anything, to sign an order of
// another user, and to sign with the public key outside the local chains.
func TestDevwalletSignSignsTheTypedData(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	user := crypto.PubkeyToAddress(key.PublicKey)
	rec, digest := gaslessIntent(t, user, 1337)
	api := newSignatureAPI(t, rec)

	code, out, stderr := sign(api, "--key", hexKey(key))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sig, err := hexutil.Decode(out)
	if err != nil {
		t.Fatalf("printed %q: %v", out, err)
	}
	if signer, err := settlement.RecoverSigner(digest, sig); err != nil || signer != user || sig[64] < 27 {
		t.Fatalf("the signature %s recovers to %s (%v); want %s, v 27 or 28", out, signer.Hex(), err, user.Hex())
	}
	if posts := api.posted(); len(posts) != 1 || posts[0] != `{"signature":"`+out+`"}` {
		t.Fatalf("posted %q; want one {\"signature\":%q}", posts, out)
	}

	if code, again, stderr := sign(api, "--key", hexKey(key), "--print-only"); code != 0 || again != out {
		t.Errorf("--print-only: exit %d, printed %q (%s); want %q", code, again, stderr, out)
	}
	if posts := api.posted(); len(posts) != 1 {
		t.Errorf("--print-only posted: %q", posts[1:])
	}

	// The record of another user's order, and a record whose typed data is of another user's.
	other, _ := gaslessIntent(t, common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), 1337)
	mixed, _ := gaslessIntent(t, user, 1337)
	mixed["gasless"].(map[string]any)["typedData"] = other["gasless"].(map[string]any)["typedData"]
	for name, rec := range map[string]map[string]any{"another user's order": other, "another user's typed data": mixed} {
		api := newSignatureAPI(t, rec)
		if code, out, stderr := sign(api, "--key", hexKey(key)); code != 1 || out != "" || !strings.Contains(stderr, "not signing another user's order") {
			t.Errorf("%s: exit %d, printed %q, %s; want a refusal", name, code, out, stderr)
		}
		if posts := api.posted(); len(posts) != 0 {
			t.Errorf("%s: posted %q", name, posts)
		}
	}

	mainnet, _ := gaslessIntent(t, common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"), 1)
	if code, _, stderr := sign(newSignatureAPI(t, mainnet)); code != 1 || !strings.Contains(stderr, "only on local chains") {
		t.Errorf("the public key on chain 1: exit %d, %s; want a refusal", code, stderr)
	}
}

// Without --key, devwallet sign is make run's gasless wallet, development account #2.
func TestDevwalletSignDefaultsToTheGaslessWallet(t *testing.T) {
	rec, digest := gaslessIntent(t, common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"), 1338)
	code, out, stderr := sign(newSignatureAPI(t, rec), "--print-only")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if signer, err := settlement.RecoverSigner(digest, hexutil.MustDecode(out)); err != nil || signer.Hex() != "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" {
		t.Errorf("signed by %s (%v); want development account #2", signer.Hex(), err)
	}
}

// devwallet sign signs the typed data it rebuilds from the order, and only when the served typed
// data is exactly that: another spender, amount, verifying contract, primary type or witness, or
// an envelope that is not its orderData's, is refused before anything is signed or posted.
func TestDevwalletSignRebuildsTheTypedDataFromTheOrder(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	user := crypto.PubkeyToAddress(key.PublicKey)
	tamper := map[string]func(gasless, typed map[string]any){
		"another spender": func(_, typed map[string]any) {
			typed["message"].(map[string]any)["spender"] = "0x00000000000000000000000000000000000bad00"
		},
		"another amount": func(_, typed map[string]any) {
			typed["message"].(map[string]any)["permitted"].(map[string]any)["amount"] = "999999999999"
		},
		"another verifying contract": func(_, typed map[string]any) {
			typed["domain"].(map[string]any)["verifyingContract"] = "0x00000000000000000000000000000000000bad00"
		},
		"another primary type": func(_, typed map[string]any) { typed["primaryType"] = "PermitTransferFrom" },
		"another witness": func(_, typed map[string]any) {
			typed["message"].(map[string]any)["witness"].(map[string]any)["minAmountOut"] = "1"
		},
		"an envelope that is not its orderData's": func(g, _ map[string]any) {
			g["order"].(map[string]any)["fillDeadline"] = 1
		},
		"a look-alike Permit2": func(g, typed map[string]any) {
			g["permit2"] = "0x00000000000000000000000000000000000bad00"
			typed["domain"].(map[string]any)["verifyingContract"] = "0x00000000000000000000000000000000000bad00"
		},
	}
	for name, change := range tamper {
		rec, _ := gaslessIntent(t, user, 1337)
		g := rec["gasless"].(map[string]any)
		var typed map[string]any
		if err := json.Unmarshal(g["typedData"].(json.RawMessage), &typed); err != nil {
			t.Fatal(err)
		}
		change(g, typed)
		raw, err := json.Marshal(typed)
		if err != nil {
			t.Fatal(err)
		}
		g["typedData"] = json.RawMessage(raw)
		api := newSignatureAPI(t, rec)
		if code, out, stderr := sign(api, "--key", hexKey(key)); code != 1 || out != "" || !strings.Contains(stderr, "not signing") {
			t.Errorf("%s: exit %d, printed %q, %s; want a refusal", name, code, out, stderr)
		}
		if posts := api.posted(); len(posts) != 0 {
			t.Errorf("%s: posted %q", name, posts)
		}
	}

	rec, _ := gaslessIntent(t, user, 1337)
	api := newSignatureAPI(t, rec)
	if code, _, stderr := sign(api, "--key", hexKey(key), "--settlement", "0x00000000000000000000000000000000000bad00"); code != 1 ||
		!strings.Contains(stderr, "--settlement") {
		t.Errorf("an order of another settlement contract than --settlement: exit %d, %s; want a refusal", code, stderr)
	}
	if code, _, stderr := sign(api, "--key", hexKey(key), "--print-only"); code != 0 {
		t.Errorf("the untampered record: exit %d, %s", code, stderr)
	}
}

// The API key and the typed data travel over plain http only to loopback.
func TestDevwalletRefusesPlainHTTPBeyondLoopback(t *testing.T) {
	for raw, ok := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://[::1]:8080": true, "http://localhost:8080": true, "https://tis.example.com": true,
		"http://tis.example.com": false, "http://10.0.0.7:8080": false, "http://127.0.0.1.example.com": false, "ftp://127.0.0.1": false,
	} {
		if err := checkAPIURL(raw); (err == nil) != ok {
			t.Errorf("%s: %v, want allowed %v", raw, err, ok)
		}
	}
	var stdout, stderr bytes.Buffer
	code := runDevwallet([]string{"sign", "--api", "http://tis.example.com", "--api-key", "sk_test_owner", "--print-only", "int_transfer_01JC0000000000000000000000"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "plain http only to loopback") {
		t.Errorf("sign against plain http on another host: exit %d, %s", code, stderr.String())
	}
}
