package intent

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"k8s.io/utils/clock"

	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/defaults"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const (
	// DefaultQuoteTTL is how long a simulation's fees are quoted for (expiresAt = now + TTL).
	// Gas prices move every block; a minute is a few blocks on mainnet.
	DefaultQuoteTTL = 60 * time.Second
	// DefaultIntentTTL is the deadline of an intent created without one. It is also the on-chain
	// order deadline, so an intent that expired off-chain cannot be executed on chain afterwards.
	DefaultIntentTTL = time.Hour
	// DefaultMaxDeadline is how far ahead a request's deadline may be: an order open for years
	// holds its escrow, and its quote, long past any meaning.
	DefaultMaxDeadline = 30 * 24 * time.Hour
)

// WarningBalanceNotVerified is the warning when no chain data could tell the holder's balance.
const WarningBalanceNotVerified = "balance not verified"

// WarningChainUnavailable starts the warning of a simulation answered from the static defaults
// because the chain's node could not be asked (slow, down, breaker open or the wrong chain).
const WarningChainUnavailable = "chain rpc unavailable"

// Config configures a Service. Zero fields take the documented defaults.
type Config struct {
	// Catalog is required.
	Catalog Catalog
	// ChainData defaults to StaticChainData.
	ChainData ChainData
	// Fees defaults to DefaultFeeSchedule(); a pointer so that an all-zero schedule can be chosen.
	Fees *FeeSchedule
	// QuoteTTL defaults to DefaultQuoteTTL.
	QuoteTTL time.Duration
	// AccountKey keys the order's account word (AccountWord), so that orders on chain cannot be
	// linked to an account by hashing guessed names; empty: the unkeyed hash of the name.
	AccountKey []byte
	// IntentTTL defaults to DefaultIntentTTL.
	IntentTTL time.Duration
	// Clock defaults to clock.RealClock; tests fix it.
	Clock clock.PassiveClock
	// MaxDeadline defaults to DefaultMaxDeadline.
	MaxDeadline time.Duration
	// BridgesUnavailable, when set, is why no bridge can settle (the service has no attester key):
	// every bridge is then valid:false with this reason.
	BridgesUnavailable string
	// SingleSourceAttestation accepts bridges to a chain with one RPC endpoint (no witnessRpcs),
	// whose fills the attester then signs on one node's word: for local development chains only.
	SingleSourceAttestation bool
	// TrustedSources restricts, per destination chain, whose word releases a bridge escrow
	// (watcher.Options.TrustedSources): a bridge to a chain on it is offered only when two of the
	// Chain's endpoints are on it, as no fill there could be attested otherwise.
	TrustedSources registry.TrustedSources
	// Quotes keeps simulations for firm quotes; a MemoryQuotes of DefaultMaxQuotes by default
	// (per replica: the operator shares them through Redis, internal/quotestore).
	Quotes QuoteStore
	// TypedPricesOnLive accepts typed USD prices on live chains. Without it, an intent on a live
	// chain is valid only when every USD figure comes from a fresh price feed. For tests and
	// fixtures of chains without nodes; the operator never sets it.
	TypedPricesOnLive bool
	// FeeShareBps is the most of a swap's or bridge's amount its fees (gas, protocol and solver)
	// may take, in basis points: the route's minimum amount is where they take exactly this
	// share. Zero means DefaultFeeShareBps; it must exceed the basis points of every path.
	FeeShareBps uint32
	// Auction tunes the orders' market terms: the request for quotes, the exclusivity and the
	// Dutch decay.
	Auction AuctionConfig
	// FeePolicies finds each Account's integrator fee policy; nil: no account has one.
	FeePolicies FeePolicies
}

// DefaultFeeShareBps puts a route's minimum where the fees would take the whole amount: below it
// the user pays more in fees than the order moves.
const DefaultFeeShareBps = BpsDenominator

// Service simulates and prepares intents. It holds no per-request state and is safe for
// concurrent use.
type Service struct {
	accountKey  []byte
	catalog     Catalog
	chainData   ChainData
	fees        FeeSchedule
	quoteTTL    time.Duration
	intentTTL   time.Duration
	clock       clock.PassiveClock
	noBridges   string
	oneSourceOK bool
	trusted     registry.TrustedSources
	maxDeadline time.Duration
	quotes      QuoteStore
	// typedPricesLive is Config.TypedPricesOnLive.
	typedPricesLive bool
	// feeShare is Config.FeeShareBps with its default.
	feeShare    uint32
	auction     AuctionConfig
	feePolicies FeePolicies
}

