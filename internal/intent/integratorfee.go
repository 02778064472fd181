package intent

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Integrator fees (issue 45): an Account declares in its spec what its swaps and bridges may
// charge their users on top of the service's fees (a default, a most, and per origin chain the
// addresses it may be paid to). The fee is a share of the order's input, carried by the order as
// feeAmount and feeRecipient: the settlement contract credits it to the recipient when the order
// is paid out (a bridge's settle, a swap's fill) and never on a refund, which returns the whole
// input. The user gives up the request's amount, fee included; the quote's output is what is left
// of it after the service's fees, the integrator's and the gas on arrival (docs/decisions.md,
// "Integrator fees").

// FeePolicies finds an Account's integrator fee policy (registry.Accounts): nil when it has none.
type FeePolicies interface {
	FeePolicy(account string) *registry.FeePolicy
}

// MaxIntegratorFeeBps bounds a request's fee.bps before any policy is read: 10% (the bound of
// an Account's maxBps, 0x's bound on swapFeeBps).
const MaxIntegratorFeeBps = 1000

// RequestFee is the request's fee: Bps in basis points of the amount (nil: the policy's
// default), Recipient a 0x address (empty: the policy's first on the origin chain).
type RequestFee struct {
	Bps       *int   `json:"bps,omitempty"`
	Recipient string `json:"recipient,omitempty"`
}

// IntegratorFee is an order's integrator fee: Amount (base units of the input token) credited to
// Recipient on the origin chain when the order is paid out.
type IntegratorFee struct {
	Bps       uint32
	Amount    *big.Int
	Recipient common.Address
}

// IntegratorFeeQuote is the quote's integratorFee line, apart from the service's fees.
type IntegratorFeeQuote struct {
	Bps int `json:"bps"`
	// Amount is in display units of the input token (Symbol), rounded down.
	Amount    string `json:"amount"`
	Symbol    string `json:"symbol"`
	Recipient string `json:"recipient"`
}

// integratorFee is the fee the request's order carries under the account's policy: nil when it
// carries none (no policy and no fee asked, a zero fee, a transfer or an exact output without a
// fee asked).
// Refusals are 422 fee-not-allowed (a fee on a transfer or an exact output, on an account without a policy, above
// the policy's maxBps, on an origin chain the policy names no recipient on) and
// fee-recipient-not-allowed (a recipient the policy does not list for the origin chain).
func (s *Service) integratorFee(account string, p Parsed, r resolved) (*IntegratorFee, error) {
	var policy *registry.FeePolicy
	if s.feePolicies != nil {
		policy = s.feePolicies.FeePolicy(account)
	}
	asked := p.FeeBps != nil || p.FeeRecipient != ""
	if p.Type() == TypeTransfer {
		if asked {
			return nil, newProblem(KindFeeNotAllowed, "fee", "a transfer carries no integrator fee: it has no order for the settlement contract to take the fee from (fees are for swaps and bridges)")
		}
		return nil, nil
	}
	if p.ExactOutput {
		// Not yet: the escrow of an exact output is quoted from its output (or a filler's ask),
		// and a fee of the escrow would have to be priced into that inversion.
		if asked {
			return nil, newProblem(KindFeeNotAllowed, "fee", "an exact output (tradeType exactOutput) carries no integrator fee yet: set the fee on an exact input")
		}
		return nil, nil
	}
	if policy == nil {
		if asked {
			return nil, newProblem(KindFeeNotAllowed, "fee", "the account declares no integrator fee policy (its Account's spec.fees): its requests cannot set a fee")
		}
		return nil, nil
	}
	bps := policy.DefaultBps
	if p.FeeBps != nil {
		bps = uint32(*p.FeeBps) //nolint:gosec // ParseRequest bounds it to 0..MaxIntegratorFeeBps
	}
	if bps > policy.MaxBps {
		pr := newProblem(KindFeeNotAllowed, "fee.bps", "fee.bps %d is above the most the account's fee policy allows, %d", bps, policy.MaxBps)
		pr.Details = map[string]any{"maxBps": policy.MaxBps}
		return nil, pr
	}
	if bps == 0 && !asked {
		return nil, nil
	}
	recipient, ok := policy.Recipient(r.from.ID, p.FeeRecipient)
	if !ok {
		return nil, feeRecipientRefused(policy, r.from.ID, p.FeeRecipient)
	}
	if bps == 0 {
		return nil, nil
	}
	return &IntegratorFee{Bps: bps, Recipient: common.HexToAddress(recipient)}, nil
}

// feeRecipientRefused is the refusal of a fee on chain: no recipient there at all, or not want.
func feeRecipientRefused(policy *registry.FeePolicy, chain, want string) *Problem {
	allowed := policy.Recipients[chain]
	if len(allowed) == 0 {
		pr := newProblem(KindFeeNotAllowed, "fee", "the account's fee policy names no fee recipient on %s, the order's origin chain, where the fee is credited", chain)
		pr.Details = map[string]any{"chainId": chain}
		return pr
	}
	pr := newProblem(KindFeeRecipientNotAllowed, "fee.recipient", "fee.recipient %s is not one of the account's fee recipients on %s (%s)",
		want, chain, strings.Join(allowed, ", "))
	pr.Details = map[string]any{"chainId": chain, "allowed": allowed}
	return pr
}

// IntegratorFeeAmount is bps of amount, rounded down: the fee never takes more than the share the
// user was shown.
func IntegratorFeeAmount(amount *big.Int, bps uint32) *big.Int {
	fee := new(big.Int).Mul(amount, new(big.Int).SetUint64(uint64(bps)))
	return fee.Quo(fee, big.NewInt(BpsDenominator))
}

// integratorFeeQuote is the plan's integratorFee line; nil without one.
func (p Plan) integratorFeeQuote() *IntegratorFeeQuote {
	f := p.IntegratorFee
	if f == nil || f.Amount == nil {
		return nil
	}
	return &IntegratorFeeQuote{Bps: int(f.Bps), Amount: FormatAmount(f.Amount, p.TokenIn.Decimals), Symbol: p.TokenIn.Symbol, Recipient: f.Recipient.Hex()}
}

// setIntegratorFee puts fee's amount of the plan's amount on the plan; a fee that rounds to
// nothing is none (the order then carries no fee and no recipient).
func (p *Plan) setIntegratorFee(fee *IntegratorFee) {
	if fee == nil {
		return
	}
	fee.Amount = IntegratorFeeAmount(p.Amount, fee.Bps)
	if fee.Amount.Sign() > 0 {
		p.IntegratorFee = fee
	}
}

// integratorFeeBps is the plan's integrator fee in basis points, 0 without one.
func (p Plan) integratorFeeBps() uint32 {
	if p.IntegratorFee == nil {
		return 0
	}
	return p.IntegratorFee.Bps
}

// integratorFeeAmount is the plan's integrator fee in base units of the input token, nil without
// one.
func (p Plan) integratorFeeAmount() *big.Int {
	if p.IntegratorFee == nil {
		return nil
	}
	return p.IntegratorFee.Amount
}
