package intent

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

const (
	// IntentIDPrefix starts every intent's API id.
	IntentIDPrefix = "int_transfer_"
	// IntentObjectNamePrefix starts every TransferIntent object name: Kubernetes names cannot
	// hold "_" or upper case, so the id is stored as int-transfer-<ulid lowercase>.
	IntentObjectNamePrefix = "int-transfer-"
	// SimulationIDPrefix starts every simulation id.
	SimulationIDPrefix = "sim_"
)

// ErrInvalidID is wrapped by every id or object-name parse error.
var ErrInvalidID = errors.New("invalid intent id")

// idEntropy is monotonic within a millisecond (ids sort in creation order even under load) and
// drawn from crypto/rand, so ids cannot be predicted from one another. The lock makes it safe for
// concurrent requests.
var idEntropy = &ulid.LockedMonotonicReader{MonotonicReader: ulid.Monotonic(rand.Reader, 0)}

func newULID(now time.Time) ulid.ULID {
	id, err := ulid.New(ulid.Timestamp(now), idEntropy)
	if err != nil {
		// A clock outside the ULID range, or 2^80 ids in one millisecond: fall back to real time
		// and fresh entropy rather than fail a request.
		return ulid.MustNew(ulid.Now(), rand.Reader)
	}
	return id
}

// NewIntentID is a fresh API id, int_transfer_<ULID>, timestamped now.
func NewIntentID(now time.Time) string { return IntentIDPrefix + newULID(now).String() }

// NewSimulationID is a fresh simulation id, sim_<ULID>, timestamped now.
func NewSimulationID(now time.Time) string { return SimulationIDPrefix + newULID(now).String() }

// IDTime is the time in an intent id's ULID (millisecond precision), taken just before the intent
// was stored; zero for anything that is not an intent id.
func IDTime(id string) time.Time {
	rest, ok := strings.CutPrefix(id, IntentIDPrefix)
	if !ok {
		return time.Time{}
	}
	u, err := ulid.ParseStrict(rest)
	if err != nil {
		return time.Time{}
	}
	return ulid.Time(u.Time()).UTC()
}

// ObjectNameFromID maps int_transfer_<ULID> to int-transfer-<ulid lowercase>. Crockford base32 is
// case-insensitive, so an id typed in lower case finds the same object.
func ObjectNameFromID(id string) (string, error) {
	rest, ok := strings.CutPrefix(id, IntentIDPrefix)
	if !ok {
		return "", fmt.Errorf("%w %q: want prefix %s", ErrInvalidID, id, IntentIDPrefix)
	}
	u, err := ulid.ParseStrict(rest)
	if err != nil {
		return "", fmt.Errorf("%w %q: %w", ErrInvalidID, id, err)
	}
	return IntentObjectNamePrefix + strings.ToLower(u.String()), nil
}

// IDFromObjectName maps int-transfer-<ulid lowercase> back to int_transfer_<ULID>. Only the
// lower-case spelling is accepted: it is the only one ObjectNameFromID produces and the only one
// Kubernetes allows.
func IDFromObjectName(name string) (string, error) {
	rest, ok := strings.CutPrefix(name, IntentObjectNamePrefix)
	if !ok {
		return "", fmt.Errorf("%w: object name %q: want prefix %s", ErrInvalidID, name, IntentObjectNamePrefix)
	}
	if rest != strings.ToLower(rest) {
		return "", fmt.Errorf("%w: object name %q is not lower case", ErrInvalidID, name)
	}
	u, err := ulid.ParseStrict(rest)
	if err != nil {
		return "", fmt.Errorf("%w: object name %q: %w", ErrInvalidID, name, err)
	}
	return IntentIDPrefix + u.String(), nil
}

// isSimulationID reports whether s is sim_ followed by a ULID.
func isSimulationID(s string) bool {
	rest, ok := strings.CutPrefix(s, SimulationIDPrefix)
	if !ok {
		return false
	}
	_, err := ulid.ParseStrict(rest)
	return err == nil
}
