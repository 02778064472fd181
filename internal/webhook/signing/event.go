package signing

import (
	"crypto/rand"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// Types of the events a WebhookEndpoint can subscribe to (the enum of spec.eventTypes).
const (
	EventTransferCreated   = "transfer.created"
	EventTransferSigned    = "transfer.signed"
	EventTransferSubmitted = "transfer.submitted"
	EventTransferConfirmed = "transfer.confirmed"
	EventTransferFailed    = "transfer.failed"
	EventTransferExpired   = "transfer.expired"
	EventTransferCancelled = "transfer.cancelled"
)

// EventIDPrefix starts every event id; the webhook-id header carries the id, so that a receiver
// deduplicates retries of one event.
const EventIDPrefix = "evt_"

// Event is the body of a delivery.
type Event struct {
	// ID is "evt_" and a ULID; the same for every attempt to deliver the event.
	ID string `json:"id"`
	// Type is one of the Event* constants.
	Type string `json:"type"`
	// CreatedAt is when the change happened.
	CreatedAt time.Time `json:"createdAt"`
	// Environment is the environment (test or live) of the key that created the transfer.
	Environment string `json:"environment"`
	// Sequence orders the events of one transfer: a receiver ignores one older than what it has.
	Sequence uint64 `json:"sequence"`
	// Data is the transfer record as GET /v2/transfers/{id} returns it.
	Data json.RawMessage `json:"data"`
}

// MarshalJSON writes createdAt in UTC, as the HTTP API writes its timestamps.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	p := plain(e)
	p.CreatedAt = e.CreatedAt.UTC()
	if len(p.Data) == 0 {
		p.Data = json.RawMessage("null")
	}
	return json.Marshal(p)
}

// eventEntropy makes the random part of event ids; monotonic within a millisecond, so ids made by
// one process sort in the order they were made.
var (
	eventEntropyMu sync.Mutex
	eventEntropy   io.Reader = ulid.Monotonic(rand.Reader, 0)
)

// NewEventID returns "evt_" and a ULID of the time at.
func NewEventID(at time.Time) string {
	eventEntropyMu.Lock()
	defer eventEntropyMu.Unlock()
	return EventIDPrefix + ulid.MustNew(ulid.Timestamp(at), eventEntropy).String()
}
