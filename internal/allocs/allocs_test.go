package allocs

import (
	"runtime"
	"sync"
	"testing"
)

// sink keeps the measured allocations on the heap; noise is the neighbour's own, so that the two
// goroutines share no variable.
var sink, noise []byte

// Noise from another goroutine raises single figures, never the least: a function that allocates
// once per run reads one, while a neighbour allocates as fast as it can.
func TestLeastIgnoresOtherGoroutinesAllocations(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				noise = make([]byte, 64)
				runtime.Gosched()
			}
		}
	})
	got := Least(200, func() { sink = make([]byte, 32) }, func() {})
	close(stop)
	wg.Wait()
	if got[0] != 1 || got[1] != 0 {
		t.Errorf("least figures %v, want [1 0]", got)
	}
}

// A real difference of one allocation per run stays visible.
func TestLeastKeepsARealDifference(t *testing.T) {
	got := Least(100, func() { sink = make([]byte, 8) }, func() { sink = make([]byte, 8); sink = make([]byte, 16) })
	if got[1] != got[0]+1 {
		t.Errorf("least figures %v, want the second one more than the first", got)
	}
}
