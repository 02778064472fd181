package intent

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/caip"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Request is the transfer request body shared by simulation and creation, as the client sent it.
// Deadline stays a string so that a bad timestamp is refused by ParseRequest with the field
// named, instead of by the JSON decoder with a Go type in the message.
type Request struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Asset    Asset  `json:"asset"`
	Amount   string `json:"amount"`
	Deadline string `json:"deadline,omitempty"`
	CallData string `json:"callData,omitempty"`
	// SlippageBps is the tolerance below the quoted output that a swap or bridge order accepts,
	// in basis points (0 to MaxSlippageBps); DefaultSlippageBps when absent. An extension of the
	// contract's request, documented in the OpenAPI document.
	SlippageBps *int `json:"slippageBps,omitempty"`
	// SimulationID (creation only) names the simulation whose quote the intent keeps: its fees,
	// output amounts and route, as long as the simulation's expiresAt has not passed.
	SimulationID string `json:"simulationId,omitempty"`
	// MinAmountOut (creation only) is the least output, in display units of the output token,
	// the client accepts: a create whose order would accept less is refused.
	MinAmountOut string `json:"minAmountOut,omitempty"`
	// Execution is who opens the order: "transaction" (the user, the default) or "gasless" (a
	// filler, with the user's Permit2 signature).
	Execution string `json:"execution,omitempty"`
	// GasOnArrival asks for an amount of the destination chain's native token to arrive with a
	// swap's or bridge's output (the order's native drop); nil: none.
	GasOnArrival *GasOnArrival `json:"gasOnArrival,omitempty"`
	// Fee is the integrator fee the request sets, within its Account's fee policy; nil: the
	// policy's default.
	Fee *RequestFee `json:"fee,omitempty"`
	// TradeType is "exactInput" (the default: amount is what the user gives up) or "exactOutput"
	// (amount is what must arrive, in display units of the output token).
	TradeType string `json:"tradeType,omitempty"`
	// MaxAmountIn (exactOutput only) is the most the user agrees to escrow, in display units of
	// the input token: a quote needing more is refused.
	MaxAmountIn string `json:"maxAmountIn,omitempty"`
}

// TradeType is which side of a swap or bridge the request fixes, as Across and Relay name it.
type TradeType string

// The trade types a request chooses from.
const (
	// TradeExactInput: amount is given up, the output is quoted (the default).
	TradeExactInput TradeType = "exactInput"
	// TradeExactOutput: amount arrives exactly, the input is quoted and escrowed.
	TradeExactOutput TradeType = "exactOutput"
)

// GasOnArrival is the request's gasOnArrival: Amount in display units of the destination chain's
// native token ("0.002" ETH).
type GasOnArrival struct {
	Amount string `json:"amount"`
}

// Execution is who opens an intent's order.
type Execution string

// The executions a request chooses from.
const (
	// ExecutionTransaction: the user sends the intent's tx and pays its gas.
	ExecutionTransaction Execution = "transaction"
	// ExecutionGasless: the user signs an ERC-7683 gasless order through Permit2 and a filler
	// opens it with openFor, paying the gas.
	ExecutionGasless Execution = "gasless"
)

// Asset is either one CAIP-10 token (ID) or a pair {in, out} (Pair non-nil). The zero value is
// "absent", which ParseRequest refuses as a missing field.
type Asset struct {
	ID   string
	Pair *AssetPair
}

// AssetPair is the object form of Asset: the token given up and the token received.
type AssetPair struct {
	In  string `json:"in"`
	Out string `json:"out"`
}

// UnmarshalJSON accepts exactly a string or an object with exactly the keys "in" and "out", both
// strings. Anything else is a *Problem of KindBadRequest on field "asset". JSON null leaves the
// Asset absent, as encoding/json does for other types, and ParseRequest reports it missing.
func (a *Asset) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		return nil
	case len(data) > 0 && data[0] == '"':
		var id string
		if err := json.Unmarshal(data, &id); err != nil {
			return badRequest("asset", "asset must be a CAIP-10 string or an object {\"in\", \"out\"}")
		}
		*a = Asset{ID: id}
		return nil
	case len(data) > 0 && data[0] == '{':
		return a.unmarshalPair(data)
	}
	return badRequest("asset", "asset must be a CAIP-10 string or an object {\"in\", \"out\"}")
}

