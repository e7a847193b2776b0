package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The list's status filter: any set of the statuses a row can show
// (every app.Status, "Not started" too), chosen with checks in a pop-up
// under a button that says what is chosen.
type statusFilter struct {
	button   *widget.Button
	checks   *widget.CheckGroup
	clear    *widget.Button
	pop      *widget.PopUp
	statuses []app.Status // by check, in lifecycle order
	changed  func([]app.Status)
}

func newStatusFilter(win fyne.Window, changed func([]app.Status)) *statusFilter {
	f := &statusFilter{statuses: app.Statuses, changed: changed}
	labels := make([]string, len(f.statuses))
	for i, s := range f.statuses {
		labels[i] = s.Label()
	}
	f.checks = widget.NewCheckGroup(labels, func([]string) { f.apply() })
	f.clear = widget.NewButton(allStatuses, func() { f.checks.SetSelected(nil) })
	f.pop = widget.NewPopUp(container.NewVBox(f.clear, widget.NewSeparator(), f.checks), win.Canvas())
	f.button = widget.NewButtonWithIcon(allStatuses, theme.MenuDropDownIcon(), func() {
		f.pop.ShowAtRelativePosition(fyne.NewPos(0, f.button.Size().Height), f.button)
	})
	f.button.IconPlacement = widget.ButtonIconTrailingText
	f.button.Alignment = widget.ButtonAlignLeading
	return f
}

// chosen are the checked statuses, in lifecycle order.
func (f *statusFilter) chosen() []app.Status {
	var out []app.Status
	for i, s := range f.statuses {
		if slices.Contains(f.checks.Selected, f.checks.Options[i]) {
			out = append(out, s)
		}
	}
	return out
}

func (f *statusFilter) apply() {
	chosen := f.chosen()
	labels := make([]string, len(chosen))
	for i, s := range chosen {
		labels[i] = s.Label()
	}
	f.button.SetText(statusFilterText(labels))
	if f.changed != nil {
		f.changed(chosen)
	}
}

// statusFilterText is what the filter's button says: every status when
// none is chosen, the names of one or two, the count of more.
func statusFilterText(labels []string) string {
	switch len(labels) {
	case 0:
		return allStatuses
	case 1, 2:
		return strings.Join(labels, ", ")
	}
	return fmt.Sprintf("%d statuses", len(labels))
}

// sortByTotal orders rows by their proposal total, ties by ID in the
// same direction (as app.ListQuery.Compare breaks them). The server's
// list has no such order: the desktop sorts the rows it has, all of
// them, since its list is one page.
func sortByTotal(rows []localstore.ListItem, desc bool) {
	slices.SortStableFunc(rows, func(a, b localstore.ListItem) int {
		c := cmp.Compare(a.Total, b.Total)
		if c == 0 {
			c = cmp.Compare(a.ID, b.ID)
		}
		if desc {
			return -c
		}
		return c
	})
}
