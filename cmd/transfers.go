package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/chain/chaindata"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

// bindTransferFlags binds the flags of simulation, creation and the intent lifecycle; o holds
// the defaults.
func bindTransferFlags(fs *flag.FlagSet, o *service.TransferOptions) {
	fs.DurationVar(&o.QuoteTTL, "quote-ttl", o.QuoteTTL, "How long a simulation's fees are quoted for (its expiresAt).")
	fs.DurationVar(&o.IntentTTL, "intent-ttl", o.IntentTTL,
		"Deadline of an intent created without one; it expires (and its on-chain order lapses) after this.")
	fs.DurationVar(&o.MaxDeadline, "max-deadline", o.MaxDeadline, "How far ahead a request's deadline may be; a later one is refused (422).")
	fs.DurationVar(&o.Retention, "intent-retention", o.Retention,
		"How long a confirmed, failed or expired intent is kept before it is deleted.")
	fs.DurationVar(&o.ClaimTimeout, "idempotency-claim-timeout", o.ClaimTimeout,
		"How long an Idempotency-Key claimed by a request that has not created its intent blocks retries (409) before it is taken over.")
	fs.DurationVar(&o.ChainRPC.CallTimeout, "chain-rpc-timeout", o.ChainRPC.CallTimeout,
		"Deadline of one batched read of a chain's JSON-RPC node; past it the simulation answers from the chain's defaults.")
	fs.Func("chain-rpc-failures", fmt.Sprintf("Failed reads in a row that mark a chain's node degraded (default %d).", o.ChainRPC.Failures),
		func(v string) error {
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil || n == 0 {
				return fmt.Errorf("want a positive whole number, got %q", v)
			}
			o.ChainRPC.Failures = uint32(n)
			return nil
		})
	fs.DurationVar(&o.ChainRPC.Cooldown, "chain-rpc-cooldown", o.ChainRPC.Cooldown,
		"How long a degraded chain's node is skipped before it is tried again.")
	fs.Var((*chainViewFlag)(&o.ChainRPC.DisableView), "chain-view",
		"Read what every simulation on a chain asks alike (fees, price feeds, the settlement contract's code) once per block into the chain's view, and the chain id once per connection; a simulation then asks the node only its head and what depends on the request (default true; false: every simulation reads everything itself).")
	fs.DurationVar(&o.ChainRPC.ViewPoll, "chain-view-poll", o.ChainRPC.ViewPoll,
		fmt.Sprintf("How often a chain with simulations in the last %s is asked for its head to keep its view current (0: half the chain's block time, 250ms to 5s; negative: never, heads then come from simulations and the chain watcher).", chaindata.DefaultViewIdle))
	fs.DurationVar(&o.Watch.PollInterval, "chain-watch-poll", o.Watch.PollInterval,
		"How often the chain watcher asks each chain's node for new blocks (0: half the chain's block time, 250ms to 5s).")
	fs.DurationVar(&o.Watch.Lookback, "chain-watch-lookback", o.Watch.Lookback,
		"How far back (in the chain's block time) a watcher with no recent recorded progress starts matching blocks.")
	fs.DurationVar(&o.Watch.CallTimeout, "chain-watch-timeout", o.Watch.CallTimeout, "Deadline of each call the chain watcher makes to a node.")
	fs.DurationVar(&o.Watch.ProgressInterval, "chain-watch-progress-interval", o.Watch.ProgressInterval,
		"How often the chain watcher records its progress in each Chain's status.watch.")
	fs.DurationVar(&o.SubmissionTimeout, "submission-timeout", o.SubmissionTimeout,
		"Deadline of the node lookup of a transaction hash reported on POST /v2/transfers/{id}/submission; past it the answer is 503.")
	fs.StringVar(&o.OrderAccountKeyFile, "order-account-key-file", o.OrderAccountKeyFile,
		"File holding this installation's key (32+ bytes, a mounted Secret) of the orders' account word: without it the word is keccak256 of the account's name, which anyone can guess and compare.")
	fs.StringVar(&o.AttesterKeyFile, "attester-key-file", o.AttesterKeyFile,
		"File holding the attester's hex private key (mount the Secret): it signs final bridge fills so fillers can claim the escrow. Empty: bridges are refused (valid: false).")
	fs.BoolVar(&o.Watch.SingleSourceAttestation, "unsafe-single-rpc-attestation", o.Watch.SingleSourceAttestation,
		"UNSAFE, local development chains only: attest bridge fills, and offer bridges, on chains without spec.witnessRpcs, on the word of one RPC endpoint. A lying or intercepted node can then forge a fill and take the escrow.")
	fs.Func("attestation-trusted-hosts",
		"Repeatable: eip155:<id>=host[:port][,host[:port]...]. For that destination chain, a bridge fill is attested only when two of its RPC endpoints (spec.rpc, spec.witnessRpcs) on this list agree, a bridge is offered only when the Chain has two such endpoints, and the chain's settlement contract is used only when spec.rpc (which verifies it) is listed: whoever can write Chains (or their RPC Secrets) then cannot choose the endpoints the service believes with money. A chain not listed uses its Chain's endpoints.",
		o.Watch.TrustedSources.Add)
	fs.UintVar(&o.FeeShareBps, "fee-share-bps", o.FeeShareBps,
		"Each swap and bridge route's minimum amount is where its fees (gas, protocol and solver) would take this share of it, in basis points; smaller amounts are refused (422). At most 10000 (the fees take it all), and above the basis points of every path.")
	fs.Var((*feeScheduleFlag)(&o.Fees), "fees", "Fee schedule in basis points, kind=protocol+solver for transfer, swap and bridge, e.g. transfer=0+0,swap=30+5,bridge=10+10.")
}

