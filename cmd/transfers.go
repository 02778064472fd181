package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
)

// transferConfig is what the flags set for simulation, creation and the intent lifecycle.
type transferConfig struct {
	quoteTTL     time.Duration
	intentTTL    time.Duration
	retention    time.Duration
	claimTimeout time.Duration
	fees         feeScheduleFlag
}

func bindTransferFlags(fs *flag.FlagSet, c *transferConfig) {
	fs.DurationVar(&c.quoteTTL, "quote-ttl", intent.DefaultQuoteTTL, "How long a simulation's fees are quoted for (its expiresAt).")
	fs.DurationVar(&c.intentTTL, "intent-ttl", intent.DefaultIntentTTL,
		"Deadline of an intent created without one; it expires (and its on-chain order lapses) after this.")
	fs.DurationVar(&c.retention, "intent-retention", controller.DefaultIntentRetention,
		"How long a confirmed, failed or expired intent is kept before it is deleted.")
	fs.DurationVar(&c.claimTimeout, "idempotency-claim-timeout", intentstore.DefaultClaimTimeout,
		"How long an Idempotency-Key claimed by a request that has not created its intent blocks retries (409) before it is taken over.")
	c.fees = feeScheduleFlag(intent.DefaultFeeSchedule())
	fs.Var(&c.fees, "fees", "Fee schedule in basis points, kind=protocol+solver for transfer, swap and bridge, e.g. transfer=0+0,swap=30+5,bridge=10+10.")
}

// newTransfers builds the transfer domain and the intent store of the manager.
func newTransfers(c config, mgr ctrl.Manager, rm controller.ReadModels) (intent.Catalog, *intent.Service, *intentstore.Store, error) {
	catalog := intent.RegistryCatalog{Chains: rm.Chains, Tokens: rm.Tokens}
	fees := intent.FeeSchedule(c.transfers.fees)
	svc, err := intent.NewService(intent.Config{
		Catalog: catalog, Fees: &fees, QuoteTTL: c.transfers.quoteTTL, IntentTTL: c.transfers.intentTTL,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	store, err := intentstore.SetupWithManager(mgr, intentstore.Options{Namespace: c.namespace, ClaimTimeout: c.transfers.claimTimeout})
	if err != nil {
		return nil, nil, nil, err
	}
	return catalog, svc, store, nil
}

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
