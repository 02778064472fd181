package webauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// signInRequest is the body of POST /auth/sign-in (JSON or form).
type signInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Bounds of the sign-in fields (OpenAPI SignInRequest).
const (
	maxEmailLength    = 254
	maxPasswordLength = 1024
)

// wrongCredentials is the one answer to every failed sign-in: it must not tell an unknown email
// from a wrong password, a disabled account or one without a password.
const wrongCredentials = "The email or password is not correct."

// dummyHash is compared against when there is no real hash, so that a sign-in for an unknown
// email takes as long as one with a wrong password.
var dummyHash = sync.OnceValue(func() []byte {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	h, err := bcrypt.GenerateFromPassword(secret[:], bcrypt.DefaultCost)
	if err != nil {
		panic(err)
	}
	return h
})

// signIn checks an account's email and password and starts a session: 204 for JSON (scripts),
// 303 to /keys for the page's form post.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	form := mediaType(r) == "application/x-www-form-urlencoded"
	var req signInRequest
	switch {
	case form:
		r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes)
		if err := r.ParseForm(); err != nil {
			if errBodyTooLarge(err) {
				h.problems.Write(w, r, problem.PayloadTooLarge, "The body is too large.", nil)
				return
			}
			h.problems.Write(w, r, problem.BadRequest, "The form could not be read.", nil)
			return
		}
		req.Email, req.Password = r.PostForm.Get("email"), r.PostForm.Get("password")
	case !h.decodeJSON(w, r, &req, "email", "password"):
		return
	}
	if detail := req.validate(); detail != "" {
		h.problems.Write(w, r, problem.BadRequest, detail, nil)
		return
	}
	keys, err := h.deps.SessionKeys.SessionKeys(r.Context())
	if err != nil {
		h.unavailable(w, r, err)
		return
	}

	// Giving an attempt back must not depend on the client still waiting for the answer.
	ctx := context.WithoutCancel(r.Context())
	att, wait, detail, ok := h.admit(ctx, r, keys, req.Email)
	if !ok {
		h.throttled(w, r, att.address, wait, detail)
		return
	}
	account, hash, valid, err := h.checkPassword(r.Context(), req.Email, req.Password)
	if err != nil {
		att.giveBack(ctx, h) // not the person's failure
		h.internalError(w, r, "checking a password", err)
		return
	}
	if !valid {
		// The attempt stays counted.
		h.log.V(1).Info("sign-in refused", "account", account.Name, "clientAddress", att.address,
			"correlationId", problem.CorrelationID(r.Context()))
		h.problems.Write(w, r, problem.Unauthorized, wrongCredentials, nil)
		return
	}
	att.succeeded(ctx, h)
	h.setSessionCookie(w, r, keys[0], account.Name, hash)
	h.setDeviceCookie(w, r, keys[0], account, hash)
	h.log.V(1).Info("signed in", "account", account.Name, "correlationId", problem.CorrelationID(r.Context()))
	if form {
		h.redirect(w, "/keys")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// attempt is one sign-in attempt and the slots it took in each limit, given back when it does not
// count as a failure.
type attempt struct {
	address string
	// device is the client's device id when it carries the account's device cookie: its
	// failures count per device, and neither the account's delay nor the address's limit apply.
	device                               string
	clientKey, addressKey, accountKey    string
	clientSlot, addressSlot, accountSlot Slot
}

// admit counts a sign-in attempt for email against every limit that applies, or refuses it with
// the wait and the detail (one %d for the seconds) of the limit that refused it, giving back what
// it took in the others.
func (h *Handler) admit(ctx context.Context, r *http.Request, keys [][]byte, email string) (attempt, time.Duration, string, bool) {
	email = strings.ToLower(strings.TrimSpace(email))
	now := h.deps.Clock.Now()
	a := attempt{address: h.clientAddress(r)}
	if known, found := h.deps.Accounts.ByEmail(email); found {
		a.device, _ = h.knownDevice(ctx, r, keys, known)
	}
	const tooMany = "Too many failed sign-ins; retry after %d seconds."
	if a.device != "" {
		a.clientKey = "device:" + email + "|" + a.device
		wait, slot, ok := h.clientThrottle.Acquire(ctx, a.clientKey, now)
		a.clientSlot = slot
		return a, wait, tooMany, ok
	}
	a.accountKey = "account:" + email
	wait, slot, ok := h.accountBackoff.Acquire(ctx, a.accountKey, now)
	if !ok {
		return a, wait, "Too many failed sign-ins to this account from elsewhere; retry after %d seconds, or from a browser that signed in to it before.", false
	}
	a.accountSlot = slot
	a.clientKey = "client:" + email + "|" + a.address
	if wait, a.clientSlot, ok = h.clientThrottle.Acquire(ctx, a.clientKey, now); !ok {
		h.accountBackoff.Release(ctx, a.accountKey, a.accountSlot)
		return a, wait, tooMany, false
	}
	a.addressKey = "address:" + a.address
	if wait, a.addressSlot, ok = h.addressThrottle.Acquire(ctx, a.addressKey, now); !ok {
		h.accountBackoff.Release(ctx, a.accountKey, a.accountSlot)
		h.clientThrottle.Release(ctx, a.clientKey, a.clientSlot)
		return a, wait, tooMany, false
	}
	return a, 0, "", true
}

// giveBack returns every slot the attempt took.
func (a attempt) giveBack(ctx context.Context, h *Handler) {
	h.clientThrottle.Release(ctx, a.clientKey, a.clientSlot)
	if a.device == "" {
		h.addressThrottle.Release(ctx, a.addressKey, a.addressSlot)
		h.accountBackoff.Release(ctx, a.accountKey, a.accountSlot)
	}
}

// succeeded forgets the client's failures and gives back the rest of the attempt. The account's
// count and closure stay: the owner signing in must not reopen the account to guessing elsewhere.
func (a attempt) succeeded(ctx context.Context, h *Handler) {
	h.clientThrottle.Reset(ctx, a.clientKey)
	if a.device == "" {
		h.addressThrottle.Release(ctx, a.addressKey, a.addressSlot)
		h.accountBackoff.Release(ctx, a.accountKey, a.accountSlot)
	}
}

// throttled answers 429 with Retry-After; detail has one %d for the seconds.
func (h *Handler) throttled(w http.ResponseWriter, r *http.Request, address string, wait time.Duration, detail string) {
	// Audit trail of guessing. The typed email is not logged: people type passwords there.
	h.log.Info("sign-in throttled", "clientAddress", address, "correlationId", problem.CorrelationID(r.Context()))
	retry := ratelimit.Seconds(wait)
	w.Header().Set("Retry-After", strconv.Itoa(retry))
	h.problems.Write(w, r, problem.RateLimited, fmt.Sprintf(detail, retry), nil)
}

func (req *signInRequest) validate() string {
	switch {
	case req.Email == "" || req.Password == "":
		return "Both email and password are required."
	case utf8.RuneCountInString(req.Email) > maxEmailLength:
		return "The email is longer than 254 characters."
	case utf8.RuneCountInString(req.Password) > maxPasswordLength:
		return "The password is longer than 1024 characters."
	}
	return ""
}

// checkPassword returns the account, and the hash its password matched, when the password is the
// account's. Every path that does not find a real hash compares against dummyHash, so the answer
// takes the same time.
func (h *Handler) checkPassword(ctx context.Context, email, password string) (registry.Account, []byte, bool, error) {
	account, found := h.deps.Accounts.ByEmail(email)
	var hash []byte
	if found && !account.Disabled {
		var err error
		if hash, err = h.passwordHash(ctx, account); err != nil {
			return account, nil, false, err
		}
	}
	if len(hash) == 0 {
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return account, nil, false, nil
	}
	if err := bcrypt.CompareHashAndPassword(hash, []byte(password)); err != nil {
		if !errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			// A malformed hash (the Account's Ready condition says so too) is a wrong password
			// to the person signing in; the operator's log tells why.
			h.log.Info("the password hash of an account is unusable", "account", account.Name, "error", err.Error())
		}
		return account, nil, false, nil
	}
	return account, hash, true, nil
}

