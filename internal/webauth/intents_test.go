package webauth

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// testChain has an explorer; testEvilChain's "explorer" is a javascript: URL, which the pages
// must never turn into a link that runs.
const (
	testChain       = "eip155:11155111"
	testEvilChain   = "eip155:666"
	testExplorerURL = "https://sepolia.explorer.test"
)

func testChains(chainID string) (registry.Chain, bool) {
	switch chainID {
	case testChain:
		return registry.Chain{ID: chainID, ExplorerURL: testExplorerURL}, true
	case testEvilChain:
		return registry.Chain{ID: chainID, ExplorerURL: "javascript:alert(1)//"}, true
	}
	return registry.Chain{}, false
}

// recordingIntents is the real intent store (its in-memory index, filled as the informer fills
// it) that records the owners it was asked for, and fails when err is set.
type recordingIntents struct {
	store  *intentstore.Store
	mu     sync.Mutex
	owners []intentstore.Owner
	err    error
}

func newRecordingIntents(t *testing.T) *recordingIntents {
	t.Helper()
	store, err := intentstore.New(nil, nil, nil, intentstore.Options{Namespace: testNamespace})
	if err != nil {
		t.Fatal(err)
	}
	return &recordingIntents{store: store}
}

func (f *recordingIntents) record(owner intentstore.Owner) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.owners = append(f.owners, owner)
	return f.err
}

func (f *recordingIntents) List(ctx context.Context, owner intentstore.Owner, filter intentstore.Filter, after string, limit int) ([]transferrecord.Summary, bool, error) {
	if err := f.record(owner); err != nil {
		return nil, false, err
	}
	return f.store.List(ctx, owner, filter, after, limit)
}

func (f *recordingIntents) Get(ctx context.Context, owner intentstore.Owner, id string) (*v1alpha1.TransferIntent, bool, error) {
	if err := f.record(owner); err != nil {
		return nil, false, err
	}
	return f.store.Get(ctx, owner, id)
}

// accounts returns the accounts the store was asked about.
func (f *recordingIntents) accounts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, o := range f.owners {
		if !slices.Contains(out, o.Account) {
			out = append(out, o.Account)
		}
	}
	return out
}

func (f *recordingIntents) add(obj *v1alpha1.TransferIntent) *v1alpha1.TransferIntent {
	f.store.EventHandler().OnAdd(obj, false)
	return obj
}

// testIntentTime is when the first test intent was created; the n-th is n minutes later.
var testIntentTime = time.Date(2029, 12, 31, 10, 0, 0, 0, time.UTC)

func hex64(n int) string { return fmt.Sprintf("0x%064x", n) }

// testIntent is an intent of the account created n minutes after testIntentTime, in the phase,
// with what the watcher records with that phase: the transaction of a submitted, confirmed or
// failed one, the block of a confirmed one, the reason of a failed one.
func testIntent(account string, env v1alpha1.Environment, phase v1alpha1.IntentPhase, n int) *v1alpha1.TransferIntent {
	created := testIntentTime.Add(time.Duration(n) * time.Minute)
	id := intent.NewIntentID(created)
	name, err := intent.ObjectNameFromID(id)
	if err != nil {
		panic(err)
	}
	ti := &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace,
			Labels: v1alpha1.IntentLabels(account, v1alpha1.IntentTypeTransfer)},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: env,
			Type: v1alpha1.IntentTypeTransfer, FromChain: testChain, ToChain: testChain,
			OrderID: hex64(1000 + n),
			Request: v1alpha1.TransferRequest{
				From: testChain + ":0x1111111111111111111111111111111111111111", To: testChain + ":0x2222222222222222222222222222222222222222",
				Asset: v1alpha1.TransferAsset{In: testChain + ":0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"}, Amount: "1.5",
			},
			Tx:        &v1alpha1.TransactionPayload{To: "0x2222222222222222222222222222222222222222", Value: "1500000000000000000", ChainID: 11155111},
			ExpiresAt: metav1.NewTime(created.Add(time.Hour)),
		},
	}
	if phase == v1alpha1.IntentPhasePending {
		return ti
	}
	updated := metav1.NewTime(created.Add(90 * time.Second))
	ti.Status.Phase, ti.Status.UpdatedAt = phase, &updated
	switch phase {
	case v1alpha1.IntentPhaseSubmitted:
		ti.Status.Hash = hex64(n)
	case v1alpha1.IntentPhaseConfirmed:
		ti.Status.Hash, ti.Status.BlockNumber, ti.Status.BlockHash = hex64(n), 4242000+int64(n), hex64(9000+n)
	case v1alpha1.IntentPhaseFailed:
		ti.Status.Hash, ti.Status.FailureCode = hex64(n), v1alpha1.FailureOutOfGas
		ti.Status.Conditions = []metav1.Condition{{Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionFalse,
			Reason: "Reverted", Message: "the transaction reverted", LastTransitionTime: updated}}
	}
	return ti
}

