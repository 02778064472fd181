package apiserver

import (
	"encoding/json"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
)

// transferIntentJSON is the full record of an intent (OpenAPI TransferIntent): the summary, the
// request as sent (normalised), the tx payload and the key environment.
type transferIntentJSON struct {
	ID           string                      `json:"id"`
	Type         v1alpha1.IntentType         `json:"type"`
	Status       v1alpha1.IntentPhase        `json:"status"`
	OrderID      string                      `json:"orderId"`
	CreatedAt    string                      `json:"createdAt"`
	UpdatedAt    string                      `json:"updatedAt"`
	Metadata     intentMetadataJSON          `json:"metadata"`
	ResolvedPath []v1alpha1.IntentType       `json:"resolvedPath"`
	ExpiresAt    string                      `json:"expiresAt"`
	Request      intent.Request              `json:"request"`
	Tx           v1alpha1.TransactionPayload `json:"tx"`
	Environment  v1alpha1.Environment        `json:"environment"`
	BlockNumber  int64                       `json:"blockNumber,omitempty"`
	StatusDetail string                      `json:"statusDetail,omitempty"`
	Fill         *fillJSON                   `json:"fill,omitempty"`
	RefundHash   string                      `json:"refundHash,omitempty"`
	Links        *linksJSON                  `json:"links,omitempty"`
	// Quote is a swap's or bridge's quote as its order encodes it (the simulation's, for a
	// create with simulationId).
	Quote *intent.Quote `json:"quote,omitempty"`
}

// linksJSON is the OpenAPI TransferLinks: a block explorer's page of each of the intent's
// transactions, for those that exist on a chain with an explorerUrl.
type linksJSON struct {
	Open   string `json:"open,omitempty"`
	Fill   string `json:"fill,omitempty"`
	Refund string `json:"refund,omitempty"`
}

// explorers finds a chain's explorer base URL (registry.Chain.ExplorerURL; "" for none).
type explorers func(chainID string) string

// explorerOf is the lookup of the server's catalog.
func (s *Server) explorerOf(chainID string) string {
	if s.deps.Catalog == nil {
		return ""
	}
	c, ok := s.deps.Catalog.Chain(chainID)
	if !ok {
		return ""
	}
	return c.ExplorerURL
}

// linksOf links the open (on the from-chain), the fill (on its own chain) and the refund (on the
// from-chain, where the funds were escrowed); nil when none has a link.
func linksOf(sum *intentstore.Summary, explorer explorers) *linksJSON {
	var l linksJSON
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
	if l == (linksJSON{}) {
		return nil
	}
	return &l
}

// fillJSON is the OpenAPI Fill: where and by whom a swap or bridge was filled.
type fillJSON struct {
	ChainID     string `json:"chainId"`
	Hash        string `json:"hash"`
	BlockNumber int64  `json:"blockNumber,omitempty"`
	Filler      string `json:"filler"`
	AmountOut   string `json:"amountOut"`
}

type intentMetadataJSON struct {
	ChainID string `json:"chainId"`
	Hash    string `json:"hash,omitempty"`
}

func transferRecord(obj *v1alpha1.TransferIntent, explorer explorers) transferIntentJSON {
	sum := intentstore.SummaryOf(obj)
	path := obj.Spec.ResolvedPath
	if len(path) == 0 {
		path = []v1alpha1.IntentType{obj.Spec.Type}
	}
	rec := transferIntentJSON{
		ID: sum.ID, Type: sum.Type, Status: sum.Status, OrderID: sum.OrderID,
		CreatedAt: formatTime(sum.CreatedAt), UpdatedAt: formatTime(sum.UpdatedAt),
		Metadata:     intentMetadataJSON{ChainID: sum.ChainID, Hash: sum.Hash},
		ResolvedPath: path,
		ExpiresAt:    formatTime(obj.Spec.ExpiresAt.Time),
		Request:      intentstore.RequestFromSpec(obj.Spec.Request),
		Environment:  obj.Spec.Environment,
	}
	if obj.Spec.Tx != nil {
		rec.Tx = *obj.Spec.Tx
	}
	rec.BlockNumber = obj.Status.BlockNumber
	if f := obj.Status.Fill; f != nil {
		rec.Fill = &fillJSON{ChainID: f.ChainID, Hash: f.Hash, BlockNumber: f.BlockNumber, Filler: f.Filler, AmountOut: f.AmountOut}
	}
	rec.RefundHash = obj.Status.RefundHash
	if q := obj.Spec.Quote; q != nil {
		rec.Quote = &intent.Quote{AmountOut: q.AmountOut, MinAmountOut: q.MinAmountOut, SlippageBps: int(q.SlippageBps)}
	}
	rec.Links = linksOf(&sum, explorer)
	if c := meta.FindStatusCondition(obj.Status.Conditions, v1alpha1.ConditionTransaction); c != nil {
		rec.StatusDetail = c.Message
	}
	return rec
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.writeTransferError(w, r, err)
		return
	}
	writeJSONBytes(w, status, body)
}

// appendSummaries encodes a list page (OpenAPI TransferSummary items). It writes the JSON itself:
// every string but the hash has a fixed pattern the CRD enforces, and encoding a page of 100 with
// reflection would cost more than finding it.
func appendSummaries(b []byte, items []intentstore.Summary, explorer explorers) []byte {
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		it := &items[i]
		b = append(b, `{"id":`...)
		b = appendJSONString(b, it.ID)
		b = append(b, `,"type":`...)
		b = appendJSONString(b, string(it.Type))
		b = append(b, `,"status":`...)
		b = appendJSONString(b, string(it.Status))
		b = append(b, `,"orderId":`...)
		b = appendJSONString(b, it.OrderID)
		b = append(b, `,"createdAt":"`...)
		b = it.CreatedAt.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","updatedAt":"`...)
		b = it.UpdatedAt.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","metadata":{"chainId":`...)
		b = appendJSONString(b, it.ChainID)
		if it.Hash != "" {
			b = append(b, `,"hash":`...)
			b = appendJSONString(b, it.Hash)
		}
		b = append(b, '}')
		if l := linksOf(it, explorer); l != nil {
			b = append(b, `,"links":{`...)
			sep := ""
			for _, link := range [...]struct{ name, url string }{{"open", l.Open}, {"fill", l.Fill}, {"refund", l.Refund}} {
				if link.url != "" {
					b = append(b, sep...)
					b = appendJSONString(append(appendJSONString(b, link.name), ':'), link.url)
					sep = ","
				}
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSONString quotes s for JSON; plain printable ASCII is copied, anything else goes
// through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
