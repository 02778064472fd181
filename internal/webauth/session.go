package webauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
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
	// Nonce makes every session value unique, so two sign-ins in the same second differ; it is
	// the session's id, which sign-out revokes (by its hash, see sessionID).
	Nonce string `json:"nonce"`
	// Seen is the Unix second of the session's last use, for the idle timeout. It is refreshed
	// (a new cookie with the same session) at most once a minute.
	Seen int64 `json:"seen"`
	// Password is the fingerprint of the password hash the session was signed in with: a new
	// password ends every session signed in with the old one.
	Password string `json:"pwd"`
}

const (
	sessionVersion = "v1"
	// maxCookieValue bounds what is decoded: a real session is about 150 bytes.
	maxCookieValue = 1024
	// clockSkew tolerates replicas whose clocks disagree a little about IssuedAt.
	clockSkew = time.Minute
)

// newSession starts a session for the account at now, signed in with the password hash.
func newSession(account string, passwordHash []byte, now time.Time, ttl time.Duration) Session {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+)
	return Session{
		Account:   account,
		IssuedAt:  now.Unix(),
		ExpiresAt: now.Add(ttl).Unix(),
		Nonce:     base64.RawURLEncoding.EncodeToString(nonce),
		Seen:      now.Unix(),
		Password:  passwordFingerprint(passwordHash),
	}
}

// sessionID is what the Account's status records of a signed-out session: a hash of its nonce,
// so that the status never holds a part of a live cookie.
func sessionID(s Session) string {
	sum := sha256.Sum256([]byte("session:" + s.Nonce))
	return hex.EncodeToString(sum[:16])
}

// passwordFingerprint identifies a password hash without revealing it. The bcrypt hash is salted
// and slow, and the cookie carries only 64 bits of its SHA-256: nothing to guess a password with.
func passwordFingerprint(hash []byte) string {
	sum := sha256.Sum256(append([]byte("password:"), hash...))
	return hex.EncodeToString(sum[:8])
}

// sealSession encodes and signs s with key.
func sealSession(key []byte, s Session) string { return seal(key, sessionVersion, s) }

// openSession verifies value with any of keys and returns its session when it is valid at now.
func openSession(keys [][]byte, value string, now time.Time) (Session, bool) {
	var s Session
	if !open(keys, sessionVersion, value, &s) || s.Account == "" || s.Nonce == "" || s.Password == "" {
		return Session{}, false
	}
	if now.Unix() >= s.ExpiresAt || time.Unix(s.IssuedAt, 0).After(now.Add(clockSkew)) {
		return Session{}, false
	}
	return s, true
}

// seal encodes v as "<version>.<payload>.<mac>": payload is the base64url (unpadded) JSON of v,
// mac the base64url HMAC-SHA256 of "<version>.<payload>" under key.
func seal(key []byte, version string, v any) string {
	payload, _ := json.Marshal(v)
	signed := version + "." + base64.RawURLEncoding.EncodeToString(payload)
	return signed + "." + base64.RawURLEncoding.EncodeToString(mac(key, signed))
}