// NewService applies defaults and refuses an unusable configuration at start-up rather than on
// the first request.
func NewService(cfg Config) (*Service, error) {
	if cfg.Catalog == nil {
		return nil, errors.New("intent: Config.Catalog is required")
	}
	s := &Service{
		catalog: cfg.Catalog, chainData: cfg.ChainData, fees: DefaultFeeSchedule(),
		quoteTTL: cfg.QuoteTTL, intentTTL: cfg.IntentTTL, clock: cfg.Clock, noBridges: cfg.BridgesUnavailable,
		maxDeadline: cfg.MaxDeadline, oneSourceOK: cfg.SingleSourceAttestation, trusted: cfg.TrustedSources, quotes: cfg.Quotes,
		typedPricesLive: cfg.TypedPricesOnLive, feeShare: cfg.FeeShareBps, accountKey: cfg.AccountKey, auction: cfg.Auction,
		feePolicies: cfg.FeePolicies,
	}
	if cfg.Fees != nil {
		s.fees = *cfg.Fees
	}
	if err := s.fees.Validate(); err != nil {
		return nil, fmt.Errorf("intent: %w", err)
	}
	defaults.Positive(&s.feeShare, DefaultFeeShareBps)
	if err := s.fees.ValidateShare(s.feeShare); err != nil {
		return nil, fmt.Errorf("intent: %w", err)
	}
	if s.chainData == nil {
		s.chainData = StaticChainData{}
	}
	defaults.Positive(&s.quoteTTL, DefaultQuoteTTL)
	defaults.Positive(&s.intentTTL, DefaultIntentTTL)
	defaults.Positive(&s.maxDeadline, DefaultMaxDeadline)
	if s.clock == nil {
		s.clock = clock.RealClock{}
	}
	if s.quotes == nil {
		s.quotes = NewMemoryQuotes(DefaultMaxQuotes, s.clock)
	}
	return s, nil
}

// Plan is everything the domain decides about an intent. Simulation shows part of it; creation
// stores it (type, orderId, nonce, effective deadline, tx).
type Plan struct {
	Type         Type
	ResolvedPath []Step
	// Valid is false when Errors is not empty (see the package doc for what goes there).
	Valid    bool
	Errors   []string
	Warnings []string
	// Amount is in base units of TokenIn.
	Amount *big.Int
	// AmountOut and MinAmountOut are in base units of TokenOut: the quote and the least the
	// order accepts (both Amount for a transfer). MinAmountOut is nil when the pair has no quote.
	AmountOut, MinAmountOut *big.Int
	SlippageBps             int
	// TradeType is exactOutput for a swap or bridge whose request fixed the output: AmountOut =
	// MinAmountOut is then the request's amount, Amount the escrow quoted for it, and
	// AmountInQuoted the input the feeds say is needed (before the slippage tolerance). Empty:
	// exactInput.
	TradeType      TradeType
	AmountInQuoted *big.Int
	// NativeDrop is the gas on arrival in base units of the destination chain's native token
	// (the order's nativeDropAmount), and GasOnArrivalCost its cost in base units of TokenIn,
	// which AmountOut has taken off; both nil when the request asked for none.
	NativeDrop, GasOnArrivalCost *big.Int
	// IntegratorFee is the Account's integrator fee the order carries (feeAmount, feeRecipient),
	// which AmountOut has taken off; nil without one.
	IntegratorFee *IntegratorFee
	// Market is a swap's or bridge's market terms (its Dutch decay and exclusivity); nil for a
	// transfer or an order without a quote.
	Market    *MarketTerms
	FromChain registry.Chain
	ToChain   registry.Chain
	TokenIn   registry.Token
	TokenOut  registry.Token
	tokenOut  token
	OrderID   common.Hash
	Nonce     [32]byte
	// Deadline is the request's deadline, or PreparedAt + IntentTTL when it has none.
	Deadline time.Time
	// Tx is nil when there is no route to build it for.
	Tx *Tx
	// Approval is the ERC-20 approval the order needs first, when the chain reported a short
	// allowance; nil otherwise.
	Approval *Approval
	// Gasless holds the Permit2 terms of a gasless intent (nil: the user sends Tx).
	Gasless        *GaslessPlan
	allowanceKnown bool
	GasUnits       uint64
	Fees           Fees
	// Prices are the USD prices Fees were computed with, and where each came from.
	Prices []Price
	// MinAmountIn and MaxAmountIn are the route's limits in base units of TokenIn: the least
	// amount whose fees take at most the service's fee share, and the most the token's fillers
	// declare (nil: no maximum). Both nil for a transfer, which has no limits.
	MinAmountIn, MaxAmountIn *big.Int
	EstimatedTimeS           int64
	PreparedAt               time.Time
	QuoteExpiresAt           time.Time
}

