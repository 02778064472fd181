// Package archive_test runs the whole service (service.Setup, as the binary assembles it) with an
// archive on a real PostgreSQL and a real API server: a finished intent leaves the API server by
// itself after --archive-after and is still served, by id and in the list, over HTTP; /health
// reports the archive; with PostgreSQL killed, reads that need it answer 503 within the deadline.
package archive_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

func TestFinishedIntentsMoveToTheArchiveAndAreStillServed(t *testing.T) {
	pg := pgtest.Start(t)
	stack := servicetest.Start(t, servicetest.WithServiceOptions(func(o *service.Options) {
		o.Archive.URL, o.Archive.After, o.Archive.Timeout = pg.URL, time.Second, 500*time.Millisecond
	}))
	ctx := context.Background()
	account := stack.CreateAccount(t, "Archive").Object.Name
	key := stack.CreateKey(t, account, "archive", nil)

	ti := finishedIntent(stack.Namespace, account)
	if err := stack.Client.Create(ctx, ti); err != nil {
		t.Fatal(err)
	}
	finish(t, stack.Client, ti, v1alpha1.IntentPhaseConfirmed, "")
	// A failed intent keeps its failure code in the archive (the object, status and all).
	failed := finishedIntent(stack.Namespace, account)
	if err := stack.Client.Create(ctx, failed); err != nil {
		t.Fatal(err)
	}
	finish(t, stack.Client, failed, v1alpha1.IntentPhaseFailed, v1alpha1.FailureOutOfGas)
	for _, obj := range []*v1alpha1.TransferIntent{ti, failed} {
		testenv.WaitFor(t, 60*time.Second, "the intent to leave the API server", func() bool {
			err := stack.Client.Get(ctx, client.ObjectKeyFromObject(obj), &v1alpha1.TransferIntent{})
			return apierrors.IsNotFound(err)
		})
	}

	var got struct {
		ID, Status string
		Failure    *struct{ Code string }
	}
	if status, body := get(t, stack.URL+"/v2/transfers/"+ti.Spec.ID, key); status != http.StatusOK || json.Unmarshal(body, &got) != nil ||
		got.ID != ti.Spec.ID || got.Status != "confirmed" || got.Failure != nil {
		t.Fatalf("GET of the archived intent: %d %s", status, body)
	}
	if status, body := get(t, stack.URL+"/v2/transfers/"+failed.Spec.ID, key); status != http.StatusOK || json.Unmarshal(body, &got) != nil ||
		got.Status != "failed" || got.Failure == nil || got.Failure.Code != string(v1alpha1.FailureOutOfGas) {
		t.Fatalf("GET of the archived failed intent: %d %s; want failed with failure.code out_of_gas", status, body)
	}
	var list []struct{ ID string }
	if status, body := get(t, stack.URL+"/v2/transfers", key); status != http.StatusOK || json.Unmarshal(body, &list) != nil ||
		len(list) != 2 || list[0].ID != failed.Spec.ID || list[1].ID != ti.Spec.ID {
		t.Fatalf("the list with the archived intents: %d %s", status, body)
	}
	// /health reports the probe's last answer, every 2 s (apihealth.DefaultInterval): the archive
	// opened in the background after the first probe may read "unreachable" until the next one
	// (make flake-hunt, under load, once the archiver was quicker than the probe).
	var health struct{ Checks map[string]string }
	testenv.WaitFor(t, 10*time.Second, "/health to report the archive ok", func() error {
		if _, body := get(t, stack.URL+"/health", ""); json.Unmarshal(body, &health) != nil || health.Checks["archive"] != "ok" {
			return fmt.Errorf("/health: %s", body)
		}
		return nil
	})

	pg.Kill()
	start := time.Now()
	status, body := get(t, stack.URL+"/v2/transfers", key)
	if status != http.StatusServiceUnavailable || time.Since(start) > 3*time.Second {
		t.Fatalf("the list with PostgreSQL killed: %d after %s %s; want 503 within the deadline", status, time.Since(start), body)
	}
	testenv.WaitFor(t, 60*time.Second, "/health to report the archive unreachable", func() bool {
		_, body := get(t, stack.URL+"/health", "")
		return json.Unmarshal(body, &health) == nil && health.Checks["archive"] == "unreachable"
	})
}

func finishedIntent(namespace, account string) *v1alpha1.TransferIntent {
	id := intent.NewIntentID(time.Now())
	name, _ := intent.ObjectNameFromID(id)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace,
			Labels: v1alpha1.IntentLabels(account, v1alpha1.IntentTypeTransfer)},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			Type: v1alpha1.IntentTypeTransfer, FromChain: "eip155:11155111", ToChain: "eip155:11155111",
			OrderID: "0x" + fmt.Sprintf("%064x", time.Now().UnixNano()),
			Request: v1alpha1.TransferRequest{
				From: "eip155:11155111:0x1111111111111111111111111111111111111111", To: "eip155:11155111:0x2222222222222222222222222222222222222222",
				Asset: v1alpha1.TransferAsset{In: "eip155:11155111:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"}, Amount: "1.5",
			},
			Tx:        &v1alpha1.TransactionPayload{To: "0x2222222222222222222222222222222222222222", Value: "1500000000000000000", ChainID: 11155111},
			ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour).Truncate(time.Second)),
		},
	}
}

// finish moves ti to submitted, then to end (confirmed, or failed with code), as the chain
// watcher does (the controller may write the status first: a conflict is read again).
func finish(t *testing.T, kube client.Client, ti *v1alpha1.TransferIntent, end v1alpha1.IntentPhase, code v1alpha1.FailureCode) {
	t.Helper()
	for _, phase := range []v1alpha1.IntentPhase{v1alpha1.IntentPhaseSubmitted, end} {
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(ti), ti); err != nil {
				return err
			}
			now := metav1.NewTime(time.Now().Truncate(time.Second))
			ti.Status.Phase, ti.Status.UpdatedAt = phase, &now
			ti.Status.Hash, ti.Status.BlockNumber = "0x"+fmt.Sprintf("%064x", 1), 7
			ti.Status.BlockHash = "0x" + fmt.Sprintf("%064x", 2)
			if phase == v1alpha1.IntentPhaseFailed {
				ti.Status.FailureCode = code
			}
			return kube.Status().Update(context.Background(), ti)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func get(t *testing.T, url, key string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("api-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}
