package webauth

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The pages are server-rendered from embedded templates; their only scripts and styles are the
// embedded files under web/assets, served from /auth/assets/, so the Content-Security-Policy can
// forbid every inline script and style.
//
//go:embed web/templates/*.html web/assets/*
var webFiles embed.FS

// contentSecurityPolicy allows this origin's scripts, styles and fetches, and nothing else: no
// inline script, no framing, forms post only here.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// asset is one embedded static file.
type asset struct {
	body        []byte
	contentType string
	version     string // the start of its sha256, for cache-busting URLs
}

type pages struct {
	signIn   *template.Template
	keys     *template.Template
	intents  *template.Template
	intent   *template.Template
	webhooks *template.Template
	assets   map[string]asset
}

func newPages(basePath string) (*pages, error) {
	p := &pages{assets: map[string]asset{}}
	files, err := fs.Glob(webFiles, "web/assets/*")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		body, err := webFiles.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		ct := mime.TypeByExtension(path.Ext(f))
		switch path.Ext(f) { // not left to the machine's mime.types
		case ".js":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		case ".svg":
			ct = "image/svg+xml"
		}
		p.assets[path.Base(f)] = asset{body: body, contentType: ct, version: hex.EncodeToString(sum[:6])}
	}
	funcs := template.FuncMap{
		"base": func() string { return basePath },
		"asset": func(name string) (string, error) {
			a, ok := p.assets[name]
			if !ok {
				return "", fmt.Errorf("no asset %q", name)
			}
			return basePath + "/auth/assets/" + name + "?v=" + a.version, nil
		},
	}
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(webFiles, "web/templates/layout.html")
	if err != nil {
		return nil, err
	}
	// A page is the layout with its own template; the pages of a signed-in account also have the
	// account bar with the links between them (account.html).
	page := func(files ...string) (*template.Template, error) {
		t, err := layout.Clone()
		if err != nil {
			return nil, err
		}
		for i := range files {
			files[i] = "web/templates/" + files[i]
		}
		return t.ParseFS(webFiles, files...)
	}
	if p.signIn, err = page("sign-in.html"); err != nil {
		return nil, err
	}
	if p.keys, err = page("account.html", "keys.html"); err != nil {
		return nil, err
	}
	if p.intents, err = page("account.html", "intents.html"); err != nil {
		return nil, err
	}
	if p.intent, err = page("account.html", "intent.html"); err != nil {
		return nil, err
	}
	if p.webhooks, err = page("account.html", "webhooks.html"); err != nil {
		return nil, err
	}
	return p, nil
}

// keyRow is one row of the keys table.
type keyRow struct {
	ID, Name, Environment, DisplayPrefix, Created, Expires, Status string
	Disabled                                                       bool
}

type signInData struct {
	Title string
}

type keysData struct {
	// Page names the page in the account bar's links (account.html).
	Title, Page string
	Account     registry.Account
	Keys        []keyRow
}

// displayTime is how the pages show times; keys.js writes the same format.
func displayTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }

func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, h.pages.signIn, signInData{Title: "Sign in"})
}

// pageSession is the signed-in account of a page's request. Without a session it sends the
// browser to /sign-in, and when the session cannot be read it answers 503; either way ok is false
// and the page has been answered.
func (h *Handler) pageSession(w http.ResponseWriter, r *http.Request) (account registry.Account, ok bool) {
	account, ok, err := h.session(w, r)
	if err != nil {
		h.unavailable(w, r, err)
		return account, false
	}
	if !ok {
		h.redirect(w, "/sign-in")
	}
	return account, ok
}

// keysPage shows the signed-in account's keys, or sends the browser to /sign-in.
func (h *Handler) keysPage(w http.ResponseWriter, r *http.Request) {
	account, ok := h.pageSession(w, r)
	if !ok {
		return
	}
	data := keysData{Title: "API keys", Page: "keys", Account: account}
	now := h.deps.Clock.Now()
	for _, k := range h.accountKeys(account.Name) {
		row := keyRow{
			ID: k.ID, Name: k.Name, Environment: k.Environment, DisplayPrefix: k.DisplayPrefix,
			Created: displayTime(k.CreatedAt), Expires: "Never", Status: "Active", Disabled: k.Disabled,
		}
		if k.ExpiresAt != nil {
			row.Expires = displayTime(*k.ExpiresAt)
			if !now.Before(*k.ExpiresAt) {
				row.Status = "Expired"
			}
		}
		if k.Disabled {
			row.Status = "Disabled"
		}
		data.Keys = append(data.Keys, row)
	}
	h.render(w, r, h.pages.keys, data)
}

// render writes a page with the headers every page has.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, t *template.Template, data any) {
	h.renderStatus(w, r, t, data, http.StatusOK)
}

// renderStatus is render with another status than 200.
func (h *Handler) renderStatus(w http.ResponseWriter, r *http.Request, t *template.Template, data any, status int) {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", data); err != nil {
		h.internalError(w, r, "rendering a page", err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// asset serves an embedded script or style sheet.
func (h *Handler) asset(w http.ResponseWriter, r *http.Request) {
	a, ok := h.pages.assets[r.PathValue("name")]
	if !ok {
		h.problems.Write(w, r, problem.NotFound, "No such asset.", nil)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	// The pages link each asset with ?v=<its hash>, so a new release is fetched at once.
	hd.Set("Cache-Control", "public, max-age=86400")
	hd.Set("Content-Length", strconv.Itoa(len(a.body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(a.body)
}
