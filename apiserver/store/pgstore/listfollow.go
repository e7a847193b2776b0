package pgstore

import (
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store/listindex"
	"proposaldesk/app"
)

// Each replica keeps every account's list index in memory (the one
// boltstore uses) at the account's feed positions, and follows the
// changes feed to move it forward: a read-only transaction sees exactly
// the proposals of its feed position (PutProposal moves the position in
// the write's own transaction, under the account row's lock, so
// positions commit in order), so the index at that position answers its
// list queries exactly, on any replica, without asking the database to
// search, count and sort. Behind by a few writes, it reads only the
// proposals changed since (changes.seq); cold, all of the account's.
// Measured with two replicas, 32 clients and 10,000 proposals, the
// database's trigram search, count and sort were most of a list page.

// listAccounts is how many accounts' indexes a replica keeps (~1 KB per
// proposal with its list row); others are loaded again when next asked.
const listAccounts = 64

// keepLists is how many recent feed positions of an account are kept,
// so a transaction that began just before another caught the index up
// still finds its own.
const keepLists = 8

// listDeltaMin is listindex.Snap.DeltaMax's floor.
const listDeltaMin = 1024

// listState is an account's list index at one feed position, with each
// proposal's version, list row and modification date as stored.
type listState struct {
	idx  *listindex.Snap
	rows listindex.Layered[int64, listRow]
}

func (ls *listState) Version() uint64 { return ls.idx.Version() }

// listRow is what a list page and a detail's version read of a proposal.
type listRow struct {
	id      int64
	version int64
	row     []byte // list_row as json.Marshal encodes it (decodecache.RowJSON)
}

// listFollowColumns are the proposal columns a listState is made of, in
// scanListRow's order.
const listFollowColumns = "p.id, p.version, p.archived, p.list_row, " +
	"p.number, p.name_key, p.client_key, p.status, p.contact_id, p.salesperson_id, p.created_ns, p.modified_ns, p.search"

// eachListRow reads rows of listFollowColumns as entries and their
// listRows. The entries' names are the lower-cased sort keys: the index
// only sorts by them lower-cased and matches on Search.
func (t *tx) eachListRow(rows pgx.Rows, fn func(*app.ListEntry, listRow)) error {
	defer rows.Close()
	for rows.Next() {
		var e app.ListEntry
		var r listRow
		var status string
		var created, modified int64
		err := rows.Scan(&e.ID, &r.version, &e.Archived, &r.row,
			&e.Number, &e.Name, &e.ClientName, &status, &e.ContactID, &e.SalesPersonID, &created, &modified, &e.Search)
		if err != nil {
			return err
		}
		e.Status = app.Status(status)
		e.Created, e.Modified = app.Time{Time: time.Unix(0, created)}, app.Time{Time: time.Unix(0, modified)}
		// Encoded as the API sends it once here, not at every page.
		row, err := t.s.rowJSON.Decode(strconv.FormatInt(e.ID, 10), r.row)
		if err != nil {
			return fmt.Errorf("list row %d: %w", e.ID, err)
		}
		r.id, r.row = e.ID, row
		fn(&e, r)
	}
	return rows.Err()
}

// listState returns the account's list index at the transaction's feed
// position. Only a read-only transaction has one: a write may have
// changed proposals since it began.
func (t *tx) listState() (*listState, error) {
	if ls, ok := t.s.lists.At(t.id, uint64(t.feedSeq)); ok {
		t.indexServed = true
		return ls, nil
	}
	// Read from the database, in the transaction: begun now, a lazy one
	// takes the position its snapshot has (lazytx.go).
	if err := t.q.begin(t.ctx); err != nil {
		return nil, err
	}
	w := uint64(t.feedSeq)
	ls, err := t.s.lists.Load(t.id, w, func() (*listState, error) {
		prev, ok := t.s.lists.Newest(t.id, w)
		if !ok {
			return t.loadList(w)
		}
		return t.catchUpList(prev, w)
	})
	t.indexServed = err == nil
	return ls, err
}

// loadList reads every proposal of the account.
func (t *tx) loadList(w uint64) (*listState, error) {
	rows, _ := t.q.Query(t.ctx, "SELECT "+listFollowColumns+" FROM proposals p WHERE p.account_id = $1", t.id)
	var entries []app.ListEntry
	byID := map[int64]listRow{}
	err := t.eachListRow(rows, func(e *app.ListEntry, r listRow) {
		entries = append(entries, *e)
		byID[e.ID] = r
	})
	if err != nil {
		return nil, fmt.Errorf("list index of account %d: %w", t.id, err)
	}
	return &listState{idx: listindex.New(entries, w), rows: listindex.NewLayered(byID)}, nil
}

// catchUpList is prev moved to position w: the proposals changed after
// prev's position, as this transaction sees them.
func (t *tx) catchUpList(prev *listState, w uint64) (*listState, error) {
	rows, _ := t.q.Query(t.ctx, "SELECT "+listFollowColumns+
		" FROM changes c JOIN proposals p ON p.id = c.proposal_id WHERE c.account_id = $1 AND c.seq > $2",
		t.id, int64(prev.Version()))
	entries := map[int64]*app.ListEntry{}
	byID := map[int64]listRow{}
	err := t.eachListRow(rows, func(e *app.ListEntry, r listRow) {
		entries[e.ID], byID[e.ID] = e, r
	})
	if err != nil {
		return nil, fmt.Errorf("list index of account %d: %w", t.id, err)
	}
	idx := prev.idx.With(entries, w, prev.idx.DeltaMax(listDeltaMin))
	return &listState{idx: idx, rows: prev.rows.With(byID, prev.idx.DeltaMax(listDeltaMin))}, nil
}

// version is ProposalVersion from the list index.
func (ls *listState) version(id int64) (int64, error) {
	r, ok := ls.rows.Get(id)
	if !ok {
		return 0, notFound("proposal %d not found", id)
	}
	return r.version, nil
}
