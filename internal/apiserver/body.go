package apiserver

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/strictjson"
)

// transferRequestFields are the members of the transfer request (OpenAPI TransferRequest), in
// the order a problem lists them; createOnlyFields are the create's terms (OpenAPI
// CreateTransferRequest), refused on a simulation.
var (
	transferRequestFields = []string{"from", "to", "asset", "amount", "deadline", "callData", "slippageBps", "execution", "gasOnArrival", "fee", "tradeType", "maxAmountIn"}
	createOnlyFields      = []string{"simulationId", "minAmountOut"}
)

// readTransferRequest runs the checks every transfer request goes through, in the contract's
// order: media type (415), size (413), schema (400), key environment (403). It answers the
// request itself when one fails. create admits the create's own members.
func (s *Server) readTransferRequest(w http.ResponseWriter, r *http.Request, key registry.Key, create bool) (intent.Parsed, bool) {
	body, ok := s.readJSONBody(w, r)
	if !ok {
		return intent.Parsed{}, false
	}
	req, perr := decodeTransferRequest(body, create)
	if perr == nil {
		parsed, err := intent.ParseRequest(req)
		if err == nil {
			return parsed, s.checkKeyEnvironment(w, r, key, parsed)
		}
		perr = asProblem(err)
	}
	// Every parse failure is a bad-request problem (ParseRequest's contract).
	s.writeTransferError(w, r, perr)
	return intent.Parsed{}, false
}

// checkKeyEnvironment refuses a request naming a known chain of the other environment with 403
// chain-not-allowed-for-key-environment: a test key acts on testnets only, a live key on mainnets
// only. Unknown chains are left to the domain, which refuses them with 422.
func (s *Server) checkKeyEnvironment(w http.ResponseWriter, r *http.Request, key registry.Key, parsed intent.Parsed) bool {
	for _, c := range parsed.KnownChains(s.deps.Catalog) {
		if c.Environment == key.Environment || c.NumericID == nil {
			continue
		}
		s.problems.Write(w, r, problem.ChainNotAllowedForKeyEnvironment,
			fmt.Sprintf("A %s key cannot act on chain %s, a %s chain.", key.Environment, c.ID, c.Environment),
			problem.Details{"chainId": json.Number(c.NumericID.String()), "keyEnv": string(key.Environment)})
		return false
	}
	return true
}

// readJSONBody checks the media type (415) and reads the body within the size limit (413),
// answering the request itself when either fails.
func (s *Server) readJSONBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	// Two Content-Type headers are ambiguous: refuse rather than pick one.
	types := r.Header.Values("Content-Type")
	if mt, _, err := mime.ParseMediaType(strings.Join(types, ",")); len(types) != 1 || err != nil || mt != "application/json" {
		s.problems.Write(w, r, problem.UnsupportedMediaType, "The request body must be application/json, in one Content-Type header.", nil)
		return nil, false
	}
	body, err := s.readBody(w, r)
	if errBodyTooLarge(err) {
		s.problems.Write(w, r, problem.PayloadTooLarge,
			fmt.Sprintf("The request body exceeds the limit of %d bytes.", s.opts.MaxBodyBytes), nil)
		return nil, false
	}
	if err != nil {
		s.problems.Write(w, r, problem.BadRequest, "The request body could not be read.", nil)
		return nil, false
	}
	if err := strictjson.Check(body); err != nil {
		s.problems.Write(w, r, problem.BadRequest, "The request body is not valid JSON: "+err.Error()+".", nil)
		return nil, false
	}
	return body, true
}

func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := s.opts.MaxBodyBytes
	if limit <= 0 {
		return io.ReadAll(r.Body)
	}
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}

// decodeTransferRequest is the schema check of the body (OpenAPI TransferRequest): one JSON
// object, members named exactly (encoding/json alone would take "FROM" for "from"), no unknown
// members, and strings where strings belong. Each failure names the member.
func decodeTransferRequest(body []byte, create bool) (intent.Request, *intent.Problem) {
	var req intent.Request
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must be a JSON object"}
		}
		return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body is not valid JSON: " +
			strings.TrimPrefix(err.Error(), "json: ")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must hold exactly one JSON object"}
	}
	if members == nil {
		return req, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must be a JSON object"}
	}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	known := transferRequestFields
	if create {
		known = slices.Concat(transferRequestFields, createOnlyFields)
	}
	for _, name := range names {
		if !slices.Contains(known, name) {
			detail := fmt.Sprintf("unknown field %q: a transfer request has only from, to, asset, amount, deadline, callData, slippageBps, execution, gasOnArrival, fee, tradeType and maxAmountIn", name)
			if create {
				detail = fmt.Sprintf("unknown field %q: a create has only from, to, asset, amount, deadline, callData, slippageBps, execution, gasOnArrival, fee, tradeType, maxAmountIn, simulationId and minAmountOut", name)
			} else if slices.Contains(createOnlyFields, name) {
				detail = fmt.Sprintf("%s belongs to a create (POST /v2/transfers), not to a simulation", name)
			}
			return req, &intent.Problem{Kind: intent.KindBadRequest, Field: name, Detail: detail}
		}
	}
	for _, name := range known {
		raw, present := members[name]
		if !present {
			continue
		}
		switch name {
		case "asset":
			if err := req.Asset.UnmarshalJSON(raw); err != nil {
				return req, asProblem(err)
			}
			continue
		case "slippageBps":
			var n int
			if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) || json.Unmarshal(raw, &n) != nil {
				return req, &intent.Problem{Kind: intent.KindBadRequest, Field: name, Detail: "must be an integer"}
			}
			req.SlippageBps = &n
			continue
		case "gasOnArrival":
			g, perr := decodeGasOnArrival(raw)
			if perr != nil {
				return req, perr
			}
			req.GasOnArrival = g
			continue
		case "fee":
			f, perr := decodeFee(raw)
			if perr != nil {
				return req, perr
			}
			req.Fee = f
			continue
		}
		v, ok := jsonString(raw)
		if !ok {
			return req, &intent.Problem{Kind: intent.KindBadRequest, Field: name, Detail: "must be a string"}
		}
		*stringField(&req, name) = v
	}
	return req, nil
}

