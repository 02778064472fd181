package webauth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
	"github.com/transferintent/transfer-intent-service/internal/webauth"
)

// On a real API server with the real controllers: the operator creates the session Secret, a key
// created from a session is owned by its Account, and deleting the Account refuses the key on /v2
// within a second (the Account controller withdraws the account from the key index; envtest runs
// no garbage collector, so this does not rely on the key object being deleted).
func TestIntegrationDeletingAccountRefusesItsKeys(t *testing.T) {
	stack := servicetest.Start(t)
	ctx := context.Background()
	client := &http.Client{Transport: openapitest.NewValidator(t).Transport(t, nil)}
	call := func(method, path, body, cookie, apiKey string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, stack.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: webauth.CookieName, Value: cookie})
		}
		if apiKey != "" {
			req.Header.Set("api-key", apiKey)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}

	// The operator made the session Secret itself.
	var sessionSecret corev1.Secret
	if err := stack.Client.Get(ctx, types.NamespacedName{Namespace: stack.Namespace, Name: stack.SessionSecretName}, &sessionSecret); err != nil {
		t.Fatalf("the session Secret was not created: %v", err)
	}
	if n := len(sessionSecret.Data[webauth.SessionKeyCurrent]); n < webauth.MinSessionKeyBytes {
		t.Fatalf("session key of %d bytes", n)
	}

	account := stack.CreateAccount(t, "Integration Person")
	resp, body := call(http.MethodPost, "/auth/sign-in", fmt.Sprintf(`{"email":%q,"password":%q}`, account.Email, account.Password), "", "")
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("sign-in: %d %s", resp.StatusCode, body)
	}
	var cookie string
	for _, c := range resp.Cookies() {
		if c.Name == webauth.CookieName {
			cookie = c.Value
		}
	}

	create := func(name string) (id, key string) {
		t.Helper()
		resp, body := call(http.MethodPost, "/auth/api-key/create", `{"name":"`+name+`"}`, cookie, "")
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: %d %s", resp.StatusCode, body)
		}
		var created struct{ ID, Key string }
		if err := json.Unmarshal(body, &created); err != nil {
			t.Fatal(err)
		}
		return created.ID, created.Key
	}
	id, key := create("integration")
	if resp, body := call(http.MethodGet, "/v2/tokens", "", "", key); resp.StatusCode != http.StatusOK {
		t.Fatalf("the new key on /v2: %d %s", resp.StatusCode, body)
	}

	// What the API server stores: the hash, an owner reference with the Account's UID.
	var stored v1alpha1.ApiKey
	if err := stack.Client.Get(ctx, types.NamespacedName{Namespace: stack.Namespace, Name: id}, &stored); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(&stored)
	if strings.Contains(string(raw), key[len("sk_test_"):]) || stored.Spec.KeyHash != registry.HashKey(key) {
		t.Fatalf("stored ApiKey: %s", raw)
	}
	if refs := stored.OwnerReferences; len(refs) != 1 || refs[0].UID != account.Object.UID || !*refs[0].BlockOwnerDeletion {
		t.Fatalf("ownerReferences %+v, want Account %s", refs, account.Object.UID)
	}

	// The controller agrees with what the handler published: the key becomes Ready, and stays
	// accepted after the controller has reconciled it.
	waitUntil(t, 10*time.Second, "the ApiKey to be Ready", func() bool {
		var k v1alpha1.ApiKey
		if err := stack.Client.Get(ctx, types.NamespacedName{Namespace: stack.Namespace, Name: id}, &k); err != nil {
			return false
		}
		for _, c := range k.Status.Conditions {
			if c.Type == "Ready" && c.Status == "True" {
				return true
			}
		}
		return false
	})

	// Disable against the real API server: refused at once.
	disabledID, disabledKey := create("to-disable")
	if resp, body := call(http.MethodPost, "/auth/api-keys/"+disabledID+"/disable", "", cookie, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("disable: %d %s", resp.StatusCode, body)
	}
	if resp, _ := call(http.MethodGet, "/v2/tokens", "", "", disabledKey); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("disabled key: %d, want 403", resp.StatusCode)
	}

	// Delete the Account: within one second the key is refused and the session ends.
	if err := stack.Client.Delete(ctx, account.Object); err != nil {
		t.Fatal(err)
	}
	deleted := time.Now()
	gomega.NewWithT(t).Eventually(func() int {
		resp, _ := call(http.MethodGet, "/v2/tokens", "", "", key)
		return resp.StatusCode
	}).WithTimeout(time.Second).WithPolling(10*time.Millisecond).
		Should(gomega.Equal(http.StatusForbidden), "the key of a deleted Account within 1s")
	t.Logf("key refused %s after the Account was deleted", time.Since(deleted).Round(time.Millisecond))
	if resp, _ := call(http.MethodGet, "/auth/api-keys", "", cookie, ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the deleted Account's session: %d, want 401", resp.StatusCode)
	}
	// The Account is really gone (no finalizer holds it).
	waitUntil(t, 10*time.Second, "the Account to be gone", func() bool {
		err := stack.Client.Get(ctx, types.NamespacedName{Namespace: stack.Namespace, Name: account.Object.Name}, &v1alpha1.Account{})
		return apierrors.IsNotFound(err)
	})
	if logs := stack.Logs.String(); strings.Contains(logs, key[len("sk_test_"):]) || strings.Contains(logs, disabledKey[len("sk_test_"):]) {
		t.Fatal("the operator log holds a plaintext key")
	}
}

func waitUntil(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	gomega.NewWithT(t).Eventually(cond).WithTimeout(timeout).WithPolling(20*time.Millisecond).
		Should(gomega.BeTrue(), "waiting for %s", what)
}
