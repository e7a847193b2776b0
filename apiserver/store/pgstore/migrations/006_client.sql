-- What sending a proposal keeps (store.ClientTx): the frozen client
-- snapshots (the exact bytes whose SHA-256 the link names), the evidence
-- events of each proposal, and the index the expiry scheduler reads.
CREATE TABLE client_snapshots (
  proposal_id bigint NOT NULL,
  hash text NOT NULL,
  account_id bigint NOT NULL REFERENCES accounts,
  doc bytea NOT NULL,
  PRIMARY KEY (proposal_id, hash)
);

-- Events are appended under the account row's lock (every write takes
-- it), so a proposal's next id is read and used without a race. The
-- trigger refuses any change or removal: the chain's hashes show one
-- made behind the server's back, and the server never tries.
CREATE TABLE client_events (
  proposal_id bigint NOT NULL,
  id bigint NOT NULL,
  account_id bigint NOT NULL REFERENCES accounts,
  doc bytea NOT NULL,
  PRIMARY KEY (proposal_id, id)
);

CREATE FUNCTION client_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'client_events is append-only';
END $$;

CREATE TRIGGER client_events_append_only BEFORE UPDATE OR DELETE ON client_events
  FOR EACH ROW EXECUTE FUNCTION client_events_append_only();

CREATE TABLE client_expiries (
  proposal_id bigint PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts,
  expires_at timestamptz NOT NULL
);
CREATE INDEX client_expiries_at ON client_expiries (expires_at);
