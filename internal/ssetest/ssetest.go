// Package ssetest reads Server-Sent Events streams for tests: the clients of
// GET /v2/transfers/{id}/events in internal/apiserver's tests and in the end-to-end suite. It
// reads the format as the service writes it (one data line per event) and imports nothing of the
// service.
package ssetest

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Item is one thing a stream carried: an event (ID, Event, Data), a retry field or a comment, with
// the time it arrived.
type Item struct {
	ID, Event, Data, Retry, Comment string
	At                              time.Time
}

// Stream reads a response's items as they arrive.
type Stream struct {
	resp  *http.Response
	items chan Item
}

// ErrEnded is returned once the server ended the stream.
var ErrEnded = errors.New("the stream ended")

// Read starts reading resp's body, a text/event-stream. Close it when done.
func Read(resp *http.Response) *Stream {
	s := &Stream{resp: resp, items: make(chan Item, 64)}
	go s.read()
	return s
}

// Close ends the client's side of the stream.
func (s *Stream) Close() { _ = s.resp.Body.Close() }

func (s *Stream) read() {
	defer close(s.items)
	lines := bufio.NewScanner(s.resp.Body)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	var it Item
	for lines.Scan() {
		line := lines.Text()
		if comment, ok := strings.CutPrefix(line, ":"); ok {
			it.Comment = strings.TrimPrefix(comment, " ")
			continue
		}
		field, value, _ := strings.Cut(line, ": ")
		switch field {
		case "":
			if it != (Item{}) {
				it.At = time.Now()
				s.items <- it
			}
			it = Item{}
		case "id":
			it.ID = value
		case "event":
			it.Event = value
		case "data":
			it.Data = value
		case "retry":
			it.Retry = value
		}
	}
}

// Next returns the next item, ErrEnded, or an error after timeout.
func (s *Stream) Next(timeout time.Duration) (Item, error) {
	select {
	case it, ok := <-s.items:
		if !ok {
			return Item{}, ErrEnded
		}
		return it, nil
	case <-time.After(timeout):
		return Item{}, fmt.Errorf("nothing on the stream within %s", timeout)
	}
}

// NextEvent skips retry fields and comments to the next event, within timeout.
func (s *Stream) NextEvent(timeout time.Duration) (Item, error) {
	deadline := time.Now().Add(timeout)
	for {
		it, err := s.Next(time.Until(deadline))
		if err != nil || it.Event != "" {
			return it, err
		}
	}
}

// Ends waits, up to timeout, for the server to end the stream; an event before the end is an error.
func (s *Stream) Ends(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		it, err := s.Next(time.Until(deadline))
		switch {
		case errors.Is(err, ErrEnded):
			return nil
		case err != nil:
			return fmt.Errorf("the stream did not end: %w", err)
		case it.Event != "":
			return fmt.Errorf("an event before the end: %+v", it)
		}
	}
}
