// Package allocs measures allocations for tests that compare them exactly.
//
// testing.AllocsPerRun counts every allocation of the process while the function runs, divided by
// the runs and rounded down. Anything else that allocates meanwhile (another goroutine, the race
// detector, a collection that empties a sync.Pool the code then refills) only ever adds to that
// count, so under CPU load one figure drifts up by one now and then, and two figures taken apart
// and compared exactly disagree about one run in twenty (issue 33). The least figure of a few
// rounds is the function's own.
package allocs

import "testing"

// Rounds is how many rounds Least takes of each function: enough that all of them being disturbed
// is unlikely on a loaded machine, few enough to stay quick.
const Rounds = 7

// Least measures each function runs times per round with testing.AllocsPerRun, for Rounds rounds
// interleaved (so that a period of load falls on every function alike), and returns each one's
// least figure, in order.
func Least(runs int, fns ...func()) []float64 {
	least := make([]float64, len(fns))
	for round := range Rounds {
		for i, f := range fns {
			if n := testing.AllocsPerRun(runs, f); round == 0 || n < least[i] {
				least[i] = n
			}
		}
	}
	return least
}
