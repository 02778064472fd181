package intent

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/oklog/ulid/v2"
)

func TestIntentIDObjectNameMapping(t *testing.T) {
	const id = "int_transfer_01J9ZQ8K3W4XH6Y2V5B7N0M1PR"
	const name = "int-transfer-01j9zq8k3w4xh6y2v5b7n0m1pr"
	if got, err := ObjectNameFromID(id); err != nil || got != name {
		t.Errorf("ObjectNameFromID(%q) = %q, %v; want %q", id, got, err, name)
	}
	if got, err := IDFromObjectName(name); err != nil || got != id {
		t.Errorf("IDFromObjectName(%q) = %q, %v; want %q", name, got, err, id)
	}
	// Crockford base32 is case-insensitive: a lower-case id finds the same object.
	if got, err := ObjectNameFromID(strings.ToLower(id[:len(IntentIDPrefix)]) + strings.ToLower(id[len(IntentIDPrefix):])); err != nil || got != name {
		t.Errorf("lower-case id mapped to %q, %v", got, err)
	}
}

func TestIntentIDBadInputs(t *testing.T) {
	badIDs := []string{
		"", "int_transfer_", "int-transfer-01J9ZQ8K3W4XH6Y2V5B7N0M1PR", "sim_01J9ZQ8K3W4XH6Y2V5B7N0M1PR",
		"int_transfer_01J9ZQ8K3W4XH6Y2V5B7N0M1P",   // 25 chars
		"int_transfer_01J9ZQ8K3W4XH6Y2V5B7N0M1PRX", // 27 chars
		"int_transfer_01J9ZQ8K3W4XH6Y2V5B7N0M1PU",  // U is not Crockford
		"int_transfer_81J9ZQ8K3W4XH6Y2V5B7N0M1PR",  // timestamp overflow
		"INT_TRANSFER_01J9ZQ8K3W4XH6Y2V5B7N0M1PR",
	}
	for _, id := range badIDs {
		if got, err := ObjectNameFromID(id); !errors.Is(err, ErrInvalidID) {
			t.Errorf("ObjectNameFromID(%q) = %q, %v; want ErrInvalidID", id, got, err)
		}
	}
	badNames := []string{
		"", "int-transfer-", "int_transfer_01j9zq8k3w4xh6y2v5b7n0m1pr",
		"int-transfer-01J9ZQ8K3W4XH6Y2V5B7N0M1PR", // upper case is not a Kubernetes name
		"int-transfer-01j9zq8k3w4xh6y2v5b7n0m1p",
		"int-transfer-01j9zq8k3w4xh6y2v5b7n0m1pu",
		"other-01j9zq8k3w4xh6y2v5b7n0m1pr",
	}
	for _, name := range badNames {
		if got, err := IDFromObjectName(name); !errors.Is(err, ErrInvalidID) {
			t.Errorf("IDFromObjectName(%q) = %q, %v; want ErrInvalidID", name, got, err)
		}
	}
}

func TestNewIDs(t *testing.T) {
	id := NewIntentID(fixedNow)
	name, err := ObjectNameFromID(id)
	if err != nil {
		t.Fatalf("fresh id %q does not map: %v", id, err)
	}
	if back, err := IDFromObjectName(name); err != nil || back != id {
		t.Errorf("round trip %q -> %q -> %q, %v", id, name, back, err)
	}
	if len(name) > 63 {
		t.Errorf("object name %q longer than a DNS label", name)
	}
	u := ulid.MustParseStrict(strings.TrimPrefix(id, IntentIDPrefix))
	if !u.Timestamp().Equal(fixedNow) {
		t.Errorf("ULID time %v, want %v", u.Timestamp(), fixedNow)
	}
	sim := NewSimulationID(fixedNow)
	if _, err := ulid.ParseStrict(strings.TrimPrefix(sim, SimulationIDPrefix)); err != nil || !strings.HasPrefix(sim, "sim_") {
		t.Errorf("simulation id %q: %v", sim, err)
	}
}

// Ids made concurrently in the same millisecond are unique, and strictly increasing per goroutine.
func TestNewIDsConcurrent(t *testing.T) {
	const workers, perWorker = 8, 500
	var mu sync.Mutex
	seen := make(map[string]bool, workers*perWorker)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			prev := ""
			for range perWorker {
				id := NewSimulationID(fixedNow)
				if id <= prev {
					t.Errorf("id %s not after %s", id, prev)
				}
				prev = id
				mu.Lock()
				seen[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != workers*perWorker {
		t.Errorf("%d unique ids, want %d", len(seen), workers*perWorker)
	}
}