// open verifies a sealed value of the version with any of keys and decodes its payload into v.
func open(keys [][]byte, version, value string, v any) bool {
	if len(value) > maxCookieValue {
		return false
	}
	signed, sig, ok := cutLast(value, '.')
	if !ok || !strings.HasPrefix(signed, version+".") {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return false
	}
	verified := false
	for _, k := range keys {
		// Every key is tried, so the time taken does not tell which key matched.
		if hmac.Equal(got, mac(k, signed)) {
			verified = true
		}
	}
	if !verified {
		return false
	}
	payload, err := base64.RawURLEncoding.DecodeString(signed[len(version)+1:])
	return err == nil && json.Unmarshal(payload, v) == nil
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

// session returns the signed-in account of the request and refreshes the session's idle clock.
// ok is false without a valid session; see sessionOf for what ends one. err is set only when
// something needed to decide cannot be read (the session keys, the Account, its password).
func (h *Handler) session(w http.ResponseWriter, r *http.Request) (account registry.Account, ok bool, err error) {
	account, s, ok, err := h.sessionOf(r)
	if err != nil || !ok {
		return account, ok, err
	}
	if now := h.deps.Clock.Now(); now.Unix()-s.Seen >= int64(seenRefresh/time.Second) {
		keys, err := h.deps.SessionKeys.SessionKeys(r.Context())
		if err != nil {
			return registry.Account{}, false, err
		}
		s.Seen = now.Unix()
		h.writeSessionCookie(w, r, keys[0], s)
	}
	return account, true, nil
}

// seenRefresh is how stale a session's Seen may get before a request refreshes it: a cookie is
// not rewritten on every request, and the idle timeout is kept to within a minute.
const seenRefresh = time.Minute

// sessionOf returns the request's session and its account. A session ends when
//   - its cookie is missing, forged, expired (--session-ttl) or idle (--session-idle-timeout);
//   - its account is gone, disabled, or was created after it (a deleted Account created again
//     under the same name does not inherit the old one's sessions);
//   - it was signed out (Account status signedOutSessions, sessionsNotBefore), on any replica;
//   - the account's password changed since it was signed in.
//
// Revocations are read from the Account object in the cache on every call, so that they hold on
// every replica as soon as the watch delivers them, and across restarts.
func (h *Handler) sessionOf(r *http.Request) (registry.Account, Session, bool, error) {
	s, valid, err := h.cookieSession(r)
	if err != nil || !valid || h.deps.Clock.Now().Sub(time.Unix(s.Seen, 0)) >= h.opts.SessionIdleTimeout {
		return registry.Account{}, Session{}, false, err
	}
	account, found := h.deps.Accounts.Get(s.Account)
	if !found || account.Disabled || account.CreatedAt.Unix() > s.IssuedAt {
		return registry.Account{}, Session{}, false, nil
	}
	live, err := h.sessionLive(r.Context(), account, s)
	if err != nil || !live {
		return registry.Account{}, Session{}, false, err
	}
	return account, s, true, nil
}

// cookieSession returns the session of the request's cookie when its signature holds and it has
// not expired, however long it has been idle and whatever became of its account.
func (h *Handler) cookieSession(r *http.Request) (Session, bool, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || c.Value == "" {
		return Session{}, false, nil //nolint:nilerr // no cookie is no session, not an error
	}
	keys, err := h.deps.SessionKeys.SessionKeys(r.Context())
	if err != nil {
		return Session{}, false, err
	}
	s, valid := openSession(keys, c.Value, h.deps.Clock.Now())
	return s, valid, nil
}

// sessionLive checks s against its Account's revocations and password.
func (h *Handler) sessionLive(ctx context.Context, account registry.Account, s Session) (bool, error) {
	if h.revoked.has(sessionID(s)) {
		return false, nil
	}
	var obj v1alpha1.Account
	err := h.deps.Cache.Get(ctx, types.NamespacedName{Namespace: h.deps.Namespace, Name: account.Name}, &obj)
	if err != nil {
		return false, client.IgnoreNotFound(err)
	}
	if nb := obj.Status.SessionsNotBefore; nb != nil && s.IssuedAt <= nb.Unix() {
		return false, nil
	}
	id := sessionID(s)
	if slices.ContainsFunc(obj.Status.SignedOutSessions, func(o v1alpha1.SignedOutSession) bool { return o.Session == id }) {
		return false, nil
	}
	hash, err := h.passwordHash(ctx, account)
	if err != nil || len(hash) == 0 {
		return false, err
	}
	return hmac.Equal([]byte(passwordFingerprint(hash)), []byte(s.Password)), nil
}

// setSessionCookie starts a session for the account, signed in with the password hash.
func (h *Handler) setSessionCookie(w http.ResponseWriter, r *http.Request, key []byte, account string, passwordHash []byte) {
	h.writeSessionCookie(w, r, key, newSession(account, passwordHash, h.deps.Clock.Now(), h.opts.SessionTTL))
}

// writeSessionCookie sets the cookie of s. The cookie is HttpOnly (no script reads it),
// SameSite=Strict (no other site's page or link sends it) and Secure over TLS; the browser keeps
// it until the session expires.
func (h *Handler) writeSessionCookie(w http.ResponseWriter, r *http.Request, key []byte, s Session) {
	http.SetCookie(w, &http.Cookie{
		Name:     CookieName,
		Value:    sealSession(key, s),
		Path:     h.cookiePath(),
		MaxAge:   max(1, int(s.ExpiresAt-h.deps.Clock.Now().Unix())),
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
