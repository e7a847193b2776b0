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

// build lays the client's screen out: one culling box of rows (a row of
// items, a heading, the totals, the decision), so that each frame Fyne
// lays out and paints only the rows near the visible part, as the
// proposal screen does: with a hundred items every frame would
// otherwise paint them all, the signature's strokes and the caret's
// blinking included.
func (pm *presentMode) build() fyne.CanvasObject {
	d := pm.detail()
	pm.cur = d.FinancialSummary.Currency
	pm.cards = map[int64][]*optionCard{}
	var rows []fyne.CanvasObject
	var kinds []int
	add := func(kind int, objs ...fyne.CanvasObject) {
		for _, o := range objs {
			rows, kinds = append(rows, o), append(kinds, kind)
		}
	}
	name := widget.NewLabelWithStyle(d.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.SizeName = theme.SizeNameHeadingText
	name.Wrapping = fyne.TextWrapWord
	meta := "Proposal " + app.FormatID(d.Number)
	if c := d.Customer; c != nil {
		meta += " · prepared for " + c.DisplayName()
	}
	add(0, name, lowLabel(meta))
	if s := strings.TrimSpace(d.ProjectDescription); s != "" {
		add(0, presentSection("Project description", wrapLabel(s)))
	}
	for _, a := range d.Areas {
		pm.area(a, add)
	}
	pm.totals = container.NewVBox()
	pm.showTotals(&d)
	pm.totalsSection = presentSection("Totals", pm.totals)
	add(0, pm.totalsSection)
	if s := strings.TrimSpace(d.ProjectTerms); s != "" {
		add(0, presentSection("Terms", wrapLabel(s)))
	}
	add(0, pm.decision())
	h := pm.d.win.Canvas().Size().Height
	pm.page = newCullBox(rows, kinds, -h*cullMargin, h*(1+cullMargin))
	pm.page.after = pm.cull
	pm.body = container.NewPadded(pm.page)
	pm.scroll = container.NewVScroll(container.New(&maxWidth{w: presentWidth}, pm.body))
	pm.scroll.OnScrolled = func(fyne.Position) { pm.cull() }

	dealer := widget.NewLabelWithStyle(d.Dealer.CompanyName, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	pm.leave = newEscButton("Leave", nil, pm.askLeave, pm.escape)
	pm.leave.Importance = widget.LowImportance
	top := container.NewBorder(nil, nil, dealer, pm.leave)
	return container.NewBorder(container.NewVBox(top, widget.NewSeparator()), nil, nil, nil, pm.scroll)
}

// cull tells the page what is visible (after a scroll or a layout); the
// focused field stays drawn.
func (pm *presentMode) cull() {
	s := pm.scroll
	if pm.culling || s == nil || s.Content == nil {
		return
	}
	pm.culling = true
	defer func() { pm.culling = false }()
	var focus map[fyne.CanvasObject]bool
	if f, ok := pm.d.win.Canvas().Focused().(fyne.CanvasObject); ok {
		focus = pathTo(s.Content, f)
	}
	off, h := s.Offset.Y, s.Size().Height
	cullPass(s.Content, -off, -h*cullMargin, h*(1+cullMargin), focus)
}

// detail is app's view of the client view with the client's choices:
// its totals are those the choices make.
func (pm *presentMode) detail() app.ProposalDetail {
	return app.DetailView(app.WithChoices(pm.view, pm.choices), app.ViewOptions{})
}

// Kinds of page rows whose height is alike: a row of one never measured
// takes the height of one measured (cullBox).
const (
	rowAlone      = iota // measured on its own
	rowItem              // an item with a brand or model line
	rowItemPlain         // an item with its name only
	rowTableHead         // the column heads
	rowOptionFoot        // the option's total
)

// area adds an area's rows: its heading and its options; where it
// offers several, every row of an option is part of a card the client
// taps to choose.
func (pm *presentMode) area(a app.AreaView, add func(int, ...fyne.CanvasObject)) {
	choosable := len(a.Options) > 1
	counted := a.CountedIndex()
	add(rowAlone, widget.NewSeparator(), sectionHeading(a.Name))
	if choosable {
		add(rowAlone, lowLabel("Choose one option: tap it."))
	}
	for i, o := range a.Options {
		c := &optionCard{choosable: choosable, chosen: i == counted, tapped: func() { pm.choose(a.ID, o.ID) }}
		pm.cards[a.ID] = append(pm.cards[a.ID], c)
		add(rowAlone, c.head(optionLabel(len(a.Options), i)))
		pm.option(o, func(kind int, row fyne.CanvasObject) { add(kind, c.part(row)) })
		foot := canvas.NewRectangle(color.Transparent)
		foot.SetMinSize(fyne.NewSize(1, theme.Padding()))
		add(rowAlone, c.part(foot)) // the card's foot, for a margin
	}
}

// optionLabel names the option as the client's page does.
func optionLabel(n, i int) string {
	if n == 1 {
		return "Included"
	}
	return "Option " + string(rune('A'+i))
}

// option adds an option's rows: description, items at sell price and
// total.
func (pm *presentMode) option(o app.OptionView, add func(int, fyne.CanvasObject)) {
	money := func(m app.Money) string { return app.FormatMoney(m, pm.cur) }
	if s := strings.TrimSpace(o.ClientDescription); s != "" {
		add(rowAlone, wrapLabel(s))
	}
	if len(o.Items) > 0 {
		add(rowTableHead, tableRow(boldLabel("Item"), boldRight("Qty"), boldRight("Price"), boldRight("Total")))
		for _, it := range o.Items {
			item := strings.TrimSpace(it.Name)
			if it.ParentID != 0 {
				item = "    " + item
			}
			if it.IsRecurringService {
				item += " (monthly)"
			}
			kind := rowItemPlain
			nameBox := container.NewVBox(truncLabel(item))
			if dt := strings.TrimSpace(it.Brand + " " + it.Model); dt != "" {
				nameBox.Add(lowLabel(dt))
				kind = rowItem
			}
			if s := strings.TrimSpace(it.ClientNote); s != "" {
				nameBox.Add(lowLabel(s))
				kind = rowAlone
			}
			add(kind, tableRow(nameBox, rightLabel(report.Quantity(it.Quantity)),
				rightLabel(money(it.SellPrice)), rightLabel(money(it.Total.Amount))))
		}
	}
	add(rowOptionFoot, tableRow(boldLabel("Option total"), widget.NewLabel(""), widget.NewLabel(""), boldRight(money(o.Total))))
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

// decision is the name, the signature, the consent and Accept.
func (pm *presentMode) decision() fyne.CanvasObject {
	pm.name = newPlainEntry(pm.d)
	pm.name.SetPlaceHolder("Your full name")
	pm.name.OnChanged = func(string) { pm.refreshAccept() }
	pm.pad = newSignaturePad(pm.refreshAccept)
	clear := newEscButton("Clear", theme.ContentClearIcon(), pm.pad.Clear, pm.escape)
	clear.Importance = widget.LowImportance
	pm.consent = newEscCheck(func(bool) { pm.refreshAccept() }, pm.escape)
	consentText := wrapLabel(app.ConsentText)
	pm.accept = newEscButton("Accept this proposal", theme.ConfirmIcon(), pm.acceptNow, pm.escape)
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
// offers several): its rows (parts) share a background and a bar on the
// left that show the choice, and a tap on any of them chooses it.
type optionCard struct {
	choosable bool
	chosen    bool
	tapped    func()
	parts     []*optionPart
	mark      *widget.Icon
	badge     *widget.Label
}

// head is the card's first row: the radio mark, the label and "Your
// choice".
func (c *optionCard) head(label string) *optionPart {
	if !c.choosable {
		return c.part(boldLabel(label))
	}
	c.mark = widget.NewIcon(nil)
	c.badge = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	c.badge.Importance = widget.HighImportance
	return c.part(container.NewBorder(nil, nil, container.NewHBox(c.mark, boldLabel(label)), c.badge))
}

// part is a row of the card.
func (c *optionCard) part(content fyne.CanvasObject) *optionPart {
	// Filled rectangles only (no stroke, no rounded corners): cheap for
	// every painter.
	p := &optionPart{card: c, frame: canvas.NewRectangle(color.Transparent), bar: canvas.NewRectangle(color.Transparent)}
	p.box = container.New(&partLayout{first: len(c.parts) == 0}, p.frame, p.bar, content)
	p.ExtendBaseWidget(p)
	c.parts = append(c.parts, p)
	c.show()
	return p
}

func (c *optionCard) setChosen(chosen bool) {
	c.chosen = chosen
	c.show()
}

func (c *optionCard) show() {
	fill, bar := color.Color(color.Transparent), theme.Color(theme.ColorNameSeparator)
	if c.choosable && c.chosen {
		fill, bar = theme.Color(theme.ColorNameSelection), theme.Color(theme.ColorNamePrimary)
	}
	if c.mark != nil {
		c.mark.SetResource(theme.RadioButtonIcon())
		c.badge.SetText("")
		if c.chosen {
			c.mark.SetResource(theme.RadioButtonCheckedIcon())
			c.badge.SetText("Your choice")
		}
	}
	for _, p := range c.parts {
		if p.frame.FillColor != fill || p.bar.FillColor != bar {
			p.frame.FillColor, p.bar.FillColor = fill, bar
			p.frame.Refresh()
			p.bar.Refresh()
		}
	}
}

// optionPart is one row of an option's card.
type optionPart struct {
	widget.BaseWidget
	card       *optionCard
	box        *fyne.Container
	frame, bar *canvas.Rectangle
}

var _ fyne.Tappable = (*optionPart)(nil)

func (p *optionPart) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(p.box) }

func (p *optionPart) Tapped(*fyne.PointEvent) {
	if c := p.card; c.choosable && c.tapped != nil {
		c.tapped()
	}
}

// partLayout lays out a card's row: the background and the bar on the
// left reach up over the gap between rows (but for the first row), so
// the card reads as one block; the content sits right of the bar.
type partLayout struct{ first bool }

const barWidth = 5

func (l *partLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	top := -theme.Padding()
	if l.first {
		top = 0
	}
	objs[0].Move(fyne.NewPos(0, top))
	objs[0].Resize(fyne.NewSize(size.Width, size.Height-top))
	objs[1].Move(fyne.NewPos(0, top))
	objs[1].Resize(fyne.NewSize(barWidth, size.Height-top))
	x := barWidth + theme.Padding()
	objs[2].Move(fyne.NewPos(x, 0))
	objs[2].Resize(fyne.NewSize(max(size.Width-x-theme.Padding(), 0), size.Height))
}

func (l *partLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[2].MinSize().AddWidthHeight(barWidth+2*theme.Padding(), 0)
}

// presentSection is a heading and its content.
func presentSection(title string, content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewVBox(widget.NewSeparator(), sectionHeading(title), content)
}

func sectionHeading(title string) *widget.Label {
	h := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.SizeName = theme.SizeNameSubHeadingText
	return h
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
