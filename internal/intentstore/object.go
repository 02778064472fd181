package intentstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Draft is everything creation decided about a new intent.
type Draft struct {
	// ID is a fresh intent.NewIntentID.
	ID string
	// Account and APIKey name the Account and ApiKey objects of the caller.
	Account string
	APIKey  string
	// Environment is the environment of the caller's key.
	Environment registry.Environment
	Parsed      intent.Parsed
	Plan        intent.Plan
}

// NewObject builds the TransferIntent of a draft, without a namespace (the Store sets it). Its
// labels let `kubectl get -l` and server-side lists filter by account, type and status.
func NewObject(d Draft) (*v1alpha1.TransferIntent, error) {
	name, err := intent.ObjectNameFromID(d.ID)
	if err != nil {
		return nil, err
	}
	if d.Plan.Tx == nil {
		return nil, fmt.Errorf("intent %s has no transaction to store", d.ID)
	}
	req := d.Parsed.Request()
	spec := v1alpha1.TransferIntentSpec{
		ID:          d.ID,
		AccountRef:  v1alpha1.LocalObjectReference{Name: d.Account},
		Environment: v1alpha1.Environment(d.Environment),
		Type:        v1alpha1.IntentType(d.Plan.Type),
		FromChain:   d.Plan.FromChain.ID,
		ToChain:     d.Plan.ToChain.ID,
		OrderID:     d.Plan.OrderID.Hex(),
		Request: v1alpha1.TransferRequest{
			From: req.From, To: req.To, Amount: req.Amount, CallData: req.CallData,
			Asset: v1alpha1.TransferAsset{In: req.Asset.ID},
		},
		Tx: &v1alpha1.TransactionPayload{
			To: d.Plan.Tx.To, Data: d.Plan.Tx.Data, Value: d.Plan.Tx.Value, ChainID: int64(d.Plan.Tx.ChainID),
			Gas: int64(d.Plan.Tx.Gas), //nolint:gosec // a gas limit is far below 2^63
		},
		// metav1.Time is stored with second precision; the on-chain deadline is in whole seconds too.
		ExpiresAt: metav1.NewTime(d.Plan.Deadline.UTC().Truncate(time.Second)),
	}
	if d.APIKey != "" {
		spec.APIKeyRef = &v1alpha1.LocalObjectReference{Name: d.APIKey}
	}
	if req.Asset.Pair != nil {
		spec.Request.Asset = v1alpha1.TransferAsset{In: req.Asset.Pair.In, Out: req.Asset.Pair.Out}
	}
	if d.Parsed.Deadline != nil {
		t := metav1.NewTime(*d.Parsed.Deadline)
		spec.Request.Deadline = &t
	}
	if d.Parsed.SlippageBps != nil {
		v := int32(*d.Parsed.SlippageBps) //nolint:gosec // ParseRequest bounds it to MaxSlippageBps
		spec.Request.SlippageBps = &v
	}
	if req.GasOnArrival != nil {
		spec.Request.GasOnArrival = &v1alpha1.GasOnArrival{Amount: req.GasOnArrival.Amount}
	}
	if f := req.Fee; f != nil {
		spec.Request.Fee = &v1alpha1.RequestFee{Recipient: f.Recipient}
		if f.Bps != nil {
			v := int32(*f.Bps) //nolint:gosec // Prepare refuses more than the policy's maxBps (at most MaxIntegratorFeeBps)
			spec.Request.Fee.Bps = &v
		}
	}
	spec.Request.TradeType, spec.Request.MaxAmountIn = req.TradeType, req.MaxAmountIn
	if g := d.Plan.Gasless; g != nil {
		spec.Request.Execution = v1alpha1.ExecutionGasless
		spec.Gasless = &v1alpha1.GaslessTerms{Permit2: g.Permit2.Hex(), Nonce: g.Nonce.String(), OpenDeadline: metav1.NewTime(g.OpenDeadline)}
		// A gasless intent expires when its order can no longer be opened.
		spec.ExpiresAt = spec.Gasless.OpenDeadline
	}
	if q := d.Plan.Quote(); q != nil {
		spec.Quote = &v1alpha1.IntentQuote{AmountOut: q.AmountOut, MinAmountOut: q.MinAmountOut,
			SlippageBps: int32(q.SlippageBps), //nolint:gosec // at most MaxSlippageBps
			TradeType:   string(q.TradeType), AmountIn: q.AmountIn}
		if g := q.GasOnArrival; g != nil {
			spec.Quote.GasOnArrival = &v1alpha1.IntentGasOnArrival{Amount: g.Amount, Symbol: g.Symbol, Cost: g.Cost, CostSymbol: g.CostSymbol}
		}
		if f := q.IntegratorFee; f != nil {
			spec.Quote.IntegratorFee = &v1alpha1.IntentIntegratorFee{Bps: int32(f.Bps), Amount: f.Amount, Symbol: f.Symbol, Recipient: f.Recipient} //nolint:gosec // at most MaxIntegratorFeeBps
		}
	}
	spec.Auction = auctionSpec(d.Plan)
	for _, step := range d.Plan.ResolvedPath {
		spec.ResolvedPath = append(spec.ResolvedPath, v1alpha1.IntentType(step))
	}
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: v1alpha1.IntentLabels(d.Account, spec.Type)},
		Spec:       spec,
	}, nil
}

