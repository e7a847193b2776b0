package report

import (
	"io"
	"slices"
	"strings"

	"proposaldesk/app"
)

// Options tune a rendering.
type Options struct {
	// Logo is the dealer's logo (PNG or JPEG). When nil, LogoFromURL of
	// the dealer's companyLogoUrl is tried, then the company name is
	// printed instead.
	Logo []byte
}

// Client writes the client-facing PDF: dealer header and logo, customer
// and location, project description, areas with their options and items
// at sell price, totals, tax, recurring services, payment schedule and
// terms. It never prints installer notes, internal notes, costs or
// profit.
func Client(w io.Writer, d *Document, opts Options) error {
	p, err := newPDF(footerOf(d))
	if err != nil {
		return err
	}
	clientPages(p, d, opts)
	return p.write(w)
}

// clientPages draws the client document (Client, Signed).
func clientPages(p *pdf, d *Document, opts Options) {
	header(p, d, opts)
	title(p, d, "")
	parties(p, d, true)
	if strings.TrimSpace(d.ProjectDescription) != "" {
		p.heading("Project description", 30)
		p.font(false, 10)
		p.paragraph(d.ProjectDescription, left, width)
		p.space(10)
	}
	for i := range d.Areas {
		clientArea(p, d, &d.Areas[i])
	}
	totals(p, d)
	recurring(p, d)
	payments(p, d)
	if strings.TrimSpace(d.Terms) != "" {
		p.heading("Terms", 30)
		p.font(false, 9)
		p.paragraph(d.Terms, left, width)
	}
}

func footerOf(d *Document) string {
	s := d.heading()
	if d.Dealer.CompanyName != "" {
		s = d.Dealer.CompanyName + " · " + s
	}
	return s
}

// header draws the logo (or the company name) on the left and the
// dealer's address and contacts on the right.
func header(p *pdf, d *Document, opts Options) {
	dl := &d.Dealer
	logo := opts.Logo
	if logo == nil {
		logo = LogoFromURL(dl.CompanyLogoURL)
	}
	h := 0.0
	if logo != nil {
		h = p.image(logo, left, p.y, 200, 56)
	}
	var lines []string
	if h == 0 {
		p.font(true, 16)
		nameLines := p.wrap(dl.CompanyName, width*0.55)
		for _, l := range nameLines {
			p.text(left, p.y+h, l)
			h += p.lineHeight()
		}
	} else {
		lines = append(lines, dl.CompanyName)
	}
	lines = append(lines, addressLines(&dl.Location)...)
	lines = append(lines, dl.CompanyPhone, dl.WebSiteURL)
	p.font(false, 8.5)
	p.color(grey)
	y := p.y
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		for _, wl := range p.wrap(l, width*0.4) {
			p.textRight(right, y, wl)
			y += p.lineHeight()
		}
	}
	p.color(black)
	p.y = max(p.y+h, y) + 8
	p.hrule(left, right)
	p.y += 14
}

// title writes the document's heading and name.
func title(p *pdf, d *Document, prefix string) {
	p.font(true, 18)
	p.paragraph(prefix+d.heading(), left, width)
	p.font(true, 13)
	p.paragraph(d.Name, left, width)
	p.font(false, 9)
	p.color(grey)
	if s := dateText(d.Date); s != "" {
		p.paragraph(s, left, width)
	}
	p.color(black)
	p.space(10)
}

