package localstore

import (
	"proposaldesk/app"
)

// Badges count a proposal's queued entries by what the user should know
// of them.
type Badges struct {
	// Pending are waiting or in flight (blocked ones included).
	Pending int `json:"pending,omitempty"`
	// Failed were refused and wait for the user to discard them.
	Failed int `json:"failed,omitempty"`
	// Conflicts collide with a server change and wait for a decision.
	Conflicts int `json:"conflicts,omitempty"`
}

func countBadges(entries []*Entry) Badges {
	var b Badges
	for _, e := range entries {
		switch e.State {
		case StateFailed:
			b.Failed++
		case StateConflict:
			b.Conflicts++
		default:
			b.Pending++
		}
	}
	return b
}

// ListItem is a row of the proposal list: the list entry of the local
// view (what app.ListQuery reads) with the total and the badges. The
// store keeps one per proposal in the list index and in memory.
type ListItem struct {
	app.ListEntry
	Total    app.Money    `json:"total"`
	Currency app.Currency `json:"currency"`
	Badges
	// ReadOnly mirrors the record's flag.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Conflicted: the record has unresolved field conflicts.
	Conflicted bool `json:"conflicted,omitempty"`
	// TaxStatus says whether sales tax could be computed (the row warns
	// when the location's state is not in the tax table).
	TaxStatus app.TaxStatus `json:"taxStatus,omitempty"`
	// ClientOpened is when the client last opened the proposal's page
	// (the list says "Viewed by the client 2 hours ago").
	ClientOpened app.Time `json:"clientOpened,omitzero"`
}

// Offline reports whether the proposal exists only on this computer.
func (it ListItem) Offline() bool { return it.ID < 0 }

func itemOf(r *Record, b Badges) ListItem {
	it := ListItem{Badges: b, ReadOnly: r.ReadOnly, Conflicted: len(r.Conflicts) > 0}
	if p := r.Local; p != nil {
		it.ListEntry = app.EntryOf(p)
		li := app.ListItemView(p)
		it.Total, it.Currency = li.Total.ProposalTotal, li.Total.Currency
		it.TaxStatus = p.Tax.Status
		it.ClientOpened = p.ClientLastOpenedDate
	}
	it.ID = r.ID
	return it
}

// listEntries are the list entries of every proposal, from memory.
// Callers must not change the slice.
func (s *Store) listEntries() []app.ListEntry {
	s.mu.RLock()
	if e := s.flat; e != nil {
		s.mu.RUnlock()
		return e
	}
	s.mu.RUnlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.flat == nil {
		s.flat = make([]app.ListEntry, 0, len(s.items))
		for _, it := range s.items {
			s.flat = append(s.flat, it.ListEntry)
		}
	}
	return s.flat
}

// Search answers a list query over the local views with app.ListQuery's
// rules exactly (q.Select): the page and the count of all matches. It
// reads the in-memory list index, never a proposal's detail.
func (s *Store) Search(q app.ListQuery) ([]app.ListEntry, int, error) {
	page, n := q.Select(s.listEntries())
	return page, n, nil
}

// ListItems is Search returning the list's rows.
func (s *Store) ListItems(q app.ListQuery) ([]ListItem, int, error) {
	page, n, err := s.Search(q)
	if err != nil {
		return nil, 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ListItem, 0, len(page))
	for _, e := range page {
		if it, ok := s.items[e.ID]; ok {
			out = append(out, it)
		}
	}
	return out, n, nil
}

// Item is one proposal's row.
func (s *Store) Item(id int64) (ListItem, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	it, ok := s.items[id]
	return it, ok
}
