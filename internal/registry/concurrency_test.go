package registry

import (
	"sync"
	"testing"
)

// readDuringWrites calls read from four goroutines, over and over, while write(0) … write(n-1)
// run; with -race it checks that readers never see a half-built snapshot. read returns what it
// found wrong, and its goroutine stops at the first such error.
func readDuringWrites(t *testing.T, n int, read func() error, write func(i int)) {
	t.Helper()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := read(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range n {
		write(i)
	}
	close(stop)
	wg.Wait()
}
