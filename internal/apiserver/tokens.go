package apiserver

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"sync/atomic"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// caip2Pattern is the CAIP-2 syntax of the chain-id filter.
var caip2Pattern = regexp.MustCompile(`^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$`)

// tokenJSON is the contract's TokenDefinition (§2); metadata is null when absent.
type tokenJSON struct {
	Symbol   string  `json:"symbol"`
	ChainID  string  `json:"chainId"`
	Address  string  `json:"address"`
	Decimals int32   `json:"decimals"`
	Metadata *string `json:"metadata"`
}

// tokenBodies is GET /v2/tokens pre-encoded: the whole list and one list per chain.
type tokenBodies struct {
	all     []byte
	byChain map[string][]byte
}

// tokenSnapshot keeps the encoded token lists and rebuilds them when the registry changes, so a
// request copies bytes instead of encoding JSON.
type tokenSnapshot struct {
	source  TokenSource
	current atomic.Pointer[tokenBodies]
}

var emptyJSONArray = []byte("[]")

func newTokenSnapshot(source TokenSource) *tokenSnapshot {
	ts := &tokenSnapshot{source: source}
	if source != nil {
		source.OnChange(ts.rebuild)
	}
	ts.rebuild()
	return ts
}

func (ts *tokenSnapshot) rebuild() {
	var tokens []registry.Token
	if ts.source != nil {
		tokens = ts.source.List()
	}
	all := make([]tokenJSON, 0, len(tokens))
	perChain := map[string][]tokenJSON{}
	for _, t := range tokens {
		j := tokenJSON{Symbol: t.Symbol, ChainID: t.ChainID, Address: t.Address, Decimals: t.Decimals, Metadata: t.Metadata}
		all = append(all, j)
		perChain[t.ChainID] = append(perChain[t.ChainID], j)
	}
	bodies := &tokenBodies{all: mustJSON(all), byChain: make(map[string][]byte, len(perChain))}
	for chain, list := range perChain {
		bodies.byChain[chain] = mustJSON(list)
	}
	ts.current.Store(bodies)
}

func (ts *tokenSnapshot) body(chainID string) []byte {
	b := ts.current.Load()
	if chainID == "" {
		return b.all
	}
	if list, ok := b.byChain[chainID]; ok {
		return list
	}
	return emptyJSONArray
}

// listTokens is GET /v2/tokens with the optional chain-id filter. An unknown but well-formed chain
// is an empty list, not an error: the filter selects, it does not assert the chain exists.
func (s *Server) listTokens(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	chainID := q.Get("chain-id")
	if _, present := q["chain-id"]; present && !caip2Pattern.MatchString(chainID) {
		s.problems.Write(w, r, problem.BadRequest,
			"Query parameter chain-id must be a CAIP-2 chain id such as eip155:1.", problem.Details{"parameter": "chain-id"})
		return
	}
	writeJSONBytes(w, http.StatusOK, s.tokens.body(chainID))
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain strings and numbers: cannot fail
	}
	return b
}

func itoa(n int) string { return strconv.Itoa(n) }
