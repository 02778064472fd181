package webauth

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"time"
)

// DeviceCookieName is the cookie that marks a browser which signed in to an account before
// (OWASP's "device cookie"): the account's growing sign-in delay (BackoffPolicy) does not apply to
// it, so guessing elsewhere cannot keep the owner out. It proves nothing else: it is no session,
// and the limits per (account, client) and per client still apply to it.
const DeviceCookieName = "device"

const (
	deviceVersion = "d1"
	// deviceTTL is how long a browser stays known without signing in again.
	deviceTTL = 90 * 24 * time.Hour
)

// device is what the device cookie carries, signed like a session.
type device struct {
	Account   string `json:"acc"`
	ExpiresAt int64  `json:"exp"`
	Nonce     string `json:"nonce"`
}

// setDeviceCookie marks the browser as one that signed in to account.
func (h *Handler) setDeviceCookie(w http.ResponseWriter, r *http.Request, key []byte, account string) {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	now := h.deps.Clock.Now()
	d := device{Account: account, ExpiresAt: now.Add(deviceTTL).Unix(), Nonce: base64.RawURLEncoding.EncodeToString(nonce)}
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

// knownDevice reports whether the request carries a valid device cookie of account.
func (h *Handler) knownDevice(r *http.Request, keys [][]byte, account string) bool {
	c, err := r.Cookie(DeviceCookieName)
	if err != nil || account == "" {
		return false
	}
	var d device
	return open(keys, deviceVersion, c.Value, &d) && d.Account == account && h.deps.Clock.Now().Unix() < d.ExpiresAt
}
