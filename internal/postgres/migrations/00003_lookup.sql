-- GET /v2/transfers looks intents up by any of their transactions (open, fill, refund), by order
-- id, by status and by the request's from account (issue 26). The fill and refund hashes and the
-- from account get columns of their own, all lower case, filled in for the rows archived before
-- from the object each row keeps; the open hash is lower-cased too, so that one comparison fits
-- every spelling.

-- +goose Up
ALTER TABLE intents
    ADD COLUMN fill_hash    text NOT NULL DEFAULT '',
    ADD COLUMN refund_hash  text NOT NULL DEFAULT '',
    ADD COLUMN from_account text NOT NULL DEFAULT '';

UPDATE intents SET
    hash         = lower(hash),
    fill_hash    = lower(coalesce(object #>> '{status,fill,hash}', '')),
    refund_hash  = lower(coalesce(object #>> '{status,refundHash}', '')),
    from_account = lower(coalesce(object #>> '{spec,request,from}', ''));

-- A hash is looked up in three columns: each has its index, which PostgreSQL combines (a bitmap
-- OR); the open hash's, intents_hash, exists since 00001. Empty values are left out of the new
-- ones, as most intents have no fill and no refund.
CREATE INDEX intents_fill_hash ON intents (fill_hash) WHERE fill_hash <> '';
CREATE INDEX intents_refund_hash ON intents (refund_hash) WHERE refund_hash <> '';
-- The list of one account's intents from one account address, and in one status, newest first.
CREATE INDEX intents_list_from ON intents (namespace, account, environment, from_account, created_at DESC, id DESC);
CREATE INDEX intents_list_status ON intents (namespace, account, environment, status, created_at DESC, id DESC);

-- +goose Down
DROP INDEX intents_list_status;
DROP INDEX intents_list_from;
DROP INDEX intents_refund_hash;
DROP INDEX intents_fill_hash;
ALTER TABLE intents DROP COLUMN from_account, DROP COLUMN refund_hash, DROP COLUMN fill_hash;
