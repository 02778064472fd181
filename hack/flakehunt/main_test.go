package main

import (
	"slices"
	"strings"
	"testing"
)

// What go test -json prints for a package with a failed subtest, a passed test, and a package that
// failed outside any test.
const events = `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestA/case"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"fail","Package":"p"}
not json
{"Action":"fail","Package":"q"}
{"Action":"pass","Package":"r"}
`

func TestFailedTestsNamesTheSubtestAndThePackagesThatFailedAlone(t *testing.T) {
	got := failedTests(strings.NewReader(events))
	want := []string{"p.TestA/case", "q (the package itself: build, panic or timeout)"}
	if !slices.Equal(got, want) {
		t.Errorf("failed %q, want %q", got, want)
	}
}

func TestReportExitsNonZeroOnAnyFailure(t *testing.T) {
	if code := report(map[string][]int{}, 3, 2); code != 0 {
		t.Errorf("no failure: exit %d", code)
	}
	if code := report(map[string][]int{"p.TestA": {2}}, 3, 2); code != 1 {
		t.Errorf("a failure: exit %d", code)
	}
}
