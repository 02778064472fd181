package watcher

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// DefaultSubmissionTimeout bounds the node lookup of a reported hash, on the request path.
const DefaultSubmissionTimeout = 2 * time.Second

// Submissions checks a transaction hash a client reports for its intent (POST
// /v2/transfers/{id}/submission) against the chain and records it: the transaction must be the
// intent's exact transaction, sent by its from. The watcher then follows its receipt. Its
// refusals are *intent.Problem values. It is safe for concurrent use and runs on every replica.
type Submissions struct {
	Chains *registry.ChainTable
	Writer *intentstatus.Writer
	// Index refuses a transaction another intent holds already; nil skips that check.
	Index *Index
	// Timeout bounds the node lookup; DefaultSubmissionTimeout when zero.
	Timeout time.Duration

	// RPCMetrics receives the round trips to the nodes; nil records none.
	RPCMetrics *jsonrpc.Metrics

	once  sync.Once
	nodes *jsonrpc.Pool
}

// SubmissionCaller names the submission check's round trips in the jsonrpc metrics.
const SubmissionCaller = "submission"

// Submit records hash as the transaction of ti (the caller's own intent, read from the cache).
// It is idempotent: reporting the hash the intent already follows changes nothing.
func (s *Submissions) Submit(ctx context.Context, ti *v1alpha1.TransferIntent, hash common.Hash) (*v1alpha1.TransferIntent, error) {
	phase := intentstatus.Phase(ti)
	if ti.Status.Hash != "" && common.HexToHash(ti.Status.Hash) == hash {
		return ti, nil // already followed
	}
	if phase != v1alpha1.IntentPhasePending {
		detail := fmt.Sprintf("The intent is %s", phase)
		if ti.Status.Hash != "" {
			detail += " with transaction " + ti.Status.Hash
		}
		return nil, &intent.Problem{Kind: intent.KindConflict, Detail: detail + "; only a pending intent takes a transaction hash.",
			Details: map[string]any{"status": string(phase)}}
	}
	chain, ok := s.Chains.Get(ti.Spec.FromChain)
	if !ok || chain.RPCURL == "" || chain.NumericID == nil || ti.Spec.Tx == nil {
		return nil, &intent.Problem{Kind: intent.KindValidationFailed, Field: "hash",
			Detail: fmt.Sprintf("the service follows no node of %s, so it cannot check transactions there", ti.Spec.FromChain)}
	}
	if s.Index != nil {
		if holder := s.Index.HeldBy(hash); holder != "" && holder != ti.Name {
			return nil, &intent.Problem{Kind: intent.KindValidationFailed, Field: "hash",
				Detail: fmt.Sprintf("transaction %s already executes another intent", hash.Hex())}
		}
	}
	found, err := s.lookup(ctx, chain, hash)
	if err != nil {
		return nil, err
	}
	if diffs := differences(ti, chain, found.Tx); len(diffs) > 0 {
		return nil, &intent.Problem{Kind: intent.KindValidationFailed, Field: "hash",
			Detail:  fmt.Sprintf("transaction %s is not this intent's transaction: its %s differ", hash.Hex(), strings.Join(diffs, ", ")),
			Details: map[string]any{"differs": diffs}}
	}
	if err := s.minedAfterCreation(ctx, chain, ti, found); err != nil {
		return nil, err
	}
	obs := intentstatus.Observation{Event: intent.EventSubmit, Hash: hash, Block: found.Block, BlockHash: found.BlockHash, Reason: v1alpha1.ReasonBroadcast,
		Message: fmt.Sprintf("the client reported transaction %s; waiting for it in a block", hash.Hex())}
	if found.Block > 0 {
		obs.Reason = v1alpha1.ReasonIncluded
		obs.Message = fmt.Sprintf("the client reported transaction %s, in block %d (%s); final at %d confirmations",
			hash.Hex(), found.Block, found.BlockHash.Hex(), confirmations(chain))
	}
	written, changed, err := s.Writer.Apply(ctx, client.ObjectKeyFromObject(ti), obs)
	if err != nil {
		return nil, err
	}
	if !changed && (written.Status.Hash == "" || common.HexToHash(written.Status.Hash) != hash) {
		// Another writer moved the intent first (the watcher matched another transaction, or it expired).
		return nil, &intent.Problem{Kind: intent.KindConflict, Detail: fmt.Sprintf("The intent is now %s; only a pending intent takes a transaction hash.", intentstatus.Phase(written)),
			Details: map[string]any{"status": string(intentstatus.Phase(written))}}
	}
	return written, nil
}

