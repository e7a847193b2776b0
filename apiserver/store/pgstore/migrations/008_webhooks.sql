-- Webhook subscriptions, the events they receive and the queue of
-- deliveries (pgstore/webhooks.go). Replicas share the queue: a claim
-- takes due rows FOR UPDATE SKIP LOCKED and leases them to one replica
-- until lease_until, so a replica killed mid-delivery leaves its rows to
-- another once the lease runs out.
CREATE TABLE webhook_subscriptions (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL,
    enabled boolean NOT NULL,
    doc jsonb NOT NULL -- store.WebhookSubscription
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions (account_id);

CREATE TABLE webhook_events (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL,
    proposal_id bigint NOT NULL,
    type text NOT NULL,
    at timestamptz NOT NULL,
    body bytea NOT NULL
);

CREATE TABLE webhook_deliveries (
    id bigserial PRIMARY KEY,
    subscription_id bigint NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    event_id bigint NOT NULL REFERENCES webhook_events (id),
    attempts int NOT NULL DEFAULT 0,
    pending boolean NOT NULL DEFAULT true,
    next_at timestamptz NOT NULL,
    lease_owner text,
    lease_until timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE pending;
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    id bigserial PRIMARY KEY,
    subscription_id bigint NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    doc jsonb NOT NULL -- store.WebhookAttempt
);
CREATE INDEX webhook_attempts_subscription ON webhook_attempts (subscription_id, id);
