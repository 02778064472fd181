package webauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// IntentReader is what the /intents pages read: the intent store's list and get, which take the
// owner (account and environment) whose intents they return. *intentstore.Store implements it.
// The pages only ever pass the signed-in account's name as the owner's account.
type IntentReader interface {
	List(ctx context.Context, owner intentstore.Owner, filter intentstore.Filter, after string, limit int) ([]transferrecord.Summary, bool, error)
	Get(ctx context.Context, owner intentstore.Owner, id string) (*v1alpha1.TransferIntent, bool, error)
}

// intentsPageSize is how many intents one page of /intents shows; "Older" shows the next ones.
const intentsPageSize = 50

// intentStatuses are the status filters of /intents, in lifecycle order ("" is all).
var intentStatuses = intent.StatusesAs[v1alpha1.IntentPhase]()

// environments are the environment switch of /intents; the first is the default.
var environments = []v1alpha1.Environment{v1alpha1.EnvironmentTest, v1alpha1.EnvironmentLive}

// choice is one link of a filter bar.
type choice struct {
	Label, URL string
	Current    bool
}

// intentRow is one row of the intents table.
type intentRow struct {
	ID, Type, Status, Created, Updated, ChainID string
	// Hash is the transaction, ShortHash its start and end for the table.
	Hash, ShortHash, HashLink string
}

// shortHash is 0x and the first and last few digits of a transaction hash.
func shortHash(h string) string {
	if len(h) <= 20 {
		return h
	}
	return h[:10] + "…" + h[len(h)-6:]
}

type intentsData struct {
	Title, Page string
	Account     registry.Account
	Environment string
	Status      string
	Environments,
	Statuses []choice
	Intents []intentRow
	// Newest links the first page when this is a later one; Older the next page when there is one.
	Newest, Older string
}

// timelineStep is one step of an intent's timeline. State is done, failed, current, waiting or
// skipped; Time is empty when the service did not record it.
type timelineStep struct {
	Name, State, Time string
	Facts             []fact
}

// fact is a labelled value of a step, linked (to a block explorer) when Link is set.
type fact struct {
	Label, Value, Link string
}

type intentData struct {
	Title, Page string
	Account     registry.Account
	ID, Type    string
	Status      string
	Environment string
	FromChain   string
	ToChain     string
	From, To    string
	Amount      string
	Detail      string
	Back        string
	Timeline    []timelineStep
}

// intentsTime is how the intents pages show a time: to the second, as the chain's events are.
func intentsTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}

// intentsSession is pageSession for the intents pages, which also need the intent store.
func (h *Handler) intentsSession(w http.ResponseWriter, r *http.Request) (registry.Account, bool) {
	account, ok := h.pageSession(w, r)
	if ok && h.deps.Intents == nil {
		h.problems.Write(w, r, problem.ServiceUnavailable, "Intents are not configured on this server.", nil)
		return account, false
	}
	return account, ok
}