// SimulationResult is the response body of POST /v2/transfers/simulate.
type SimulationResult struct {
	SimulationID   string    `json:"simulationId"`
	Valid          bool      `json:"valid"`
	ResolvedPath   []Step    `json:"resolvedPath"`
	EstimatedFees  Fees      `json:"estimatedFees"`
	EstimatedTimeS int64     `json:"estimatedTimeS"`
	Warnings       []string  `json:"warnings"`
	Errors         []string  `json:"errors"`
	ExpiresAt      time.Time `json:"expiresAt"`
	Tx             *Tx       `json:"tx,omitempty"`
	// Quote is a swap's or bridge's output and the minimum the order accepts.
	Quote *Quote `json:"quote,omitempty"`
	// Auction is a swap's or bridge's market terms: what a create with this simulationId signs,
	// its times moved to the create's.
	Auction *Auction `json:"auction,omitempty"`
	// Approval is present when the order's ERC-20 allowance toward the settlement contract is
	// short (known when the chain has an RPC endpoint): send its tx before tx.
	Approval *Approval `json:"approval,omitempty"`
	// Prices are the USD prices estimatedFees was computed with, and the source of each.
	Prices []Price `json:"prices"`
	// Limits are a swap's or bridge's least and most amount; absent for a transfer.
	Limits *Limits `json:"limits,omitempty"`
	// Execution is the request's: transaction, or gasless (then Tx is absent: the user signs,
	// after the create, the typed data the created intent carries, and a filler pays the gas).
	Execution Execution `json:"execution"`
	// Gasless is a valid gasless simulation's Permit2 terms, less the nonce a create allocates.
	Gasless *GaslessTerms `json:"gasless,omitempty"`
	// Calls is approval's tx (when present) and tx as one EIP-5792 wallet_sendCalls request:
	// a valid simulation that the user sends (not a gasless one).
	Calls *SendCalls `json:"calls,omitempty"`
}

// GaslessTerms is the OpenAPI GaslessTerms of a simulation: where the signature will be made and
// until when a filler can open the order.
type GaslessTerms struct {
	Permit2      string    `json:"permit2"`
	OpenDeadline time.Time `json:"openDeadline"`
}

// Approval is an ERC-20 approval a swap or bridge order needs before it is submitted.
type Approval struct {
	// OneTime says the approval is of Permit2 without limit, once for all of the holder's gasless
	// orders of the token: each order then spends only what its own signature allows.
	OneTime bool `json:"oneTime,omitempty"`
	// Token is the CAIP-10 address of the ERC-20 to approve.
	Token string `json:"token"`
	// Spender is the settlement contract that pulls the token, EIP-55.
	Spender string `json:"spender"`
	// Amount is the allowance the order needs, in display units; Allowance the current one.
	Amount    string `json:"amount"`
	Allowance string `json:"allowance"`
	// Tx is approve(spender, amount) on the token, ready for the client to sign.
	Tx Tx `json:"tx"`
}

// WarningQuoteNotShared is the warning of a simulation whose quote only this replica holds,
// because the store shared by the replicas did not take it.
const WarningQuoteNotShared = "quote not shared"

// WithNonce is plan, made by Prepare with a throw-away nonce, with the order's nonce in its
// place: its orderId, its gasless terms and its tx rebuilt, the rest (quote, fees, gas) kept. A
// create plans first and takes the order's nonce (a user's Permit2 nonce, for a gasless order)
// only once the plan is valid, so that no nonce is spent on a request that is refused.
func (s *Service) WithNonce(account string, p Parsed, plan Plan, nonce [32]byte) (Plan, error) {
	r, err := s.resolve(p)
	if err != nil {
		return Plan{}, err
	}
	plan.Nonce = nonce
	if plan.OrderID, err = OrderID(r.orderInputs(account, plan, nonce)); err != nil {
		return Plan{}, err
	}
	if plan.Gasless != nil {
		g := *plan.Gasless
		g.Nonce = new(big.Int).SetBytes(nonce[:])
		plan.Gasless = &g
	}
	if plan.Tx != nil {
		gas := plan.Tx.Gas
		if plan.Tx, err = r.buildTx(account, plan, p.CallData); err != nil {
			return Plan{}, err
		}
		if plan.Tx != nil {
			plan.Tx.Gas = gas
		}
	}
	return plan, nil
}

