package apiserver

import (
	"net/http"
	"strconv"

	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// APIKeyHeader is the only header read for the credential; a cookie never replaces it.
const APIKeyHeader = "api-key"

// requireReady answers 503 until the caches have synced: an empty key index would refuse valid
// keys, and an empty registry would serve an empty token list as if it were true.
func (s *Server) requireReady(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.ready.Load() {
			w.Header().Set("Retry-After", "1")
			s.problems.Write(w, r, problem.ServiceUnavailable, "The service is starting and has not loaded its state yet.", nil)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authGate runs before routing for every /v2 path (docs/architecture.md, the request path). Every refusal of a presented
// key has the same body, so a caller learns nothing about why a key failed.
func (s *Server) authGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values := r.Header.Values(APIKeyHeader)
		if len(values) == 0 || (len(values) == 1 && values[0] == "") {
			w.Header().Set("WWW-Authenticate", `ApiKey header="api-key"`)
			s.problems.Write(w, r, problem.MissingAPIKey, "The api-key header is required.", nil)
			return
		}
		key, ok := s.authenticate(values)
		if !ok {
			s.problems.Write(w, r, problem.InvalidAPIKey, "The API key is not valid.", nil)
			return
		}
		st := stateFrom(r.Context())
		st.key, st.authenticated = key, true
		next.ServeHTTP(w, r)
	})
}

func (s *Server) authenticate(values []string) (key registry.Key, ok bool) {
	// Two api-key headers are ambiguous: which one is the credential? Refuse rather than guess.
	if len(values) != 1 || !apikey.WellFormed(values[0]) {
		return key, false
	}
	return s.deps.Keys.Authenticate(registry.HashKey(values[0]), s.deps.Clock.Now())
}

// rateLimit admits at most the key's limit of requests in any 60 seconds and sets the IETF
// RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers) on every answer.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, _ := KeyFrom(r)
		limit := int(key.RateLimitPerMinute)
		if limit <= 0 {
			limit = registry.DefaultRateLimitPerMinute
		}
		d := s.deps.Limiter.Allow(r.Context(), key.ID, limit, s.deps.Clock.Now())
		h := w.Header()
		h["Ratelimit-Policy"] = s.policyHeader(d.Limit)
		h["Ratelimit"] = []string{rateLimitHeader(d)}
		if !d.Allowed {
			retry := ratelimit.Seconds(d.RetryAfter)
			h.Set("Retry-After", strconv.Itoa(retry))
			s.problems.Write(w, r, problem.RateLimited,
				"Rate limit of "+strconv.Itoa(d.Limit)+" requests per minute exceeded; retry after "+strconv.Itoa(retry)+" seconds.",
				nil)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// policyHeader is the RateLimit-Policy value of a limit. Keys share a handful of limits, so the
// values are built once and reused.
func (s *Server) policyHeader(limit int) []string {
	if v, ok := s.policies.Load(limit); ok {
		return v.([]string)
	}
	v := []string{`"per-key";q=` + strconv.Itoa(limit) + `;w=60`}
	s.policies.Store(limit, v)
	return v
}

// rateLimitHeader is the RateLimit value: what remains and when a slot frees, in seconds.
func rateLimitHeader(d ratelimit.Decision) string {
	var buf [48]byte
	b := append(buf[:0], `"per-key";r=`...)
	b = strconv.AppendInt(b, int64(d.Remaining), 10)
	b = append(b, ";t="...)
	b = strconv.AppendInt(b, int64(ratelimit.Seconds(d.Reset)), 10)
	return string(b)
}