// parties writes the customer (with the location) and the salesperson
// side by side.
func parties(p *pdf, d *Document, client bool) {
	var cust []string
	if c := d.Customer; c != nil {
		name := strings.TrimSpace(c.FirstName + " " + c.LastName)
		cust = append(cust, name)
		if c.CompanyName != "" && c.CompanyName != name {
			cust = append(cust, c.CompanyName)
		}
		if c.Location != nil {
			cust = append(cust, addressLines(c.Location)...)
		}
		if client {
			cust = append(cust, c.ContactEmail)
		}
		cust = append(cust, c.ContactPhone)
	} else {
		cust = append(cust, "No customer assigned yet")
	}
	sp := d.Dealer.Salesperson
	seller := []string{strings.TrimSpace(sp.FirstName + " " + sp.LastName), sp.Email}
	if d.Dealer.CompanyPhone != "" {
		seller = append(seller, d.Dealer.CompanyPhone)
	}
	colW := width/2 - 10
	p.ensure(60)
	p.font(true, 9)
	p.color(grey)
	if client {
		p.text(left, p.y, "PREPARED FOR")
		p.text(left+width/2, p.y, "PREPARED BY")
	} else {
		p.text(left, p.y, "SITE")
		p.text(left+width/2, p.y, "SALESPERSON")
	}
	p.color(black)
	p.y += p.lineHeight() + 2
	y0 := p.y
	p.font(false, 10)
	for _, l := range nonEmpty(cust) {
		p.paragraph(l, left, colW)
	}
	yl := p.y
	p.y = y0
	for _, l := range nonEmpty(seller) {
		p.paragraph(l, left+width/2, colW)
	}
	p.y = max(p.y, yl) + 14
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// addressLines is a location as an address block.
func addressLines(l *app.Location) []string {
	street := strings.TrimSpace(strings.TrimSpace(l.Street) + " " + strings.TrimSpace(l.Suite))
	state := l.StateAbbrev
	if state == "" {
		state = l.State
	}
	city := strings.TrimSpace(l.City)
	if state != "" {
		if city != "" {
			city += ", "
		}
		city += state
	}
	if l.PostalCode != "" {
		city = strings.TrimSpace(city + " " + l.PostalCode)
	}
	out := nonEmpty([]string{street, city})
	if l.Country != "" && l.Country != "US" && l.Country != "USA" && l.Country != "United States" {
		out = append(out, l.Country)
	}
	return out
}

// Columns of the client's item table.
const (
	colDesc  = left
	colQty   = left + 330.0 // right edge of the quantity
	colPrice = left + 420.0 // right edge of the unit price
	colTotal = right        // right edge of the line total
	descW    = 280.0
)

// depths is each item's nesting depth within its option.
func depths(items []app.ItemView) []int {
	index := make(map[int64]int, len(items))
	for i := range items {
		index[items[i].ID] = i
	}
	out := make([]int, len(items))
	for i := range items {
		d, cur := 0, items[i].ParentID
		for cur != 0 && d < 8 {
			j, ok := index[int64(cur)]
			if !ok {
				break
			}
			d++
			cur = items[j].ParentID
		}
		out[i] = d
	}
	return out
}

// inCombined reports, per item, whether an ancestor has a combined price
// that holds its amount: a combined price gathers lines of its own kind
// (app.ItemAmounts), so a monthly plan in a one-time package keeps its
// own price.
func inCombined(items []app.ItemView) []bool {
	index := make(map[int64]int, len(items))
	for i := range items {
		index[items[i].ID] = i
	}
	out := make([]bool, len(items))
	for i := range items {
		cur := items[i].ParentID
		for n := 0; cur != 0 && n < 8; n++ {
			j, ok := index[int64(cur)]
			if !ok {
				break
			}
			if items[j].Total.IsCombinedPrice && items[j].IsRecurringService == items[i].IsRecurringService {
				out[i] = true
				break
			}
			cur = items[j].ParentID
		}
	}
	return out
}

func optionLabel(a *app.AreaView, i, counted int) string {
	label := "Option " + app.FormatID(int64(i+1))
	if len(a.Options) == 1 {
		label = "Included"
	}
	switch {
	case a.Options[i].Status == app.OptionDeclined:
		label += " (declined)"
	case i == counted && len(a.Options) > 1:
		label += " (included in the total)"
	}
	return label
}

// clientArea writes an area's options that have items: an empty one
// (an idea not priced yet) would only print "$0.00" to the client, and
// an area without any is left out whole. The others keep their numbers,
// as the salesperson's screen shows them.
func clientArea(p *pdf, d *Document, a *app.AreaView) {
	if !slices.ContainsFunc(a.Options, func(o app.OptionView) bool { return len(o.Items) > 0 }) {
		return
	}
	p.heading(a.Name, 50)
	counted := a.CountedIndex()
	for i := range a.Options {
		o := &a.Options[i]
		if len(o.Items) == 0 {
			continue
		}
		p.font(true, 10.5)
		p.ensure(40)
		p.paragraph(optionLabel(a, i, counted), left, width)
		if strings.TrimSpace(o.ClientDescription) != "" {
			p.font(false, 9.5)
			p.paragraph(o.ClientDescription, left, width)
		}
		p.space(4)
		if len(o.Items) > 0 {
			itemTable(p, d, o)
		}
		p.font(true, 9.5)
		p.ensure(p.lineHeight() * 2)
		p.text(colPrice-80, p.y, "Option total")
		p.textRight(colTotal, p.y, app.FormatMoney(o.Total, d.Currency))
		p.y += p.lineHeight()
		if o.TotalRecurringService != 0 {
			p.font(false, 9)
			p.text(colPrice-80, p.y, "Recurring services per month")
			p.textRight(colTotal, p.y, app.FormatMoney(o.TotalRecurringService, d.Currency))
			p.y += p.lineHeight()
		}
		p.space(10)
	}
}

func itemTable(p *pdf, d *Document, o *app.OptionView) {
	p.font(true, 8)
	p.ensure(p.lineHeight() + 30)
	p.box(left, p.y-2, width, p.lineHeight()+3, shade)
	p.color(grey)
	p.text(colDesc+4, p.y, "ITEM")
	p.textRight(colQty, p.y, "QTY")
	p.textRight(colPrice, p.y, "PRICE")
	p.textRight(colTotal-4, p.y, "TOTAL")
	p.color(black)
	p.y += p.lineHeight() + 4
	dep := depths(o.Items)
	incl := inCombined(o.Items)
	for i := range o.Items {
		it := &o.Items[i]
		indent := 10 * float64(min(dep[i], 4))
		w := descW - indent
		p.font(true, 9)
		nameLines := p.wrap(itemName(it), w)
		p.font(false, 8)
		detail := itemDetail(it, true)
		detailLines := p.wrap(detail, w)
		h := float64(len(nameLines))*9*lineGap + float64(len(detailLines))*8*lineGap + 4
		if h < bottom-top {
			p.ensure(h)
		}
		y := p.y
		p.font(false, 9)
		p.textRight(colQty, y, Quantity(it.Quantity))
		switch {
		case incl[i]:
			p.color(grey)
			p.textRight(colTotal-4, y, "included")
			p.color(black)
		default:
			p.textRight(colPrice, y, app.FormatMoney(it.SellPrice, d.Currency))
			total := app.FormatMoney(it.Total.Amount, d.Currency)
			if it.IsRecurringService {
				total += "/month"
			}
			p.textRight(colTotal-4, y, total)
		}
		p.font(true, 9)
		for _, l := range nameLines {
			p.ensure(p.lineHeight())
			p.text(colDesc+4+indent, p.y, l)
			p.y += p.lineHeight()
		}
		p.font(false, 8)
		p.color(grey)
		for _, l := range detailLines {
			p.ensure(p.lineHeight())
			p.text(colDesc+4+indent, p.y, l)
			p.y += p.lineHeight()
		}
		p.color(black)
		p.y += 4
	}
}

// itemName is the item's printed name.
func itemName(it *app.ItemView) string {
	if strings.TrimSpace(it.Name) != "" {
		return it.Name
	}
	if s := strings.TrimSpace(it.Brand + " " + it.Model); s != "" {
		return s
	}
	return it.ItemType.Label()
}

// itemDetail is the line under the name: brand and model, and for the
// client the short description (else the description) and client note.
func itemDetail(it *app.ItemView, client bool) string {
	var parts []string
	if bm := strings.TrimSpace(it.Brand + " " + it.Model); bm != "" && bm != it.Name {
		parts = append(parts, bm)
	}
	if client {
		if it.ShortDescription != "" {
			parts = append(parts, it.ShortDescription)
		} else if it.Description != "" {
			parts = append(parts, it.Description)
		}
		if it.ClientNote != "" {
			parts = append(parts, it.ClientNote)
		}
	}
	// Catalogs often repeat brand and model as the short description.
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		dup := strings.EqualFold(p, strings.TrimSpace(it.Name))
		for _, q := range out {
			dup = dup || strings.EqualFold(p, q)
		}
		if p != "" && !dup {
			out = append(out, p)
		}
	}
	return strings.Join(out, " — ")
}

