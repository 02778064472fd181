package watcher

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"maps"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// A transaction that reverted out of gas used its whole limit (an exceptional halt keeps every
// unit); one that reverted by itself returned the rest.
func TestRevertedCode(t *testing.T) {
	for _, tc := range []struct {
		limit, used uint64
		want        v1alpha1.FailureCode
	}{
		{25_000, 25_000, v1alpha1.FailureOutOfGas},
		{200_000, 23_912, v1alpha1.FailureReverted},
		{200_000, 199_999, v1alpha1.FailureReverted},
		{0, 0, v1alpha1.FailureReverted}, // a node that gave no limit proves nothing
	} {
		if got := revertedCode(tc.limit, tc.used); got != tc.want {
			t.Errorf("limit %d, used %d: %s; want %s", tc.limit, tc.used, got, tc.want)
		}
	}
}

// On a real (simulated) chain, an ERC-20 transfer of more than the sender holds (or from an
// account that holds none of the token) fails its intent with code insufficient_balance and the
// token's ERC20InsufficientBalance with its balance and needed amounts, in the status and the
// record; a transfer the sender can pay, sent with too little gas for its storage writes, fails
// with out_of_gas.
func TestARevertedTransactionFailsItsIntentWithItsCode(t *testing.T) {
	dev, f, x, kube := newLateFixture(t)
	token := dev.DeployTestToken(t, "Test USD", "TUSD", 6)
	holder, empty := newKey(t), newKey(t)
	dev.SendValue(t, crypto.PubkeyToAddress(holder.PublicKey), big.NewInt(1e18))
	dev.SendValue(t, crypto.PubkeyToAddress(empty.PublicKey), big.NewInt(1e18)) // gas, no tokens
	dev.Mint(t, token, crypto.PubkeyToAddress(holder.PublicKey), big.NewInt(1_000_000))
	node := dev.Backend.Client()
	for i, tc := range []struct {
		name    string
		key     *ecdsa.PrivateKey
		amount  int64
		gas     uint64
		want    v1alpha1.FailureCode
		balance string // the error's balance argument; "" for no decoded error
	}{
		{"a transfer above the balance", holder, 2_000_000, 200_000, v1alpha1.FailureInsufficientBalance, "1000000"},
		{"a transfer from an account without balance", empty, 900_000, 200_000, v1alpha1.FailureInsufficientBalance, "0"},
		{"a transfer with too little gas", holder, 1, 25_000, v1alpha1.FailureOutOfGas, ""},
	} {
		key := tc.key
		from := crypto.PubkeyToAddress(key.PublicKey)
		t.Run(tc.name, func(t *testing.T) {
			data := contracts.NewTestToken().PackTransfer(common.Address{0x22, byte(i)}, big.NewInt(tc.amount))
			ti := pendingIntent(i, key, data)
			ti.Namespace, ti.ResourceVersion = "default", ""
			ti.Spec.Tx.To = token.Hex()
			if err := kube.Create(t.Context(), ti); err != nil {
				t.Fatal(err)
			}
			x.Upsert(intentNamed(t, kube, ti.Name))
			nonce, err := node.PendingNonceAt(context.Background(), from)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(testChainID)), &types.DynamicFeeTx{
				ChainID: big.NewInt(testChainID), Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
				Gas: tc.gas, To: &token, Value: new(big.Int), Data: data,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := node.SendTransaction(context.Background(), tx); err != nil {
				t.Fatal(err)
			}
			var got *v1alpha1.TransferIntent
			for range 6 {
				dev.Backend.Commit()
				stepOnce(t, f)
				if got = intentNamed(t, kube, ti.Name); got.Status.Phase == v1alpha1.IntentPhaseFailed {
					break
				}
			}
			c := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionTransaction)
			if got.Status.Phase != v1alpha1.IntentPhaseFailed || got.Status.FailureCode != tc.want || c == nil || c.Reason != v1alpha1.ReasonReverted {
				t.Fatalf("%s with code %q, condition %+v; want failed, %s, Reverted", got.Status.Phase, got.Status.FailureCode, c, tc.want)
			}
			if got.Status.Hash != tx.Hash().Hex() {
				t.Errorf("failed with hash %s; want %s", got.Status.Hash, tx.Hash().Hex())
			}
			if tc.balance != "" {
				rec, _ := json.Marshal(transferrecord.Of(got, nil, time.Now()))
				var shown struct {
					Failure struct {
						Code  string `json:"code"`
						Error struct {
							Name string            `json:"name"`
							Args map[string]string `json:"args"`
						} `json:"error"`
					} `json:"failure"`
				}
				if err := json.Unmarshal(rec, &shown); err != nil {
					t.Fatal(err)
				}
				e := shown.Failure.Error
				want := map[string]string{"sender": from.Hex(), "balance": tc.balance, "needed": big.NewInt(tc.amount).String()}
				if shown.Failure.Code != string(tc.want) || e.Name != "ERC20InsufficientBalance" || !maps.Equal(e.Args, want) {
					t.Fatalf("record failure %s; want %s, ERC20InsufficientBalance %v", rec, tc.want, want)
				}
				if !strings.Contains(c.Message, "ERC20InsufficientBalance(sender: "+from.Hex()+", balance: "+tc.balance) {
					t.Errorf("message %q does not name the error", c.Message)
				}
			} else if got.Status.FailureError != nil {
				t.Errorf("failure error %+v for a transaction out of gas", got.Status.FailureError)
			}
			t.Logf("%s: %s", tc.want, c.Message)
		})
	}
}