// Simulate is a dry run: Prepare with a throw-away nonce. The tx is omitted when the intent is
// not valid, since the contract calls it "ready for submission". The simulation is kept until its
// expiresAt, so that a create naming its simulationId keeps its quote (firm quotes). A request's
// simulationId and minAmountOut are a create's terms and are ignored here.
func (s *Service) Simulate(ctx context.Context, account string, p Parsed) (SimulationResult, error) {
	nonce, err := NewNonce()
	if err != nil {
		return SimulationResult{}, err
	}
	p.SimulationID, p.MinAmountOut = "", ""
	plan, err := s.Prepare(ctx, account, p, nonce)
	if err != nil {
		return SimulationResult{}, err
	}
	id := NewSimulationID(plan.PreparedAt)
	if err := s.quotes.Put(ctx, simulatedQuote(id, account, p, plan)); err != nil {
		if ctx.Err() != nil {
			return SimulationResult{}, ctx.Err()
		}
		plan.Warnings = append(plan.Warnings, WarningQuoteNotShared+": only the replica that answered holds this simulation, "+
			"so a create with its simulationId may find it expired")
	}
	res := SimulationResult{
		SimulationID:   id,
		Valid:          plan.Valid,
		ResolvedPath:   plan.ResolvedPath,
		EstimatedFees:  plan.Fees,
		EstimatedTimeS: plan.EstimatedTimeS,
		Warnings:       plan.Warnings,
		Errors:         plan.Errors,
		ExpiresAt:      plan.QuoteExpiresAt,
		Prices:         plan.Prices,
	}
	if plan.Valid {
		res.Tx, res.Approval = plan.Tx, plan.Approval
	}
	res.Execution = ExecutionTransaction
	if plan.Valid && !p.Gasless && res.Tx != nil {
		var approve *Tx
		if res.Approval != nil {
			approve = &res.Approval.Tx
		}
		calls, err := SendCallsOf(common.HexToAddress(p.From.Address), approve, res.Tx)
		if err != nil {
			return SimulationResult{}, err
		}
		res.Calls = calls
	}
	if p.Gasless {
		res.Execution, res.Tx = ExecutionGasless, nil
		if g := plan.Gasless; plan.Valid && g != nil {
			res.Gasless = &GaslessTerms{Permit2: g.Permit2.Hex(), OpenDeadline: g.OpenDeadline.UTC()}
		}
	}
	res.Quote = plan.Quote()
	res.Auction = plan.Auction()
	res.Limits = plan.Limits()
	return res, nil
}