// unmarshalPair matches keys exactly: encoding/json alone would also take "In" or "OUT".
func (a *Asset) unmarshalPair(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return badRequest("asset", "asset object is not valid JSON: %v", err)
	}
	for key := range fields {
		if key != "in" && key != "out" {
			return badRequest("asset", "asset object has unknown field %q: only \"in\" and \"out\" are allowed", key)
		}
	}
	in, errIn := pairMember(fields, "in")
	if errIn != nil {
		return errIn
	}
	out, errOut := pairMember(fields, "out")
	if errOut != nil {
		return errOut
	}
	*a = Asset{Pair: &AssetPair{In: in, Out: out}}
	return nil
}

func pairMember(fields map[string]json.RawMessage, key string) (string, error) {
	raw, ok := fields[key]
	if !ok {
		return "", badRequest("asset", "asset object must have both \"in\" and \"out\"")
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", badRequest("asset", "asset.%s must be a CAIP-10 string", key)
	}
	return s, nil
}

// MarshalJSON writes the form the client used, so a stored request reads back unchanged.
func (a Asset) MarshalJSON() ([]byte, error) {
	if a.Pair != nil {
		return json.Marshal(a.Pair)
	}
	return json.Marshal(a.ID)
}

// Parsed is a request that passed ParseRequest: identifiers are parsed and normalised (EIP-55),
// but nothing has been looked up yet. Amount stays raw: its precision depends on the token.
type Parsed struct {
	From caip.AccountID
	To   caip.AccountID
	// AssetIn is the asset, or asset.in. AssetOut is asset.out, valid only when IsPair.
	AssetIn  caip.AccountID
	AssetOut caip.AccountID
	IsPair   bool
	Amount   string
	// Deadline is nil when the request has none.
	Deadline *time.Time
	// CallData is nil when the request has none ("0x" counts as none).
	CallData []byte
	// SlippageBps is nil when the request has none.
	SlippageBps *int
	// SimulationID and MinAmountOut are a create's terms, empty when absent. They are not part
	// of the request: Request() leaves them out, so neither the stored request nor the
	// idempotency hash holds them.
	SimulationID string
	MinAmountOut string
	// Gasless is the request's execution "gasless"; false for a transaction (the default).
	Gasless bool
	// GasOnArrival is gasOnArrival.amount in its canonical form (no trailing zeros in the
	// fraction, so "0.0020" and "0.002" are one request); empty when the request has none. Its
	// precision and bound depend on the destination chain, which Prepare checks.
	GasOnArrival string
	// FeeBps is fee.bps (nil: the Account's default) and FeeRecipient fee.recipient in EIP-55
	// form (empty: the policy's first on the origin chain). Prepare checks them against the
	// Account's fee policy.
	FeeBps       *int
	FeeRecipient string
	// ExactOutput is the request's tradeType exactOutput: Amount is in display units of the
	// output token and must arrive exactly. MaxAmountIn is its maxAmountIn in canonical form
	// (empty: none).
	ExactOutput bool
	MaxAmountIn string
}

// TradeType is the request's trade type; exactInput unless it asked for exactOutput.
func (p Parsed) TradeType() TradeType {
	if p.ExactOutput {
		return TradeExactOutput
	}
	return TradeExactInput
}

// Slippage is the request's slippage tolerance, or DefaultSlippageBps.
func (p Parsed) Slippage() int {
	if p.SlippageBps == nil {
		return DefaultSlippageBps
	}
	return *p.SlippageBps
}

