package watcher

import "testing"

// Each step tells Options.Heads the head it read (the simulation's chain view follows it), by
// the chain's CAIP-2 id.
func TestEachStepTellsTheHead(t *testing.T) {
	dev, f, _, _ := newLateFixture(t)
	type told struct {
		chain string
		head  uint64
	}
	var heads []told
	f.opts.Heads = func(chain string, head uint64) { heads = append(heads, told{chain, head}) }
	dev.Backend.Commit()
	stepOnce(t, f)
	dev.Backend.Commit()
	stepOnce(t, f)
	if len(heads) != 2 || heads[0].chain != "eip155:31337" || heads[1].head != heads[0].head+1 {
		t.Fatalf("told %+v; want two heads of eip155:31337, one block apart", heads)
	}
}