// Prepare runs every domain check and builds the plan; simulation and creation share it so they
// can never disagree. Refusals are *Problem (422 kinds); other errors are internal.
//
// With p.SimulationID (a create), the plan keeps that simulation's output amounts, fees and route
// instead of fresh ones, so the order encodes the simulated minimum: refused with quote-expired
// or quote-mismatch when the simulation no longer holds or was made for another request. With
// p.MinAmountOut, an order whose minimum is lower is refused with min-amount-out.
func (s *Service) Prepare(ctx context.Context, account string, p Parsed, nonce [32]byte) (Plan, error) {
	now := s.clock.Now()
	r, err := s.resolve(p)
	if err != nil {
		return Plan{}, err
	}
	exactOut := p.ExactOutput && p.Type() != TypeTransfer
	amountToken := r.tokenIn
	if exactOut && r.hasTokenOut {
		amountToken = r.tokenOut // without one, checkRoute refuses the bridge below
	}
	amount, err := parseAmountField(p.Amount, amountToken)
	if err != nil {
		return Plan{}, err
	}
	if p.Deadline != nil && !p.Deadline.After(now) {
		return Plan{}, validationFailed("deadline", "deadline %s has passed", p.Deadline.UTC().Format(time.RFC3339))
	}
	if p.Deadline != nil && p.Deadline.After(now.Add(s.maxDeadline)) {
		return Plan{}, validationFailed("deadline", "deadline %s is more than %s ahead", p.Deadline.UTC().Format(time.RFC3339), s.maxDeadline)
	}
	if err := r.checkParties(p); err != nil {
		return Plan{}, err
	}
	drop, err := r.checkGasOnArrival(p)
	if err != nil {
		return Plan{}, err
	}
	fee, err := s.integratorFee(account, p, r)
	if err != nil {
		return Plan{}, err
	}
	var firm *SimulatedQuote
	if p.SimulationID != "" {
		q, err := s.firmQuote(ctx, account, p, amount, now)
		if err != nil {
			return Plan{}, err
		}
		firm = &q
	}
	plan := s.newPlan(p, r, amount, nonce, now)
	plan.NativeDrop = drop
	plan.setIntegratorFee(fee)
	if exactOut {
		// The input is quoted (quoteOrder, or the firm simulation's) from the exact output.
		plan.TradeType, plan.AmountOut, plan.Amount = TradeExactOutput, amount, new(big.Int)
	}
	if err := r.checkRoute(&plan); err != nil {
		return Plan{}, err
	}
	if firm != nil {
		if err := routeChanged(plan, *firm); err != nil {
			return Plan{}, err
		}
		if err := feeChanged(plan, *firm); err != nil {
			return Plan{}, err
		}
	}
	if s.noBridges != "" && slices.Contains(plan.ResolvedPath, StepBridge) {
		plan.Errors = append(plan.Errors, s.noBridges)
	}
	if n := r.to.RPCSources(); !s.oneSourceOK && n < 2 && slices.Contains(plan.ResolvedPath, StepBridge) {
		plan.Errors = append(plan.Errors, fmt.Sprintf("no bridge to %s: a fill there is attested only when two independent RPC endpoints agree on it, and the Chain has %d (add spec.witnessRpcs)", r.to.ID, n))
	}
	if s.trusted.Restricts(r.to.ID) && slices.Contains(plan.ResolvedPath, StepBridge) {
		// Only then: counting parses the Chain's URLs, which a simulation need not pay for.
		if n := s.trusted.TrustedHosts(r.to); n < 2 {
			plan.Errors = append(plan.Errors, fmt.Sprintf("no bridge to %s: a fill there is attested only when two endpoints on the operator's trusted hosts agree on it, and the Chain's endpoints are on %d of them", r.to.ID, n))
		}
	}
	kept := false
	if firm != nil {
		if kept, err = applyFirmQuote(&plan, *firm); err != nil {
			return Plan{}, err
		}
	}
	if !kept {
		quoteOrder(&plan, r, s.fees.For(plan.ResolvedPath), p.Slippage())
	}
	s.setMarketTerms(ctx, &plan, r, firm, now)
	if err := checkMaxAmountIn(plan, p, r); err != nil {
		return Plan{}, err
	}
	if plan.OrderID, err = OrderID(r.orderInputs(account, plan, nonce)); err != nil {
		return Plan{}, err
	}
	if p.Gasless {
		planGasless(&plan, r, now)
	}
	if plan.Tx, err = r.buildTx(account, plan, p.CallData); err != nil {
		return Plan{}, err
	}
	if err := s.price(ctx, r, &plan, p); err != nil {
		return Plan{}, err
	}
	if firm != nil {
		plan.Fees = firm.Fees
		if err := keepFirmMinimum(&plan, *firm); err != nil {
			return Plan{}, err
		}
	}
	if err := s.checkLimits(plan); err != nil {
		return Plan{}, err
	}
	if err := checkClientMinimum(plan, p, r); err != nil {
		return Plan{}, err
	}
	plan.EstimatedTimeS = estimatedTime(plan.ResolvedPath, r.from, r.to)
	addReasons(&plan, p, r, now)
	plan.Valid = len(plan.Errors) == 0
	return plan, nil
}

func (s *Service) newPlan(p Parsed, r resolved, amount *big.Int, nonce [32]byte, now time.Time) Plan {
	deadline := now.Add(s.intentTTL)
	if p.Deadline != nil {
		deadline = *p.Deadline
	}
	t := p.Type()
	return Plan{
		Type:           t,
		ResolvedPath:   ResolvePath(t, r.tokenIn.Symbol, r.tokenOut.Symbol),
		Errors:         []string{},
		Warnings:       []string{},
		Amount:         amount,
		FromChain:      r.from,
		ToChain:        r.to,
		TokenIn:        r.tokenIn.Token,
		TokenOut:       r.tokenOut.Token,
		tokenOut:       r.tokenOut,
		Nonce:          nonce,
		Deadline:       deadline,
		PreparedAt:     now,
		QuoteExpiresAt: now.Add(s.quoteTTL).UTC().Truncate(time.Millisecond),
	}
}

