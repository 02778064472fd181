package archive

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNotOpen is the error of every call before the archive could be opened (PostgreSQL down or
// unreachable when the manager started): callers treat it as an archive that does not answer.
var ErrNotOpen = errors.New("archive: not open yet (PostgreSQL has not answered since the start)")

// Connection opens the archive in the background and keeps trying until it can, so that a manager
// starts, and serves live intents, while PostgreSQL is down. It is a controller-runtime Runnable
// for every replica; its methods are those of Store, failing with ErrNotOpen until it is open.
type Connection struct {
	URL     string
	Options Options
	Log     logr.Logger

	store atomic.Pointer[Store]
}

// Start opens the archive, retrying with a backoff from 1 s to 30 s, and closes it when ctx ends.
func (c *Connection) Start(ctx context.Context) error {
	wait := time.Second
	for {
		s, err := Open(ctx, c.URL, c.Options)
		if err == nil {
			c.store.Store(s)
			c.Log.Info("archive open")
			<-ctx.Done()
			s.Close()
			return nil
		}
		// The error can quote the server's address but not the password (pgx redacts it).
		c.Log.Error(err, "opening the archive; retrying", "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// NeedLeaderElection is false: every replica reads the archive.
func (c *Connection) NeedLeaderElection() bool { return false }

func (c *Connection) open() (*Store, error) {
	if s := c.store.Load(); s != nil {
		return s, nil
	}
	return nil, ErrNotOpen
}

// Pool is Store.Pool, or ErrNotOpen.
func (c *Connection) Pool() (*pgxpool.Pool, error) {
	s, err := c.open()
	if err != nil {
		return nil, err
	}
	return s.Pool(), nil
}

// Ping is Store.Ping.
func (c *Connection) Ping(ctx context.Context) error {
	s, err := c.open()
	if err != nil {
		return err
	}
	return s.Ping(ctx)
}

// Upsert is Store.Upsert.
func (c *Connection) Upsert(ctx context.Context, records []Record) error {
	s, err := c.open()
	if err != nil {
		return err
	}
	return s.Upsert(ctx, records)
}

// Get is Store.Get.
func (c *Connection) Get(ctx context.Context, scope Scope, id string) (Record, bool, error) {
	s, err := c.open()
	if err != nil {
		return Record{}, false, err
	}
	return s.Get(ctx, scope, id)
}

// ByIdempotencyKey is Store.ByIdempotencyKey.
func (c *Connection) ByIdempotencyKey(ctx context.Context, namespace, keyHash string) (Record, bool, error) {
	s, err := c.open()
	if err != nil {
		return Record{}, false, err
	}
	return s.ByIdempotencyKey(ctx, namespace, keyHash)
}

// List is Store.List.
func (c *Connection) List(ctx context.Context, scope Scope, filter Filter, after *Cursor, limit int) ([]Record, error) {
	s, err := c.open()
	if err != nil {
		return nil, err
	}
	return s.List(ctx, scope, filter, after, limit)
}

// DeleteUpdatedBefore is Store.DeleteUpdatedBefore.
func (c *Connection) DeleteUpdatedBefore(ctx context.Context, t time.Time, batch int) (int, error) {
	s, err := c.open()
	if err != nil {
		return 0, err
	}
	return s.DeleteUpdatedBefore(ctx, t, batch)
}

// ByOrderID is Store.ByOrderID.
func (c *Connection) ByOrderID(ctx context.Context, namespace, orderID string) ([]Record, error) {
	s, err := c.open()
	if err != nil {
		return nil, err
	}
	return s.ByOrderID(ctx, namespace, orderID)
}
