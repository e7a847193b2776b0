package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// Item table columns: item, quantity, sell price, cost, total.
var itemColumns = []float32{0.44, 0.12, 0.15, 0.14, 0.15}

// itemsTable shows an option's items: brand and model (nested items
// indented, recurring services marked), quantity, sell price, cost when
// the user may see costs, and the item's total.
func itemsTable(items []app.ItemView, cur app.Currency, costs bool) fyne.CanvasObject {
	if len(items) == 0 {
		l := widget.NewLabel("No items yet.")
		l.Importance = widget.LowImportance
		return l
	}
	cols := itemColumns
	if !costs {
		cols = []float32{0.5, 0.14, 0.18, 0.18}
	}
	mk := func(texts []string, bold bool) fyne.CanvasObject {
		c := container.New(&columns{weights: cols})
		for i, t := range texts {
			align := fyne.TextAlignTrailing
			if i == 0 {
				align = fyne.TextAlignLeading
			}
			l := widget.NewLabelWithStyle(t, align, fyne.TextStyle{Bold: bold})
			l.Truncation = fyne.TextTruncateEllipsis
			c.Add(l)
		}
		return c
	}
	head := []string{"Item", "Qty", "Sell", "Cost", "Total"}
	if !costs {
		head = []string{"Item", "Qty", "Sell", "Total"}
	}
	rows := []fyne.CanvasObject{mk(head, true)}
	depth := itemDepths(items)
	for i, it := range items {
		name := strings.TrimSpace(it.Brand + " " + it.Model)
		if name == "" {
			name = it.Name
		}
		name = strings.Repeat("    ", depth[i]) + name
		if depth[i] > 0 {
			name = strings.Repeat("    ", depth[i]-1) + "  └ " + strings.TrimLeft(name, " ")
		}
		if it.IsRecurringService {
			name += "  ↻ monthly"
		}
		if it.Total.IsCombinedPrice {
			name += "  (bundle price)"
		}
		cells := []string{name, it.Quantity.String(), app.FormatMoney(it.SellPrice, cur)}
		if costs {
			c := "—"
			if it.Cost != nil {
				c = app.FormatMoney(*it.Cost, cur)
			}
			cells = append(cells, c)
		}
		cells = append(cells, app.FormatMoney(it.Total.Amount, cur))
		rows = append(rows, mk(cells, false))
	}
	return container.NewVBox(rows...)
}

// itemDepths is how deep each item is nested under parents.
func itemDepths(items []app.ItemView) []int {
	parent := map[int64]int64{}
	for _, it := range items {
		parent[it.ID] = int64(it.ParentID)
	}
	out := make([]int, len(items))
	for i, it := range items {
		for p, n := int64(it.ParentID), 0; p != 0 && n < len(items); p, n = parent[p], n+1 {
			out[i]++
		}
	}
	return out
}

// columns lays objects out side by side with widths in proportion to
// weights, each at least its min width (mins, optional), the first
// giving up what the others need (columnWidths).
type columns struct {
	weights []float32
	mins    []float32
	// head is the header row laid out by these columns, if any, to lay
	// out again when a min width grows.
	head *fyne.Container
}

