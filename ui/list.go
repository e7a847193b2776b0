package ui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

const allStatuses = "All statuses"

// Sort choices: each a field and a direction, in the words a user reads.
// byTotal is the desktop's own order (sortByTotal).
var sortChoices = []struct {
	label   string
	field   app.SortField
	desc    bool
	byTotal bool
}{
	{"Recently modified", app.SortModifiedDate, true, false},
	{"Recently created", app.SortCreatedDate, true, false},
	{"Number (high to low)", app.SortNumber, true, false},
	{"Number (low to high)", app.SortNumber, false, false},
	{"Name (A–Z)", app.SortName, false, false},
	{"Customer (A–Z)", app.SortClientName, false, false},
	{"Status", app.SortStatus, false, false},
	{"Total (high to low)", app.SortModifiedDate, true, true},
	{"Total (low to high)", app.SortModifiedDate, false, true},
}

// listPanel is the proposal list: search as you type, a status filter,
// sort and the archived toggle, with app.ListQuery's semantics (the
// server's). The list is virtualized: only visible rows are widgets.
type listPanel struct {
	d        *Desktop
	query    app.ListQuery
	rows     []localstore.ListItem
	search   *plainEntry
	status   *statusFilter
	sort     *widget.Select
	byTotal  bool // sorted by sortByTotal
	archived *widget.Check
	count    *widget.Label
	empty    *widget.Label // says why no row shows
	list     *widget.List
	content  fyne.CanvasObject
	top      *fyne.Container
	countRow *fyne.Container // Archived and the count
	selected int64
}

func newListPanel(d *Desktop) *listPanel {
	l := &listPanel{d: d, query: app.DefaultListQuery()}
	// One page holding every match: the list widget shows only what is
	// on screen.
	l.query.PageSize = math.MaxInt32
	l.search = newPlainEntry(d)
	l.search.SetPlaceHolder("Search name, number, customer, company, email (Ctrl+F)")
	l.search.OnChanged = func(s string) { l.query.SearchText = s; l.refresh() }
	l.status = newStatusFilter(d.win, func(chosen []app.Status) {
		l.query.Statuses = chosen
		l.refresh()
	})
	labels := make([]string, len(sortChoices))
	for i, c := range sortChoices {
		labels[i] = c.label
	}
	l.sort = widget.NewSelect(labels, func(s string) {
		for _, c := range sortChoices {
			if c.label == s {
				l.query.SortBy, l.query.Descending, l.byTotal = c.field, c.desc, c.byTotal
			}
		}
		l.refresh()
	})
	l.sort.SetSelectedIndex(0)
	l.archived = widget.NewCheck("Archived", func(on bool) { l.query.Archived = on; l.refresh() })
	l.count = widget.NewLabel("")
	l.list = widget.NewList(func() int { return len(l.rows) }, newRow, func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(l.rows) {
			o.(*row).show(&l.rows[i], l.rows[i].ID == l.selected)
		}
	})
	l.list.OnSelected = func(i widget.ListItemID) {
		if i < len(l.rows) && l.rows[i].ID != l.selected {
			l.selected = l.rows[i].ID
			l.list.Refresh() // the selected row's secondary line changes colour
			d.OpenProposal(l.selected)
		}
	}
	filters := container.NewGridWithColumns(2, l.status.button, l.sort)
	l.countRow = container.NewBorder(nil, nil, l.archived, l.count)
	l.top = container.NewVBox(l.search, filters, l.countRow)
	l.empty = widget.NewLabel("")
	l.empty.Alignment = fyne.TextAlignCenter
	l.empty.Wrapping = fyne.TextWrapWord
	l.empty.Importance = widget.LowImportance
	l.empty.Hide()
	l.content = container.NewBorder(l.top, nil, nil, nil, container.NewStack(l.list, container.NewVBox(l.empty)))
	return l
}

// refresh runs the query again over the local store.
func (l *listPanel) refresh() {
	s := l.d.sess
	if s == nil || l.list == nil {
		return
	}
	rows, n, err := s.st.ListItems(l.query)
	if err != nil {
		l.count.SetText("Error: " + err.Error())
		return
	}
	if l.byTotal {
		sortByTotal(rows, l.query.Descending)
	}
	l.rows = rows
	switch n {
	case 1:
		l.count.SetText("1 proposal")
	default:
		l.count.SetText(fmt.Sprintf("%d proposals", n))
	}
	l.showEmpty(n)
	// The count's width changed: its line is laid out again (refreshing
	// the whole top would shape the search box's text again too, on
	// every keystroke).
	l.countRow.Layout.Layout(l.countRow.Objects, l.countRow.Size())
	l.list.Refresh()
	l.syncSelection()
}

// showEmpty says so when nothing is listed: no match for the search or
// filters, or no proposals yet.
func (l *listPanel) showEmpty(n int) {
	switch {
	case n > 0:
		l.empty.Hide()
		return
	case l.d.status != nil && firstSync(l.d.status.state):
		// Not "no proposals": they are on their way.
		if text := syncingText(l.d.status.state); l.empty.Text != text {
			l.empty.SetText(text)
		}
	case strings.TrimSpace(l.query.SearchText) != "" || len(l.query.Statuses) > 0 || l.query.Archived:
		l.empty.SetText("No proposals match this search.")
	default:
		l.empty.SetText("No proposals yet. Press Ctrl+N to start one.")
	}
	l.empty.Show()
}

