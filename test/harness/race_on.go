//go:build race

package harness

// raceFlags: the tests run with -race, so the manager is built with it too: it reuses their
// compiled packages and reports data races in its log.
var raceFlags = []string{"-race"}