// chainViewFlag is --chain-view over chaindata.Options.DisableView, its negation: the view is on
// unless the flag says false.
type chainViewFlag bool

func (f *chainViewFlag) String() string { return strconv.FormatBool(f == nil || !bool(*f)) }

func (f *chainViewFlag) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	*f = chainViewFlag(!on)
	return nil
}

func (f *chainViewFlag) IsBoolFlag() bool { return true }

// feeScheduleFlag is intent.FeeSchedule as a flag value.
type feeScheduleFlag intent.FeeSchedule

func (f *feeScheduleFlag) String() string {
	if f == nil {
		return ""
	}
	return fmt.Sprintf("transfer=%d+%d,swap=%d+%d,bridge=%d+%d", f.Transfer.ProtocolBps, f.Transfer.SolverBps,
		f.Swap.ProtocolBps, f.Swap.SolverBps, f.Bridge.ProtocolBps, f.Bridge.SolverBps)
}

// Set changes the kinds it names and keeps the others.
func (f *feeScheduleFlag) Set(v string) error {
	next := *f
	for _, part := range strings.Split(v, ",") {
		kind, bps, ok := strings.Cut(strings.TrimSpace(part), "=")
		protocol, solver, ok2 := strings.Cut(bps, "+")
		p, errP := strconv.ParseUint(protocol, 10, 32)
		s, errS := strconv.ParseUint(solver, 10, 32)
		if !ok || !ok2 || errP != nil || errS != nil {
			return fmt.Errorf("%q: want kind=protocolBps+solverBps", part)
		}
		fee := intent.StepFee{ProtocolBps: uint32(p), SolverBps: uint32(s)}
		switch kind {
		case "transfer":
			next.Transfer = fee
		case "swap":
			next.Swap = fee
		case "bridge":
			next.Bridge = fee
		default:
			return fmt.Errorf("%q: kind must be transfer, swap or bridge", part)
		}
	}
	if err := intent.FeeSchedule(next).Validate(); err != nil {
		return err
	}
	*f = next
	return nil
}