// syncSelection keeps the open proposal highlighted in the list.
func (l *listPanel) syncSelection() {
	for i := range l.rows {
		if l.rows[i].ID == l.selected {
			l.list.Select(i)
			return
		}
	}
	l.list.UnselectAll()
}

// selectID highlights a proposal opened elsewhere (new, remembered).
func (l *listPanel) selectID(id int64) {
	if l.selected != id {
		l.selected = id
		l.list.Refresh()
	}
	for i := range l.rows {
		if l.rows[i].ID == id {
			l.list.Select(i)
			l.list.ScrollTo(i)
			return
		}
	}
}

// row is one line of the list: number, name, customer, status, total
// and a badge for unsent, failed or conflicting edits.
type row struct {
	widget.BaseWidget
	number, name, total *widget.Label
	// sub is the secondary line (customer · status): the placeholder
	// colour, and the foreground colour on the selection highlight,
	// where the placeholder colour has too little contrast.
	sub   *widget.RichText
	badge *widget.Label
	box   *fyne.Container
	// shown is what show last put in the row (nil: nothing yet).
	shown *rowText
}

// subColor is the secondary line's colour: readable on the background
// and on the selection highlight, in light and dark themes.
func subColor(selected bool) fyne.ThemeColorName {
	if selected {
		return theme.ColorNameForeground
	}
	return theme.ColorNamePlaceHolder
}

func newRow() fyne.CanvasObject {
	r := &row{
		number: widget.NewLabel("#00000"),
		name:   widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		sub:    widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyle{ColorName: subColor(false), Inline: true}}),
		total:  widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}),
		badge:  widget.NewLabel(""),
	}
	r.name.Truncation = fyne.TextTruncateEllipsis
	r.sub.Truncation = fyne.TextTruncateEllipsis
	tight := func(o fyne.CanvasObject) fyne.CanvasObject {
		return container.New(layout.NewCustomPaddedLayout(-4, -4, 0, 0), o)
	}
	right := container.NewVBox(tight(r.total), tight(r.badge))
	texts := container.NewVBox(tight(r.name), tight(r.sub))
	r.box = container.NewBorder(nil, nil, container.NewVBox(tight(r.number)), right, texts)
	r.ExtendBaseWidget(r)
	return r
}

func (r *row) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// rowText is what a row shows: show changes only what differs, since
// each label's change means shaping its text again (the cost of a
// keystroke or a selection in a list of thousands).
type rowText struct {
	number, name, sub, total, badge string
	imp                             widget.Importance
	selected                        bool
}

func (r *row) show(it *localstore.ListItem, selected bool) {
	t := rowText{number: fmt.Sprintf("#%d", it.Number), name: it.Name, total: app.FormatMoney(it.Total, it.Currency), selected: selected}
	if it.Offline() {
		t.number = "new"
	}
	client := it.ClientName
	if client == "" {
		client = "No customer"
	}
	t.sub = client + " · " + it.Status.Label()
	if w := viewedWords(it.ClientOpened, time.Now()); w != "" {
		t.sub += " · " + w
	}
	t.badge, t.imp = badgeOf(it)
	if r.shown != nil && *r.shown == t {
		return
	}
	old := r.shown
	if old == nil {
		old = &rowText{}
	}
	r.shown = &t
	set := func(l *widget.Label, text string) {
		if l.Text != text {
			l.SetText(text)
		}
	}
	set(r.number, t.number)
	set(r.name, t.name)
	if seg := r.sub.Segments[0].(*widget.TextSegment); seg.Text != t.sub || old.selected != t.selected {
		seg.Text, seg.Style.ColorName = t.sub, subColor(selected)
		r.sub.Refresh()
	}
	widths := old.total != t.total || old.badge != t.badge || old.imp != t.imp
	set(r.total, t.total)
	if old.badge != t.badge || old.imp != t.imp {
		r.badge.Importance = t.imp
		r.badge.SetText(t.badge)
	}
	if widths {
		// The badge and total change the columns' widths: lay them out
		// again (Refresh would also refresh every label once more).
		r.box.Layout.Layout(r.box.Objects, r.box.Size())
		canvas.Refresh(r.box)
	}
}

// badgeOf is a row's badge: conflicts first, then failures, then edits
// waiting to be sent.
func badgeOf(it *localstore.ListItem) (string, widget.Importance) {
	switch {
	case it.Conflicts > 0 || it.Conflicted:
		return "⚠ conflict", widget.DangerImportance
	case it.Failed > 0:
		return "✕ failed", widget.DangerImportance
	case it.Pending > 0:
		return fmt.Sprintf("● %d unsent", it.Pending), widget.WarningImportance
	case it.TaxStatus == app.TaxUnavailable:
		return "⚠ no tax", widget.WarningImportance
	}
	return "", widget.LowImportance
}
