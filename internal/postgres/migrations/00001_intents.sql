-- The archive of finished TransferIntents (confirmed, failed, expired), moved out of etcd.
-- Plain PostgreSQL only (no extensions), so that a PostgreSQL-compatible engine can take over.

-- +goose Up
CREATE TABLE intents (
    id          text        NOT NULL,
    namespace   text        NOT NULL,
    account     text        NOT NULL,
    environment text        NOT NULL CHECK (environment IN ('test', 'live')),
    type        text        NOT NULL CHECK (type IN ('transfer', 'swap', 'bridge')),
    status      text        NOT NULL CHECK (status IN ('confirmed', 'failed', 'expired')),
    order_id    text        NOT NULL,
    hash        text        NOT NULL DEFAULT '', -- empty when the intent never reached the chain
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    object      jsonb       NOT NULL,            -- the TransferIntent as the API serves it
    PRIMARY KEY (id)
);

-- The list order of one account in one environment, newest first, ties broken by id: keyset
-- pagination walks it without sorting.
CREATE INDEX intents_list ON intents (namespace, account, environment, created_at DESC, id DESC);
-- The same, filtered by type.
CREATE INDEX intents_list_type ON intents (namespace, account, environment, type, created_at DESC, id DESC);
-- Look-ups by the contract's order hash and by the transaction hash.
CREATE INDEX intents_order_id ON intents (order_id);
CREATE INDEX intents_hash ON intents (hash);
-- Retention deletes the oldest by updated_at in batches: without it each batch scans the table.
CREATE INDEX intents_updated_at ON intents (updated_at);

-- +goose Down
DROP TABLE intents;