// rowIDs are the intent ids of the rows of an /intents page, in order.
var rowID = regexp.MustCompile(`<tr data-id="([^"]+)"`)

func rowIDs(page string) []string {
	var ids []string
	for _, m := range rowID.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func idsOf(objs ...*v1alpha1.TransferIntent) []string {
	var ids []string
	for _, o := range objs {
		ids = append(ids, o.Spec.ID)
	}
	return ids
}

// getPage GETs a page with the session and fails unless it is 200.
func (h *harness) getPage(path, cookie string) string {
	h.t.Helper()
	resp, body := h.do(request{method: http.MethodGet, path: path, cookie: cookie})
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	return string(body)
}

func TestIntentsPagesRedirectWithoutSession(t *testing.T) {
	h := newHarness(t)
	ti := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhasePending, 0))
	for _, path := range []string{"/intents", "/intents?status=pending", "/intents/" + ti.Spec.ID} {
		for _, cookie := range []string{"", "v1.bogus.bogus"} {
			resp, body := h.do(request{method: http.MethodGet, path: path, cookie: cookie})
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/sign-in" {
				t.Fatalf("GET %s with cookie %q: %d Location=%q", path, cookie, resp.StatusCode, resp.Header.Get("Location"))
			}
			if strings.Contains(string(body), ti.Spec.ID) {
				t.Fatalf("GET %s without a session shows the intent", path)
			}
		}
	}
	if got := h.intents.accounts(); len(got) != 0 {
		t.Fatalf("the store was read without a session, for %v", got)
	}
}

func TestIntentsPageShowsOnlyTheAccountsIntents(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	h.addAccount("bob")
	pending := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhasePending, 1))
	submitted := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSubmitted, 2))
	confirmed := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseConfirmed, 3))
	expired := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseExpired, 4))
	live := h.intents.add(testIntent("alice", v1alpha1.EnvironmentLive, v1alpha1.IntentPhaseFailed, 5))
	bobs := h.intents.add(testIntent("bob", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseConfirmed, 6))
	bobsLive := h.intents.add(testIntent("bob", v1alpha1.EnvironmentLive, v1alpha1.IntentPhasePending, 7))

	// Newest first, the test environment by default.
	page := h.getPage("/intents", cookie)
	if got, want := rowIDs(page), idsOf(expired, confirmed, submitted, pending); !slices.Equal(got, want) {
		t.Fatalf("/intents rows %v, want %v", got, want)
	}
	for _, want := range []string{
		`data-status="confirmed"`, `<span class="status status-submitted">submitted</span>`,
		`href="` + testExplorerURL + `/tx/` + hex64(3) + `"`, // the confirmed one's transaction, linked
		`href="/intents/` + confirmed.Spec.ID + `"`,
		`href="/keys"`, `aria-current="page" id="nav-intents"`, // the account bar's links
	} {
		if !strings.Contains(page, want) {
			t.Fatalf("/intents lacks %q:\n%s", want, page)
		}
	}
	if got, want := rowIDs(h.getPage("/intents?environment=live", cookie)), idsOf(live); !slices.Equal(got, want) {
		t.Fatalf("live rows %v, want %v", got, want)
	}

	// Each status filter shows that status only.
	for status, want := range map[string][]string{
		"pending": idsOf(pending), "submitted": idsOf(submitted), "confirmed": idsOf(confirmed),
		"expired": idsOf(expired), "failed": nil,
	} {
		page := h.getPage("/intents?status="+status, cookie)
		if got := rowIDs(page); !slices.Equal(got, want) {
			t.Fatalf("status=%s rows %v, want %v", status, got, want)
		}
		if !strings.Contains(page, `data-status="`+status+`" aria-current="true"`) {
			t.Fatalf("status=%s: the filter is not marked as current", status)
		}
		if want == nil && !strings.Contains(page, `id="no-intents"`) {
			t.Fatalf("status=%s: no empty state", status)
		}
	}
	if got, want := rowIDs(h.getPage("/intents?environment=live&status=failed", cookie)), idsOf(live); !slices.Equal(got, want) {
		t.Fatalf("live failed rows %v, want %v", got, want)
	}

	// Bob's intents are nowhere, and his ids are not found: the same answer as an unknown id.
	for _, path := range []string{"/intents", "/intents?environment=live", "/intents?status=confirmed", "/intents?environment=live&status=pending"} {
		page := h.getPage(path, cookie)
		if strings.Contains(page, bobs.Spec.ID) || strings.Contains(page, bobsLive.Spec.ID) {
			t.Fatalf("%s shows bob's intents", path)
		}
	}
	unknown := intent.NewIntentID(testIntentTime)
	for _, id := range []string{bobs.Spec.ID, bobsLive.Spec.ID, unknown, "not-an-id", "int_transfer_<b>"} {
		resp, body := h.do(request{method: http.MethodGet, path: "/intents/" + id, cookie: cookie})
		assertProblem(t, resp, body, problem.NotFound)
		if strings.Contains(string(body), bobs.Spec.OrderID) {
			t.Fatalf("the 404 of %s tells about bob's intent", id)
		}
	}
	// Alice's own, in either environment, are found.
	for _, ti := range []*v1alpha1.TransferIntent{confirmed, live} {
		if page := h.getPage("/intents/"+ti.Spec.ID, cookie); !strings.Contains(page, ti.Spec.ID) {
			t.Fatalf("/intents/%s lacks its id", ti.Spec.ID)
		}
	}
	if got := h.intents.accounts(); !slices.Equal(got, []string{"alice"}) {
		t.Fatalf("the store was asked about the intents of %v, want alice's only", got)
	}
}

