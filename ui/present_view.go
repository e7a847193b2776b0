package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/app/report"
)

// The client's screen is built from app's client view only (ClientView:
// no cost, supplier, installer or internal notes) and laid out as the
// client's web page is: the dealer and the proposal, the project, each
// area's options, the totals, the terms, then the decision.

// presentWidth is the page's greatest width: lines stay readable on a
// wide screen.
const presentWidth = 940

// build lays the client's screen out.
func (pm *presentMode) build() fyne.CanvasObject {
	d := pm.detail()
	pm.cur = d.FinancialSummary.Currency
	pm.cards = map[int64][]*optionCard{}
	var objs []fyne.CanvasObject
	name := widget.NewLabelWithStyle(d.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.SizeName = theme.SizeNameHeadingText
	name.Wrapping = fyne.TextWrapWord
	meta := "Proposal " + app.FormatID(d.Number)
	if c := d.Customer; c != nil {
		meta += " · prepared for " + c.DisplayName()
	}
	objs = append(objs, name, lowLabel(meta))
	if s := strings.TrimSpace(d.ProjectDescription); s != "" {
		objs = append(objs, presentSection("Project description", wrapLabel(s)))
	}
	for _, a := range d.Areas {
		objs = append(objs, pm.area(a))
	}
	pm.totals = container.NewVBox()
	pm.showTotals(&d)
	objs = append(objs, presentSection("Totals", pm.totals))
	if s := strings.TrimSpace(d.ProjectTerms); s != "" {
		objs = append(objs, presentSection("Terms", wrapLabel(s)))
	}
	objs = append(objs, pm.decision())
	pm.body = container.NewVBox(objs...)
	pm.scroll = container.NewVScroll(container.New(&maxWidth{w: presentWidth}, container.NewPadded(pm.body)))

	dealer := widget.NewLabelWithStyle(d.Dealer.CompanyName, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	pm.leave = widget.NewButton("Leave", pm.askLeave)
	pm.leave.Importance = widget.LowImportance
	top := container.NewBorder(nil, nil, dealer, pm.leave)
	return container.NewBorder(container.NewVBox(top, widget.NewSeparator()), nil, nil, nil, pm.scroll)
}

// detail is app's view of the client view with the client's choices:
// its totals are those the choices make.
func (pm *presentMode) detail() app.ProposalDetail {
	return app.DetailView(app.WithChoices(pm.view, pm.choices), app.ViewOptions{})
}

// area is one area with its options; where it offers several, each is a
// card the client taps to choose.
func (pm *presentMode) area(a app.AreaView) fyne.CanvasObject {
	choosable := len(a.Options) > 1
	counted := a.CountedIndex()
	var objs []fyne.CanvasObject
	if choosable {
		objs = append(objs, lowLabel("Choose one option: tap it."))
	}
	for i, o := range a.Options {
		c := newOptionCard(choosable, i == counted, func() { pm.choose(a.ID, o.ID) })
		c.content = pm.option(len(a.Options), i, o)
		c.ExtendBaseWidget(c)
		pm.cards[a.ID] = append(pm.cards[a.ID], c)
		objs = append(objs, c)
	}
	return presentSection(a.Name, container.NewVBox(objs...))
}

// option is an option's label, description, items at sell price and
// total.
func (pm *presentMode) option(n, i int, o app.OptionView) fyne.CanvasObject {
	money := func(m app.Money) string { return app.FormatMoney(m, pm.cur) }
	label := "Included"
	if n > 1 {
		label = "Option " + string(rune('A'+i))
	}
	objs := []fyne.CanvasObject{widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	if s := strings.TrimSpace(o.ClientDescription); s != "" {
		objs = append(objs, wrapLabel(s))
	}
	if len(o.Items) > 0 {
		objs = append(objs, tableRow(boldLabel("Item"), boldRight("Qty"), boldRight("Price"), boldRight("Total")))
		for _, it := range o.Items {
			item := strings.TrimSpace(it.Name)
			if it.ParentID != 0 {
				item = "    " + item
			}
			if it.IsRecurringService {
				item += " (monthly)"
			}
			nameBox := container.NewVBox(truncLabel(item))
			if dt := strings.TrimSpace(it.Brand + " " + it.Model); dt != "" {
				nameBox.Add(lowLabel(dt))
			}
			if s := strings.TrimSpace(it.ClientNote); s != "" {
				nameBox.Add(lowLabel(s))
			}
			objs = append(objs, tableRow(nameBox, rightLabel(report.Quantity(it.Quantity)),
				rightLabel(money(it.SellPrice)), rightLabel(money(it.Total.Amount))))
		}
	}
	objs = append(objs, tableRow(boldLabel("Option total"), widget.NewLabel(""), widget.NewLabel(""), boldRight(money(o.Total))))
	return container.NewVBox(objs...)
}

// choose makes the client's pick in an area the counted option, and
// shows the totals app computes for it.
func (pm *presentMode) choose(areaID, optionID int64) {
	if pm.signer != "" || pm.choices[areaID] == optionID {
		return
	}
	pm.choices[areaID] = optionID
	for _, a := range pm.view.Areas {
		if a.ID != areaID {
			continue
		}
		for i, c := range pm.cards[areaID] {
			c.setChosen(a.Options[i].ID == optionID)
		}
	}
	d := pm.detail()
	pm.showTotals(&d)
}

// showTotals shows the financial summary's lines the client's page
// shows.
func (pm *presentMode) showTotals(d *app.ProposalDetail) {
	fs := &d.FinancialSummary
	money := func(m app.Money) string { return app.FormatMoney(m, fs.Currency) }
	type row struct{ label, amount string }
	rows := []row{{"Parts", money(fs.PartsSubtotal)}}
	if fs.PartsDiscount != 0 {
		rows = append(rows, row{"Parts discount", "−" + money(fs.PartsDiscount)})
	}
	rows = append(rows, row{"Labor", money(fs.LaborTotal)}, row{"Fees", money(fs.FeeTotal)},
		row{"Subtotal", money(fs.ProposalSubtotal)}, row{"Sales tax", money(fs.SalesTax.Total)})
	var objs []fyne.CanvasObject
	for _, r := range rows {
		objs = append(objs, tableRow(widget.NewLabel(r.label), rightLabel(r.amount)))
	}
	objs = append(objs, tableRow(boldLabel("Total"), boldRight(money(fs.ProposalTotal))))
	if rs := d.RecurringServices; len(rs.Items) > 0 {
		objs = append(objs, boldLabel("Recurring services (monthly, not in the total)"))
		for _, r := range rs.Items {
			objs = append(objs, tableRow(widget.NewLabel(r.Name+" × "+report.Quantity(r.Quantity)), rightLabel(money(r.TotalSell)+" / month")))
		}
		objs = append(objs, tableRow(widget.NewLabel("Monthly total"), rightLabel(money(rs.TotalRecurringService)+" / month")))
	}
	pm.totals.Objects = objs
	pm.totals.Refresh()
}

// shownTotal is the proposal total the screen shows (tests).
func (pm *presentMode) shownTotal() string {
	last := ""
	walkObjects(pm.totals, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.TextStyle.Bold && l.Alignment == fyne.TextAlignTrailing && last == "" {
			last = l.Text
		}
	})
	return last
}

// decision is the name, the signature, the consent and Accept.
func (pm *presentMode) decision() fyne.CanvasObject {
	pm.name = newPlainEntry(pm.d)
	pm.name.SetPlaceHolder("Your full name")
	pm.name.OnChanged = func(string) { pm.refreshAccept() }
	pm.pad = newSignaturePad(pm.refreshAccept)
	clear := widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), pm.pad.Clear)
	clear.Importance = widget.LowImportance
	pm.consent = widget.NewCheck("", func(bool) { pm.refreshAccept() })
	consentText := wrapLabel(app.ConsentText)
	pm.accept = widget.NewButtonWithIcon("Accept this proposal", theme.ConfirmIcon(), pm.acceptNow)
	pm.accept.Importance = widget.HighImportance
	pm.missing = wrapLabel("")
	pm.refreshAccept()
	return presentSection("Your decision", container.NewVBox(
		widget.NewLabel("Your full name"), pm.name,
		container.NewBorder(nil, nil, widget.NewLabel("Your signature"), clear),
		container.NewHBox(pm.pad),
		container.NewBorder(nil, nil, container.NewVBox(pm.consent), nil, consentText),
		container.NewHBox(pm.accept), pm.missing,
	))
}