// lookup fetches the transaction from the chain's node within the timeout.
func (s *Submissions) lookup(ctx context.Context, chain registry.Chain, hash common.Hash) (jsonrpc.Transaction, error) {
	s.once.Do(func() {
		timeout := s.Timeout
		if timeout <= 0 {
			timeout = DefaultSubmissionTimeout
		}
		// No breaker: a client that reports a hash retries by itself on a 503.
		s.nodes = jsonrpc.NewPool(jsonrpc.Options{Caller: SubmissionCaller, Timeout: timeout, Metrics: s.RPCMetrics})
	})
	node, err := s.nodes.Client(ctx, chain.ID, chain.RPCURL)
	if err == nil {
		var found jsonrpc.Transaction
		found, err = node.TransactionByHash(ctx, hash)
		if err == nil {
			return found, nil
		}
	}
	if errors.Is(err, jsonrpc.ErrNotFound) {
		return jsonrpc.Transaction{}, &intent.Problem{Kind: intent.KindValidationFailed, Field: "hash",
			Detail: fmt.Sprintf("the node of %s knows no transaction %s; send it first, or retry once it has reached the network", chain.ID, hash.Hex())}
	}
	return jsonrpc.Transaction{}, &intent.Problem{Kind: intent.KindUnavailable,
		Detail: fmt.Sprintf("the node of %s did not answer in time; retry later", chain.ID)}
}

// minedAfterCreation refuses a transaction mined before the intent existed: the same transfer
// (same from, to, value and data) paid an earlier intent, which may have left the index (archived),
// so the index cannot tell that it is taken. The chain watcher's matching applies the same bound.
func (s *Submissions) minedAfterCreation(ctx context.Context, chain registry.Chain, ti *v1alpha1.TransferIntent, found jsonrpc.Transaction) error {
	if found.Block == 0 {
		return nil // not mined yet: it cannot be older than the intent
	}
	node, err := s.nodes.Client(ctx, chain.ID, chain.RPCURL)
	var header jsonrpc.Header
	if err == nil {
		header, err = node.HeaderByNumber(ctx, found.Block)
	}
	if err != nil {
		return &intent.Problem{Kind: intent.KindUnavailable, Detail: fmt.Sprintf("the node of %s did not answer in time; retry later", chain.ID)}
	}
	if header.Time.Before(ti.CreationTimestamp.Add(-createdSkew)) {
		return &intent.Problem{Kind: intent.KindValidationFailed, Field: "hash",
			Detail: fmt.Sprintf("transaction %s was mined at %s, before this intent was created: it paid something else",
				found.Tx.Hash().Hex(), header.Time.UTC().Format(time.RFC3339))}
	}
	return nil
}

// differences names what of tx differs from the intent's transaction: its chain id, recipient
// (to), value, calldata (data) or sender (from).
func differences(ti *v1alpha1.TransferIntent, chain registry.Chain, tx *types.Transaction) []string {
	want := ti.Spec.Tx
	var diffs []string
	if tx.ChainId() != nil && tx.ChainId().Sign() != 0 && tx.ChainId().Cmp(chain.NumericID) != 0 {
		diffs = append(diffs, "chainId")
	}
	if tx.To() == nil || !common.IsHexAddress(want.To) || *tx.To() != common.HexToAddress(want.To) {
		diffs = append(diffs, "to")
	}
	if value, ok := new(big.Int).SetString(want.Value, 10); !ok || value.Cmp(tx.Value()) != 0 {
		diffs = append(diffs, "value")
	}
	if data, err := hexutil.Decode(normaliseHex(want.Data)); err != nil || !slices.Equal(data, tx.Data()) {
		diffs = append(diffs, "data")
	}
	from, okFrom := fromAddress(ti)
	sender, err := types.Sender(types.LatestSignerForChainID(chain.NumericID), tx)
	if !okFrom || err != nil || sender != from {
		diffs = append(diffs, "from")
	}
	return diffs
}
