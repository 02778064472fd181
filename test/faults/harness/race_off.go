//go:build !race

package harness

// raceEnabled: the tests run without -race, and so does the manager they build.
const raceEnabled = false
