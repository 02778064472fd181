package strictjson

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, ok := range []string{`{"a":1}`, ` {"a":{"b":[1,{"c":2}]}} `, `[]`, `"x"`} {
		if err := Check([]byte(ok)); err != nil {
			t.Errorf("Check(%s) = %v", ok, err)
		}
	}
	for body, want := range map[string]string{
		`{"a":1,"a":2}`:         "duplicate",
		`{"a":{"b":1,"b":2}}`:   "duplicate",
		`[{"x":1,"y":2,"x":3}]`: "duplicate",
		`{"a":1} {"b":2}`:       "exactly one",
		`{"a":`:                 "ends early",
		"{\"a\":\"\xff\"}":      "utf-8",
		`{"a":1,}`:              "",
	} {
		err := Check([]byte(body))
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), want) {
			t.Errorf("Check(%q) = %v; want an error about %q", body, err, want)
		}
	}
}
