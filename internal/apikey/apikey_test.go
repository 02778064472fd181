package apikey

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

var keyPattern = regexp.MustCompile(`^sk_(test|live)_[0-9A-Za-z]{64}$`)

func TestGenerate(t *testing.T) {
	for _, env := range []registry.Environment{registry.EnvironmentTest, registry.EnvironmentLive} {
		k, err := Generate(env)
		if err != nil {
			t.Fatal(err)
		}
		if !keyPattern.MatchString(k.Plaintext) || !strings.HasPrefix(k.Plaintext, "sk_"+string(env)+"_") {
			t.Fatalf("key %q has the wrong shape", k.Plaintext)
		}
		sum := sha256.Sum256([]byte(k.Plaintext))
		if k.Hash != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Fatalf("hash %q is not sha256 of the key", k.Hash)
		}
		if len(k.DisplayPrefix) != len("sk_test_")+4 || !strings.HasPrefix(k.Plaintext, k.DisplayPrefix) {
			t.Fatalf("display prefix %q", k.DisplayPrefix)
		}
	}
	if _, err := Generate("prod"); err == nil {
		t.Fatal("unknown environment accepted")
	}
}

func TestGenerateIsUniqueAndUnbiased(t *testing.T) {
	seen := map[string]bool{}
	counts := map[byte]int{}
	const n = 2000
	for range n {
		k, err := Generate(registry.EnvironmentTest)
		if err != nil {
			t.Fatal(err)
		}
		if seen[k.Plaintext] {
			t.Fatal("duplicate key")
		}
		seen[k.Plaintext] = true
		for i := len("sk_test_"); i < len(k.Plaintext); i++ {
			counts[k.Plaintext[i]]++
		}
	}
	// 128000 draws over 62 symbols: each count is binomial, mean about 2065, standard deviation
	// about 45. A modulo bias (256 = 4×62 + 8: 8 symbols drawn 5 times in 256, the others 4) would
	// put the favoured ones near 2500 and the others near 2000. Six standard deviations (±270)
	// catch that and fail an unbiased generator about once in eight million runs; the ±8% (3.7 standard
	// deviations) this test had failed one run in about sixty (make flake-hunt saw it).
	mean := float64(n*RandomLength) / 62
	bound := 6 * math.Sqrt(mean*(1-1.0/62))
	for c, got := range counts {
		if math.Abs(float64(got)-mean) > bound {
			t.Errorf("symbol %q drawn %d times, mean %.0f ± %.0f", c, got, mean, bound)
		}
	}
	if len(counts) != 62 {
		t.Fatalf("%d distinct symbols, want 62", len(counts))
	}
}

func TestRandomStringRejectsHighBytes(t *testing.T) {
	// Bytes 248..255 must be skipped, not folded onto the first symbols.
	src := bytes.NewReader(append(bytes.Repeat([]byte{255}, 80), bytes.Repeat([]byte{1}, 80)...))
	s, err := randomString(src, 4)
	if err != nil || s != "1111" {
		t.Fatalf("got %q %v, want 1111", s, err)
	}
}

func TestObjectName(t *testing.T) {
	hash := registry.HashKey("sk_test_x")
	hex8 := hash[7:15]
	cases := []struct{ account, name, want string }{
		{"alice", "CI pipeline", "alice-ci-pipeline-" + hex8},
		{"alice", "!!!", "alice-" + hex8},
		{"alice", "Zahlungs-Dienst (prod)", "alice-zahlungs-dienst-prod-" + hex8},
		{strings.Repeat("a", 250), "x", strings.Repeat("a", 200) + "-x-" + hex8},
		{"alice", strings.Repeat("n", 63), "alice-" + strings.Repeat("n", 40) + "-" + hex8},
	}
	dns1123 := regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	for _, tc := range cases {
		got := ObjectName(tc.account, tc.name, hash)
		if got != tc.want || len(got) > 253 || !dns1123.MatchString(got) {
			t.Errorf("ObjectName(%q, %q) = %q, want %q", tc.account, tc.name, got, tc.want)
		}
	}
}

func TestWellFormed(t *testing.T) {
	for _, env := range []registry.Environment{registry.EnvironmentTest, registry.EnvironmentLive} {
		k, err := Generate(env)
		if err != nil {
			t.Fatal(err)
		}
		if !WellFormed(k.Plaintext) {
			t.Errorf("generated key %s... is not well formed", k.DisplayPrefix)
		}
	}
	random := strings.Repeat("aZ9", 21) + "x" // 64 characters of the alphabet
	for _, bad := range []string{"", "sk_test_", "sk_prod_" + random, "sk_test_" + random[:63], "sk_test_" + random + "y",
		"sk_test_" + random[:63] + "-", "sk_test_" + random[:62] + "é", "SK_TEST_" + random, " sk_test_" + random} {
		if WellFormed(bad) {
			t.Errorf("WellFormed(%q) = true", bad)
		}
	}
	if !WellFormed("sk_live_" + random) {
		t.Error("a live key of 64 alphabet characters is refused")
	}
}
