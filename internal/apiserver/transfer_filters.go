package apiserver

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// listStatuses are the values of the status filter, in lifecycle order.
var listStatuses = intent.StatusesAs[v1alpha1.IntentPhase]()

// transferFilter reads the filters of GET /v2/transfers (type, status, hash, orderId, from,
// createdAfter, createdBefore). Each may appear once; a bad value answers 400 naming the
// parameter, and ok is false.
func (s *Server) transferFilter(w http.ResponseWriter, r *http.Request, q url.Values) (f intentstore.Filter, ok bool) {
	bad := func(param, detail string) (intentstore.Filter, bool) {
		s.problems.Write(w, r, problem.BadRequest, detail, problem.Details{"parameter": param})
		return intentstore.Filter{}, false
	}
	one := func(name string) (string, bool, bool) {
		raw, present := q[name]
		return firstOf(raw), present, len(raw) <= 1
	}
	if v, present, single := one("type"); present {
		t, err := intent.ParseType(v)
		if err != nil || !single {
			return bad("type", "Query parameter type must be one of transfer, swap or bridge.")
		}
		f.Type = v1alpha1.IntentType(t)
	}
	if v, present, single := one("status"); present {
		statuses, valid := parseStatuses(v)
		if !valid || !single {
			return bad("status", "Query parameter status must be one or more of pending, submitted, confirmed, failed "+
				"or expired, separated by commas (status=pending,submitted), given once.")
		}
		f.Statuses = statuses
	}
	if v, present, single := one("hash"); present {
		if !isBytes32Hex(v) || !single {
			return bad("hash", "Query parameter hash must be a transaction hash: 0x followed by 64 hex digits.")
		}
		f.Hash = strings.ToLower(v)
	}
	if v, present, single := one("orderId"); present {
		if !isBytes32Hex(v) || !single {
			return bad("orderId", "Query parameter orderId must be 0x followed by 64 hex digits.")
		}
		f.OrderID = strings.ToLower(v)
	}
	if v, present, single := one("from"); present {
		account, err := caip.ParseAccountID(v)
		if err != nil || !single {
			// A mixed-case address must carry a valid EIP-55 checksum, as everywhere else; all lower
			// or all upper case is accepted, and the comparison ignores case.
			return bad("from", "Query parameter from must be a CAIP-10 account, such as eip155:1:0x…, "+
				"with a valid EIP-55 checksum when its address is in mixed case.")
		}
		f.From = account.String()
	}
	for _, bound := range []struct {
		name string
		into *time.Time
	}{{"createdAfter", &f.CreatedAfter}, {"createdBefore", &f.CreatedBefore}} {
		if v, present, single := one(bound.name); present {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil || !single {
				return bad(bound.name, "Query parameter "+bound.name+" must be an RFC 3339 timestamp, such as 2026-01-02T15:04:05Z.")
			}
			*bound.into = t.UTC()
		}
	}
	return f, true
}

func firstOf(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

// parseStatuses reads a comma-separated list of statuses; duplicates are harmless.
func parseStatuses(v string) ([]v1alpha1.IntentPhase, bool) {
	var out []v1alpha1.IntentPhase
	for part := range strings.SplitSeq(v, ",") {
		phase := v1alpha1.IntentPhase(part)
		if !slices.Contains(listStatuses, phase) {
			return nil, false
		}
		out = append(out, phase)
	}
	return out, true
}

// isBytes32Hex reports whether v is 0x followed by 64 hex digits, in either case.
func isBytes32Hex(v string) bool {
	if len(v) != 66 || v[:2] != "0x" {
		return false
	}
	for i := 2; i < len(v); i++ {
		c := v[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}
