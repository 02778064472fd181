package intentstore

import (
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// TransferRecord is the full record of an intent (OpenAPI TransferIntent): the summary, the
// request as sent (normalised), the tx payload and the key environment.
type TransferRecord struct {
	ID           string                      `json:"id"`
	Type         v1alpha1.IntentType         `json:"type"`
	Status       v1alpha1.IntentPhase        `json:"status"`
	OrderID      string                      `json:"orderId"`
	CreatedAt    string                      `json:"createdAt"`
	UpdatedAt    string                      `json:"updatedAt"`
	Metadata     RecordMetadata              `json:"metadata"`
	ResolvedPath []v1alpha1.IntentType       `json:"resolvedPath"`
	ExpiresAt    string                      `json:"expiresAt"`
	Request      intent.Request              `json:"request"`
	Tx           v1alpha1.TransactionPayload `json:"tx"`
	Environment  v1alpha1.Environment        `json:"environment"`
	BlockNumber  int64                       `json:"blockNumber,omitempty"`
	StatusDetail string                      `json:"statusDetail,omitempty"`
	Fill         *FillRecord                 `json:"fill,omitempty"`
	RefundHash   string                      `json:"refundHash,omitempty"`
	Links        *Links                      `json:"links,omitempty"`
	// Quote is a swap's or bridge's quote as its order encodes it (the simulation's, for a
	// create with simulationId).
	Quote *intent.Quote `json:"quote,omitempty"`
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

// FillRecord is the OpenAPI Fill: where and by whom a swap or bridge was filled.
type FillRecord struct {
	ChainID     string `json:"chainId"`
	Hash        string `json:"hash"`
	BlockNumber int64  `json:"blockNumber,omitempty"`
	Filler      string `json:"filler"`
	AmountOut   string `json:"amountOut"`
}

// RecordMetadata is the OpenAPI IntentMetadata: the from-chain and the open transaction.
type RecordMetadata struct {
	ChainID string `json:"chainId"`
	Hash    string `json:"hash,omitempty"`
}

// TransferRecordOf is the record of obj that GET /v2/transfers/{id} answers and webhooks carry;
// explorer links its transactions.
func TransferRecordOf(obj *v1alpha1.TransferIntent, explorer Explorers) TransferRecord {
	sum := SummaryOf(obj)
	path := obj.Spec.ResolvedPath
	if len(path) == 0 {
		path = []v1alpha1.IntentType{obj.Spec.Type}
	}
	rec := TransferRecord{
		ID: sum.ID, Type: sum.Type, Status: sum.Status, OrderID: sum.OrderID,
		CreatedAt: formatRecordTime(sum.CreatedAt), UpdatedAt: formatRecordTime(sum.UpdatedAt),
		Metadata:     RecordMetadata{ChainID: sum.ChainID, Hash: sum.Hash},
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
		rec.Fill = &FillRecord{ChainID: f.ChainID, Hash: f.Hash, BlockNumber: f.BlockNumber, Filler: f.Filler, AmountOut: f.AmountOut}
	}
	rec.RefundHash = obj.Status.RefundHash
	if q := obj.Spec.Quote; q != nil {
		rec.Quote = &intent.Quote{AmountOut: q.AmountOut, MinAmountOut: q.MinAmountOut, SlippageBps: int(q.SlippageBps)}
	}
	rec.Links = LinksOf(&sum, explorer)
	if c := meta.FindStatusCondition(obj.Status.Conditions, v1alpha1.ConditionTransaction); c != nil {
		rec.StatusDetail = c.Message
	}
	return rec
}

func formatRecordTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
