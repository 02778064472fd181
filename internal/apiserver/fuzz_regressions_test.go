package apiserver

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// Found by FuzzHandler (test/faults): the target "*" with any method but OPTIONS (which net/http's
// server answers itself) reaches the handler, and ServeMux answered it with a bare 400, no body
// and no Content-Type. Every error is a problem.
func TestAsteriskTargetIsAProblem(t *testing.T) {
	h := newHarness(t)
	for _, method := range []string{http.MethodGet, http.MethodPost, "0"} {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " * HTTP/1.1\r\nHost: localhost\r\n\r\n")))
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.srv.Handler().ServeHTTP(rec, req)
		var p problem.Body
		if rec.Code != http.StatusBadRequest || rec.Header().Get("Content-Type") != problem.ContentType ||
			json.Unmarshal(rec.Body.Bytes(), &p) != nil || p.Status != http.StatusBadRequest || p.Detail == "" || p.Instance == "" {
			t.Errorf("%s *: %d %q %s; want a 400 bad-request problem", method, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	}
}
