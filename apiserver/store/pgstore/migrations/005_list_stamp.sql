-- A proposal's lastModifiedDate as its document has it, beside the
-- document: every replica's list index reads it for every proposal of an
-- account (listfollow.go), and reaching into 10,000 documents of ~20 KB,
-- stored compressed out of line, took seconds.
ALTER TABLE proposals ADD COLUMN modified_json jsonb;
UPDATE proposals SET modified_json = doc->'lastModifiedDate';
