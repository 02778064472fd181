-- The webhook outbox (issue 26): the events of intents' transitions, one delivery per event and
-- subscribed WebhookEndpoint, and each endpoint's health. Delivery state lives here rather than in
-- the API server, so that an attempt costs PostgreSQL writes only. internal/webhook/outbox reads
-- and writes these tables.

-- +goose Up
CREATE TABLE webhook_events (
    id          text PRIMARY KEY,      -- evt_<ULID>, the webhook-id of every attempt
    namespace   text NOT NULL,
    intent_id   text NOT NULL,         -- the API id, int_transfer_…
    type        text NOT NULL,         -- transfer.created, …
    sequence    integer NOT NULL,      -- the event's place in the intent's lifecycle
    created_at  timestamptz NOT NULL,
    body        bytea NOT NULL,        -- the exact bytes signed and sent
    -- One event per type and intent, whichever replica records it.
    UNIQUE (namespace, intent_id, type)
);

CREATE TABLE webhook_deliveries (
    event_id        text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_uid    text NOT NULL,     -- the WebhookEndpoint's UID: a new endpoint of the same name is another
    namespace       text NOT NULL,
    endpoint        text NOT NULL,     -- its name
    state           text NOT NULL DEFAULT 'pending', -- pending, delivered, failed or dropped
    attempts        integer NOT NULL DEFAULT 0,
    -- When the next attempt is due; while an attempt runs, when its lease ends (a deliverer killed
    -- mid-attempt leaves the row to be taken again then).
    next_attempt_at timestamptz NOT NULL,
    last_error      text NOT NULL DEFAULT '',
    delivered_at    timestamptz,
    PRIMARY KEY (event_id, endpoint_uid)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_uid) WHERE state = 'pending';
CREATE INDEX webhook_events_created ON webhook_events (created_at);

CREATE TABLE webhook_endpoint_health (
    endpoint_uid         text PRIMARY KEY,
    consecutive_failures integer NOT NULL DEFAULT 0,
    failing_since        timestamptz,  -- the first failure of the current run of failures
    last_failure_at      timestamptz,
    last_success_at      timestamptz,
    last_error           text NOT NULL DEFAULT '',
    disabled_generation  bigint NOT NULL DEFAULT 0 -- the endpoint's generation it was disabled at; 0: enabled
);

-- +goose Down
DROP TABLE webhook_endpoint_health;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