// totals writes the financial summary, right-aligned.
func totals(p *pdf, d *Document) {
	t := &d.Totals
	cur := d.Currency
	type row struct {
		label, value string
		bold         bool
	}
	rows := []row{{"Parts subtotal", app.FormatMoney(t.PartsSubtotal, cur), false}}
	if t.PartsDiscount != 0 {
		label := "Parts discount"
		if t.DiscountType == app.DiscountPercentage {
			label += " (" + t.DiscountPercentage.String() + "%)"
		}
		rows = append(rows, row{label, app.FormatMoney(-t.PartsDiscount, cur), false},
			row{"Parts total", app.FormatMoney(t.PartsTotal, cur), false})
	}
	rows = append(rows,
		row{"Labor", app.FormatMoney(t.LaborTotal, cur), false},
		row{"Fees", app.FormatMoney(t.FeeTotal, cur), false},
		row{"Subtotal", app.FormatMoney(t.Subtotal, cur), true})
	tax := &t.Tax
	taxTotal := tax.Total
	if tax.TaxStatus == app.TaxExempt {
		taxTotal = 0
	}
	rows = append(rows, row{tax.TaxStatus.Label(), app.FormatMoney(taxTotal, cur), false})
	rows = append(rows, row{"Total", app.FormatMoney(t.Total, cur), true})

	p.heading("Summary", float64(len(rows))*14)
	for _, r := range rows {
		p.font(r.bold, 10)
		if r.label == "Total" {
			p.font(true, 12)
		}
		p.ensure(p.lineHeight())
		p.text(right-260, p.y, r.label)
		p.textRight(right, p.y, r.value)
		p.y += p.lineHeight() + 1
	}
	if tax.TaxStatus == app.TaxOK {
		c := &tax.Calculation
		p.font(false, 8)
		p.color(grey)
		var parts []string
		for _, x := range []struct {
			what string
			rate app.Rate
			tax  app.Money
		}{{"parts", c.PartsTax, c.PartsTotalTax}, {"labor", c.LaborTax, c.LaborTotalTax}, {"fees", c.FeeTax, c.FeeTotalTax}} {
			if x.tax != 0 {
				parts = append(parts, "on "+x.what+" "+app.FormatMoney(x.tax, cur)+" at "+x.rate.String()+"%")
			}
		}
		if len(parts) > 0 {
			p.paragraph("Sales tax "+strings.Join(parts, ", ")+".", right-260, 260)
		}
		p.color(black)
	}
	p.space(12)
}

