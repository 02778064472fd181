package apiserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
)

// downArchive is an archive that does not answer: PostgreSQL gone. The real archive's errors are
// tested in internal/archive against a server that is killed and one that stalls; here the HTTP
// answers they lead to.
type downArchive struct{}

// errArchiveDown is what pgx returns for a server that refuses connections: a network error, which
// must not read as the Kubernetes API's (kubeapi.Unreachable would say yes to it).
var errArchiveDown = fmt.Errorf("failed to connect to `host=127.0.0.1 user=postgres database=tis`: %w",
	&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED})

func (downArchive) Get(context.Context, archive.Scope, string) (archive.Record, bool, error) {
	return archive.Record{}, false, errArchiveDown
}

func (downArchive) List(context.Context, archive.Scope, archive.Filter, *archive.Cursor, int) ([]archive.Record, error) {
	return nil, errArchiveDown
}

func (downArchive) ByIdempotencyKey(context.Context, string, string) (archive.Record, bool, error) {
	return archive.Record{}, false, errArchiveDown
}

func (downArchive) ByOrderID(context.Context, string, string) ([]archive.Record, error) {
	return nil, errArchiveDown
}

// Reads that need the archive, and a create whose Idempotency-Key might name an archived intent,
// answer a 503 problem with Retry-After while the archive is down; a list never answers only the
// live intents as if that were all. A create without a key needs no archive.
func TestArchiveDownAnswers503(t *testing.T) {
	h := newTransferHarness(t, func(c *transferConfig) {
		c.store = func(o *intentstore.Options) { o.Archive = downArchive{} }
	})
	if resp, raw := h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String()); resp.StatusCode != http.StatusCreated {
		t.Fatalf("a create without a key: %d %s", resp.StatusCode, raw)
	}
	for name, call := range map[string]func() (*http.Response, []byte){
		"list": func() (*http.Response, []byte) {
			return h.do(t, http.MethodGet, "/v2/transfers", withKey(testKeyA), "")
		},
		"get of an id not live": func() (*http.Response, []byte) {
			return h.do(t, http.MethodGet, "/v2/transfers/int_transfer_01ARZ3NDEKTSV4RRFFQ69G5FAV", withKey(testKeyA), "")
		},
		"attestation of an order not live": func() (*http.Response, []byte) {
			return h.do(t, http.MethodGet, "/v2/orders/0x"+strings.Repeat("ab", 32)+"/attestation", withKey(testKeyA), "")
		},
		"create with a key": func() (*http.Response, []byte) {
			return h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String(), "Idempotency-Key", "archived-maybe")
		},
	} {
		resp, raw := call()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
			!strings.Contains(string(raw), "archive") || strings.Contains(string(raw), "5432") {
			t.Errorf("%s: %d (Retry-After %q) %s; want a 503 problem about the archive, with Retry-After, naming no address",
				name, resp.StatusCode, resp.Header.Get("Retry-After"), raw)
		}
	}
}
