package apiserver

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A client that sends its whole oversized body before reading the answer (Python's urllib, many
// SDKs) reads the 413, rather than a connection reset, whether or not it declared the length.
func TestOversizedBodyIs413ForAClientThatSendsItAll(t *testing.T) {
	h := newTransferHarness(t)
	addr := strings.TrimPrefix(h.http.URL, "http://")
	body := strings.Repeat("x", 4<<20) // 64 times the 64 KiB limit
	for _, chunked := range []bool{false, true} {
		for attempt := range 5 {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			req := "POST /v2/transfers/simulate HTTP/1.1\r\nHost: " + addr + "\r\nApi-Key: " + testKeyA +
				"\r\nContent-Type: application/json\r\n"
			payload := body
			if chunked {
				req += "Transfer-Encoding: chunked\r\n\r\n"
				payload = strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
			} else {
				req += "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
			}
			// More than the kernel's buffers hold: the server has answered and closed before the
			// last bytes are sent, unless it reads on after its 413.
			if _, err := conn.Write([]byte(req + payload)); err != nil {
				t.Fatalf("chunked=%v attempt %d: sending the body: %v", chunked, attempt, err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodPost, URL: &url.URL{}})
			if err != nil {
				t.Fatalf("chunked=%v attempt %d: reading the answer: %v", chunked, attempt, err)
			}
			_ = resp.Body.Close()
			_ = conn.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("chunked=%v attempt %d: %d, want 413", chunked, attempt, resp.StatusCode)
			}
		}
	}
}
