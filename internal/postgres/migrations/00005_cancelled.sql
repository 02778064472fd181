-- Gasless intents add a finished status, cancelled (intent.FinishedStatuses): the archive takes it.

-- +goose Up
ALTER TABLE intents DROP CONSTRAINT intents_status_check;
ALTER TABLE intents ADD CONSTRAINT intents_status_check CHECK (status IN ('confirmed', 'failed', 'expired', 'cancelled'));

-- +goose Down
-- Rows of cancelled intents, if any, are kept: the old check is not validated against them.
ALTER TABLE intents DROP CONSTRAINT intents_status_check;
ALTER TABLE intents ADD CONSTRAINT intents_status_check CHECK (status IN ('confirmed', 'failed', 'expired')) NOT VALID;
