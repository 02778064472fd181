package watcher

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// metrics are per chain (its CAIP-2 id).
type metrics struct {
	head          *prometheus.GaugeVec
	processed     *prometheus.GaugeVec
	blockTime     *prometheus.HistogramVec
	txs           *prometheus.CounterVec
	transitions   *prometheus.CounterVec
	reorgs        *prometheus.CounterVec
	errors        *prometheus.CounterVec
	unattested    *prometheus.CounterVec
	disagreements *prometheus.CounterVec
	rereads       *prometheus.CounterVec
}

// Reasons of tis_chain_watch_unattested_fills_total.
const (
	// unattestedNoKey: the fill was confirmed without an attestation, as the service has no
	// attester key; the filler cannot claim the escrow until one is configured.
	unattestedNoKey = "no_attester_key"
	// unattestedSigning: signing the attestation failed; the intent stays submitted and the
	// step is retried, each try counted.
	unattestedSigning = "signing_failed"
	// unattestedUnverified: the order's settlement contracts are not both verified on chain (and
	// the ones its Chains name now); the fill waits.
	unattestedUnverified = "contract_unverified"
	// unattestedSingleSource: the destination Chain has no witnessRpcs, so no second endpoint can
	// confirm the fill; it waits.
	unattestedSingleSource = "single_source"
	// unattestedNoQuorum: no witness confirms the fill yet (they lag or do not answer); it waits.
	unattestedNoQuorum = "no_quorum"
	// unattestedDisagreement: an endpoint contradicts the node about the fill; it waits, and the
	// Chain's RPCAgreement condition is False.
	unattestedDisagreement = "sources_disagree"
	// unattestedUntrusted: the endpoints agree, but fewer than two of them are on the operator's
	// --attestation-trusted-hosts for the chain; it waits.
	unattestedUntrusted = "untrusted_sources"
)

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		head: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tis_chain_watch_head_block", Help: "Latest block number the chain's node reported to the watcher.",
		}, []string{"chain"}),
		processed: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tis_chain_watch_processed_block", Help: "Last block whose transactions the watcher matched to pending intents.",
		}, []string{"chain"}),
		blockTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tis_chain_watch_block_seconds",
			Help:    "Time to match one block's transactions to pending intents and record the matches.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25},
		}, []string{"chain"}),
		txs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_watch_transactions_total", Help: "Transactions the watcher matched against pending intents.",
		}, []string{"chain"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_watch_transitions_total", Help: "Intent transitions the watcher applied, by chain and event (submit, confirm, fail, drop; expire for a cancelling order whose hard cancel is final).",
		}, []string{"chain", "event"}),
		reorgs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_watch_reorgs_total", Help: "Reorgs the watcher stepped back over.",
		}, []string{"chain"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_watch_errors_total", Help: "Watcher steps that failed (node or API server errors); the step is retried with backoff.",
		}, []string{"chain"}),
		unattested: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_watch_unattested_fills_total",
			Help: "Final bridge fills on this (destination) chain the watcher did not attest, by reason: no_attester_key (confirmed without an attestation; the filler cannot be repaid), signing_failed (retried, each try counted), or, counted once per fill, contract_unverified, single_source, no_quorum, sources_disagree or untrusted_sources (the fill waits).",
		}, []string{"chain", "reason"}),
		disagreements: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_rpc_disagreements_total",
			Help: "Bridge fills on which the chain's endpoints (rpc and witnessRpcs) contradicted each other, once per fill: one of them is lying or broken.",
		}, []string{"chain"}),
		rereads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_watch_reread_blocks_total",
			Help: "Blocks the watcher read again because an intent reached it (through the informer) after it had read blocks that could hold the intent's transaction or order events.",
		}, []string{"chain"}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.head, m.processed, m.blockTime, m.txs, m.transitions, m.reorgs, m.errors, m.unattested, m.disagreements, m.rereads} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *metrics) observeHead(chain string, head, processed uint64) {
	m.head.WithLabelValues(chain).Set(float64(head))
	m.processed.WithLabelValues(chain).Set(float64(processed))
}

func (m *metrics) observeBlock(chain string, took time.Duration, txs int) {
	m.blockTime.WithLabelValues(chain).Observe(took.Seconds())
	m.txs.WithLabelValues(chain).Add(float64(txs))
}

func (m *metrics) transition(chain string, ev intent.Event) {
	m.transitions.WithLabelValues(chain, string(ev)).Inc()
}

func (m *metrics) reorg(chain string) { m.reorgs.WithLabelValues(chain).Inc() }

func (m *metrics) reread(chain string, blocks uint64) {
	m.rereads.WithLabelValues(chain).Add(float64(blocks))
}

func (m *metrics) failed(chain string) { m.errors.WithLabelValues(chain).Inc() }

// follow starts the chain's counters of unattested fills at zero, so that the first one shows
// as an increase (a counter series born at 1 does not).
func (m *metrics) follow(chain string) {
	for _, reason := range []string{unattestedNoKey, unattestedSigning, unattestedUnverified, unattestedSingleSource, unattestedNoQuorum, unattestedDisagreement, unattestedUntrusted} {
		m.unattested.WithLabelValues(chain, reason)
	}
	m.disagreements.WithLabelValues(chain)
}

func (m *metrics) unattestedFill(chain, reason string) {
	m.unattested.WithLabelValues(chain, reason).Inc()
}

func (m *metrics) disagreement(chain string) { m.disagreements.WithLabelValues(chain).Inc() }
