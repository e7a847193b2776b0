-- v1: the whole schema. Records are JSON documents of the Go types
-- (store.Account, app.Proposal, ...); the columns beside them are what is
-- looked up, scoped or indexed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

-- NextID: IDs unique across the server.
CREATE SEQUENCE ids;

-- Which account a proposal, contact or location ID belongs to.
CREATE TABLE owners (id bigint PRIMARY KEY, account_id bigint NOT NULL);

-- next_number is the last proposal number handed out; feed_seq the last
-- changes-feed position. Every write of an account locks its row first,
-- so the account's writes (and its feed) are serialized in commit order.
CREATE TABLE accounts (
  id bigint PRIMARY KEY,
  record jsonb NOT NULL,
  next_number bigint NOT NULL DEFAULT 0,
  feed_seq bigint NOT NULL DEFAULT 0
);

CREATE TABLE apps (id text PRIMARY KEY, record jsonb NOT NULL);

CREATE TABLE users (
  id bigint PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts,
  email_key text NOT NULL CONSTRAINT users_email_key UNIQUE,
  record jsonb NOT NULL
);
CREATE INDEX users_account ON users (account_id, id);

CREATE TABLE api_keys (
  hash bytea PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users,
  record jsonb NOT NULL
);
CREATE INDEX api_keys_user ON api_keys (user_id);

-- The list columns are app.ListEntry as the server computes it: text
-- lower-cased by Go and compared COLLATE "C" (byte order, as Go compares),
-- times as Unix nanoseconds, the status as its lifecycle rank. So the
-- database filters, sorts and pages exactly as app.ListQuery does. The
-- trigram index answers the search's LIKE '%word%' without a scan.
CREATE TABLE proposals (
  id bigint PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts,
  version bigint NOT NULL,
  archived boolean NOT NULL,
  number bigint NOT NULL,
  name_key text COLLATE "C" NOT NULL,
  client_key text COLLATE "C" NOT NULL,
  status text NOT NULL,
  status_rank int NOT NULL,
  contact_id bigint NOT NULL,
  salesperson_id bigint NOT NULL,
  created_ns bigint NOT NULL,
  modified_ns bigint NOT NULL,
  search text NOT NULL,
  doc jsonb NOT NULL,
  list_row jsonb NOT NULL
);
CREATE INDEX proposals_modified ON proposals (account_id, archived, modified_ns, id);
CREATE INDEX proposals_search ON proposals USING gin (search gin_trgm_ops);

CREATE TABLE contacts (
  id bigint PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts,
  record jsonb NOT NULL
);
CREATE INDEX contacts_account ON contacts (account_id, id);

CREATE TABLE locations (
  id bigint PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts,
  contact_id bigint NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX locations_contact ON locations (account_id, contact_id, id);

-- The changes feed: one row per proposal at the feed position of its
-- latest change.
CREATE TABLE changes (
  account_id bigint NOT NULL,
  proposal_id bigint NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (account_id, proposal_id)
);
CREATE UNIQUE INDEX changes_seq ON changes (account_id, seq);

CREATE TABLE idempotency (
  account_id bigint NOT NULL,
  user_id bigint NOT NULL,
  key text NOT NULL,
  created_at timestamptz NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_age ON idempotency (account_id, created_at);