func (c *columns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	ws := columnWidths(size.Width, c.weights, c.mins)
	x := float32(0)
	for i, o := range objs {
		w := ws[i%len(ws)]
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

// columnWidths shares width by weights, then widens each column after
// the first to its min width (a line total must never be cut or run
// into the next field), taking the room from the first column (the
// item's name, which scrolls in its field), down to the first's own min.
func columnWidths(width float32, weights, mins []float32) []float32 {
	ws := make([]float32, len(weights))
	for i, wt := range weights {
		ws[i] = width * wt
	}
	if len(ws) == 0 {
		return ws
	}
	need := float32(0)
	for i := 1; i < len(ws) && i < len(mins); i++ {
		if ws[i] < mins[i] {
			need += mins[i] - ws[i]
			ws[i] = mins[i]
		}
	}
	first := float32(0)
	if len(mins) > 0 {
		first = mins[0]
	}
	ws[0] = max(ws[0]-need, min(first, ws[0]))
	return ws
}

// growMin raises column i's min width to w; it reports whether it did.
func (c *columns) growMin(i int, w float32) bool {
	if i >= len(c.mins) || w <= c.mins[i] {
		return false
	}
	c.mins[i] = w
	return true
}

// moneyWidth is the width a line total's label needs for the widest of
// texts. The rows show totals in monospace, so the widest is the one of
// most characters and only it is measured: this runs on each keystroke
// in a quantity or price.
func moneyWidth(texts []string) float32 {
	longest, n := "", 0
	for _, t := range texts {
		if k := utf8.RuneCountInString(t); k > n {
			longest, n = t, k
		}
	}
	return fyne.MeasureText(longest, theme.TextSize(), fyne.TextStyle{Monospace: true}).Width + 2*theme.InnerPadding()
}

func (c *columns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(300, h)
}

var _ fyne.Layout = (*columns)(nil)

// refreshSummary shows the financial summary of the local view.
func (v *proposalView) refreshSummary() { v.showSummary(v.p) }

// showSummary shows p's financial summary (the local view, or a preview
// of a value being typed).
func (v *proposalView) showSummary(p *app.Proposal) {
	if v.summary == nil || p == nil {
		return
	}
	dv := app.DetailView(p, v.d.sess.user.Role.ViewOptions())
	fs := dv.FinancialSummary
	cur := fs.Currency
	lines := []struct {
		label string
		m     app.Money
		show  bool
	}{
		{"Parts subtotal", fs.PartsSubtotal, true},
		{"Parts discount", -fs.PartsDiscount, fs.PartsDiscount != 0},
		{"Parts total", fs.PartsTotal, true},
		{"Labor", fs.LaborTotal, true},
		{"Fees", fs.FeeTotal, true},
		{"Subtotal", fs.ProposalSubtotal, true},
		{taxLabel(&fs.SalesTax), fs.SalesTax.Total, true},
	}
	var objs []fyne.CanvasObject
	for _, l := range lines {
		if !l.show {
			continue
		}
		objs = append(objs, summaryLine(l.label, app.FormatMoney(l.m, cur), false))
	}
	objs = append(objs, widget.NewSeparator(), summaryLine("Total", app.FormatMoney(fs.ProposalTotal, cur), true))
	if r := dv.RecurringServices.TotalRecurringService; r != 0 {
		objs = append(objs, summaryLine("Recurring services", perMonth(r, cur), false))
	}
	v.summary.Objects = objs
	v.summary.Refresh()
	v.showTaxProblem(fs.SalesTax.TaxStatus)
}

func summaryLine(label, value string, bold bool) fyne.CanvasObject {
	return container.NewBorder(nil, nil, widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: bold}),
		widget.NewLabelWithStyle(value, fyne.TextAlignTrailing, fyne.TextStyle{Bold: bold, Monospace: !bold}))
}

// changeOrders lists the change orders; each opens a read-only detail.
func (v *proposalView) changeOrders() fyne.CanvasObject {
	box := container.NewVBox()
	for i := range v.p.ChangeOrders {
		co := &v.p.ChangeOrders[i]
		sum := app.ChangeOrderSummaryView(co)
		text := fmt.Sprintf("Change order %d · %s · %s · %s", co.Number, co.Name, co.Status.Label(),
			app.FormatMoney(sum.Total.ChangeOrderTotal, sum.Total.Currency))
		box.Add(widget.NewButton(text, func() { v.showChangeOrder(co) }))
	}
	return newCard("Change orders", "read-only", box)
}

func (v *proposalView) showChangeOrder(co *app.ChangeOrder) {
	role := v.d.sess.user.Role
	cv := app.ChangeOrderDetailView(co, role.ViewOptions())
	cur := cv.FinancialSummary.Currency
	objs := []fyne.CanvasObject{
		widget.NewLabel("Status: " + co.Status.Label()),
	}
	if co.ProjectDescription != "" {
		d := widget.NewLabel(co.ProjectDescription)
		d.Wrapping = fyne.TextWrapWord
		objs = append(objs, d)
	}
	for _, a := range cv.Areas {
		box := container.NewVBox()
		for i, o := range a.Options {
			box.Add(widget.NewLabelWithStyle(fmt.Sprintf("Option %d", i+1), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
			box.Add(itemsTable(o.Items, cur, role.Can(app.PermViewCosts)))
		}
		objs = append(objs, newCard(a.Name, "", box))
	}
	fs := cv.FinancialSummary
	objs = append(objs, summaryLine("Subtotal", app.FormatMoney(fs.ChangeOrderSubtotal, cur), false),
		summaryLine("Sales tax", app.FormatMoney(fs.SalesTax.Total, cur), false),
		summaryLine("Change order total", app.FormatMoney(fs.ChangeOrderTotal, cur), true))
	content := container.NewVScroll(container.NewVBox(objs...))
	dl := dialog.NewCustom(fmt.Sprintf("Change order %d: %s", co.Number, co.Name), "Close",
		container.New(layout.NewGridWrapLayout(fyne.NewSize(720, 480)), content), v.d.win)
	v.d.showDialog(dl)
}
