package apicost_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// An intent that expires costs the API server three writes in all: its create, its final status
// (expired) and the archiver's delete. Its phase is no label (a metadata patch per transition),
// and no Event is recorded for its expiry, its Ready condition or its deletion (an Event per
// intent is a write each, and an hour of etcd at the event TTL); docs/decisions.md, "An intent
// costs the API server three writes".
func TestAnIntentThatExpiresCostsTheAPIServerThreeWrites(t *testing.T) {
	pg := pgtest.Start(t)
	stack := servicetest.Start(t, servicetest.WithServiceOptions(func(o *service.Options) {
		o.Archive.URL, o.Archive.After, o.Archive.Timeout = pg.URL, time.Second, 2*time.Second
		o.Transfers.IntentTTL = 2 * time.Second
	}))
	api := servingTenant(t, stack)
	waitArchived(t, stack)
	metrics := apiServerMetrics(t, stack)

	before := metrics()
	for range creates {
		if o := api.Create(false); o.Status != http.StatusCreated {
			t.Fatalf("create: %s", o)
		}
	}
	waitArchived(t, stack)
	waitIntentsReconciled(t)
	writes := writesSince(before, metrics())
	t.Logf("API-server writes for %d intents created, expired and archived: %s", creates, writes)

	want := map[string]int{"POST transferintents": creates, "PATCH transferintents/status": creates, "DELETE transferintents": creates}
	for what, n := range want {
		if writes[what] != n {
			t.Errorf("%s: %d; want %d", what, writes[what], n)
		}
	}
	for what, n := range writes {
		if _, expected := want[what]; !expected && (strings.Contains(what, "transferintents") || strings.HasSuffix(what, " events")) {
			t.Errorf("%s: %d; want none (no label for the phase, no Event for an expiry)", what, n)
		}
	}
}

// waitArchived waits until no TransferIntent is left: each expired and moved to the archive.
func waitArchived(t *testing.T, stack *servicetest.Stack) {
	t.Helper()
	testenv.WaitFor(t, 90*time.Second, "every intent to expire and move to the archive", func() error {
		var list v1alpha1.TransferIntentList
		if err := stack.Client.List(context.Background(), &list, client.InNamespace(stack.Namespace)); err != nil {
			return err
		}
		if n := len(list.Items); n > 0 {
			return fmt.Errorf("%d intents left, the first %s", n, list.Items[0].Status.Phase)
		}
		return nil
	})
}