// resolved is a request with its chains and tokens looked up.
type resolved struct {
	accountKey       []byte // Config.AccountKey
	from, to         registry.Chain
	fromID, toID     uint64
	fromAddr, toAddr common.Address
	// toHex is toAddr in EIP-55 form, as the request's parse checked it (a checksum is a hash).
	toHex   string
	tokenIn token
	// tokenOut is the zero token when a single-asset bridge finds no same-symbol token.
	tokenOut    token
	hasTokenOut bool
	// toNative is the destination chain's native token as the catalog prices it (its
	// TokenDefinition's price first, as for tokenOut): what a gas on arrival is valued at.
	toNative token
}

// resolve checks chains, asset placement and tokens, in that order, so the first problem
// reported is the most fundamental one.
func (s *Service) resolve(p Parsed) (resolved, error) {
	r := resolved{accountKey: s.accountKey}
	var err error
	if r.from, err = s.knownChain("from", p.From.Chain); err != nil {
		return r, err
	}
	if r.to, err = s.knownChain("to", p.To.Chain); err != nil {
		return r, err
	}
	r.fromID, _ = p.From.Chain.EIP155()
	r.toID, _ = p.To.Chain.EIP155()
	r.fromAddr, _ = p.From.EVMAddress()
	r.toAddr, _ = p.To.EVMAddress()
	r.toHex = p.To.Address
	if err := checkAssetChains(p); err != nil {
		return r, err
	}
	return r, s.resolveTokens(p, &r)
}

func (s *Service) knownChain(field string, id caip.ChainID) (registry.Chain, error) {
	if id.Namespace != caip.NamespaceEIP155 {
		return registry.Chain{}, validationFailed(field, "chain namespace %q is not supported: only eip155 chains are", id.Namespace)
	}
	c, ok := s.catalog.Chain(id.String())
	if !ok {
		return registry.Chain{}, validationFailed(field, "unknown chain %s", id)
	}
	return c, nil
}

func assetInField(p Parsed) string {
	if p.IsPair {
		return "asset.in"
	}
	return "asset"
}

// checkAssetChains: the asset given up lives on the from-chain, the asset received on the to-chain.
func checkAssetChains(p Parsed) error {
	if p.AssetIn.Chain != p.From.Chain {
		return validationFailed(assetInField(p), "%s is on chain %s, but from is on %s", p.AssetIn, p.AssetIn.Chain, p.From.Chain)
	}
	if p.IsPair && p.AssetOut.Chain != p.To.Chain {
		return validationFailed("asset.out", "%s is on chain %s, but to is on %s", p.AssetOut, p.AssetOut.Chain, p.To.Chain)
	}
	return nil
}

func (s *Service) resolveTokens(p Parsed, r *resolved) error {
	var ok bool
	if r.tokenIn, ok = resolveToken(s.catalog, r.from, p.AssetIn); !ok {
		return validationFailed(assetInField(p), "unknown token %s", p.AssetIn)
	}
	switch {
	case p.IsPair:
		if r.tokenOut, ok = resolveToken(s.catalog, r.to, p.AssetOut); !ok {
			return validationFailed("asset.out", "unknown token %s", p.AssetOut)
		}
		r.hasTokenOut = true
	case r.from.ID == r.to.ID:
		r.tokenOut, r.hasTokenOut = r.tokenIn, true
	default:
		// A single asset bridged: the same token (by symbol) on the destination. Missing is "no
		// route", reported by checkRoute as CurrencyError.
		r.tokenOut, r.hasTokenOut = resolveTokenBySymbol(s.catalog, r.to, r.tokenIn.Symbol)
	}
	r.toNative, _ = resolveToken(s.catalog, r.to, caip.AccountID{Chain: p.To.Chain, Address: registry.NativeTokenAddress})
	return nil
}

func parseAmountField(s string, tok token) (*big.Int, error) {
	amount, err := ParseAmount(s, tok.Decimals)
	if err != nil {
		return nil, validationFailed("amount", "amount %q for %s (%d decimals): %v", s, tok.Symbol, tok.Decimals, err)
	}
	return amount, nil
}

