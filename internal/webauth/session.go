package webauth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// CookieName is the session cookie's name (OpenAPI components/securitySchemes/session).
const CookieName = "session"

// Session is what the cookie carries. It is signed, not encrypted: it holds nothing secret.
//
// The cookie value is "v1.<payload>.<mac>": payload is the base64url (unpadded) JSON of Session,
// mac the base64url HMAC-SHA256 of "v1.<payload>" under a session key. Verification accepts the
// MAC of any current key (rotation, see SessionSecret), then requires IssuedAt <= now < ExpiresAt.
type Session struct {
	// Account is the Account object name.
	Account string `json:"acc"`
	// IssuedAt and ExpiresAt are Unix seconds.
	IssuedAt  int64 `json:"iat"`
	ExpiresAt int64 `json:"exp"`
	// Nonce makes every session value unique, so two sign-ins in the same second differ.
	Nonce string `json:"nonce"`
}

const (
	sessionVersion = "v1"
	// maxCookieValue bounds what is decoded: a real session is about 150 bytes.
	maxCookieValue = 1024
	// clockSkew tolerates replicas whose clocks disagree a little about IssuedAt.
	clockSkew = time.Minute
)

// newSession starts a session for the account at now.
func newSession(account string, now time.Time, ttl time.Duration) Session {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+)
	return Session{
		Account:   account,
		IssuedAt:  now.Unix(),
		ExpiresAt: now.Add(ttl).Unix(),
		Nonce:     base64.RawURLEncoding.EncodeToString(nonce),
	}
}

// sealSession encodes and signs s with key.
func sealSession(key []byte, s Session) string {
	payload, _ := json.Marshal(s)
	signed := sessionVersion + "." + base64.RawURLEncoding.EncodeToString(payload)
	return signed + "." + base64.RawURLEncoding.EncodeToString(mac(key, signed))
}

// openSession verifies value with any of keys and returns its session when it is valid at now.
func openSession(keys [][]byte, value string, now time.Time) (Session, bool) {
	if len(value) > maxCookieValue {
		return Session{}, false
	}
	signed, sig, ok := cutLast(value, '.')
	if !ok || !strings.HasPrefix(signed, sessionVersion+".") {
		return Session{}, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return Session{}, false
	}
	verified := false
	for _, k := range keys {
		// Every key is tried, so the time taken does not tell which key matched.
		if hmac.Equal(got, mac(k, signed)) {
			verified = true
		}
	}
	if !verified {
		return Session{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(signed[len(sessionVersion)+1:])
	if err != nil {
		return Session{}, false
	}
	var s Session
	if err := json.Unmarshal(payload, &s); err != nil || s.Account == "" {
		return Session{}, false
	}
	if now.Unix() >= s.ExpiresAt || time.Unix(s.IssuedAt, 0).After(now.Add(clockSkew)) {
		return Session{}, false
	}
	return s, true
}

func mac(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

func cutLast(s string, sep byte) (before, after string, found bool) {
	i := strings.LastIndexByte(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// session returns the signed-in account of the request. ok is false without a valid session, or
// when the account is gone, disabled, or was created after the session (a deleted Account created
// again under the same name does not inherit the old one's sessions). err is set only when the
// session keys cannot be read.
func (h *Handler) session(r *http.Request) (account registry.Account, ok bool, err error) {
	c, cerr := r.Cookie(CookieName)
	if cerr != nil || c.Value == "" {
		return account, false, nil //nolint:nilerr // no cookie is no session, not an error
	}
	keys, err := h.deps.SessionKeys.SessionKeys(r.Context())
	if err != nil {
		return account, false, err
	}
	s, valid := openSession(keys, c.Value, h.deps.Clock.Now())
	if !valid {
		return account, false, nil
	}
	account, found := h.deps.Accounts.Get(s.Account)
	if !found || account.Disabled || account.CreatedAt.Unix() > s.IssuedAt {
		return registry.Account{}, false, nil
	}
	return account, true, nil
}

// setSessionCookie starts a session for the account. The cookie is HttpOnly (no script reads it),
// SameSite=Strict (no other site's page or link sends it) and Secure over TLS.
func (h *Handler) setSessionCookie(w http.ResponseWriter, r *http.Request, key []byte, account string) {
	s := newSession(account, h.deps.Clock.Now(), h.opts.SessionTTL)
	http.SetCookie(w, &http.Cookie{
		Name:     CookieName,
		Value:    sealSession(key, s),
		Path:     h.cookiePath(),
		MaxAge:   int(h.opts.SessionTTL / time.Second),
		HttpOnly: true,
		Secure:   h.secureCookies || r.TLS != nil,
		SameSite: http.SameSiteStrictMode,
	})
}

// clearSessionCookie tells the browser to forget the session.
func (h *Handler) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name:     CookieName,
		Value:    "",
		Path:     h.cookiePath(),
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   h.secureCookies || r.TLS != nil,
		SameSite: http.SameSiteStrictMode,
	})
}

func (h *Handler) cookiePath() string {
	if h.basePath == "" {
		return "/"
	}
	return h.basePath + "/"
}
