package apiserver

import (
	"net/http"
)

// routeUnmatched labels requests that matched no route, in metrics and logs.
const routeUnmatched = "unmatched"

// routes builds the whole handler. /v2 paths go through readiness, the auth gate and the rate
// limit before their own router, so an unknown /v2 path is 401 without a key and 404 with one.
func (s *Server) routes() http.Handler {
	v2 := http.NewServeMux()
	s.handle(v2, "GET /v2/openapi.json", s.serveBytes(func() []byte { return s.deps.OpenAPIV2 }))
	s.handle(v2, "GET /v2/tokens", http.HandlerFunc(s.listTokens))
	// Issue-4 and issue-5 routes (/v2/transfers..., /auth/...) register here.

	root := http.NewServeMux()
	s.handle(root, "GET /health", http.HandlerFunc(s.health))
	s.handle(root, "GET /openapi.json", s.serveBytes(func() []byte { return s.deps.OpenAPI }))
	root.Handle("/v2/", s.requireReady(s.authGate(s.rateLimit(v2))))
	return s.observe(root)
}

// handle registers h for pattern and names the route in metrics and logs by its pattern.
func (s *Server) handle(mux *http.ServeMux, pattern string, h http.Handler) {
	mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stateFrom(r.Context()).route = pattern
		h.ServeHTTP(w, r)
	}))
}

// serveBytes serves a JSON document that is built once at startup.
func (s *Server) serveBytes(doc func() []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSONBytes(w, http.StatusOK, doc())
	})
}

func writeJSONBytes(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