func recurring(p *pdf, d *Document) {
	r := &d.Recurring
	if len(r.Items) == 0 {
		return
	}
	p.heading("Recurring services (monthly)", 40)
	p.font(true, 8)
	p.color(grey)
	p.text(colDesc+4, p.y, "SERVICE")
	p.textRight(colQty, p.y, "QTY")
	p.textRight(colPrice, p.y, "PRICE")
	p.textRight(colTotal-4, p.y, "TOTAL")
	p.color(black)
	p.y += p.lineHeight() + 3
	for _, it := range r.Items {
		p.font(false, 9)
		lines := p.wrap(it.Name, descW)
		p.ensure(float64(len(lines)) * p.lineHeight())
		p.textRight(colQty, p.y, Quantity(it.Quantity))
		p.textRight(colPrice, p.y, app.FormatMoney(it.SellPrice, d.Currency))
		p.textRight(colTotal-4, p.y, app.FormatMoney(it.TotalSell, d.Currency))
		for _, l := range lines {
			p.text(colDesc+4, p.y, l)
			p.y += p.lineHeight()
		}
		p.y += 2
	}
	p.font(true, 9.5)
	p.ensure(p.lineHeight())
	p.text(colPrice-80, p.y, "Recurring total per month")
	p.textRight(colTotal-4, p.y, app.FormatMoney(r.TotalRecurringService, d.Currency))
	p.y += p.lineHeight() + 12
}

func payments(p *pdf, d *Document) {
	ps := &d.Payments
	if len(ps.Payments) == 0 && strings.TrimSpace(ps.CustomerDescription) == "" {
		return
	}
	p.heading("Payment schedule", 40)
	if strings.TrimSpace(ps.CustomerDescription) != "" {
		p.font(false, 9.5)
		p.paragraph(ps.CustomerDescription, left, width)
		p.space(4)
	}
	for _, pay := range ps.Payments {
		p.font(false, 9.5)
		due := pay.Due.Milestone
		if s := dateText(pay.Due.Date); s != "" {
			if due != "" {
				due += ", "
			}
			due += s
		}
		calc := pay.Calculation
		if calc == "Fixed" {
			calc = "Fixed amount"
		}
		lines := p.wrap(due, 250)
		p.ensure(float64(max(len(lines), 1)) * p.lineHeight())
		p.text(left+4, p.y, calc)
		p.textRight(colTotal-4, p.y, app.FormatMoney(pay.Amount, d.Currency))
		if len(lines) == 0 {
			p.y += p.lineHeight()
		}
		for _, l := range lines {
			p.text(left+110, p.y, l)
			p.y += p.lineHeight()
		}
		p.y += 2
	}
	p.space(10)
}
