package pgstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"proposaldesk/app"
)

// The people feed (migration 004): contacts.seq is a contact's position,
// taken from accounts.people_seq under the account row's lock.

// touchContactsOf moves the contact of location l, and the contact it
// leaves when it moves, to the end of the people feed.
func (t *tx) touchContactsOf(l app.ContactLocation) error {
	var old int64
	err := t.q.QueryRow(t.ctx, "SELECT contact_id FROM locations WHERE id = $1 AND account_id = $2", l.ID, t.id).Scan(&old)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("location %d: %w", l.ID, err)
	}
	if err == nil && old != l.ContactID {
		if err := t.touchContact(old); err != nil {
			return err
		}
	}
	return t.touchContact(l.ContactID)
}

func (t *tx) touchContact(id int64) error {
	_, err := t.q.Exec(t.ctx, `WITH s AS (UPDATE accounts SET people_seq = people_seq + 1 WHERE id = $1 RETURNING people_seq)
		UPDATE contacts SET seq = s.people_seq FROM s WHERE contacts.id = $2 AND contacts.account_id = $1`, t.id, id)
	if err != nil {
		return fmt.Errorf("people feed: contact %d: %w", id, err)
	}
	return nil
}

func (t *tx) PeopleChanges(cursor string, limit int) (app.PeopleChanges, error) {
	out := app.PeopleChanges{Cursor: cursor, People: []app.ContactWithLocations{}}
	var after int64
	if cursor != "" {
		v, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || v < 0 {
			return out, app.Invalid("since", "%q is not a cursor this server gave", cursor)
		}
		after = v
	}
	if err := t.q.QueryRow(t.ctx, "SELECT count(*) FROM contacts WHERE account_id = $1", t.id).Scan(&out.PeopleCount); err != nil {
		return out, dbErr(fmt.Errorf("people count: %w", err))
	}
	rows, _ := t.q.Query(t.ctx, `SELECT record, seq FROM contacts WHERE account_id = $1 AND seq > $2
		ORDER BY seq LIMIT $3`, t.id, after, limit+1)
	var (
		raw []byte
		seq int64
		at  = map[int64]int{} // contact ID -> index in out.People
	)
	_, err := pgx.ForEachRow(rows, []any{&raw, &seq}, func() error {
		if len(out.People) == limit {
			out.HasMore = true
			return nil
		}
		var c app.Contact
		if err := json.Unmarshal(raw, &c); err != nil {
			return fmt.Errorf("contact: %w", err)
		}
		at[c.ID] = len(out.People)
		out.People = append(out.People, app.ContactWithLocations{Contact: c, Locations: []app.ContactLocation{}})
		out.Cursor = strconv.FormatInt(seq, 10)
		return nil
	})
	if err != nil {
		return out, dbErr(fmt.Errorf("people feed: %w", err))
	}
	if len(at) == 0 {
		return out, nil
	}
	ids := make([]int64, 0, len(at))
	for id := range at {
		ids = append(ids, id)
	}
	locs, err := collectJSON[app.ContactLocation](t,
		"SELECT record FROM locations WHERE account_id = $1 AND contact_id = ANY($2) ORDER BY id", t.id, ids)
	if err != nil {
		return out, dbErr(fmt.Errorf("people feed locations: %w", err))
	}
	for _, l := range locs {
		p := &out.People[at[l.ContactID]]
		p.Locations = append(p.Locations, l)
	}
	return out, nil
}
