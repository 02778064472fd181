package webauth

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// inlineScript matches a <script> element without src, or an on* event attribute: the CSP
// forbids both, so the pages must have none.
var inlineScript = regexp.MustCompile(`<script(?:\s+[^>]*)?>\s*[^<\s]|<script>|\son[a-z]+=`)

func TestKeysPageRedirectsWithoutSession(t *testing.T) {
	h := newHarness(t)
	for _, cookie := range []string{"", "v1.bogus.bogus"} {
		resp, _ := h.do(request{method: http.MethodGet, path: "/keys", cookie: cookie})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/sign-in" {
			t.Fatalf("GET /keys with cookie %q: %d Location=%q", cookie, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
}

func TestPagesAreStrictAndEscaped(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	h.createKey(cookie, `{"name":"<script>alert(1)</script>"}`)
	h.createKey(cookie, `{"name":"plain name","environment":"live"}`)

	for _, path := range []string{"/sign-in", "/keys"} {
		resp, body := h.do(request{method: http.MethodGet, path: path, cookie: cookie})
		page := string(body)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		csp := resp.Header.Get("Content-Security-Policy")
		for _, directive := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "form-action 'self'"} {
			if !strings.Contains(csp, directive) {
				t.Fatalf("%s: CSP %q lacks %q", path, csp, directive)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Fatalf("%s: CSP %q allows inline code", path, csp)
		}
		if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("%s: headers %v", path, resp.Header)
		}
		if m := inlineScript.FindString(page); m != "" {
			t.Fatalf("%s has inline script %q", path, m)
		}
		if strings.Contains(page, "style=") || strings.Contains(page, "<style") {
			t.Fatalf("%s has inline style", path)
		}
	}

	_, body := h.do(request{method: http.MethodGet, path: "/keys", cookie: cookie})
	page := string(body)
	for _, want := range []string{"Alice", "alice@example.com", "plain name", "&lt;script&gt;alert(1)&lt;/script&gt;", "sk_live_", "/auth/assets/keys.js?v="} {
		if !strings.Contains(page, want) {
			t.Fatalf("/keys lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>alert(1)") {
		t.Fatal("a key name was rendered as HTML")
	}
}

func TestAssets(t *testing.T) {
	h := newHarness(t)
	cases := map[string]string{
		"keys.js":     "text/javascript; charset=utf-8",
		"sign-in.js":  "text/javascript; charset=utf-8",
		"app.css":     "text/css; charset=utf-8",
		"favicon.svg": "image/svg+xml",
	}
	for name, ct := range cases {
		resp, body := h.do(request{method: http.MethodGet, path: "/auth/assets/" + name + "?v=1"})
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ct || len(body) == 0 ||
			resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("%s: %d %q (%d bytes)", name, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
	}
	resp, body := h.do(request{method: http.MethodGet, path: "/auth/assets/nope.js"})
	assertProblem(t, resp, body, problem.NotFound)
	// Unknown /auth paths and methods are problems too.
	resp, body = h.do(request{method: http.MethodGet, path: "/auth/nothing-here"})
	assertProblem(t, resp, body, problem.NotFound)
	resp, body = h.do(request{method: http.MethodGet, path: "/auth/sign-in"})
	assertProblem(t, resp, body, problem.MethodNotAllowed)
}
