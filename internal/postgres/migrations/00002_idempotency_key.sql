-- A retry with an Idempotency-Key finds its intent after the intent left the API server (and its
-- claim with it): the key's hash is kept with the record.

-- +goose Up
ALTER TABLE intents ADD COLUMN idempotency_key_hash text NOT NULL DEFAULT '';
CREATE INDEX intents_idempotency_key ON intents (namespace, idempotency_key_hash) WHERE idempotency_key_hash <> '';

-- +goose Down
DROP INDEX intents_idempotency_key;
ALTER TABLE intents DROP COLUMN idempotency_key_hash;