// checkParties refuses what no one means: the zero address on either side (tokens sent there
// are burnt), and a transfer to its own sender (it moves nothing and costs gas). A swap to one's
// own address is the usual swap, and a bridge's ends are on two chains.
func (r resolved) checkParties(p Parsed) error {
	var zero common.Address
	switch {
	case r.fromAddr == zero:
		return validationFailed("from", "from is the zero address, which no one can sign for")
	case r.toAddr == zero:
		return validationFailed("to", "to is the zero address: tokens sent there are lost")
	case p.Type() == TypeTransfer && p.From == p.To:
		return validationFailed("to", "to is the sender itself: the transfer would move nothing and only cost gas")
	}
	return nil
}

// checkRoute refuses a bridge without a route (CurrencyError) and records a swap without a
// settlement contract as a valid:false reason: the swap is well-formed and priceable, and the
// route appears as soon as the operator configures the chain's settlement contract. A contract
// configured but not verified on chain is a valid:false reason for both.
func (r resolved) checkRoute(plan *Plan) error {
	if slices.Contains(plan.ResolvedPath, StepBridge) {
		return r.checkBridgeRoute(plan)
	}
	if slices.Contains(plan.ResolvedPath, StepSwap) {
		switch {
		case !hasSettlement(r.from):
			plan.Errors = append(plan.Errors, fmt.Sprintf("no swap route on %s: the chain has no settlement contract", r.from.ID))
		case !r.from.SettlementVerified:
			plan.Errors = append(plan.Errors, unverifiedSettlement(r.from))
		}
	}
	return nil
}

// checkBridgeRoute needs a settlement contract on both ends (the source escrows, the destination
// fills) and the token to deliver on the destination; each contract must be verified on chain.
func (r resolved) checkBridgeRoute(plan *Plan) error {
	for _, c := range []registry.Chain{r.from, r.to} {
		if !hasSettlement(c) {
			return currencyError("", "no bridge route from %s to %s: %s has no settlement contract", r.from.ID, r.to.ID, c.ID)
		}
	}
	if !r.hasTokenOut {
		return currencyError("asset", "no bridge route from %s to %s: %s has no %s token", r.from.ID, r.to.ID, r.to.ID, r.tokenIn.Symbol)
	}
	for _, c := range []registry.Chain{r.from, r.to} {
		if !c.SettlementVerified {
			plan.Errors = append(plan.Errors, unverifiedSettlement(c))
		}
	}
	return nil
}

// hasSettlement says whether the chain names a settlement contract at all, verified or not.
func hasSettlement(c registry.Chain) bool { return common.IsHexAddress(c.SettlementAddress) }

// unverifiedSettlement is the valid:false reason of a settlement contract the Chain controller
// has not verified: an address without code would take an order's funds and do nothing.
func unverifiedSettlement(c registry.Chain) string {
	return fmt.Sprintf("the settlement contract %s on %s is not verified on chain (the Chain has no rpc to check it, "+
		"or its SettlementContract condition is not True): swaps and bridges through it are refused", c.SettlementAddress, c.ID)
}

// settlementAddress is the chain's settlement contract, once the Chain controller verified it on
// chain: an order is never built towards an address nobody checked. The controller published it
// in EIP-55 form, so it is only decoded here: validating the checksum again would hash it on
// every request.
func settlementAddress(c registry.Chain) (common.Address, bool) {
	if !c.SettlementVerified || !common.IsHexAddress(c.SettlementAddress) {
		return common.Address{}, false
	}
	return common.HexToAddress(c.SettlementAddress), true
}

func (r resolved) orderInputs(account string, plan Plan, nonce [32]byte) OrderInputs {
	in := OrderInputs{
		Account: account, AccountKey: r.accountKey, FromChainID: r.fromID, From: r.fromAddr, ToChainID: r.toID, To: r.toAddr,
		TokenIn: r.tokenIn.addr, TokenOut: r.tokenOut.addr, Amount: plan.Amount, MinAmountOut: new(big.Int),
		Deadline: unixSeconds(plan.Deadline), Nonce: nonce, NativeDrop: plan.NativeDrop,
	}
	if f := plan.IntegratorFee; f != nil {
		in.FeeAmount, in.FeeRecipient = f.Amount, f.Recipient
	}
	if plan.MinAmountOut != nil { // nil: an order with no quote, which is never built
		in.MinAmountOut = plan.MinAmountOut
	}
	if t := plan.Market; t != nil {
		in.StartAmountOut, in.DecayStart, in.DecayEnd = t.StartAmountOut, t.DecayStart, t.DecayEnd
		in.ExclusiveFiller, in.ExclusivityDeadline = t.ExclusiveFiller, t.ExclusivityDeadline
		in.ExclusivityOverrideBps = t.OverrideBps
	}
	if plan.Type != TypeTransfer {
		in.OriginSettler, _ = settlementAddress(r.from)
		in.DestinationSettler, _ = settlementAddress(r.to)
	}
	return in
}

