package signing

import (
	"bytes"
	"time"
)

// Keys of the Secret that holds an endpoint's signing secret, besides the secret's own key
// (DefaultSecretKey unless the endpoint's secretRef names another).
//
// The operator notices a rotation by comparing the secret with the copy it keeps under
// SecretKeyObserved: when they differ, the copy becomes SecretKeyPrevious, valid until
// SecretKeyPreviousExpiresAt (RFC 3339), and the new value becomes the copy. Deliveries are signed
// with the secret and, until then, with the previous one too.
const (
	DefaultSecretKey           = "secret"
	SecretKeyObserved          = "observed"
	SecretKeyPrevious          = "previous"
	SecretKeyPreviousExpiresAt = "previousExpiresAt"
)

// RotationGrace is how long the previous secret keeps signing after a change of the secret, so
// that receivers have a day to switch to the new one.
const RotationGrace = 24 * time.Hour

// Rotate brings the data of a Secret up to date with its current secret (under key) at now: it
// records a change of the secret as a rotation (the old value previous until now + grace), and
// forgets a previous secret whose time is over. It changes data in place and reports whether it
// changed anything, and until when a previous secret remains valid (zero when none does).
//
// A first look (no observed copy yet) is no rotation. A secret replaced together with its observed
// copy (the whole Secret rewritten by another tool) cannot be told apart from a first look: its old
// value is gone, and no previous secret signs.
func Rotate(data map[string][]byte, key string, now time.Time, grace time.Duration) (changed bool, previousUntil time.Time) {
	current, observed := data[key], data[SecretKeyObserved]
	if _, seen := data[SecretKeyObserved]; seen && !bytes.Equal(current, observed) {
		data[SecretKeyPrevious] = observed
		data[SecretKeyPreviousExpiresAt] = []byte(now.Add(grace).UTC().Format(time.RFC3339))
		changed = true
	}
	if !bytes.Equal(current, observed) {
		data[SecretKeyObserved] = bytes.Clone(current)
		changed = true
	}
	until, ok := previousExpiry(data)
	switch {
	case ok && now.Before(until):
		return changed, until
	case ok || data[SecretKeyPrevious] != nil || data[SecretKeyPreviousExpiresAt] != nil:
		// Over, or unreadable: a previous secret without a valid expiry signs nothing.
		delete(data, SecretKeyPrevious)
		delete(data, SecretKeyPreviousExpiresAt)
		return true, time.Time{}
	}
	return changed, time.Time{}
}

// ActiveSecrets returns the secrets to sign a delivery with at now: the current one, then the
// previous one while its rotation lasts.
func ActiveSecrets(data map[string][]byte, key string, now time.Time) []string {
	secrets := []string{string(data[key])}
	if until, ok := previousExpiry(data); ok && now.Before(until) && len(data[SecretKeyPrevious]) > 0 {
		secrets = append(secrets, string(data[SecretKeyPrevious]))
	}
	return secrets
}

// previousExpiry reads SecretKeyPreviousExpiresAt; false when absent or unreadable.
func previousExpiry(data map[string][]byte) (time.Time, bool) {
	raw, ok := data[SecretKeyPreviousExpiresAt]
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, string(raw))
	return t, err == nil
}
