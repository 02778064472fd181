package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	intentsv1alpha1 "github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const keygenUsage = `Usage: manager keygen --env test|live --account NAME [--name KEYNAME] [--namespace NS] [--expires-at RFC3339] [--rate-limit N]

Prints a new API key alone on the first line of stdout, then an ApiKey manifest that holds only the
key's SHA-256 hash, ready for "kubectl apply -f -" or a commit to a GitOps repository. The key is
shown this once and cannot be recovered: hand it to its client now.

  manager keygen --env test --account demo | { read -r key; echo "$key" > key.txt; kubectl apply -f -; }
`

// runKeygen is the keygen subcommand; it returns the process exit code.
func runKeygen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("keygen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, keygenUsage); fs.PrintDefaults() }
	env := fs.String("env", "", "Key environment: test (testnets, sk_test_) or live (mainnets, sk_live_).")
	account := fs.String("account", "", "Name of the Account that owns the key.")
	name := fs.String("name", "", "Human name of the key (spec.displayName), e.g. ci or wallet-backend.")
	namespace := fs.String("namespace", "", "Namespace of the manifest (default: none, so kubectl's current one).")
	expiresAt := fs.String("expires-at", "", "Expiry time, RFC 3339 (default: never).")
	rateLimit := fs.Int("rate-limit", 0, "Requests allowed in any 60 seconds (default: the service's 50).")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	obj, key, err := newApiKeyManifest(*env, *account, *name, *namespace, *expiresAt, *rateLimit)
	if err != nil {
		fmt.Fprintf(stderr, "keygen: %v\n\n", err)
		fs.Usage()
		return 2
	}
	manifest, err := yaml.Marshal(obj)
	if err != nil {
		fmt.Fprintf(stderr, "keygen: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, key)
	fmt.Fprintf(stdout, "---\n%s", manifest)
	return 0
}

// newApiKeyManifest generates a key and the ApiKey object that stands for it.
func newApiKeyManifest(env, account, name, namespace, expiresAt string, rateLimit int) (*intentsv1alpha1.ApiKey, string, error) {
	if account == "" {
		return nil, "", fmt.Errorf("--account is required")
	}
	k, err := apikey.Generate(registry.Environment(env))
	if err != nil {
		return nil, "", fmt.Errorf("--env: %w", err)
	}
	var expiry *metav1.Time
	if expiresAt != "" {
		t, err := time.Parse(time.RFC3339, expiresAt)
		if err != nil {
			return nil, "", fmt.Errorf("--expires-at: %w", err)
		}
		expiry = &metav1.Time{Time: t}
	}
	// 0 leaves the field out, and the CRD's default (50) applies.
	if rateLimit < 0 || rateLimit > 100000 {
		return nil, "", fmt.Errorf("--rate-limit must be between 1 and 100000, or 0 for the default of 50")
	}
	obj := k.Object(namespace, account, name, expiry)
	obj.Spec.RateLimitPerMinute = int32(rateLimit)
	return obj, k.Plaintext, nil
}
