package intent

import "fmt"

// ProblemKind says how the HTTP layer must answer a refused request. Its values are the short
// names of the contract's problem types, so the HTTP layer can map them without a second table.
type ProblemKind string

const (
	// KindBadRequest is a request that fails schema-level checks (HTTP 400 bad-request).
	KindBadRequest ProblemKind = "bad-request"
	// KindValidationFailed is a well-formed request the domain refuses (HTTP 422 validation-failed).
	KindValidationFailed ProblemKind = "validation-failed"
	// KindCurrencyError is a cross-chain request with no bridge route (HTTP 422 CurrencyError).
	KindCurrencyError ProblemKind = "CurrencyError"
	// KindConflict is a request that contradicts the resource's state (HTTP 409 conflict).
	KindConflict ProblemKind = "conflict"
	// KindUnavailable is a request a dependency (a chain's node) could not serve in time (HTTP 503
	// service-unavailable); the client may retry.
	KindUnavailable ProblemKind = "service-unavailable"
	// KindQuoteExpired is a create naming a simulation whose quote no longer holds: unknown,
	// another account's, or past its expiresAt (HTTP 422 quote-expired).
	KindQuoteExpired ProblemKind = "quote-expired"
	// KindQuoteMismatch is a create naming a simulation of another request (HTTP 422 quote-mismatch).
	KindQuoteMismatch ProblemKind = "quote-mismatch"
	// KindMinAmountOut is a create whose order would accept less than the client's minAmountOut
	// (HTTP 422 min-amount-out).
	KindMinAmountOut ProblemKind = "min-amount-out"
	// KindFeeNotAllowed is an integrator fee the Account's policy does not allow: above its
	// maxBps, on an Account without a policy, on a chain without recipients, or on a transfer
	// (HTTP 422 fee-not-allowed).
	KindFeeNotAllowed ProblemKind = "fee-not-allowed"
	// KindFeeRecipientNotAllowed is an integrator fee's recipient the policy does not list for
	// the origin chain (HTTP 422 fee-recipient-not-allowed).
	KindFeeRecipientNotAllowed ProblemKind = "fee-recipient-not-allowed"
)

// Problem is a refusal the client can act on. The HTTP layer finds it with errors.As and never
// needs to match strings.
type Problem struct {
	Kind ProblemKind
	// Field is the JSON path of the offending request field ("from", "asset.in", ...), or empty.
	Field string
	// Detail is a human-readable explanation, safe to return to the client.
	Detail string
	// Details are extra facts for the client's code (for example the required and available
	// amounts of an insufficient balance), served in the problem's details beside field.
	Details map[string]any
}

// Error prefixes the field so that log lines and test failures say where the problem is.
func (p *Problem) Error() string {
	if p.Field == "" {
		return p.Detail
	}
	return p.Field + ": " + p.Detail
}

func newProblem(kind ProblemKind, field, format string, args ...any) *Problem {
	return &Problem{Kind: kind, Field: field, Detail: fmt.Sprintf(format, args...)}
}

func badRequest(field, format string, args ...any) *Problem {
	return newProblem(KindBadRequest, field, format, args...)
}

func validationFailed(field, format string, args ...any) *Problem {
	return newProblem(KindValidationFailed, field, format, args...)
}

func currencyError(field, format string, args ...any) *Problem {
	return newProblem(KindCurrencyError, field, format, args...)
}
