//go:build !race

package harness

// raceFlags: the tests run without -race, and so does the manager they build.
var raceFlags []string