// passwordHash reads the account's password hash from its Secret (in the cache): nil when the
// account has none or the Secret or key is missing.
func (h *Handler) passwordHash(ctx context.Context, account registry.Account) ([]byte, error) {
	if account.PasswordSecret == nil {
		return nil, nil
	}
	var secret corev1.Secret
	err := h.deps.Cache.Get(ctx, types.NamespacedName{Namespace: h.deps.Namespace, Name: account.PasswordSecret.Name}, &secret)
	if err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	return secret.Data[account.PasswordSecret.Key], nil
}

// signOut ends the request's session on every replica (see revoke.go) and clears the cookie: 303
// to /sign-in for the page's form, 204 otherwise. Any session the cookie names that has not
// expired is ended, idle or not: a copy of it elsewhere may still be in use. When the end cannot
// be recorded, the answer is 503 (the API server did not answer in time, or kept changing the
// Account) or 500, and the cookie is kept, so that the person retries rather than believing a
// copy of the cookie is dead.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	s, found, err := h.cookieSession(r)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	if found {
		if err := h.endSession(r.Context(), s.Account, s); err != nil {
			h.writeFailed(w, r, "ending a session at sign-out", err, "account", s.Account)
			return
		}
	}
	h.clearSessionCookie(w, r)
	if mediaType(r) == "application/x-www-form-urlencoded" {
		h.redirect(w, "/sign-in")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// redirect answers 303 to a page of this service.
func (h *Handler) redirect(w http.ResponseWriter, page string) {
	w.Header().Set("Location", h.basePath+page)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusSeeOther)
}

// clientAddress is the address failed sign-ins are counted against: the peer, or the client named
// by X-Forwarded-For when the peer is a trusted proxy. IPv6 clients are counted per /64, the
// block one subscriber usually gets.
func (h *Handler) clientAddress(r *http.Request) string {
	addr := peerAddress(r.RemoteAddr)
	if addr.IsValid() && h.trustedProxy(addr) {
		// The rightmost entry not added by one of our proxies is the client; entries left of it
		// are the client's own claims.
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break
			}
			addr = hop.Unmap()
			if !h.trustedProxy(addr) {
				break
			}
		}
	}
	if !addr.IsValid() {
		return r.RemoteAddr
	}
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

func (h *Handler) trustedProxy(a netip.Addr) bool {
	for _, p := range h.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func peerAddress(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

// errBodyTooLarge reports whether err came from http.MaxBytesReader.
func errBodyTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}
