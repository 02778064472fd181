// Package signing signs webhook deliveries as Standard Webhooks (standardwebhooks.com) describes
// them, so that any of that specification's libraries verifies them: the headers webhook-id,
// webhook-timestamp and webhook-signature, where a signature is "v1," followed by the base64 of
// HMAC-SHA256 over "<id>.<timestamp>.<body>" keyed with the endpoint's secret.
//
// A secret is "whsec_" followed by the base64 of its bytes. While a secret is rotated, a delivery is
// signed with the current and the previous one (space-separated signatures), so that a receiver
// holding either accepts it.
//
// The package does no I/O and knows nothing of Kubernetes or HTTP clients: the deliverer and the
// WebhookEndpoint controller build on it.
package signing

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of a signed delivery.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// SecretPrefix starts every endpoint secret.
const SecretPrefix = "whsec_"

// SecretBytes is the length of the random part of a secret the service generates. Standard
// Webhooks asks for 24 to 64 bytes.
const SecretBytes = 32

// signatureVersion is the only scheme of the specification's symmetric signatures.
const signatureVersion = "v1"

// NewSecret returns a new secret, "whsec_" and the base64 of SecretBytes bytes of rand (crypto/rand
// when nil).
func NewSecret(random io.Reader) (string, error) {
	if random == nil {
		random = rand.Reader
	}
	b := make([]byte, SecretBytes)
	if _, err := io.ReadFull(random, b); err != nil {
		return "", fmt.Errorf("reading random bytes for a webhook secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// ErrMalformedSecret is returned for a secret that is not "whsec_" and base64 of 24 to 64 bytes.
// Its message never quotes the secret.
var ErrMalformedSecret = errors.New("a webhook secret must be whsec_ followed by the base64 of 24 to 64 bytes")

// ParseSecret returns the key bytes of a secret.
func ParseSecret(secret string) ([]byte, error) {
	encoded, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, ErrMalformedSecret
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(key) < 24 || len(key) > 64 {
		return nil, ErrMalformedSecret
	}
	return key, nil
}

// Signature returns "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>".
func Signature(key []byte, id string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write(strconv.AppendInt(nil, timestamp, 10))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return signatureVersion + "," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Sign returns the three headers of a delivery of body, signed once with each secret (the current
// one first, then the previous one while a rotation lasts). At least one secret is needed.
func Sign(id string, at time.Time, body []byte, secrets ...string) (http.Header, error) {
	if len(secrets) == 0 {
		return nil, errors.New("signing a webhook needs at least one secret")
	}
	timestamp := at.Unix()
	signatures := make([]string, 0, len(secrets))
	for _, secret := range secrets {
		key, err := ParseSecret(secret)
		if err != nil {
			return nil, err
		}
		signatures = append(signatures, Signature(key, id, timestamp, body))
	}
	h := http.Header{}
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(timestamp, 10))
	h.Set(HeaderSignature, strings.Join(signatures, " "))
	return h, nil
}

// DefaultTolerance is how far a delivery's timestamp may be from the receiver's clock, either way,
// in Verify: the specification's libraries use five minutes.
const DefaultTolerance = 5 * time.Minute

// Errors of Verify.
var (
	ErrMissingHeader       = errors.New("webhook: a webhook-id, webhook-timestamp or webhook-signature header is missing")
	ErrBadTimestamp        = errors.New("webhook: the webhook-timestamp header is not a unix time in seconds")
	ErrTimestampTooOld     = errors.New("webhook: the timestamp is older than the tolerance")
	ErrTimestampTooNew     = errors.New("webhook: the timestamp is further in the future than the tolerance")
	ErrNoMatchingSignature = errors.New("webhook: no signature matches any of the secrets")
)

// Verify checks a delivery as a receiver would: the timestamp within tolerance of now, and at least
// one v1 signature of the header made with one of the secrets. The service itself does not receive
// webhooks; Verify is the receiver's side for tests and for people writing a receiver in Go.
func Verify(h http.Header, body []byte, now time.Time, tolerance time.Duration, secrets ...string) error {
	id, ts, sigs := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || ts == "" || sigs == "" {
		return ErrMissingHeader
	}
	timestamp, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrBadTimestamp
	}
	if err := CheckTimestamp(time.Unix(timestamp, 0), now, tolerance); err != nil {
		return err
	}
	for _, secret := range secrets {
		key, err := ParseSecret(secret)
		if err != nil {
			return err
		}
		want := Signature(key, id, timestamp, body)
		for _, got := range strings.Fields(sigs) {
			if hmac.Equal([]byte(got), []byte(want)) {
				return nil
			}
		}
	}
	return ErrNoMatchingSignature
}

// CheckTimestamp refuses a timestamp more than tolerance before or after now: an old one may be a
// replay, one from the future a sender whose clock is wrong.
func CheckTimestamp(at, now time.Time, tolerance time.Duration) error {
	switch {
	case at.Before(now.Add(-tolerance)):
		return ErrTimestampTooOld
	case at.After(now.Add(tolerance)):
		return ErrTimestampTooNew
	}
	return nil
}
