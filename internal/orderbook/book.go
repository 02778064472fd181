// Package orderbook is the service's side of gasless intents (ERC-7683 openFor through Permit2):
// the Permit2 nonce a new gasless intent's order gets, the user's signature checked on the origin
// chain and recorded, the cancel, and the order book that fillers read: every account's signed
// orders of one environment, fed by the TransferIntent informer on every replica.
package orderbook

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// Caller names the order book's node calls in the JSON-RPC metrics.
const Caller = "orderbook"

// DefaultTimeout bounds the node's answer to a nonce or a signature check: the client waits for
// it, so a slow node is answered with 503 rather than held.
const DefaultTimeout = 3 * time.Second

// Chains finds a chain by its CAIP-2 id (*registry.ChainTable).
type Chains interface {
	Get(caip2 string) (registry.Chain, bool)
}

// Book allocates nonces, checks and records signatures and cancels, and lists signed orders.
type Book struct {
	Chains Chains
	// Writer records a signature or a cancel with the optimistic lock (the watcher's writer, so
	// that the chain watcher learns of the signed order at once).
	Writer *intentstatus.Writer
	// Nonces hands out users' Permit2 nonces.
	Nonces *gasless.Nonces
	// Timeout bounds each node round trip; DefaultTimeout when zero.
	Timeout    time.Duration
	RPCMetrics *jsonrpc.Metrics
	// RecheckInterval is how often Start reads the wallets of the book's signed orders again
	// (reserve.go); DefaultRecheckInterval when zero.
	RecheckInterval time.Duration
	// Log notes rounds of Recheck that a node did not answer.
	Log logr.Logger

	once  sync.Once
	nodes *jsonrpc.Pool
	index index
}

// node is the origin chain's client, or a 503 problem when the chain has none.
func (b *Book) node(ctx context.Context, chainID string) (*jsonrpc.Client, registry.Chain, error) {
	b.once.Do(func() {
		timeout := b.Timeout
		if timeout <= 0 {
			timeout = DefaultTimeout
		}
		b.nodes = jsonrpc.NewPool(jsonrpc.Options{Caller: Caller, Timeout: timeout, Metrics: b.RPCMetrics})
	})
	chain, ok := b.Chains.Get(chainID)
	if !ok || chain.RPCURL == "" {
		return nil, chain, &intent.Problem{Kind: intent.KindValidationFailed,
			Detail: fmt.Sprintf("the service follows no node of %s, so it cannot check gasless orders there", chainID)}
	}
	node, err := b.nodes.Client(ctx, chain.ID, chain.RPCURL)
	if err != nil {
		return nil, chain, unavailable(chainID)
	}
	return node, chain, nil
}

func unavailable(chainID string) error {
	return &intent.Problem{Kind: intent.KindUnavailable, Detail: fmt.Sprintf("the node of %s did not answer in time; retry later", chainID)}
}

// Nonce is the order nonce of a new gasless intent of user on chainID: an unused Permit2 nonce
// when the chain can take gasless orders, else a random one (the plan then says why the intent
// cannot be gasless). A node that does not answer is a 503 problem.
func (b *Book) Nonce(ctx context.Context, chainID string, user common.Address) ([32]byte, error) {
	chain, ok := b.Chains.Get(chainID)
	if !ok || !chain.Permit2Verified || chain.NumericID == nil || !common.IsHexAddress(chain.Permit2Address) {
		return intent.NewNonce()
	}
	node, _, err := b.node(ctx, chainID)
	if err != nil {
		return [32]byte{}, err
	}
	held := func(n *big.Int) bool { return b.index.holding(chainID, user.Hex(), n) }
	n, _, err := b.Nonces.Next(ctx, node, common.HexToAddress(chain.Permit2Address), chain.NumericID, user, held)
	if err != nil {
		if ctx.Err() != nil {
			return [32]byte{}, ctx.Err()
		}
		return [32]byte{}, unavailable(chainID)
	}
	return intent.PermitNonce(n)
}

