package watcher

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
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

// On a real (simulated) chain, an ERC-20 transfer of more than the sender holds fails its intent
// with code reverted and the token's revert reason, and a transfer the sender can pay, sent with
// too little gas for its storage writes, fails with out_of_gas.
func TestARevertedTransactionFailsItsIntentWithItsCode(t *testing.T) {
	dev, f, x, kube := newLateFixture(t)
	token := dev.DeployTestToken(t, "Test USD", "TUSD", 6)
	key := newKey(t)
	from := crypto.PubkeyToAddress(key.PublicKey)
	dev.SendValue(t, from, big.NewInt(1e18))
	dev.Mint(t, token, from, big.NewInt(1_000_000))
	node := dev.Backend.Client()
	for i, tc := range []struct {
		name   string
		amount int64
		gas    uint64
		want   v1alpha1.FailureCode
	}{
		{"a transfer above the balance", 2_000_000, 200_000, v1alpha1.FailureReverted},
		{"a transfer with too little gas", 1, 25_000, v1alpha1.FailureOutOfGas},
	} {
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
			t.Logf("%s: %s", tc.want, c.Message)
		})
	}
}
