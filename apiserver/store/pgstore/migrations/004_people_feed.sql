-- The people feed (GET /public/people/changes): contacts.seq is a
-- contact's place in its account's feed, moved to the end by every write
-- of the contact or of one of its locations; accounts.people_seq is the
-- feed's last position. Both are taken under the account row's lock, like
-- feed_seq, so positions commit in order. Existing contacts enter the
-- feed in ID order.
ALTER TABLE accounts ADD COLUMN people_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE contacts ADD COLUMN seq bigint NOT NULL DEFAULT 0;

UPDATE contacts c SET seq = r.n
FROM (SELECT id, row_number() OVER (PARTITION BY account_id ORDER BY id) AS n FROM contacts) r
WHERE c.id = r.id;

UPDATE accounts a SET people_seq = m.s
FROM (SELECT account_id, max(seq) AS s FROM contacts GROUP BY account_id) m
WHERE a.id = m.account_id;

CREATE INDEX contacts_seq ON contacts (account_id, seq);
