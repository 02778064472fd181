// Package intentstore stores transfer intents as TransferIntent resources and serves them back to
// the HTTP API without a call to the Kubernetes API on the read path.
//
// # Writes
//
// Create writes through the manager's client, which talks to the API server directly (writes are
// never cached). An intent created here is put into the in-memory index at once, so the replica
// that created it lists and gets it immediately; the informer's own event follows and replaces it.
//
// # Reads
//
// Reads come from the informer cache of the manager, in two forms:
//
//   - ListFromCache, the plain path: a List of the cache, filtered by account (tests compare it
//     with the index; the cache holds no field index of its own, since nothing else needs one);
//   - an in-memory index per account, fed by an event handler on the same informer
//     (EventHandler), which keeps every account's intents sorted by id (a ULID, so by creation
//     time). List serves pages from it: a binary search for the cursor and a copy of at most
//     `limit` summaries, instead of a deep copy and a sort of every intent of the account per
//     request. With 10,000 intents for one account among 100,000 that is the difference between
//     milliseconds and microseconds (see the benchmarks in internal/apiserver).
//
// Both hold the informer's objects by pointer and never change them: each intent is held once,
// as CacheTransform shrinks it (no managedFields, shared strings and label maps), and the index
// adds a map entry and a pointer or two per intent; list summaries are read from the objects when
// a page is asked for. docs/capacity.md has the figures.
//
// # Idempotency
//
// A create with an Idempotency-Key is arbitrated by the Kubernetes API, so that it holds across
// replicas: the first request creates a coordination.k8s.io Lease (a "claim") named
// idem-<sha256(account, key)>, whose holderIdentity is the id of the intent it is about to create
// and whose annotation holds the sha256 of the normalised request. Creating an object is atomic, so
// exactly one request wins; every other request with the same key finds the claim and
//
//   - gets the intent it names (a replay: HTTP 200) when the request hash matches,
//   - gets ErrIdempotencyKeyReused (HTTP 422) when the body differs,
//   - gets ErrIdempotencyInProgress (HTTP 409) when the intent is not there yet and the claim is
//     younger than Options.ClaimTimeout; an older claim without its intent belonged to a request
//     that died half-way, and is taken over with an optimistic-locked update.
//
// After the intent is created the claim is owner-referenced to it, so garbage collection deletes
// the claim with the intent (after the retention period) and the key can be used again. On one
// replica, concurrent retries of the same key and body share one attempt (singleflight), so a burst
// of retries costs one round of API calls.
package intentstore
