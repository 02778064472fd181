package webauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// DeviceCookieName is the cookie that marks a browser which signed in to an account before
// (OWASP's "device cookie"): the account's growing sign-in delay (BackoffPolicy) does not apply to
// it, so guessing elsewhere cannot keep the owner out, and its failures are counted per device
// rather than per client address, so others behind the same address cannot either. It proves
// nothing else: it is no session. It is bound to the account's creation and current password: a
// new password, or the account deleted and created again, makes it unknown.
const DeviceCookieName = "device"

const (
	deviceVersion = "d1"
	// deviceTTL is how long a browser stays known without signing in again.
	deviceTTL = 90 * 24 * time.Hour
)

// device is what the device cookie carries, signed like a session ("d1." instead of "v1.": one
// cannot be taken for the other).
type device struct {
	Account   string `json:"acc"`
	Created   int64  `json:"created"`
	Password  string `json:"pwd"`
	ExpiresAt int64  `json:"exp"`
	Nonce     string `json:"nonce"`
}

// setDeviceCookie marks the browser as one that signed in to account with the password hash.
func (h *Handler) setDeviceCookie(w http.ResponseWriter, r *http.Request, key []byte, account registry.Account, passwordHash []byte) {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	now := h.deps.Clock.Now()
	d := device{
		Account: account.Name, Created: account.CreatedAt.Unix(), Password: passwordFingerprint(passwordHash),
		ExpiresAt: now.Add(deviceTTL).Unix(), Nonce: base64.RawURLEncoding.EncodeToString(nonce),
	}
	http.SetCookie(w, &http.Cookie{
		Name:     DeviceCookieName,
		Value:    seal(key, deviceVersion, d),
		Path:     h.cookiePath(),
		MaxAge:   int(deviceTTL / time.Second),
		HttpOnly: true,
		Secure:   h.secureCookies || r.TLS != nil,
		SameSite: http.SameSiteStrictMode,
	})
}

// knownDevice returns the device id when the request carries a valid device cookie of account,
// as it is now (same creation, same password).
func (h *Handler) knownDevice(ctx context.Context, r *http.Request, keys [][]byte, account registry.Account) (string, bool) {
	c, err := r.Cookie(DeviceCookieName)
	if err != nil || account.Name == "" {
		return "", false
	}
	var d device
	if !open(keys, deviceVersion, c.Value, &d) || d.Nonce == "" || d.Account != account.Name ||
		d.Created != account.CreatedAt.Unix() || h.deps.Clock.Now().Unix() >= d.ExpiresAt {
		return "", false
	}
	hash, err := h.passwordHash(ctx, account)
	if err != nil || len(hash) == 0 || passwordFingerprint(hash) != d.Password {
		return "", false
	}
	return d.Nonce, true
}
