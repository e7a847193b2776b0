-- Failed sign-in counts of the lockout policy (apiserver/lockout), kept
-- in the database so that every replica counts the same failures.
CREATE TABLE signin_counts (
    scope        bytea PRIMARY KEY,     -- lockout.Keys.Scopes() (NUL-separated)
    failures     integer NOT NULL DEFAULT 0,
    last_failure timestamptz,
    last_success timestamptz
);
CREATE INDEX signin_counts_activity ON signin_counts (greatest(last_failure, last_success));
