-- The outgoing mail queue (store.MailQueue). A job due at next_attempt
-- is claimed by one replica with FOR UPDATE SKIP LOCKED, which moves
-- next_attempt to the end of its lease: a replica killed mid-send leaves
-- the job to another once the lease lapses. attempts names the claim, so
-- a replica whose lease lapsed cannot finish another's claim.
CREATE TABLE mail_jobs (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL,
    proposal_id  bigint NOT NULL,
    message      jsonb NOT NULL,         -- {to, subject, text, html}
    enqueued_at  timestamptz NOT NULL,
    attempts     integer NOT NULL DEFAULT 0,
    next_attempt timestamptz NOT NULL,
    last_error   text NOT NULL DEFAULT ''
);
CREATE INDEX mail_jobs_due ON mail_jobs (next_attempt, id);