// stringField is the string member name of a transfer request (one of transferRequestFields or
// createOnlyFields, asset, slippageBps and gasOnArrival aside).
func stringField(req *intent.Request, name string) *string {
	switch name {
	case "from":
		return &req.From
	case "to":
		return &req.To
	case "amount":
		return &req.Amount
	case "deadline":
		return &req.Deadline
	case "callData":
		return &req.CallData
	case "simulationId":
		return &req.SimulationID
	case "minAmountOut":
		return &req.MinAmountOut
	case "execution":
		return &req.Execution
	case "tradeType":
		return &req.TradeType
	case "maxAmountIn":
		return &req.MaxAmountIn
	}
	panic("apiserver: no string member " + name + " in a transfer request") // the field lists and this switch disagree
}

// jsonString decodes raw, one JSON value, when it is a string. One without escapes is its bytes
// (the common case, without a decoder's allocations); any other goes through encoding/json.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return v, true
}

func asProblem(err error) *intent.Problem {
	var p *intent.Problem
	if errors.As(err, &p) {
		return p
	}
	return &intent.Problem{Kind: intent.KindBadRequest, Detail: err.Error()}
}

// decodeSubmission is the schema check of a submission body: exactly {"hash": "0x<64 hex>"}.
func decodeSubmission(body []byte) (common.Hash, *intent.Problem) {
	hex, ok, perr := oneStringMember(body, "hash", "a submission")
	if perr != nil {
		return common.Hash{}, perr
	}
	if !ok || !isTxHash(hex) {
		return common.Hash{}, &intent.Problem{Kind: intent.KindBadRequest, Field: "hash",
			Detail: "must be a transaction hash: 0x followed by 64 hex digits"}
	}
	return common.HexToHash(hex), nil
}

// oneStringMember reads a body that is exactly one JSON object whose only member is name (what
// names the body in the problem of an unknown member): the member's string, and false when it is
// absent or not a string, which the caller refuses in its own words.
func oneStringMember(body []byte, name, what string) (string, bool, *intent.Problem) {
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || members == nil {
		return "", false, &intent.Problem{Kind: intent.KindBadRequest, Detail: fmt.Sprintf(`the request body must be a JSON object {%q: "0x..."}`, name)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false, &intent.Problem{Kind: intent.KindBadRequest, Detail: "the request body must hold exactly one JSON object"}
	}
	for member := range members {
		if member != name {
			return "", false, &intent.Problem{Kind: intent.KindBadRequest, Field: member,
				Detail: fmt.Sprintf("unknown field %q: %s has only %s", member, what, name)}
		}
	}
	var value string
	raw, present := members[name]
	isString := present && len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &value) == nil
	return value, isString, nil
}

// isTxHash reports whether s is 0x and 64 hex digits.
func isTxHash(s string) bool {
	if len(s) != 66 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}

// decodeGasOnArrival is the schema check of gasOnArrival: an object with exactly the string
// member amount.
func decodeGasOnArrival(raw json.RawMessage) (*intent.GasOnArrival, *intent.Problem) {
	var members map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &members) != nil {
		return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "gasOnArrival", Detail: "must be an object {\"amount\": \"0.002\"}"}
	}
	for name := range members {
		if name != "amount" {
			return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "gasOnArrival", Detail: fmt.Sprintf("unknown field %q: gasOnArrival has only amount", name)}
		}
	}
	amount, ok := members["amount"]
	if !ok {
		return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "gasOnArrival.amount", Detail: "gasOnArrival.amount is required"}
	}
	v, ok := jsonString(amount)
	if !ok {
		return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "gasOnArrival.amount", Detail: "must be a string"}
	}
	return &intent.GasOnArrival{Amount: v}, nil
}

// decodeFee is the schema check of fee: an object with an integer bps and a string recipient,
// each optional, nothing else.
func decodeFee(raw json.RawMessage) (*intent.RequestFee, *intent.Problem) {
	var members map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &members) != nil {
		return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "fee", Detail: "must be an object {\"bps\": 50, \"recipient\": \"0x...\"}"}
	}
	var fee intent.RequestFee
	for name, v := range members {
		switch name {
		case "bps":
			var n int
			if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) || json.Unmarshal(v, &n) != nil {
				return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "fee.bps", Detail: "must be an integer"}
			}
			fee.Bps = &n
		case "recipient":
			s, ok := jsonString(v)
			if !ok {
				return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "fee.recipient", Detail: "must be a string"}
			}
			fee.Recipient = s
		default:
			return nil, &intent.Problem{Kind: intent.KindBadRequest, Field: "fee", Detail: fmt.Sprintf("unknown field %q: fee has only bps and recipient", name)}
		}
	}
	return &fee, nil
}
