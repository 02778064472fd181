package watcher

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// A transaction mined before the intent existed paid something else: an earlier identical intent
// that may have left the index (archived), so the index cannot say it is taken. Submit refuses it,
// and accepts the same transaction for an intent that existed when it was mined.
func TestSubmitRefusesATransactionMinedBeforeTheIntent(t *testing.T) {
	c := devchain.Start(t, 31337)
	recipient := common.HexToAddress("0x2222222222222222222222222222222222222222")
	wei := big.NewInt(1_000_000)
	c.SendValue(t, recipient, wei)
	block, err := c.Backend.Client().BlockByNumber(context.Background(), nil)
	if err != nil || len(block.Transactions()) != 1 {
		t.Fatalf("the payment's block: %v, %v", block, err)
	}
	paid := block.Transactions()[0]
	chains := registry.NewChainTable()
	chains.Upsert("dev", registry.Chain{ID: "eip155:31337", NumericID: big.NewInt(31337), RPCURL: c.URL, BlockTimeSeconds: 1})

	intentCreated := func(at time.Time) *v1alpha1.TransferIntent {
		id := intent.NewIntentID(at)
		name, _ := intent.ObjectNameFromID(id)
		return &v1alpha1.TransferIntent{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", CreationTimestamp: metav1.NewTime(at)},
			Spec: v1alpha1.TransferIntentSpec{
				ID: id, FromChain: "eip155:31337",
				Request: v1alpha1.TransferRequest{From: "eip155:31337:" + crypto.PubkeyToAddress(c.Funder.PublicKey).Hex()},
				Tx:      &v1alpha1.TransactionPayload{To: recipient.Hex(), Value: wei.String(), ChainID: 31337},
			},
		}
	}
	later := intentCreated(time.Unix(int64(block.Time()), 0).Add(10 * time.Minute)) //nolint:gosec // a block time
	kube := fake.NewClientBuilder().WithScheme(v1alpha1.Scheme()).WithStatusSubresource(&v1alpha1.TransferIntent{}).Build()
	s := &Submissions{Chains: chains, Writer: &intentstatus.Writer{Client: kube, APIReader: kube}}
	_, err = s.Submit(context.Background(), later, paid.Hash())
	var p *intent.Problem
	if !errors.As(err, &p) || p.Kind != intent.KindValidationFailed || !strings.Contains(p.Detail, "before this intent was created") {
		t.Fatalf("the payment of an earlier intent, reported for a later one: %v; want a validation problem", err)
	}

	earlier := intentCreated(time.Unix(int64(block.Time()), 0).Add(-10 * time.Second)) //nolint:gosec // a block time
	if err := kube.Create(context.Background(), earlier); err != nil {
		t.Fatal(err)
	}
	written, err := s.Submit(context.Background(), earlier, paid.Hash())
	if err != nil || written.Status.Phase != v1alpha1.IntentPhaseSubmitted {
		t.Fatalf("the intent that existed when it was mined: %v, %v; want submitted", written, err)
	}
}
