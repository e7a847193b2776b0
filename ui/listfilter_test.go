package ui

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/localstore"
)

func TestStatusFilterText(t *testing.T) {
	for _, c := range []struct {
		labels []string
		want   string
	}{
		{nil, "All statuses"},
		{[]string{"Not started"}, "Not started"},
		{[]string{"Draft", "Accepted"}, "Draft, Accepted"},
		{[]string{"Draft", "Accepted", "Expired"}, "3 statuses"},
	} {
		if got := statusFilterText(c.labels); got != c.want {
			t.Errorf("%q: %q, want %q", c.labels, got, c.want)
		}
	}
}

func TestSortByTotal(t *testing.T) {
	row := func(id int64, total app.Money) localstore.ListItem {
		return localstore.ListItem{ListEntry: app.ListEntry{ID: id}, Total: total}
	}
	ids := func(rows []localstore.ListItem) []int64 {
		var out []int64
		for _, r := range rows {
			out = append(out, r.ID)
		}
		return out
	}
	rows := []localstore.ListItem{row(1, 500), row(2, 100), row(3, 500), row(-4, 0), row(5, 99999)}
	sortByTotal(rows, true)
	if got := ids(rows); !slices.Equal(got, []int64{5, 3, 1, 2, -4}) {
		t.Errorf("high to low: %v", got)
	}
	sortByTotal(rows, false)
	if got := ids(rows); !slices.Equal(got, []int64{-4, 2, 1, 3, 5}) {
		t.Errorf("low to high: %v", got)
	}
}

// The status filter offers every status a row can show, "Not started"
// too, takes several at once, and the list sorts by total.
func TestListFiltersEveryStatusSeveralAndTotal(t *testing.T) {
	h := newHarness(t)
	s := h.srv
	name := runName("Not started")
	id, err := createOnServer(s, s.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	// A proposal from an older system, never started.
	err = s.Store.Update(context.Background(), s.AccountID, func(tx store.Tx) error {
		p, err := tx.Proposal(id)
		if err != nil {
			return err
		}
		p.Status = app.StatusUndefined
		return tx.PutProposal(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	d := h.signIn(app.RoleSales)
	l := d.list
	for _, st := range app.Statuses {
		if !slices.Contains(l.status.checks.Options, st.Label()) {
			t.Errorf("the filter has no %q", st.Label())
		}
	}
	for _, r := range l.rows {
		if !slices.Contains(l.status.checks.Options, r.Status.Label()) {
			t.Errorf("a row shows %q, which the filter lacks", r.Status.Label())
		}
	}

	test.Tap(l.status.button)
	if d.win.Canvas().Overlays().Top() != l.status.pop {
		t.Fatal("the filter's checks did not open")
	}
	l.status.checks.SetSelected([]string{"Not started"})
	if len(l.rows) == 0 || !slices.ContainsFunc(l.rows, func(r localstore.ListItem) bool { return r.ID == id }) {
		t.Fatalf("Not started lists %d rows, not %q", len(l.rows), name)
	}
	for _, r := range l.rows {
		if r.Status != app.StatusUndefined {
			t.Fatalf("Not started lists a %s proposal", r.Status)
		}
	}
	notStarted := len(l.rows)
	l.status.checks.SetSelected([]string{"Not started", "Draft"})
	if l.status.button.Text != "Not started, Draft" {
		t.Errorf("the button says %q", l.status.button.Text)
	}
	drafts := 0
	for _, r := range l.rows {
		switch r.Status {
		case app.StatusDraft:
			drafts++
		case app.StatusUndefined:
		default:
			t.Fatalf("Not started and Draft list a %s proposal", r.Status)
		}
	}
	if drafts == 0 || len(l.rows) != notStarted+drafts {
		t.Fatalf("%d rows: %d drafts and %d not started", len(l.rows), drafts, notStarted)
	}
	test.Tap(l.status.clear)
	if l.status.button.Text != allStatuses || len(l.query.Statuses) != 0 || len(l.rows) <= notStarted+drafts {
		t.Fatalf("All statuses: %q, %v, %d rows", l.status.button.Text, l.query.Statuses, len(l.rows))
	}
	d.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if d.win.Canvas().Overlays().Top() == l.status.pop {
		t.Fatal("Esc left the status checks open")
	}

	l.sort.SetSelected("Total (high to low)")
	if len(l.rows) < 3 || !slices.IsSortedFunc(l.rows, func(a, b localstore.ListItem) int { return int(b.Total - a.Total) }) ||
		l.rows[0].Total == l.rows[len(l.rows)-1].Total {
		t.Fatalf("high to low: %v", totals(l.rows))
	}
	l.sort.SetSelected("Total (low to high)")
	if !slices.IsSortedFunc(l.rows, func(a, b localstore.ListItem) int { return int(a.Total - b.Total) }) {
		t.Fatalf("low to high: %v", totals(l.rows))
	}
	test.Type(l.search, "Smith") // the order holds while searching
	if !slices.IsSortedFunc(l.rows, func(a, b localstore.ListItem) int { return int(a.Total - b.Total) }) {
		t.Fatalf("low to high, searched: %v", totals(l.rows))
	}
}

func totals(rows []localstore.ListItem) []app.Money {
	var out []app.Money
	for _, r := range rows {
		out = append(out, r.Total)
	}
	return out
}
