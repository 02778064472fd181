package apiserver

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// The record of GET /v2/transfers/{id} is transferrecord's (webhooks carry it too).
type (
	transferIntentJSON = transferrecord.Record
	explorers          = transferrecord.Explorers
)

// transferRecord is obj's record now, read against the server's chain table.
func (s *Server) transferRecord(obj *v1alpha1.TransferIntent) transferIntentJSON {
	return transferrecord.Of(obj, s.chainOf, s.deps.Clock.Now())
}

// chainOf is the lookup of the server's catalog.
func (s *Server) chainOf(chainID string) (registry.Chain, bool) {
	if s.deps.Catalog == nil {
		return registry.Chain{}, false
	}
	return s.deps.Catalog.Chain(chainID)
}

// explorerOf is the explorer of the server's catalog.
func (s *Server) explorerOf(chainID string) string {
	ch, _ := s.chainOf(chainID)
	return ch.ExplorerURL
}

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
func appendSummaries(b []byte, items []transferrecord.Summary, explorer explorers) []byte {
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
		if l := transferrecord.LinksOf(it, explorer); l != nil {
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
