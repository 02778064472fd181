package apiserver

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// Page size bounds of every list (OpenAPI components/parameters/Limit).
const (
	maxPageLimit     = 100
	defaultPageLimit = 50
)

// pageRequest is the limit and cursor of a list request. A zero limit means "not given".
type pageRequest struct {
	limit  int
	cursor []string // decoded sort key of the last item of the previous page; nil for the first page
}

// parsePage reads limit and cursor; on a bad value it answers 400 naming the parameter and
// returns ok=false. Cursors are opaque to clients: base64url of the last item's sort key fields.
func (s *Server) parsePage(w http.ResponseWriter, r *http.Request, q url.Values, fields int) (pageRequest, bool) {
	var p pageRequest
	if raw, present := q["limit"]; present {
		n, err := strconv.Atoi(raw[0])
		if err != nil || n < 1 || n > maxPageLimit || len(raw) > 1 {
			s.problems.Write(w, r, problem.BadRequest, "Query parameter limit must be one integer from 1 to 100.",
				problem.Details{"parameter": "limit"})
			return p, false
		}
		p.limit = n
	}
	if raw, present := q["cursor"]; present {
		key, ok := decodeCursor(raw[0], fields)
		if !ok || len(raw) > 1 {
			s.problems.Write(w, r, problem.BadRequest, "Query parameter cursor is not a cursor this service issued; "+
				"take it from the Link header of the previous page.", problem.Details{"parameter": "cursor"})
			return p, false
		}
		p.cursor = key
	}
	return p, true
}

func encodeCursor(key ...string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strings.Join(key, "\x00")))
}

func decodeCursor(c string, fields int) ([]string, bool) {
	if c == "" || len(c) > 512 {
		return nil, false
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, false
	}
	key := strings.Split(string(b), "\x00")
	return key, len(key) == fields
}

// setNextLink sets `Link: <url>; rel="next"` for the page after the one being answered: the
// request's own URL (under base_url) with cursor replaced.
func (s *Server) setNextLink(w http.ResponseWriter, r *http.Request, cursor string) {
	q := r.URL.Query()
	q.Set("cursor", cursor)
	w.Header().Set("Link", "<"+s.problems.BaseURL+r.URL.Path+"?"+q.Encode()+`>; rel="next"`)
}
