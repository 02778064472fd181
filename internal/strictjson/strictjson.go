// Package strictjson checks a request body against the JSON every input of the service must be:
// one RFC 8259 value that is also I-JSON (RFC 7493): no duplicate object member names anywhere,
// valid UTF-8. encoding/json takes the last of two members of the same name without a word, so a
// body that says amount twice would be read as whichever came last; the service refuses it.
package strictjson

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Check returns nil when body is exactly one I-JSON value (surrounding whitespace allowed), or an
// error that says what is wrong and where, without quoting more of the body than a member name.
func Check(body []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	if _, err := dec.ReadValue(); err != nil {
		return describe(err)
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return errors.New("the body must hold exactly one JSON value")
	}
	return nil
}

// describe words a jsontext error for a problem's detail.
func describe(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the JSON ends early")
	}
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		msg := strings.TrimPrefix(syn.Err.Error(), "jsontext: ")
		if p := string(syn.JSONPointer); p != "" {
			return errors.New(msg + " at " + p)
		}
		return errors.New(msg)
	}
	return errors.New("not valid JSON")
}
