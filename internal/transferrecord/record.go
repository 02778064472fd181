// Package transferrecord is the OpenAPI representation of a TransferIntent: the TransferSummary
// of GET /v2/transfers, the TransferIntent of GET /v2/transfers/{id} (which webhooks carry too),
// and their links to block explorers. The intent store, the API, the sign-in pages and the webhook
// emitter all read intents through it, so that each shows an intent the same way.
package transferrecord

import (
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Record is the full record of an intent (OpenAPI TransferIntent): the summary, the
// request as sent (normalised), the tx payload and the key environment.
type Record struct {
	ID           string                      `json:"id"`
	Type         v1alpha1.IntentType         `json:"type"`
	Status       v1alpha1.IntentPhase        `json:"status"`
	OrderID      string                      `json:"orderId"`
	CreatedAt    string                      `json:"createdAt"`
	UpdatedAt    string                      `json:"updatedAt"`
	Metadata     Metadata                    `json:"metadata"`
	ResolvedPath []v1alpha1.IntentType       `json:"resolvedPath"`
	ExpiresAt    string                      `json:"expiresAt"`
	Request      intent.Request              `json:"request"`
	Tx           v1alpha1.TransactionPayload `json:"tx"`
	Environment  v1alpha1.Environment        `json:"environment"`
	BlockNumber  int64                       `json:"blockNumber,omitempty"`
	StatusDetail string                      `json:"statusDetail,omitempty"`
	Fill         *Fill                       `json:"fill,omitempty"`
	RefundHash   string                      `json:"refundHash,omitempty"`
	// Failure is why a failed intent failed: a code and a message.
	Failure *Failure `json:"failure,omitempty"`
	// Refund is where a swap's or bridge's refund stands, with the refund transaction once the
	// contract accepts it.
	Refund *Refund `json:"refund,omitempty"`
	Links  *Links  `json:"links,omitempty"`
	// Quote is a swap's or bridge's quote as its order encodes it (the simulation's, for a
	// create with simulationId).
	Quote *intent.Quote `json:"quote,omitempty"`
	// Auction is a swap's or bridge's market terms as its order encodes them.
	Auction *intent.Auction `json:"auction,omitempty"`
	// Execution is transaction or gasless; Gasless the order a filler opens, for a gasless one.
	Execution intent.Execution `json:"execution"`
	Gasless   *Gasless         `json:"gasless,omitempty"`
	// Calls is, while the user's transaction is awaited, what they send as one EIP-5792
	// wallet_sendCalls request (callsOf).
	Calls *intent.SendCalls `json:"calls,omitempty"`
}

// Links is the OpenAPI TransferLinks: a block explorer's page of each of the intent's
// transactions, for those that exist on a chain with an explorerUrl.
type Links struct {
	Open   string `json:"open,omitempty"`
	Fill   string `json:"fill,omitempty"`
	Refund string `json:"refund,omitempty"`
}

// Explorers finds a chain's explorer base URL (registry.Chain.ExplorerURL; "" for none).
type Explorers func(chainID string) string

// Chains looks a chain of the chain table up by its CAIP-2 id (intent.Catalog's Chain): a record
// links its transactions to the chain's explorer and reads the refund terms of its settlement
// contract. A nil Chains knows no chain.
type Chains func(chainID string) (registry.Chain, bool)

// chain is the row of chainID, if Chains knows it.
func (c Chains) chain(chainID string) (registry.Chain, bool) {
	if c == nil {
		return registry.Chain{}, false
	}
	return c(chainID)
}

// explorer is the explorer of chainID, "" without one.
func (c Chains) explorer(chainID string) string {
	ch, _ := c.chain(chainID)
	return ch.ExplorerURL
}

// LinksOf links the open (on the from-chain), the fill (on its own chain) and the refund (on the
// from-chain, where the funds were escrowed); nil when none has a link.
func LinksOf(sum *Summary, explorer Explorers) *Links {
	var l Links
	link := func(chainID, hash string) string {
		if hash == "" || chainID == "" {
			return ""
		}
		if base := explorer(chainID); base != "" {
			return base + "/tx/" + hash
		}
		return ""
	}
	l.Open = link(sum.ChainID, sum.Hash)
	l.Fill = link(sum.FillChainID, sum.FillHash)
	l.Refund = link(sum.ChainID, sum.RefundHash)
	if l == (Links{}) {
		return nil
	}
	return &l
}

// Fill is the OpenAPI Fill: where and by whom a swap or bridge was filled.
type Fill struct {
	ChainID     string `json:"chainId"`
	Hash        string `json:"hash"`
	BlockNumber int64  `json:"blockNumber,omitempty"`
	Filler      string `json:"filler"`
	AmountOut   string `json:"amountOut"`
	// FillerName is the Filler resource whose payout address Filler is, when one is.
	FillerName string `json:"fillerName,omitempty"`
	// ImprovementBps is how far AmountOut is above the order's minAmountOut, in basis points
	// (rounded down); absent when the order does not read back.
	ImprovementBps *int64 `json:"improvementBps,omitempty"`
	// GasOnArrival is the native token delivered to the recipient with the fill, in display units
	// of the fill chain's native token, when the order carried a native drop: the contract takes
	// a fill only with exactly the drop as its value, so a fill is a drop delivered.
	GasOnArrival string `json:"gasOnArrival,omitempty"`
	// IntegratorFee is the integrator fee the order pays out, when it carries one.
	IntegratorFee *FeePayout `json:"integratorFee,omitempty"`
}

// FeePayout is where and when an order's integrator fee is credited to its recipient (who claims
// it from the settlement contract with claimFees): a swap's fill credits it in its own
// transaction (CreditedWith "fill", Hash the fill's), a bridge's escrow is paid out, fee
// included, by the filler's settle on the origin chain once the fill is attested (CreditedWith
// "settle"; the service does not follow that transaction). A refund credits nothing.
type FeePayout struct {
	Amount       string `json:"amount"`
	Symbol       string `json:"symbol"`
	Recipient    string `json:"recipient"`
	ChainID      string `json:"chainId"`
	CreditedWith string `json:"creditedWith"`
	Hash         string `json:"hash,omitempty"`
}

// Metadata is the OpenAPI IntentMetadata: the from-chain and the open transaction.
type Metadata struct {
	ChainID string `json:"chainId"`
	Hash    string `json:"hash,omitempty"`
}

// Of is the record of obj that GET /v2/transfers/{id} answers and webhooks carry, at now: chains
// links its transactions and tells whether the escrow of an order can be refunded yet.
func Of(obj *v1alpha1.TransferIntent, chains Chains, now time.Time) Record {
	sum := SummaryOf(obj)
	path := obj.Spec.ResolvedPath
	if len(path) == 0 {
		path = []v1alpha1.IntentType{obj.Spec.Type}
	}
	rec := Record{
		ID: sum.ID, Type: sum.Type, Status: sum.Status, OrderID: sum.OrderID,
		CreatedAt: formatRecordTime(sum.CreatedAt), UpdatedAt: formatRecordTime(sum.UpdatedAt),
		Metadata:     Metadata{ChainID: sum.ChainID, Hash: sum.Hash},
		ResolvedPath: path,
		ExpiresAt:    formatRecordTime(obj.Spec.ExpiresAt.Time),
		Request:      RequestFromSpec(obj.Spec.Request),
		Environment:  obj.Spec.Environment,
	}
	if obj.Spec.Tx != nil {
		rec.Tx = *obj.Spec.Tx
	}
	rec.BlockNumber = obj.Status.BlockNumber
	if f := obj.Status.Fill; f != nil {
		rec.Fill = &Fill{ChainID: f.ChainID, Hash: f.Hash, BlockNumber: f.BlockNumber, Filler: f.Filler, AmountOut: f.AmountOut,
			FillerName: f.FillerName, ImprovementBps: improvementBps(obj, f.AmountOut)}
	}
	rec.Auction = AuctionOf(obj.Spec)
	rec.RefundHash = obj.Status.RefundHash
	if q := obj.Spec.Quote; q != nil {
		rec.Quote = &intent.Quote{AmountOut: q.AmountOut, MinAmountOut: q.MinAmountOut, SlippageBps: int(q.SlippageBps),
			TradeType: intent.TradeType(q.TradeType), AmountIn: q.AmountIn}
		if g := q.GasOnArrival; g != nil {
			rec.Quote.GasOnArrival = &intent.GasOnArrivalQuote{Amount: g.Amount, Symbol: g.Symbol, Cost: g.Cost, CostSymbol: g.CostSymbol}
			if rec.Fill != nil {
				rec.Fill.GasOnArrival = g.Amount
			}
		}
		if f := q.IntegratorFee; f != nil {
			rec.Quote.IntegratorFee = &intent.IntegratorFeeQuote{Bps: int(f.Bps), Amount: f.Amount, Symbol: f.Symbol, Recipient: f.Recipient}
			if rec.Fill != nil {
				rec.Fill.IntegratorFee = feePayout(obj, f)
			}
		}
	}
	rec.Failure = failureOf(obj)
	origin, _ := chains.chain(obj.Spec.FromChain)
	rec.Refund = refundOf(obj, rec.Failure, origin, now)
	rec.Links = LinksOf(&sum, chains.explorer)
	rec.Execution = intent.ExecutionTransaction
	if obj.Spec.Gasless != nil {
		rec.Execution, rec.Gasless = intent.ExecutionGasless, gaslessOf(obj, sum.Status)
	}
	if c := meta.FindStatusCondition(obj.Status.Conditions, v1alpha1.ConditionTransaction); c != nil {
		rec.StatusDetail = c.Message
	}
	rec.Calls = callsOf(obj, sum.Status)
	return rec
}

func formatRecordTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Summary is what the transfer list shows of an intent (the TransferSummary of docs/architecture.md). The index
// computes it once per informer event, so a list request never touches the objects.
type Summary struct {
	ID     string
	Type   v1alpha1.IntentType
	Status v1alpha1.IntentPhase
	// OrderID is bytes32 hex.
	OrderID string
	// CreatedAt is the time in the id's ULID (millisecond precision): the list is ordered by id,
	// so createdAt agrees with the order.
	CreatedAt time.Time
	// UpdatedAt is when the status last changed, never before CreatedAt.
	UpdatedAt time.Time
	// ChainID is the CAIP-2 from-chain.
	ChainID string
	// Hash is the transaction hash, empty until submitted.
	Hash string
	// FillChainID, FillHash and RefundHash are the fill's chain and transaction and the refund's
	// transaction, empty until they happened: the list links them to the chains' explorers.
	FillChainID, FillHash string
	RefundHash            string
}

// SummaryOf summarises an intent. A new intent has no phase: it is pending (or unsigned), by
// implication (its status is written at its first transition).
func SummaryOf(obj *v1alpha1.TransferIntent) Summary {
	created := intent.IDTime(obj.Spec.ID)
	if created.IsZero() {
		created = obj.CreationTimestamp.UTC()
	}
	updated := created
	if u := obj.Status.UpdatedAt; u != nil && u.After(created) {
		updated = u.UTC()
	}
	sum := Summary{
		ID: obj.Spec.ID, Type: obj.Spec.Type, Status: obj.Phase(), OrderID: obj.Spec.OrderID,
		CreatedAt: created, UpdatedAt: updated, ChainID: obj.Spec.FromChain, Hash: obj.Status.Hash,
		RefundHash: obj.Status.RefundHash,
	}
	if f := obj.Status.Fill; f != nil {
		sum.FillChainID, sum.FillHash = f.ChainID, f.Hash
	}
	return sum
}

// RequestFromSpec is the stored request in the form the client sent it: asset is a string unless
// the request named a pair.
func RequestFromSpec(r v1alpha1.TransferRequest) intent.Request {
	out := intent.Request{From: r.From, To: r.To, Amount: r.Amount, CallData: r.CallData}
	if r.Asset.Out != "" {
		out.Asset = intent.Asset{Pair: &intent.AssetPair{In: r.Asset.In, Out: r.Asset.Out}}
	} else {
		out.Asset = intent.Asset{ID: r.Asset.In}
	}
	if r.Deadline != nil {
		out.Deadline = r.Deadline.UTC().Format(time.RFC3339)
	}
	if r.SlippageBps != nil {
		v := int(*r.SlippageBps)
		out.SlippageBps = &v
	}
	out.Execution = string(r.Execution)
	if r.GasOnArrival != nil {
		out.GasOnArrival = &intent.GasOnArrival{Amount: r.GasOnArrival.Amount}
	}
	if f := r.Fee; f != nil {
		out.Fee = &intent.RequestFee{Recipient: f.Recipient}
		if f.Bps != nil {
			bps := int(*f.Bps)
			out.Fee.Bps = &bps
		}
	}
	out.TradeType, out.MaxAmountIn = r.TradeType, r.MaxAmountIn
	return out
}

// feePayout is the fill's integrator fee line: a swap's fill credits it in its own transaction, a
// bridge's settle on the origin chain does.
func feePayout(obj *v1alpha1.TransferIntent, f *v1alpha1.IntentIntegratorFee) *FeePayout {
	out := &FeePayout{Amount: f.Amount, Symbol: f.Symbol, Recipient: f.Recipient, ChainID: obj.Spec.FromChain, CreditedWith: "settle"}
	if fill := obj.Status.Fill; fill != nil && obj.Spec.Type == v1alpha1.IntentTypeSwap {
		out.CreditedWith, out.Hash = "fill", fill.Hash
	}
	return out
}