// ParseRequest checks everything that needs no catalog; a failure is a *Problem of KindBadRequest.
func ParseRequest(r Request) (Parsed, error) {
	var p Parsed
	var err error
	if p.From, err = parseAccountField("from", r.From); err != nil {
		return Parsed{}, err
	}
	if p.To, err = parseAccountField("to", r.To); err != nil {
		return Parsed{}, err
	}
	if err = p.parseAsset(r.Asset); err != nil {
		return Parsed{}, err
	}
	if r.Amount == "" {
		return Parsed{}, badRequest("amount", "amount is required")
	}
	p.Amount = r.Amount
	if p.Deadline, err = parseDeadline(r.Deadline); err != nil {
		return Parsed{}, err
	}
	if p.CallData, err = parseCallData(r.CallData); err != nil {
		return Parsed{}, err
	}
	if r.SlippageBps != nil {
		if *r.SlippageBps < 0 || *r.SlippageBps > MaxSlippageBps {
			return Parsed{}, badRequest("slippageBps", "slippageBps must be between 0 and %d basis points", MaxSlippageBps)
		}
		v := *r.SlippageBps
		p.SlippageBps = &v
	}
	if r.SimulationID != "" && !isSimulationID(r.SimulationID) {
		return Parsed{}, badRequest("simulationId", "simulationId must be an id a simulation returned: sim_ followed by a ULID")
	}
	p.SimulationID, p.MinAmountOut = r.SimulationID, r.MinAmountOut
	switch Execution(r.Execution) {
	case "", ExecutionTransaction:
	case ExecutionGasless:
		p.Gasless = true
	default:
		return Parsed{}, badRequest("execution", "execution must be transaction or gasless")
	}
	if r.GasOnArrival != nil {
		if p.GasOnArrival, err = canonicalDecimal(r.GasOnArrival.Amount); err != nil {
			return Parsed{}, badRequest("gasOnArrival.amount", "gasOnArrival.amount must be a decimal string of the destination chain's native token, such as \"0.002\": %v", err)
		}
	}
	if r.Fee != nil {
		if err := p.parseFee(*r.Fee); err != nil {
			return Parsed{}, err
		}
	}
	if err := p.parseTradeType(r); err != nil {
		return Parsed{}, err
	}
	return p, nil
}

// parseFee checks fee's syntax: bps a whole number of basis points up to 100%, recipient a 0x
// address (a mixed-case one with its EIP-55 checksum). Whether the Account allows them is
// Prepare's to say (422).
func (p *Parsed) parseFee(f RequestFee) error {
	if f.Bps != nil {
		if *f.Bps < 0 || *f.Bps > BpsDenominator {
			return badRequest("fee.bps", "fee.bps must be a whole number of basis points between 0 and %d", BpsDenominator)
		}
		v := *f.Bps
		p.FeeBps = &v
	}
	if f.Recipient != "" {
		if !common.IsHexAddress(f.Recipient) || !strings.HasPrefix(f.Recipient, "0x") {
			return badRequest("fee.recipient", "fee.recipient must be a 0x address of 40 hex digits")
		}
		addr := common.HexToAddress(f.Recipient)
		if mixedCase(f.Recipient[2:]) && addr.Hex() != f.Recipient {
			return badRequest("fee.recipient", "fee.recipient %s fails its EIP-55 checksum (a mistyped address?)", f.Recipient)
		}
		p.FeeRecipient = addr.Hex()
	}
	return nil
}

// parseTradeType reads tradeType and maxAmountIn: maxAmountIn is the bound of an exact output's
// input, and means nothing for an exact input, whose input is the amount itself.
func (p *Parsed) parseTradeType(r Request) error {
	switch TradeType(r.TradeType) {
	case "", TradeExactInput:
	case TradeExactOutput:
		p.ExactOutput = true
	default:
		return badRequest("tradeType", "tradeType must be exactInput or exactOutput")
	}
	if r.MaxAmountIn == "" {
		return nil
	}
	if !p.ExactOutput {
		return badRequest("maxAmountIn", "maxAmountIn bounds the input of tradeType exactOutput; with exactInput the amount is the input")
	}
	var err error
	if p.MaxAmountIn, err = canonicalDecimal(r.MaxAmountIn); err != nil {
		return badRequest("maxAmountIn", "maxAmountIn must be a decimal string of the input token, such as \"12.5\": %v", err)
	}
	return nil
}

// mixedCase says whether hex digits carry an EIP-55 checksum (both cases of letters).
func mixedCase(digits string) bool {
	return strings.ToLower(digits) != digits && strings.ToUpper(digits) != digits
}

// canonicalDecimal checks an amount's syntax (ParseAmount's) and drops the trailing zeros of its
// fraction, and the point when nothing is left after it.
func canonicalDecimal(s string) (string, error) {
	intPart, fracPart, err := splitDecimal(s)
	if err != nil {
		return "", err
	}
	if fracPart = strings.TrimRight(fracPart, "0"); fracPart == "" {
		return intPart, nil
	}
	return intPart + "." + fracPart, nil
}

