package apiserver

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// queryParameters are the query parameters each /v2 operation takes (the OpenAPI document's);
// an operation not listed takes none.
var queryParameters = map[string][]string{
	"GET /v2/tokens":    {"chain-id", "limit", "cursor"},
	"GET /v2/transfers": {"type", "status", "hash", "orderId", "from", "createdAfter", "createdBefore", "limit", "cursor"},
	"GET /v2/orders":    {"status", "chainId", "token", "limit", "cursor"},
	"GET /v2/events":    {"type", "transferId", "createdAfter", "createdBefore", "limit", "cursor"},
}

// maxEchoedName bounds how much of a parameter name a problem quotes.
const maxEchoedName = 40

// strictQuery refuses, with a 400 naming the parameter, a query string that net/url would
// silently drop part of (a ';' separator, a bad %-escape) and a parameter the operation does not
// take: a client must not believe a filter was applied when it was ignored.
func (s *Server) strictQuery(pattern string, next http.Handler) http.Handler {
	allowed := queryParameters[pattern]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := r.URL.RawQuery
		if raw == "" {
			next.ServeHTTP(w, r)
			return
		}
		if name, ok := malformedParameter(raw); ok {
			s.problems.Write(w, r, problem.BadRequest, "The query string is malformed at parameter "+quoteName(name)+
				": separate parameters with & and escape with %XX.", problem.Details{"parameter": shortName(name)})
			return
		}
		q, _ := url.ParseQuery(raw) // checked above
		for name := range q {
			if !slices.Contains(allowed, name) {
				takes := "no query parameters"
				if len(allowed) > 0 {
					takes = "only " + strings.Join(allowed, ", ")
				}
				s.problems.Write(w, r, problem.BadRequest, "Unknown query parameter "+quoteName(name)+"; this operation takes "+takes+".",
					problem.Details{"parameter": shortName(name)})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// malformedParameter returns the name of the first parameter net/url cannot parse exactly.
func malformedParameter(raw string) (string, bool) {
	for piece := range strings.SplitSeq(raw, "&") {
		key, value, _ := strings.Cut(piece, "=")
		name, keyErr := url.QueryUnescape(key)
		if keyErr != nil {
			name = key
		}
		if _, valueErr := url.QueryUnescape(value); keyErr != nil || valueErr != nil || strings.Contains(piece, ";") {
			name, _, _ = strings.Cut(name, ";")
			return name, true
		}
	}
	return "", false
}

func shortName(name string) string {
	if len(name) > maxEchoedName {
		return name[:maxEchoedName]
	}
	return name
}

// quoteName quotes a short, escaped excerpt of a client's parameter name.
func quoteName(name string) string {
	q := strings.Trim(strconv.Quote(shortName(name)), `"`)
	if len(name) > maxEchoedName {
		q += "…"
	}
	return `"` + q + `"`
}