func TestIntentsPagePages(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	var all []*v1alpha1.TransferIntent
	for i := range 2*intentsPageSize + 7 {
		phase := v1alpha1.IntentPhaseConfirmed
		if i%2 == 1 {
			phase = v1alpha1.IntentPhaseExpired
		}
		all = append(all, h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, phase, i)))
	}
	slices.Reverse(all)
	olderLink := regexp.MustCompile(`<a id="older" href="([^"]+)"`)
	var seen []string
	path, pages := "/intents", 0
	for path != "" {
		page := h.getPage(strings.ReplaceAll(path, "&amp;", "&"), cookie)
		pages++
		ids := rowIDs(page)
		if len(ids) == 0 || len(ids) > intentsPageSize {
			t.Fatalf("%s: %d rows", path, len(ids))
		}
		if pages > 1 && !strings.Contains(page, `<a id="newest" href="/intents">`) {
			t.Fatalf("%s: no link to the newest", path)
		}
		seen = append(seen, ids...)
		path = ""
		if m := olderLink.FindStringSubmatch(page); m != nil {
			path = m[1]
		}
	}
	if pages != 3 || !slices.Equal(seen, idsOf(all...)) {
		t.Fatalf("%d pages showed %d intents; want 3 pages of all %d, newest first", pages, len(seen), len(all))
	}

	// The filter is kept from page to page.
	page := h.getPage("/intents?status=expired", cookie)
	m := olderLink.FindStringSubmatch(page)
	if m == nil || !strings.Contains(m[1], "status=expired") {
		t.Fatalf("the Older link of expired intents: %v", m)
	}
	next := rowIDs(h.getPage(strings.ReplaceAll(m[1], "&amp;", "&"), cookie))
	for _, id := range next {
		if !strings.Contains(h.getPage("/intents/"+id, cookie), `id="intent-status" class="status status-expired"`) {
			t.Fatalf("the second page of expired intents shows %s, which is not expired", id)
		}
	}
	if len(next) != (len(all)/2)-intentsPageSize {
		t.Fatalf("second page of expired: %d rows", len(next))
	}
}

func TestIntentPageTimeline(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	confirmed := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseConfirmed, 1))
	expired := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseExpired, 2))
	failed := h.intents.add(testIntent("alice", v1alpha1.EnvironmentLive, v1alpha1.IntentPhaseFailed, 3))
	pending := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhasePending, 4))
	step := regexp.MustCompile(`data-step="([A-Za-z]+)" data-state="([a-z]+)"`)
	steps := func(page string) string {
		var out []string
		for _, m := range step.FindAllStringSubmatch(page, -1) {
			out = append(out, m[1]+":"+m[2])
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		ti       *v1alpha1.TransferIntent
		steps    string
		contains []string
	}{
		{confirmed, "Created:done Submitted:done Confirmed:done", []string{
			"2029-12-31 10:01:00 UTC", // created
			"2029-12-31 10:02:30 UTC", // confirmed, the latest change
			`href="` + testExplorerURL + `/tx/` + hex64(1) + `"`, "4242001", testChain,
		}},
		{expired, "Created:done Submitted:skipped Expired:failed", []string{"2029-12-31 10:03:30 UTC", "never"}},
		{failed, "Created:done Submitted:done Failed:failed", []string{"the transaction reverted", "out_of_gas", `href="/intents?environment=live"`}},
		{pending, "Created:current Submitted:waiting Confirmed:waiting", []string{"not yet"}},
	} {
		page := h.getPage("/intents/"+c.ti.Spec.ID, cookie)
		if got := steps(page); got != c.steps {
			t.Fatalf("%s timeline %q, want %q", c.ti.Status.Phase, got, c.steps)
		}
		if c.ti == confirmed {
			if final := page[strings.Index(page, `data-step="Confirmed"`):]; !strings.Contains(final, "<dd><code class=\"hash\">4242001</code></dd>") {
				t.Fatalf("the block is not on the Confirmed step:\n%s", final)
			}
		}
		for _, want := range c.contains {
			if !strings.Contains(page, want) {
				t.Fatalf("the %s intent's page lacks %q:\n%s", c.ti.Status.Phase, want, page)
			}
		}
	}
}