// auctionSpec is the plan's market terms as the intent stores them; nil without any.
func auctionSpec(plan intent.Plan) *v1alpha1.IntentAuction {
	a := plan.Auction()
	if a == nil {
		return nil
	}
	spec := &v1alpha1.IntentAuction{
		Type: a.Type, StartAmountOut: a.StartAmountOut,
		DecayStartAt: metav1.NewTime(a.DecayStartAt), DecayEndAt: metav1.NewTime(a.DecayEndAt),
		ExclusiveFiller: a.ExclusiveFiller, Winner: plan.Market.Winner,
		ExclusivityOverrideBps: int32(a.ExclusivityOverrideBps),                      //nolint:gosec // at most 10,000 (AuctionConfig)
		Quotes:                 int32(a.Quotes), FillersAsked: int32(a.FillersAsked), //nolint:gosec // at most the fillers of a route
	}
	if a.ExclusivityDeadline != nil {
		t := metav1.NewTime(*a.ExclusivityDeadline)
		spec.ExclusivityDeadline = &t
	}
	return spec
}

// RequestHash identifies a request by content: sha256 of its normalised form (EIP-55 addresses,
// UTC deadline), so two spellings of one request are one request.
func RequestHash(p intent.Parsed) string {
	b, err := json.Marshal(p.Request())
	if err != nil {
		// intent.Request holds strings only: Marshal cannot fail.
		panic(err)
	}
	return hashOf(b)
}

// Owner is who sees an intent: an account, in one environment. A test key and a live key of the
// same account see, list, read and idempotency-match only the intents of their own environment,
// as Stripe keeps its test and live modes apart.
type Owner struct {
	Account     string
	Environment v1alpha1.Environment
}

// OwnerOf is the owner of a stored intent.
func OwnerOf(obj *v1alpha1.TransferIntent) Owner {
	return Owner{Account: obj.Spec.AccountRef.Name, Environment: obj.Spec.Environment}
}

// key is the owner as one map key.
func (o Owner) key() string { return o.Account + "\x00" + string(o.Environment) }

// IdempotencyKeyHash scopes an Idempotency-Key to its owner: two accounts, or one account's test
// and live keys, may use the same key.
func IdempotencyKeyHash(owner Owner, key string) string {
	return hashOf([]byte(owner.Account + "\x00" + string(owner.Environment) + "\x00" + key))
}

// ClaimName is the name of the Lease that claims an idempotency key hash.
func ClaimName(keyHash string) string {
	return ClaimNamePrefix + strings.TrimPrefix(keyHash, registry.KeyHashPrefix)
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return registry.KeyHashPrefix + hex.EncodeToString(sum[:])
}