// intentsPage is GET /intents: the signed-in account's intents of one environment, newest
// first, a page at a time, optionally of one status. It sends the browser to /sign-in without a
// session.
func (h *Handler) intentsPage(w http.ResponseWriter, r *http.Request) {
	account, ok := h.intentsSession(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	env := v1alpha1.EnvironmentTest
	if v := q.Get("environment"); v != "" {
		if env = v1alpha1.Environment(v); !slices.Contains(environments, env) {
			h.problems.Write(w, r, problem.BadRequest, "Query parameter environment must be test or live.",
				problem.Details{"parameter": "environment"})
			return
		}
	}
	var filter intentstore.Filter
	status := v1alpha1.IntentPhase(q.Get("status"))
	if status != "" {
		if !slices.Contains(intentStatuses, status) {
			h.problems.Write(w, r, problem.BadRequest,
				"Query parameter status must be one of pending, submitted, confirmed, failed or expired.",
				problem.Details{"parameter": "status"})
			return
		}
		filter.Statuses = []v1alpha1.IntentPhase{status}
	}
	after := q.Get("after")
	if after != "" {
		if _, err := intent.ObjectNameFromID(after); err != nil {
			h.problems.Write(w, r, problem.BadRequest, "Query parameter after must be an intent id, as the Older link gives it.",
				problem.Details{"parameter": "after"})
			return
		}
	}
	owner := intentstore.Owner{Account: account.Name, Environment: env}
	items, more, err := h.deps.Intents.List(r.Context(), owner, filter, after, intentsPageSize)
	if err != nil {
		h.intentsUnavailable(w, r, err)
		return
	}
	link := func(e v1alpha1.Environment, s v1alpha1.IntentPhase, after string) string {
		v := url.Values{}
		if e != v1alpha1.EnvironmentTest {
			v.Set("environment", string(e))
		}
		if s != "" {
			v.Set("status", string(s))
		}
		if after != "" {
			v.Set("after", after)
		}
		if len(v) == 0 {
			return h.basePath + "/intents"
		}
		return h.basePath + "/intents?" + v.Encode()
	}
	data := intentsData{
		Title: "Intents", Page: "intents", Account: account, Environment: string(env), Status: string(status),
	}
	for _, e := range environments {
		data.Environments = append(data.Environments, choice{Label: string(e), URL: link(e, status, ""), Current: e == env})
	}
	data.Statuses = append(data.Statuses, choice{Label: "all", URL: link(env, "", ""), Current: status == ""})
	for _, s := range intentStatuses {
		data.Statuses = append(data.Statuses, choice{Label: string(s), URL: link(env, s, ""), Current: s == status})
	}
	for i := range items {
		sum := &items[i]
		row := intentRow{
			ID: sum.ID, Type: string(sum.Type), Status: string(sum.Status), ChainID: sum.ChainID,
			Created: intentsTime(sum.CreatedAt), Updated: intentsTime(sum.UpdatedAt), Hash: sum.Hash,
			ShortHash: shortHash(sum.Hash),
		}
		if l := transferrecord.LinksOf(sum, h.explorer); l != nil {
			row.HashLink = l.Open
		}
		data.Intents = append(data.Intents, row)
	}
	if after != "" {
		data.Newest = link(env, status, "")
	}
	if more && len(items) > 0 {
		data.Older = link(env, status, items[len(items)-1].ID)
	}
	h.render(w, r, h.pages.intents, data)
}

// intentPage is GET /intents/{id}: one of the signed-in account's intents, of either environment,
// with its timeline. Another account's intent is not found, exactly like an unknown one.
func (h *Handler) intentPage(w http.ResponseWriter, r *http.Request) {
	account, ok := h.intentsSession(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	notFound := func() {
		h.problems.Write(w, r, problem.NotFound, "This account has no intent with that id.", nil)
	}
	if _, err := intent.ObjectNameFromID(id); err != nil {
		notFound()
		return
	}
	var obj *v1alpha1.TransferIntent
	for _, env := range environments {
		found, ok, err := h.deps.Intents.Get(r.Context(), intentstore.Owner{Account: account.Name, Environment: env}, id)
		if err != nil {
			h.intentsUnavailable(w, r, err)
			return
		}
		if ok {
			obj = found
			break
		}
	}
	if obj == nil {
		notFound()
		return
	}
	rec := transferrecord.Of(obj, h.deps.Chains, h.deps.Clock.Now())
	sum := transferrecord.SummaryOf(obj)
	back := h.basePath + "/intents"
	if rec.Environment != v1alpha1.EnvironmentTest {
		back += "?environment=" + url.QueryEscape(string(rec.Environment))
	}
	data := intentData{
		Title: "Intent " + rec.ID, Page: "intents", Account: account,
		ID: rec.ID, Type: string(rec.Type), Status: string(rec.Status), Environment: string(rec.Environment),
		FromChain: obj.Spec.FromChain, ToChain: obj.Spec.ToChain, From: rec.Request.From, To: rec.Request.To,
		Amount: rec.Request.Amount, Detail: rec.StatusDetail, Back: back,
		Timeline: timeline(&rec, &sum),
	}
	h.render(w, r, h.pages.intent, data)
}

// gaslessFact says where a gasless intent's signature stands.
func gaslessFact(status v1alpha1.IntentPhase, g *transferrecord.Gasless) fact {
	switch {
	case status == v1alpha1.IntentPhaseCancelling:
		return fact{Label: "Gasless", Value: "cancelled by its user; a filler that read it can still open it until " + g.OpenDeadline}
	case g.Signature != "":
		return fact{Label: "Gasless", Value: "signed: a filler opens the order and pays its gas"}
	}
	return fact{Label: "Gasless", Value: "waiting for the user's signature (POST /v2/transfers/{id}/signature)"}
}

// timeline is created → submitted → confirmed, failed, expired or cancelled. The service records the time
// of creation and of the latest change of status, so a step before the latest one that was done
// shows no time.
func timeline(rec *transferrecord.Record, sum *transferrecord.Summary) []timelineStep {
	links := transferrecord.Links{}
	if rec.Links != nil {
		links = *rec.Links
	}
	updated := intentsTime(sum.UpdatedAt)
	created := timelineStep{Name: "Created", State: "done", Time: intentsTime(sum.CreatedAt),
		Facts: []fact{{Label: "Expires", Value: intentsTime(parseRecordTime(rec.ExpiresAt))}}}
	submitted := timelineStep{Name: "Submitted", State: "waiting"}
	if rec.Metadata.Hash != "" {
		submitted.State = "done"
		submitted.Facts = append(submitted.Facts, fact{Label: "Transaction", Value: rec.Metadata.Hash, Link: links.Open})
		if rec.Metadata.ChainID != "" {
			submitted.Facts = append(submitted.Facts, fact{Label: "Chain", Value: rec.Metadata.ChainID})
		}
	}
	final := timelineStep{Name: "Confirmed", State: "waiting"}
	if g := rec.Gasless; g != nil {
		created.Facts = append(created.Facts, gaslessFact(rec.Status, g))
	}
	if rec.Status == v1alpha1.IntentPhasePending || intent.Takes(rec.Status, intent.EventSign) {
		created.State = "current" // waiting for the user's transaction, or signature
	}
	switch rec.Status {
	case v1alpha1.IntentPhaseSubmitted:
		submitted.State, submitted.Time = "current", updated
	case v1alpha1.IntentPhaseConfirmed:
		final.State, final.Time = "done", updated
	case v1alpha1.IntentPhaseFailed:
		final.Name, final.State, final.Time = "Failed", "failed", updated
	case v1alpha1.IntentPhaseExpired:
		final.Name, final.State, final.Time = "Expired", "failed", updated
	case v1alpha1.IntentPhaseCancelled:
		final.Name, final.State, final.Time = "Cancelled", "failed", updated
	}
	if intent.Finished(rec.Status) && submitted.State == "waiting" {
		submitted.State = "skipped" // ended without a transaction
	}
	// The block that holds the transaction: where it was confirmed (or reverted), or, while
	// submitted, where the watcher saw it so far.
	if rec.BlockNumber > 0 {
		block := fact{Label: "Block", Value: strconv.FormatInt(rec.BlockNumber, 10)}
		if rec.Status == v1alpha1.IntentPhaseSubmitted {
			submitted.Facts = append(submitted.Facts, block)
		} else {
			final.Facts = append(final.Facts, block)
		}
	}
	if f := rec.Failure; f != nil {
		final.Facts = append(final.Facts, fact{Label: "Failure", Value: string(f.Code)})
	}
	if rec.StatusDetail != "" && final.State == "failed" {
		final.Facts = append(final.Facts, fact{Label: "Reason", Value: rec.StatusDetail})
	}
	if r := rec.Refund; r != nil && (r.State == transferrecord.RefundAvailable || r.State == transferrecord.RefundWaiting) {
		final.Facts = append(final.Facts, refundFact(r)) // a sent or final one is the Refund hash below
	}
	if f := rec.Fill; f != nil {
		final.Facts = append(final.Facts, fact{Label: "Fill", Value: f.Hash, Link: links.Fill})
		if f.BlockNumber > 0 {
			final.Facts = append(final.Facts, fact{Label: "Fill block", Value: strconv.FormatInt(f.BlockNumber, 10)})
		}
		final.Facts = append(final.Facts, fact{Label: "Fill chain", Value: f.ChainID})
	}
	if rec.RefundHash != "" {
		final.Facts = append(final.Facts, fact{Label: "Refund", Value: rec.RefundHash, Link: links.Refund})
	}
	return []timelineStep{created, submitted, final}
}

// refundFact says when the escrow of an order nobody filled can be taken back; the transaction
// itself is the API's (GET /v2/transfers/{id}), which a wallet sends.
func refundFact(r *transferrecord.Refund) fact {
	switch {
	case r.State == transferrecord.RefundAvailable:
		return fact{Label: "Refund", Value: "available now: the record's refund.transaction returns the escrow to its owner"}
	case r.AvailableAt != "":
		return fact{Label: "Refund", Value: "the deadline passed unfilled; refundable from " + intentsTime(parseRecordTime(r.AvailableAt))}
	}
	return fact{Label: "Refund", Value: "the deadline passed unfilled; refundable after the contract's refund delay"}
}

func parseRecordTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// explorer is the block explorer of a chain, "" without one (or without Deps.Chains).
func (h *Handler) explorer(chainID string) string {
	if h.deps.Chains == nil {
		return ""
	}
	ch, _ := h.deps.Chains(chainID)
	return ch.ExplorerURL
}

// intentsUnavailable answers 503 when the intents cannot be read (the archive or the Kubernetes
// API did not answer), 500 for anything else.
func (h *Handler) intentsUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, intentstore.ErrUnavailable) || errors.Is(err, intentstore.ErrArchiveUnavailable) {
		h.log.Error(err, "reading intents", "correlationId", problem.CorrelationID(r.Context()))
		w.Header().Set("Retry-After", "5")
		h.problems.Write(w, r, problem.ServiceUnavailable, "The intents cannot be read right now; retry shortly.", nil)
		return
	}
	h.internalError(w, r, "reading intents", err)
}
