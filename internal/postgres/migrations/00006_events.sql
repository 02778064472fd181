-- Events an integrator can list and replay (issue 35), and a claim that is fair per account.
--
-- webhook_events becomes the account's event log: every event of an intent is recorded, with
-- the account and environment it belongs to (GET /v2/events lists them newest first), whether or
-- not an endpoint subscribes to it. webhook_deliveries learns its endpoint's account, which the
-- claim shares the deliverer's workers by.

-- +goose Up
ALTER TABLE webhook_events ADD COLUMN account text NOT NULL DEFAULT '';
ALTER TABLE webhook_events ADD COLUMN environment text NOT NULL DEFAULT '';
-- Events recorded before: their environment is in their body; their account is not known (they
-- stay unlisted, and are pruned as before).
UPDATE webhook_events SET environment = coalesce(convert_from(body, 'UTF8')::jsonb ->> 'environment', '') WHERE environment = '';
-- The list order of one account in one environment, newest first, ties broken by id; and the
-- same by type (GET /v2/events?type=).
CREATE INDEX webhook_events_list ON webhook_events (namespace, account, environment, created_at DESC, id DESC);
CREATE INDEX webhook_events_list_type ON webhook_events (namespace, account, environment, type, created_at DESC, id DESC);

ALTER TABLE webhook_deliveries ADD COLUMN account text NOT NULL DEFAULT '';
-- A pending delivery replayed while an attempt at it was in flight: that attempt's failure leaves
-- it due at once, not at its backoff (the claim clears it).
ALTER TABLE webhook_deliveries ADD COLUMN replayed boolean NOT NULL DEFAULT false;
-- The claim walks the endpoints with pending deliveries through this index (a loose index scan),
-- and takes each one's oldest due delivery from it: its cost follows the number of endpoints,
-- not of due deliveries.
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (endpoint_uid, next_attempt_at, event_id) WHERE state = 'pending';
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_endpoint;
-- Failure texts written before could name a resolved address or the resolver (sender.Describe
-- names neither now): forget them.
UPDATE webhook_endpoint_health SET last_error = '' WHERE last_error <> '';
UPDATE webhook_deliveries SET last_error = '' WHERE last_error <> '' AND last_error NOT LIKE 'HTTP %';

-- +goose Down
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_uid) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
DROP INDEX webhook_deliveries_queue;
ALTER TABLE webhook_deliveries DROP COLUMN replayed;
ALTER TABLE webhook_deliveries DROP COLUMN account;
DROP INDEX webhook_events_list_type;
DROP INDEX webhook_events_list;
ALTER TABLE webhook_events DROP COLUMN environment;
ALTER TABLE webhook_events DROP COLUMN account;