func TestIntentsPagesAreStrictAndEscaped(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	evil := testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseFailed, 1)
	evil.Spec.FromChain = testEvilChain
	evil.Status.Hash = `0x"><script>alert(1)</script>`
	evil.Status.Conditions[0].Message = `<img/src=x/onerror=alert(2)>`
	evil.Spec.Request.From = `eip155:1:<b>bold</b>`
	h.intents.add(evil)

	for _, path := range []string{"/intents", "/intents/" + evil.Spec.ID, "/keys"} {
		resp, body := h.do(request{method: http.MethodGet, path: path, cookie: cookie})
		page := string(body)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") != contentSecurityPolicy ||
			resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, resp.Header)
		}
		if m := inlineScript.FindString(page); m != "" {
			t.Fatalf("%s has inline script %q", path, m)
		}
		if strings.Contains(page, "style=") || strings.Contains(page, "<style") {
			t.Fatalf("%s has inline style", path)
		}
		for _, raw := range []string{"<script>alert(1)", "<img", "<b>bold</b>", "javascript:"} {
			if strings.Contains(page, raw) {
				t.Fatalf("%s renders %q unescaped:\n%s", path, raw, page)
			}
		}
		// The pages link each other.
		if !strings.Contains(page, `id="nav-keys"`) || !strings.Contains(page, `href="/intents" id="nav-intents"`) &&
			!strings.Contains(page, `href="/intents" aria-current="page" id="nav-intents"`) {
			t.Fatalf("%s lacks the links between the pages", path)
		}
	}
	page := h.getPage("/intents/"+evil.Spec.ID, cookie)
	for _, want := range []string{"&lt;img/src=x/onerror=alert(2)&gt;", "&lt;b&gt;bold&lt;/b&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"} {
		if !strings.Contains(page, want) {
			t.Fatalf("/intents/{id} lacks the escaped %q:\n%s", want, page)
		}
	}
}

func TestIntentsPageErrors(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	ti := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhasePending, 1))
	for _, query := range []string{"status=done", "status=pending,failed", "environment=prod", "after=nope"} {
		resp, body := h.do(request{method: http.MethodGet, path: "/intents?" + query, cookie: cookie})
		assertProblem(t, resp, body, problem.BadRequest)
	}

	h.intents.err = fmt.Errorf("list: %w", intentstore.ErrArchiveUnavailable)
	for _, path := range []string{"/intents", "/intents/" + ti.Spec.ID} {
		resp, body := h.do(request{method: http.MethodGet, path: path, cookie: cookie})
		assertProblem(t, resp, body, problem.ServiceUnavailable)
		if resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: 503 without Retry-After", path)
		}
	}
	h.intents.err = fmt.Errorf("something else")
	resp, body := h.do(request{method: http.MethodGet, path: "/intents", cookie: cookie})
	assertProblem(t, resp, body, problem.InternalError)
	if strings.Contains(string(body), "something else") {
		t.Fatal("the 500 tells what failed")
	}
}

// An unfilled order's page says its refund can be taken (the transaction itself is the API's);
// the refund becomes available by the guardian's allowance here, as the record decides it.
func TestTheIntentPageSaysTheRefundIsAvailable(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	ti := testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSubmitted, 1)
	contract := common.HexToAddress("0x5e77000000000000000000000000000000000001")
	order := settlement.Order{
		OriginSettler: contract, OriginChainId: big.NewInt(11155111), User: common.HexToAddress("0x1111111111111111111111111111111111111111"),
		DestinationChainId: big.NewInt(11155111), AmountIn: big.NewInt(1), MinAmountOut: big.NewInt(1),
		Deadline: uint64(testIntentTime.Add(time.Hour).Unix()), DestinationSettler: contract,
	}
	data, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := settlement.ID(order)
	ti.Spec.Type, ti.Spec.OrderID = v1alpha1.IntentTypeSwap, id.Hex()
	ti.Spec.Tx = &v1alpha1.TransactionPayload{To: contract.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: 11155111}
	ti.Status.RefundAllowed = true
	h.intents.add(ti)
	if page := h.getPage("/intents/"+ti.Spec.ID, cookie); !strings.Contains(page, "available now") {
		t.Fatalf("the page of a refundable order does not say so:\n%s", page)
	}
}
