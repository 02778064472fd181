package intent

import (
	"errors"
	"fmt"
	"slices"
)

// Status is an intent's lifecycle status (docs/decisions.md):
//
//	pending --submit--> submitted --confirm--> confirmed
//	   |   <----drop-----'  `------fail-----> failed
//	   `--expire--> expired
//
// drop is the one way back: the transaction left the chain (a reorg) or the node before it was
// final, so the intent waits for its transaction again, and may still expire.
type Status string

const (
	// StatusPending means created, its transaction not yet seen on chain.
	StatusPending Status = "pending"
	// StatusSubmitted means its transaction is on chain (hash known), not yet final.
	StatusSubmitted Status = "submitted"
	// StatusConfirmed means executed and final. Terminal.
	StatusConfirmed Status = "confirmed"
	// StatusFailed means its transaction reverted or the order could not be filled. Terminal.
	StatusFailed Status = "failed"
	// StatusExpired means the deadline (or the default TTL) passed before submission. Terminal.
	StatusExpired Status = "expired"
)

// Statuses lists every status in lifecycle order.
var Statuses = []Status{StatusPending, StatusSubmitted, StatusConfirmed, StatusFailed, StatusExpired}

// Event is something that happened to an intent.
type Event string

const (
	// EventSubmit means the intent's transaction was seen on chain.
	EventSubmit Event = "submit"
	// EventConfirm means the transaction (and fill, for swap/bridge) reached finality.
	EventConfirm Event = "confirm"
	// EventFail means the transaction reverted or the order was not filled before its deadline.
	EventFail Event = "fail"
	// EventExpire means the deadline passed while nothing was submitted.
	EventExpire Event = "expire"
	// EventDrop means the transaction left the canonical chain (its block was reorganised away)
	// or the node forgot it, before it was final.
	EventDrop Event = "drop"
)

// Events lists every event.
var Events = []Event{EventSubmit, EventConfirm, EventFail, EventExpire, EventDrop}

// ErrIllegalTransition is wrapped when an event does not apply to a status. The controller treats
// it as "nothing to do", never as a reason to overwrite the status.
var ErrIllegalTransition = errors.New("illegal intent transition")

// transitions is the whole lifecycle. A submitted intent does not expire off-chain: once its
// transaction is on chain only the chain can say how it ended (confirm or fail), or that it is
// not on chain after all (drop).
var transitions = map[Status]map[Event]Status{
	StatusPending:   {EventSubmit: StatusSubmitted, EventExpire: StatusExpired},
	StatusSubmitted: {EventConfirm: StatusConfirmed, EventFail: StatusFailed, EventDrop: StatusPending},
}

// Transition returns the status after ev, or ErrIllegalTransition. It is pure, so the controller,
// CEL rules and tests agree on one table.
func Transition(from Status, ev Event) (Status, error) {
	if _, err := ParseStatus(string(from)); err != nil {
		return "", err
	}
	if to, ok := transitions[from][ev]; ok {
		return to, nil
	}
	return "", fmt.Errorf("%w: %q on %s", ErrIllegalTransition, ev, from)
}

// finishedStatuses are the known statuses that take no event, read off the transition table
// once, so that a status added to the lifecycle is finished or not by its edges alone.
var finishedStatuses = func() []Status {
	var out []Status
	for _, s := range Statuses {
		if len(transitions[s]) == 0 {
			out = append(out, s)
		}
	}
	return out
}()

// Finished reports whether s is a known status that no event changes (a terminal one). It takes
// any string type, so that the API's phase, the domain's status and the archive's column share
// this one rule.
func Finished[S ~string](s S) bool {
	return slices.Contains(finishedStatuses, Status(s))
}

// FinishedStatuses lists the finished statuses in lifecycle order, for callers that enumerate
// them (label selectors, the archive's statuses).
func FinishedStatuses() []Status {
	return slices.Clone(finishedStatuses)
}

// ParseStatus parses a status as stored or filtered on.
func ParseStatus(s string) (Status, error) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", fmt.Errorf("unknown intent status %q", s)
}
