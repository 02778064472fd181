//go:build race

package harness

// raceEnabled: the tests run with -race, so the manager is built with it too.
const raceEnabled = true
