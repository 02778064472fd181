package apiserver

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// invalidIntentError refuses to store an intent that simulation would report as valid:false: a
// stored intent is a promise that its tx can be submitted.
type invalidIntentError struct{ reasons []string }

func (e *invalidIntentError) Error() string { return strings.Join(e.reasons, "; ") }

// writeTransferError answers a refusal of the domain or a failure of the transfer service.
func (s *Server) writeTransferError(w http.ResponseWriter, r *http.Request, err error) {
	var p *intent.Problem
	var invalid *invalidIntentError
	switch {
	case errors.As(err, &p):
		// Domain kinds are the catalogue's short names; an unknown kind is still a refusal.
		t, ok := problem.BySlug(string(p.Kind))
		if !ok {
			t = problem.ValidationFailed
		}
		var details problem.Details
		if p.Kind == intent.KindUnavailable && w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", "5")
		}
		if p.Field != "" || len(p.Details) > 0 {
			details = problem.Details{}
			for k, v := range p.Details {
				details[k] = v
			}
			if p.Field != "" {
				details["field"] = p.Field
			}
		}
		s.problems.Write(w, r, t, p.Error(), details)
	case errors.As(err, &invalid):
		s.problems.Write(w, r, problem.ValidationFailed,
			"The intent would not succeed as submitted: "+invalid.Error()+".", problem.Details{"errors": invalid.reasons})
	default:
		if r.Context().Err() != nil {
			// The client went away: nothing failed but its request.
			s.log.V(1).Info("transfer request abandoned by the client", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
		} else {
			s.log.Error(err, "transfer service failure", "correlationId", problem.CorrelationID(r.Context()))
		}
		s.problems.Write(w, r, problem.TransferServiceFailure,
			"The transfer service failed to process the request; retry later.", nil)
	}
}

// writeCreateError answers a failure of the intent store's Create: a reused or busy
// Idempotency-Key, a store that did not answer in time, or a refusal of the transfer domain.
func (s *Server) writeCreateError(w http.ResponseWriter, r *http.Request, idemKey string, err error) {
	switch {
	case errors.Is(err, intentstore.ErrIdempotencyKeyReused):
		s.problems.Write(w, r, problem.ValidationFailed,
			"The Idempotency-Key was already used with a different request body; use a new key for a new request.",
			problem.Details{"header": IdempotencyKeyHeader})
	case errors.Is(err, intentstore.ErrArchiveUnavailable):
		// Nothing was written: the key could name an archived intent, and the archive did not say.
		w.Header().Set("Retry-After", "5")
		s.problems.Write(w, r, problem.ServiceUnavailable,
			"The archive of finished intents did not answer in time, and this Idempotency-Key may name an intent there; "+
				"nothing was stored: retry after the Retry-After seconds with the same key.", nil)
	case errors.Is(err, intentstore.ErrUnavailable):
		// Bounded: the store gave up within its write timeout. The outcome is unknown, so the
		// client retries, with its Idempotency-Key to be safe.
		s.log.Info("transfer not stored: the Kubernetes API did not answer in time", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
		w.Header().Set("Retry-After", "5")
		detail := "The intent store did not answer in time; retry after the Retry-After seconds with the same Idempotency-Key."
		if idemKey == "" {
			detail = "The intent store did not answer in time, and the intent may have been stored: list your intents before " +
				"retrying, or send an Idempotency-Key so that a retry is safe."
		}
		s.problems.Write(w, r, problem.ServiceUnavailable, detail, nil)
	case errors.Is(err, intentstore.ErrIdempotencyInProgress):
		w.Header().Set("Retry-After", strconv.Itoa(ratelimit.Seconds(intentstore.RetryAfter(err))))
		s.problems.Write(w, r, problem.Conflict,
			"A request with this Idempotency-Key is still being processed; retry after the Retry-After seconds.",
			problem.Details{"header": IdempotencyKeyHeader})
	default:
		s.writeTransferError(w, r, err)
	}
}

// writeStoreUnavailable answers 503 for a read that needs a store that did not answer in time:
// the Kubernetes API, or the archive of finished intents. A list says so rather than leaving the
// finished intents out.
func (s *Server) writeStoreUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	w.Header().Set("Retry-After", "5")
	detail := "The intent store did not answer in time; retry after the Retry-After seconds."
	if errors.Is(err, intentstore.ErrArchiveUnavailable) {
		detail = "The archive of finished intents did not answer in time; retry after the Retry-After seconds."
	}
	s.log.V(1).Info("intent store unavailable", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
	s.problems.Write(w, r, problem.ServiceUnavailable, detail, nil)
}