func (p *Parsed) parseAsset(a Asset) error {
	var err error
	switch {
	case a.Pair != nil:
		p.IsPair = true
		if p.AssetIn, err = parseAccountField("asset.in", a.Pair.In); err != nil {
			return err
		}
		p.AssetOut, err = parseAccountField("asset.out", a.Pair.Out)
		return err
	default:
		p.AssetIn, err = parseAccountField("asset", a.ID)
		return err
	}
}

func parseAccountField(field, s string) (caip.AccountID, error) {
	if s == "" {
		return caip.AccountID{}, badRequest(field, "%s is required (CAIP-10 account id)", field)
	}
	id, err := caip.ParseAccountID(s)
	if err != nil {
		return caip.AccountID{}, badRequest(field, "%v", err)
	}
	return id, nil
}

// parseDeadline accepts RFC 3339, the ISO 8601 profile used on the internet, with an offset.
func parseDeadline(s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return nil, badRequest("deadline", "deadline must be an RFC 3339 timestamp such as 2030-01-02T15:04:05Z")
	}
	t = t.UTC()
	return &t, nil
}

// parseCallData accepts 0x-prefixed, even-length hex (hexutil's rules).
func parseCallData(s string) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	b, err := hexutil.Decode(s)
	if err != nil {
		return nil, badRequest("callData", "callData must be 0x-prefixed hex with an even number of digits")
	}
	if len(b) == 0 {
		return nil, nil
	}
	return b, nil
}

// Request is the normalised request, the form to store: EIP-55 addresses, the same asset form
// the client used, the deadline in UTC.
func (p Parsed) Request() Request {
	r := Request{From: p.From.String(), To: p.To.String(), Amount: p.Amount}
	if p.IsPair {
		r.Asset = Asset{Pair: &AssetPair{In: p.AssetIn.String(), Out: p.AssetOut.String()}}
	} else {
		r.Asset = Asset{ID: p.AssetIn.String()}
	}
	if p.Deadline != nil {
		r.Deadline = p.Deadline.UTC().Format(time.RFC3339Nano)
	}
	if p.CallData != nil {
		r.CallData = hexutil.Encode(p.CallData)
	}
	if p.SlippageBps != nil {
		v := *p.SlippageBps
		r.SlippageBps = &v
	}
	if p.Gasless {
		r.Execution = string(ExecutionGasless)
	}
	if p.GasOnArrival != "" {
		r.GasOnArrival = &GasOnArrival{Amount: p.GasOnArrival}
	}
	if p.FeeBps != nil || p.FeeRecipient != "" {
		r.Fee = &RequestFee{Recipient: p.FeeRecipient}
		if p.FeeBps != nil {
			v := *p.FeeBps
			r.Fee.Bps = &v
		}
	}
	if p.ExactOutput {
		// exactInput stays implicit, so requests stored before trade types read back unchanged.
		r.TradeType, r.MaxAmountIn = string(TradeExactOutput), p.MaxAmountIn
	}
	return r
}

// ChainIDs lists every chain the request names, from-chain first, without duplicates.
func (p Parsed) ChainIDs() []caip.ChainID {
	ids := make([]caip.ChainID, 0, 4)
	for _, id := range []caip.ChainID{p.From.Chain, p.To.Chain, p.AssetIn.Chain, p.assetOutChain()} {
		if id != (caip.ChainID{}) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (p Parsed) assetOutChain() caip.ChainID {
	if p.IsPair {
		return p.AssetOut.Chain
	}
	return caip.ChainID{}
}

// KnownChains returns the catalog entry of every chain the request names that the catalog knows.
// The HTTP layer checks each one against the key's environment (403) before the domain runs;
// unknown chains are left to the domain, which refuses them with 422.
func (p Parsed) KnownChains(cat Catalog) []registry.Chain {
	ids := p.ChainIDs()
	chains := make([]registry.Chain, 0, len(ids))
	for _, id := range ids {
		if c, ok := cat.Chain(id.String()); ok {
			chains = append(chains, c)
		}
	}
	return chains
}
