package signing

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The reference check: deliveries signed here are verified by the Standard Webhooks reference
// library (npm standardwebhooks, pinned in test/webhookverify/package-lock.json), which shares no
// code with this package. hack/webhookverify.sh installs it (make test runs it first); without
// node or the library the test fails rather than skips, as the browser and PostgreSQL tests do.

// webhookVerifyDir is test/webhookverify, or $WEBHOOKVERIFY_DIR.
func webhookVerifyDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WEBHOOKVERIFY_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "test", "webhookverify")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not on PATH: the reference check of webhook signatures needs it (apt-get install nodejs npm, then hack/webhookverify.sh)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "standardwebhooks", "package.json")); err != nil {
		t.Fatalf("the Standard Webhooks reference library is not installed in %s: run hack/webhookverify.sh (make test does): %v", dir, err)
	}
	return dir
}

// nodeVerify runs verify.js on one delivery and returns whether the reference library accepted it,
// and what it said.
func nodeVerify(t *testing.T, dir, secret string, headers map[string]string, body string) (bool, string) {
	t.Helper()
	in, err := json.Marshal(map[string]any{"secret": secret, "headers": headers, "body": body})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "node", "verify.js")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.ExitCode() == 1 {
		return false, out.String()
	}
	if err != nil {
		t.Fatalf("node verify.js: %v\n%s", err, out.String())
	}
	return true, out.String()
}

func TestReferenceLibraryVerifiesSignedEvents(t *testing.T) {
	dir := webhookVerifyDir(t)
	current, err := NewSecret(nil)
	if err != nil {
		t.Fatal(err)
	}
	previous, err := NewSecret(nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now() // the library checks the timestamp against its own clock
	event := Event{
		ID: NewEventID(now), Type: EventTransferSubmitted, CreatedAt: now, Environment: "test", Sequence: 2,
		Data: json.RawMessage(`{"id":"int_transfer_01KQ0000000000000000000000","status":"submitted","metadata":{"chainId":"eip155:11155111","hash":"0xab"}}`),
	}
	body, err := json.Marshal(event)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Sign(event.ID, now, body, current, previous)
	if err != nil {
		t.Fatal(err)
	}
	headers := map[string]string{HeaderID: h.Get(HeaderID), HeaderTimestamp: h.Get(HeaderTimestamp), HeaderSignature: h.Get(HeaderSignature)}

	// Signed with both during a rotation: a receiver with either secret accepts.
	for name, secret := range map[string]string{"current": current, "previous": previous} {
		if ok, said := nodeVerify(t, dir, secret, headers, string(body)); !ok {
			t.Errorf("the reference library refused a delivery signed with the %s secret: %s", name, said)
		}
	}
	tampered := bytes.Replace(body, []byte(`"submitted"`), []byte(`"confirmed"`), 1)
	if bytes.Equal(tampered, body) {
		t.Fatal("the tampering changed nothing")
	}
	if ok, _ := nodeVerify(t, dir, current, headers, string(tampered)); ok {
		t.Error("the reference library accepted a tampered body")
	}
	stranger, _ := NewSecret(nil)
	if ok, _ := nodeVerify(t, dir, stranger, headers, string(body)); ok {
		t.Error("the reference library accepted a delivery with a secret that did not sign it")
	}
}
