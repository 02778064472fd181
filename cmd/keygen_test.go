package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	intentsv1alpha1 "github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

func TestKeygenPrintsKeyThenManifestWithHashOnly(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runKeygen([]string{"--env", "live", "--account", "demo", "--name", "Wallet Backend", "--namespace", "prod",
		"--expires-at", "2027-01-01T00:00:00Z", "--rate-limit", "120"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	key, manifest, ok := strings.Cut(out.String(), "\n")
	if !ok || !regexp.MustCompile(`^sk_live_[0-9A-Za-z]{64}$`).MatchString(key) {
		t.Fatalf("first line %q is not a live key", key)
	}
	if strings.Contains(manifest, key) || strings.Contains(manifest, key[8:]) {
		t.Fatal("the manifest contains the key")
	}
	var obj intentsv1alpha1.ApiKey
	if err := yaml.UnmarshalStrict([]byte(strings.TrimPrefix(manifest, "---\n")), &obj); err != nil {
		t.Fatalf("manifest does not parse: %v\n%s", err, manifest)
	}
	sum := sha256.Sum256([]byte(key))
	want := "sha256:" + hex.EncodeToString(sum[:])
	s := obj.Spec
	if obj.Kind != "ApiKey" || obj.APIVersion != "intents.transferintent.io/v1alpha1" || obj.Namespace != "prod" ||
		s.KeyHash != want || s.AccountRef.Name != "demo" || s.Environment != "live" || s.DisplayName != "Wallet Backend" ||
		!strings.HasPrefix(key, s.DisplayPrefix) || s.RateLimitPerMinute != 120 || s.ExpiresAt == nil {
		t.Fatalf("manifest fields wrong: %+v", obj)
	}
	if obj.Name != "demo-wallet-backend-"+want[7:15] {
		t.Fatalf("object name %q", obj.Name)
	}
}

func TestKeygenRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--account", "demo"},
		{"--env", "prod", "--account", "demo"},
		{"--env", "test"},
		{"--env", "test", "--account", "demo", "--expires-at", "tomorrow"},
	} {
		var out, errOut bytes.Buffer
		if code := runKeygen(args, &out, &errOut); code != 2 || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q; want 2 and nothing printed", args, code, out.String())
		}
	}
}
