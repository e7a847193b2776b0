-- Each account's product catalog (the contract's "Proposal content and
-- catalog"). Removed items stay as tombstones (doc NULL) for the changes
-- feed of offline copies. seq is the item's place in the account's feed,
-- taken from catalog_meta.seq inside the import's transaction, which holds
-- the account's row lock: the feed has no gaps and no late commits.
CREATE TABLE catalog_items (
    account_id bigint NOT NULL REFERENCES accounts (id),
    id         bigint NOT NULL,
    key        text,              -- app.CatalogKeyOf; NULL once removed
    doc        jsonb,             -- app.CatalogItem; NULL once removed
    seq        bigint NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX catalog_items_key ON catalog_items (account_id, key) WHERE key IS NOT NULL;
CREATE INDEX catalog_items_seq ON catalog_items (account_id, seq);

CREATE TABLE catalog_categories (
    account_id bigint NOT NULL REFERENCES accounts (id),
    name       text NOT NULL,     -- lower-cased
    id         bigint NOT NULL,
    PRIMARY KEY (account_id, name)
);

-- version changes with every import: a replica's in-memory search index
-- of an older version is rebuilt before it answers.
CREATE TABLE catalog_meta (
    account_id bigint PRIMARY KEY REFERENCES accounts (id),
    version    bigint NOT NULL,
    seq        bigint NOT NULL,
    count      bigint NOT NULL
);
