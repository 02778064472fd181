package apiserver

import (
	"encoding/json"
	"net/http"
)

// healthBody is GET /health's answer: ready or not, and which check fails.
type healthBody struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// health needs no key (so do /openapi.json and the probes). It is 200 when the service can answer /v2 and 503 when not,
// so a load balancer can use it as a readiness probe.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	body := healthBody{Status: "ok", Checks: map[string]string{"cache": "ok"}}
	status := http.StatusOK
	if s.deps.APIHealth != nil {
		// Reads are still served from the cache while the API server is away: degraded, not down.
		if state := s.deps.APIHealth.State(); state != "ok" {
			body.Status, body.Checks["kubernetes-api"] = "degraded", state
		} else {
			body.Checks["kubernetes-api"] = "ok"
		}
	}
	// Before the caches have synced, the dependencies' states would wait on them: not asked.
	if s.deps.Dependencies != nil && s.ready.Load() {
		for name, state := range s.deps.Dependencies(r.Context()) {
			body.Checks[name] = state
			if state != "ok" && body.Status == "ok" {
				body.Status = "degraded"
			}
		}
	}
	if !s.ready.Load() {
		body.Status, body.Checks["cache"] = "unavailable", "not synced"
		status = http.StatusServiceUnavailable
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Cache-Control", "no-store")
	writeJSONBytes(w, status, b)
}