// optionCard is an option the client can tap to choose (where the area
// offers several): a radio mark and a frame show the choice.
type optionCard struct {
	widget.BaseWidget
	content   fyne.CanvasObject
	choosable bool
	chosen    bool
	tapped    func()
	mark      *widget.Icon
	badge     *widget.Label
	frame     *canvas.Rectangle
}

var _ fyne.Tappable = (*optionCard)(nil)

func newOptionCard(choosable, chosen bool, tapped func()) *optionCard {
	return &optionCard{choosable: choosable, chosen: chosen, tapped: tapped}
}

func (c *optionCard) CreateRenderer() fyne.WidgetRenderer {
	c.frame = canvas.NewRectangle(color.Transparent)
	c.frame.CornerRadius = theme.InputRadiusSize()
	c.mark = widget.NewIcon(nil)
	c.badge = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	c.badge.Importance = widget.HighImportance
	c.show()
	var head fyne.CanvasObject = container.NewBorder(nil, nil, nil, nil)
	if c.choosable {
		head = container.NewBorder(nil, nil, c.mark, c.badge)
	}
	return widget.NewSimpleRenderer(container.NewStack(c.frame,
		container.NewPadded(container.NewBorder(head, nil, nil, nil, c.content))))
}

func (c *optionCard) Tapped(*fyne.PointEvent) {
	if c.choosable && c.tapped != nil {
		c.tapped()
	}
}

