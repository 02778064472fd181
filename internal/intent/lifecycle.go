package intent

import (
	"errors"
	"fmt"
	"slices"
)

// Status is an intent's lifecycle status (docs/decisions.md). A transaction intent:
//
//	pending --submit--> submitted --confirm--> confirmed
//	   |   <----drop-----'  `------fail-----> failed
//	   `--expire--> expired
//
// A gasless intent starts unsigned; its user's signature makes it signed (offered to fillers),
// and the Open of its order, by a filler's openFor (or the user's own open), submits it:
//
//	unsigned --sign--> signed --submit--> submitted --> (as above)
//	   |                 |  <----unopen-----'
//	   |                 |--cancel--> cancelling --expire--> cancelled
//	   |                 `--expire--> expired        `--submit--> submitted
//	   |--cancel--> cancelled
//	   |--expire--> expired
//	   `--submit--> submitted
//
// A cancelled order whose late Open a reorg takes away goes back to cancelling (unopen-cancelled),
// never to signed: an order its user cancelled never returns to the book.
//
// drop and unopen are the ways back: the transaction left the chain (a reorg) or the node before
// it was final, so the intent waits for its transaction (or a filler) again, and may still expire.
// A signed order that is cancelled has been offered: a filler that read it may still open it until
// its open deadline, so it is cancelling until then, and cancelled only after.
type Status string

const (
	// StatusPending means created, its transaction not yet seen on chain.
	StatusPending Status = "pending"
	// StatusUnsigned means a gasless intent created, its user's signature not yet accepted.
	StatusUnsigned Status = "unsigned"
	// StatusSigned means a gasless intent whose signature was accepted: offered to fillers.
	StatusSigned Status = "signed"
	// StatusSubmitted means its transaction is on chain (hash known), not yet final.
	StatusSubmitted Status = "submitted"
	// StatusConfirmed means executed and final. Terminal.
	StatusConfirmed Status = "confirmed"
	// StatusFailed means its transaction reverted or the order could not be filled. Terminal.
	StatusFailed Status = "failed"
	// StatusExpired means the deadline (or the default TTL, or a gasless order's open deadline)
	// passed before submission. Terminal.
	StatusExpired Status = "expired"
	// StatusCancelling means a signed gasless intent its user cancelled: no longer offered, still
	// openable by a filler that read it, until its open deadline.
	StatusCancelling Status = "cancelling"
	// StatusCancelled means cancelled for good: nobody can open it. Terminal.
	StatusCancelled Status = "cancelled"
)

// Statuses lists every status in lifecycle order.
var Statuses = []Status{StatusPending, StatusUnsigned, StatusSigned, StatusSubmitted, StatusConfirmed, StatusFailed, StatusExpired,
	StatusCancelling, StatusCancelled}

// StatusesAs lists every status in lifecycle order as another string type (the API's phase), for
// the filters that accept any of them.
func StatusesAs[S ~string]() []S {
	out := make([]S, len(Statuses))
	for i, s := range Statuses {
		out[i] = S(s)
	}
	return out
}

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
	// EventSign means the user's signature of a gasless order was checked and accepted.
	EventSign Event = "sign"
	// EventCancel means the user cancelled a gasless order before it was opened.
	EventCancel Event = "cancel"
	// EventUnopen is a drop of a gasless order's Open: the order is signed (offered) again.
	EventUnopen Event = "unopen"
	// EventUnopenCancelled is a drop of the Open of a gasless order its user had cancelled: the
	// order is cancelling again, never offered again.
	EventUnopenCancelled Event = "unopen-cancelled"
)

// Events lists every event.
var Events = []Event{EventSubmit, EventConfirm, EventFail, EventExpire, EventDrop, EventSign, EventCancel, EventUnopen, EventUnopenCancelled}

// ErrIllegalTransition is wrapped when an event does not apply to a status. The controller treats
// it as "nothing to do", never as a reason to overwrite the status.
var ErrIllegalTransition = errors.New("illegal intent transition")

// transitions is the whole lifecycle. A submitted intent does not expire off-chain: once its
// transaction is on chain only the chain can say how it ended (confirm or fail), or that it is
// not on chain after all (drop).
var transitions = map[Status]map[Event]Status{
	StatusPending:    {EventSubmit: StatusSubmitted, EventExpire: StatusExpired},
	StatusUnsigned:   {EventSign: StatusSigned, EventSubmit: StatusSubmitted, EventExpire: StatusExpired, EventCancel: StatusCancelled},
	StatusSigned:     {EventSubmit: StatusSubmitted, EventExpire: StatusExpired, EventCancel: StatusCancelling},
	StatusCancelling: {EventSubmit: StatusSubmitted, EventExpire: StatusCancelled},
	StatusSubmitted: {EventConfirm: StatusConfirmed, EventFail: StatusFailed, EventDrop: StatusPending, EventUnopen: StatusSigned,
		EventUnopenCancelled: StatusCancelling},
}

// Takes reports whether status s takes event ev, so that callers ask the table ("can this intent
// still be opened?", "can it expire?") rather than list the statuses themselves.
func Takes[S ~string](s S, ev Event) bool {
	_, ok := transitions[Status(s)][ev]
	return ok
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
