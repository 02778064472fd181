package apiserver

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// tokenJSON is the API's TokenDefinition; metadata is null when absent.
type tokenJSON struct {
	Symbol   string  `json:"symbol"`
	ChainID  string  `json:"chainId"`
	Address  string  `json:"address"`
	Decimals int32   `json:"decimals"`
	Metadata *string `json:"metadata"`
}

// tokenList is one pre-encoded list: each token's JSON and its sort key, in served order.
type tokenList struct {
	items [][]byte
	keys  [][3]string // chain, symbol, address: the registry's order
	whole []byte      // the list as one JSON array, for the common unpaged request
	// wholeLength is whole's Content-Length header value, computed once.
	wholeLength []string
}

// tokenBodies is GET /v2/tokens pre-encoded: the whole list and one list per chain.
type tokenBodies struct {
	all     *tokenList
	byChain map[string]*tokenList
}

// tokenSnapshot keeps the encoded token lists and rebuilds them when the registry changes, so a
// request copies bytes instead of encoding JSON.
type tokenSnapshot struct {
	source  TokenSource
	current atomic.Pointer[tokenBodies]
}

var (
	emptyJSONArray = []byte("[]")
	emptyTokenList = &tokenList{whole: emptyJSONArray, wholeLength: []string{"2"}}
)

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
	all := &tokenList{}
	perChain := map[string]*tokenList{}
	for _, t := range tokens {
		item := mustJSON(tokenJSON{Symbol: t.Symbol, ChainID: t.ChainID, Address: t.Address, Decimals: t.Decimals, Metadata: t.Metadata})
		key := [3]string{t.ChainID, t.Symbol, t.Address}
		all.add(item, key)
		if perChain[t.ChainID] == nil {
			perChain[t.ChainID] = &tokenList{}
		}
		perChain[t.ChainID].add(item, key)
	}
	all.seal()
	for _, l := range perChain {
		l.seal()
	}
	ts.current.Store(&tokenBodies{all: all, byChain: perChain})
}

func (l *tokenList) add(item []byte, key [3]string) {
	l.items = append(l.items, item)
	l.keys = append(l.keys, key)
}

func (l *tokenList) seal() {
	l.whole = joinJSON(l.items)
	l.wholeLength = []string{strconv.Itoa(len(l.whole))}
}

func (ts *tokenSnapshot) list(chainID string) *tokenList {
	b := ts.current.Load()
	if chainID == "" {
		return b.all
	}
	if l, ok := b.byChain[chainID]; ok {
		return l
	}
	return emptyTokenList
}

// page returns the JSON of up to limit items after cursor, and the cursor of the next page ("" on
// the last). The cursor is a sort key, not an offset, so a token added or removed between two
// requests neither repeats nor skips another one.
func (l *tokenList) page(p pageRequest) (body []byte, next string) {
	start := 0
	if p.cursor != nil {
		after := [3]string{p.cursor[0], p.cursor[1], p.cursor[2]}
		start, _ = slices.BinarySearchFunc(l.keys, after, compareTokenKeys)
		if start < len(l.keys) && l.keys[start] == after {
			start++
		}
	}
	end := min(start+p.limit, len(l.items))
	if end < len(l.items) {
		k := l.keys[end-1]
		next = encodeCursor(k[0], k[1], k[2])
	}
	return joinJSON(l.items[start:end]), next
}

// compareTokenKeys is the registry's order of served tokens: chain, then symbol, then address.
func compareTokenKeys(a, b [3]string) int {
	return cmp.Or(registry.CompareChainIDs(a[0], b[0]), strings.Compare(a[1], b[1]), strings.Compare(a[2], b[2]))
}

func joinJSON(items [][]byte) []byte {
	if len(items) == 0 {
		return emptyJSONArray
	}
	n := 1
	for _, it := range items {
		n += len(it) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	return append(out, ']')
}

// listTokens is GET /v2/tokens with the optional chain-id filter. An unknown but well-formed chain
// is an empty list, not an error: the filter selects, it does not assert the chain exists.
// Without limit the whole list is returned, as the contract's array; with limit it is paged.
func (s *Server) listTokens(w http.ResponseWriter, r *http.Request) {
	if r.URL.RawQuery == "" { // the common request: the whole, pre-encoded list
		l := s.tokens.list("")
		writeJSONWithLength(w, http.StatusOK, l.whole, l.wholeLength)
		return
	}
	q := r.URL.Query()
	chainID := q.Get("chain-id")
	// The filter is parsed as strictly as a chain id in a request body: one spelling per chain.
	if _, present := q["chain-id"]; present && !validChainID(chainID) {
		s.problems.Write(w, r, problem.BadRequest,
			"Query parameter chain-id must be a CAIP-2 chain id such as eip155:1.", problem.Details{"parameter": "chain-id"})
		return
	}
	p, ok := s.parsePage(w, r, q, 3)
	if !ok {
		return
	}
	list := s.tokens.list(chainID)
	if p.limit == 0 && p.cursor == nil {
		writeJSONWithLength(w, http.StatusOK, list.whole, list.wholeLength)
		return
	}
	if p.limit == 0 {
		p.limit = defaultPageLimit
	}
	body, next := list.page(p)
	if next != "" {
		s.setNextLink(w, r, next)
	}
	writeJSONBytes(w, http.StatusOK, body)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain strings and numbers: cannot fail
	}
	return b
}

func itoa(n int) string { return strconv.Itoa(n) }

func validChainID(s string) bool {
	_, err := caip.ParseChainID(s)
	return err == nil
}