// Sign checks signature against ti's order on its origin chain (gasless.Verify: the signer, the
// nonce, the balance and allowance, an eth_call of openFor) and records it: the intent is then
// signed and offered to fillers. The same signature again answers the intent as it is; a refusal
// is a 422 problem of the refusal's own type, a phase that takes no signature a 409.
func (b *Book) Sign(ctx context.Context, ti *v1alpha1.TransferIntent, signature []byte) (*v1alpha1.TransferIntent, error) {
	sigHex := hexutil.Encode(signature)
	if ti.Status.Signature == sigHex {
		return ti, nil
	}
	phase := intentstatus.Phase(ti)
	if !intent.Takes(phase, intent.EventSign) {
		return nil, notSignable(phase)
	}
	order, permit2, err := transferrecord.GaslessOrderOf(ti)
	if err != nil {
		return nil, &intent.Problem{Kind: intent.KindConflict, Detail: "The intent is not gasless: it takes a transaction, not a signature (execution gasless at create)."}
	}
	node, _, err := b.node(ctx, ti.Spec.FromChain)
	if err != nil {
		return nil, err
	}
	f, err := fundsOf(ti, order, permit2)
	if err != nil {
		return nil, &intent.Problem{Kind: intent.ProblemKind(gasless.KindOpenReverts), Field: "signature", Detail: "the intent's order data is not an Order: " + err.Error()}
	}
	holding, err := gasless.Check(ctx, node, gasless.Signed{Order: order, Signature: signature, Permit2: permit2})
	var refusal *gasless.Refusal
	switch {
	case errors.As(err, &refusal):
		return nil, &intent.Problem{Kind: intent.ProblemKind(refusal.Kind), Field: "signature", Detail: refusal.Detail}
	case err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, unavailable(ti.Spec.FromChain)
	}
	// The wallet's outstanding orders of the token, with this one, must stay within what it holds
	// and allows Permit2 (reserve.go); the hold is given back once the order is in the book.
	outstanding, release, ok := b.index.reserve(f, holding)
	if !ok {
		return nil, exceedsFunds(f, outstanding, holding)
	}
	defer release()
	written, _, changed, err := b.Writer.Change(ctx, client.ObjectKeyFromObject(ti), func(ti *v1alpha1.TransferIntent, now metav1.Time) bool {
		return intentstatus.Sign(ti, sigHex, now)
	})
	if err != nil {
		return nil, err
	}
	if !changed && written.Status.Signature != sigHex {
		return nil, notSignable(intentstatus.Phase(written)) // another writer moved it first
	}
	b.index.upsert(written)
	return written, nil
}

func notSignable(phase v1alpha1.IntentPhase) error {
	return &intent.Problem{Kind: intent.KindConflict, Detail: fmt.Sprintf("The intent is %s; only an unsigned gasless intent takes a signature.", phase),
		Details: map[string]any{"status": string(phase)}}
}

// Cancel withdraws ti's order from the book (the soft cancel); the record then carries the hard
// cancel for its user to send. reason is the user's ("" for none), kept in the status. Cancelling
// a cancelled (or cancelling) intent answers it as it is, with the first cancel's reason.
func (b *Book) Cancel(ctx context.Context, ti *v1alpha1.TransferIntent, reason string) (*v1alpha1.TransferIntent, error) {
	if ti.Spec.Gasless == nil {
		return nil, &intent.Problem{Kind: intent.KindConflict, Detail: "The intent is not gasless: nothing the service offers can be withdrawn; a transaction intent ends when its deadline passes unsent."}
	}
	phase := intentstatus.Phase(ti)
	if phase == v1alpha1.IntentPhaseCancelling || phase == v1alpha1.IntentPhaseCancelled {
		return ti, nil
	}
	if !intent.Takes(phase, intent.EventCancel) {
		return nil, notCancellable(phase)
	}
	written, _, changed, err := b.Writer.Change(ctx, client.ObjectKeyFromObject(ti), intentstatus.CancelWithReason(reason))
	if err != nil {
		return nil, err
	}
	if p := intentstatus.Phase(written); !changed && p != v1alpha1.IntentPhaseCancelling && p != v1alpha1.IntentPhaseCancelled {
		return nil, notCancellable(p)
	}
	b.index.upsert(written)
	return written, nil
}

func notCancellable(phase v1alpha1.IntentPhase) error {
	return &intent.Problem{Kind: intent.KindConflict,
		Detail:  fmt.Sprintf("The intent is %s; only an unsigned or signed gasless intent can be cancelled (an opened order is refunded after its deadline).", phase),
		Details: map[string]any{"status": string(phase)}}
}
