package devchain

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Lie rewrites one JSON-RPC answer: given the method, its params and the node's result, it returns
// the result to send instead (the same bytes to tell the truth).
type Lie func(method string, params, result json.RawMessage) json.RawMessage

// Proxy is another JSON-RPC endpoint in front of a node, on its own loopback port: an independent
// provider as the service sees it (another host and port), which tells the truth until a test
// makes it lie.
type Proxy struct {
	// URL is the proxy's endpoint.
	URL string
	lie atomic.Pointer[Lie]
}

// Lie makes the proxy rewrite the node's answers with l from now on; nil tells the truth again.
func (p *Proxy) Lie(l Lie) {
	if l == nil {
		p.lie.Store(nil)
		return
	}
	p.lie.Store(&l)
}

// NewProxy serves a proxy of the chain's node until the test ends.
func (c *Chain) NewProxy(t testing.TB) *Proxy {
	t.Helper()
	p := &Proxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp, err := http.Post(c.URL, "application/json", bytes.NewReader(body)) //nolint:noctx // the test's loopback node
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer func() { _ = resp.Body.Close() }()
		answer, err := io.ReadAll(resp.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if l := p.lie.Load(); l != nil {
			answer = rewrite(body, answer, *l)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(answer)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// rpcRequest is a JSON-RPC 2.0 request, as far as the proxy reads it.
type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// rewrite applies l to every successful answer of a single or batched request; what it cannot
// read it passes on as it is. Answers are kept as field maps, so that what l does not touch goes
// back byte for byte.
func rewrite(request, answer []byte, l Lie) []byte {
	batch := bytes.HasPrefix(bytes.TrimSpace(request), []byte("["))
	var reqs []rpcRequest
	var answers []map[string]json.RawMessage
	if batch {
		if json.Unmarshal(request, &reqs) != nil || json.Unmarshal(answer, &answers) != nil {
			return answer
		}
	} else {
		var req rpcRequest
		var ans map[string]json.RawMessage
		if json.Unmarshal(request, &req) != nil || json.Unmarshal(answer, &ans) != nil {
			return answer
		}
		reqs, answers = []rpcRequest{req}, []map[string]json.RawMessage{ans}
	}
	byID := map[string]rpcRequest{}
	for _, r := range reqs {
		byID[string(r.ID)] = r
	}
	for _, a := range answers {
		req, ok := byID[string(a["id"])]
		if result, has := a["result"]; ok && has {
			a["result"] = l(req.Method, req.Params, result)
		}
	}
	var out []byte
	var err error
	if batch {
		out, err = json.Marshal(answers)
	} else {
		out, err = json.Marshal(answers[0])
	}
	if err != nil {
		return answer
	}
	return out
}