func (c *optionCard) setChosen(chosen bool) {
	c.chosen = chosen
	if c.frame != nil {
		c.show()
	}
}

func (c *optionCard) show() {
	c.frame.StrokeWidth = 1
	c.frame.StrokeColor = theme.Color(theme.ColorNameSeparator)
	c.frame.FillColor = color.Transparent
	c.mark.SetResource(theme.RadioButtonIcon())
	c.badge.SetText("")
	if c.choosable && c.chosen {
		c.frame.StrokeWidth = 3
		c.frame.StrokeColor = theme.Color(theme.ColorNamePrimary)
		c.frame.FillColor = theme.Color(theme.ColorNameSelection)
		c.mark.SetResource(theme.RadioButtonCheckedIcon())
		c.badge.SetText("Your choice")
	}
	c.frame.Refresh()
}

// presentSection is a heading and its content.
func presentSection(title string, content fyne.CanvasObject) fyne.CanvasObject {
	h := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.SizeName = theme.SizeNameSubHeadingText
	return container.NewVBox(widget.NewSeparator(), h, content)
}

func lowLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Importance = widget.LowImportance
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func truncLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func rightLabel(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignTrailing, fyne.TextStyle{})
}

func boldRight(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
}

// tableRow is a table row: the first cell takes the room the fixed-width
// number columns leave.
func tableRow(first fyne.CanvasObject, nums ...fyne.CanvasObject) *fyne.Container {
	return container.New(numberColumns{}, append([]fyne.CanvasObject{first}, nums...)...)
}

// numberColumns lays out a table row: the last cells 130 units wide
// each (quantity 70), the first the rest.
type numberColumns struct{}

func numberWidth(i, n int) float32 {
	if n == 4 && i == 1 {
		return 70 // quantity
	}
	return 130
}

func (numberColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := size.Width
	for i := len(objs) - 1; i >= 1; i-- {
		w := numberWidth(i, len(objs))
		x -= w
		objs[i].Move(fyne.NewPos(x, 0))
		objs[i].Resize(fyne.NewSize(w, size.Height))
	}
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(max(x, 0), size.Height))
}

func (numberColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for i, o := range objs {
		m := o.MinSize()
		h = max(h, m.Height)
		if i == 0 {
			w += min(m.Width, 160)
		} else {
			w += numberWidth(i, len(objs))
		}
	}
	return fyne.NewSize(w, h)
}

// maxWidth centres its one object at no more than w wide.
type maxWidth struct{ w float32 }

func (m *maxWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w := min(size.Width, m.w)
	for _, o := range objs {
		o.Move(fyne.NewPos((size.Width-w)/2, 0))
		o.Resize(fyne.NewSize(w, size.Height))
	}
}

func (m *maxWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// walkObjects visits o and every object inside it.
func walkObjects(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			walkObjects(x, fn)
		}
	}
}
