package apiserver

import (
	"net/http"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/openapi"
)

// routeUnmatched labels requests that matched no route, in metrics and logs.
const routeUnmatched = "unmatched"

// routes builds the whole handler. /v2 paths go through readiness, the auth gate and the rate
// limit before their own router, so an unknown /v2 path is 401 without a key and 404 with one.
func (s *Server) routes() http.Handler {
	v2 := http.NewServeMux()
	// The documents stay lenient, like /openapi.json: tools add cache-busting parameters.
	s.handle(v2, "GET /v2/openapi.json", openapi.Handler(s.deps.OpenAPIV2))
	s.handle(v2, "GET /v2/tokens", s.strictQuery("GET /v2/tokens", http.HandlerFunc(s.listTokens)))
	s.handle(v2, "POST /v2/webhooks/{name}/test", s.strictQuery("POST /v2/webhooks/{name}/test", http.HandlerFunc(s.testWebhook)))
	s.handle(v2, "POST /v2/webhooks/{name}/replay", s.strictQuery("POST /v2/webhooks/{name}/replay", http.HandlerFunc(s.replayWebhook)))
	s.handle(v2, "GET /v2/events", s.strictQuery("GET /v2/events", http.HandlerFunc(s.listEvents)))
	for pattern, h := range s.transferRoutes() {
		s.handle(v2, pattern, s.strictQuery(pattern, h))
	}
	for pattern, h := range s.gaslessRoutes() {
		s.handle(v2, pattern, s.strictQuery(pattern, h))
	}
	for pattern, h := range s.eventRoutes() {
		s.handle(v2, pattern, s.strictQuery(pattern, h))
	}

	root := http.NewServeMux()
	s.handle(root, "GET /health", http.HandlerFunc(s.health))
	s.handle(root, "GET /openapi.json", openapi.Handler(s.deps.OpenAPI))
	v2Chain := s.requireReady(s.nameRoute(v2, s.authGate(s.rateLimit(v2))))
	root.Handle("/v2/", v2Chain)
	if s.deps.Web != nil {
		// Sessions, sign-in and key management read the accounts, the keys and the session
		// Secret from the caches, so they wait for them like /v2.
		web := s.requireReady(s.deps.Web)
		s.handle(root, "/auth/", web)
		s.handle(root, "GET /keys", web)
		s.handle(root, "GET /intents", web)
		s.handle(root, "GET /intents/{id}", web)
		s.handle(root, "GET /webhooks", web)
		s.handle(root, "POST /webhooks", web)
		s.handle(root, "POST /webhooks/{name}/delete", web)
		s.handle(root, "GET /sign-in", web)
	}
	// /v2 is nearly all of the traffic: send it straight to its chain instead of matching it
	// against the root mux first. Paths that need cleaning (//, /./, /../) still go through the
	// root mux, which redirects them.
	return s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; strings.HasPrefix(p, "/v2/") && !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
			v2Chain.ServeHTTP(w, r)
			return
		}
		root.ServeHTTP(w, r)
	}))
}

// nameRoute lets the request's route be named even when the gate or the rate limit answers it
// before the mux runs, so that a 401 or a 429 is counted and logged under the operation it was
// meant for, not as unmatched. The name is looked up only then (record): a request that reaches
// its handler is named by handle; matching every request twice cost a few per cent of the stack.
func (s *Server) nameRoute(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stateFrom(r.Context()).routes = mux
		next.ServeHTTP(w, r)
	})
}

// SetRoute names the request's route in metrics and logs, for a handler mounted under a prefix
// (Deps.Web) that routes further itself.
func SetRoute(r *http.Request, pattern string) { stateFrom(r.Context()).route = pattern }

// handle registers h for pattern and names the route in metrics and logs by its pattern.
func (s *Server) handle(mux *http.ServeMux, pattern string, h http.Handler) {
	mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stateFrom(r.Context()).route = pattern
		h.ServeHTTP(w, r)
	}))
}

// jsonContentType is shared by every JSON response: net/http only reads header values.
var jsonContentType = []string{"application/json"}

func writeJSONBytes(w http.ResponseWriter, status int, body []byte) {
	writeJSONWithLength(w, status, body, []string{itoa(len(body))})
}

// writeJSONWithLength writes body with a Content-Length computed beforehand (pre-encoded bodies).
func writeJSONWithLength(w http.ResponseWriter, status int, body []byte, contentLength []string) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = contentLength
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