// unixSeconds floors to whole seconds: an on-chain deadline must not outlive the requested one.
func unixSeconds(t time.Time) uint64 {
	return uint64(max(t.Unix(), 0))
}

// buildTx builds the transaction of the plan's first step. A native transfer carries the
// client's callData to the recipient (a contract call with value); an ERC-20 transfer or an order
// cannot carry it (addReasons reports that). An order is open(order) on the origin chain's
// settlement contract. It returns nil when the order has no quote, or no verified settlement
// contract on either end (an order names both: a bridge's destination fills through its own).
func (r resolved) buildTx(account string, plan Plan, callData []byte) (*Tx, error) {
	switch {
	case plan.Type == TypeTransfer && r.tokenIn.native:
		return &Tx{To: r.toHex, Data: hexutil.Encode(callData), Value: plan.Amount.String(), ChainID: r.fromID}, nil
	case plan.Type == TypeTransfer:
		data, err := ERC20TransferData(r.toAddr, plan.Amount)
		if err != nil {
			return nil, err
		}
		return &Tx{To: r.tokenIn.hex(), Data: hexutil.Encode(data), Value: "0", ChainID: r.fromID}, nil
	}
	contract, ok := settlementAddress(r.from)
	_, destinationOK := settlementAddress(r.to)
	if !ok || !destinationOK || plan.MinAmountOut == nil {
		return nil, nil
	}
	data, err := settlement.OpenData(r.orderInputs(account, plan, plan.Nonce).Order())
	if err != nil {
		return nil, err
	}
	value := "0"
	if r.tokenIn.native {
		value = plan.Amount.String()
	}
	return &Tx{To: contract.Hex(), Data: hexutil.Encode(data), Value: value, ChainID: r.fromID}, nil
}

// estimatedTime: one block on the source for a transfer or swap; a bridge also waits for
// finality on the source before the solver fills, and for the fill to land and finalise on the
// destination.
func estimatedTime(path []Step, from, to registry.Chain) int64 {
	if slices.Contains(path, StepBridge) {
		return from.BlockTimeSeconds + from.FinalitySeconds + to.BlockTimeSeconds + to.FinalitySeconds
	}
	return from.BlockTimeSeconds
}

// addReasons records the valid:false reasons and warnings that need the finished plan.
func addReasons(plan *Plan, p Parsed, r resolved, now time.Time) {
	if plan.Type == TypeTransfer && !r.tokenIn.native && len(p.CallData) > 0 {
		plan.Errors = append(plan.Errors, "callData cannot be attached to an ERC-20 transfer: transfer(address,uint256) calls no hook; use a native-token transfer or a swap/bridge order")
	}
	if plan.Type != TypeTransfer && len(p.CallData) > 0 {
		plan.Errors = append(plan.Errors, "callData cannot be attached to a swap or bridge: the settlement contract delivers tokens and calls no post-fill hook")
	}
	if p.Deadline != nil && p.Deadline.Before(now.Add(time.Duration(plan.EstimatedTimeS)*time.Second)) {
		plan.Errors = append(plan.Errors, fmt.Sprintf("deadline %s is earlier than the estimated settlement time of %ds",
			p.Deadline.UTC().Format(time.RFC3339), plan.EstimatedTimeS))
	}
	// When the chain reported the allowance, Approval says exactly what is missing (or nothing is).
	if plan.Type != TypeTransfer && !r.tokenIn.native && plan.Tx != nil && !plan.allowanceKnown {
		spender := "the settlement contract " + plan.Tx.To
		if plan.Gasless != nil {
			spender = "Permit2 " + plan.Gasless.Permit2.Hex()
		}
		plan.Warnings = append(plan.Warnings, fmt.Sprintf(
			"%s needs an ERC-20 allowance of at least %s for %s before the order is submitted",
			r.tokenIn.Symbol, FormatAmount(plan.Amount, r.tokenIn.Decimals), spender))
	}
}
