package report

import (
	"io"
	"strings"

	"proposaldesk/app"
)

// Installer writes the installer's work order: the site (customer and
// location), the project's installer notes, and per area each option
// with its installer notes and its items with quantities. It prints no
// prices, costs or totals.
func Installer(w io.Writer, d *Document, opts Options) error {
	p, err := newPDF("Installer work order · " + footerOf(d))
	if err != nil {
		return err
	}
	header(p, d, opts)
	title(p, d, "Work order · ")
	parties(p, d, false)
	if strings.TrimSpace(d.InternalNotes) != "" {
		p.heading("Installer notes", 30)
		p.font(false, 10)
		notes(p, d.InternalNotes)
		p.space(10)
	}
	for i := range d.Areas {
		installerArea(p, &d.Areas[i])
	}
	return p.write(w)
}

// notes writes text on a tinted background, a page's worth at a time.
func notes(p *pdf, s string) {
	lines := p.wrap(s, width-12)
	lh := p.lineHeight()
	for len(lines) > 0 {
		p.ensure(lh + 6)
		n := min(len(lines), max(1, int((bottom-p.y-6)/lh)))
		p.box(left, p.y-2, width, float64(n)*lh+6, note)
		p.y += 2
		for _, l := range lines[:n] {
			p.text(left+6, p.y, l)
			p.y += lh
		}
		p.y += 4
		lines = lines[n:]
	}
}

// Columns of the installer's item table.
const (
	iQty   = left + 40.0 // right edge of the quantity
	iItem  = left + 52.0
	iItemW = 250.0
	iModel = left + 312.0
	iModW  = 140.0
	iType  = left + 462.0
)

func installerArea(p *pdf, a *app.AreaView) {
	p.heading(a.Name, 50)
	counted := a.CountedIndex()
	for i := range a.Options {
		o := &a.Options[i]
		label := "Option " + app.FormatID(int64(i+1)) + " · " + o.Status.Label()
		if i == counted {
			label += " · counted in the proposal"
		}
		p.font(true, 10.5)
		p.ensure(40)
		p.paragraph(label, left, width)
		if strings.TrimSpace(o.ClientDescription) != "" {
			p.font(false, 9)
			p.color(grey)
			p.paragraph(o.ClientDescription, left, width)
			p.color(black)
		}
		if strings.TrimSpace(o.InstallerDescription) != "" {
			p.space(2)
			p.font(false, 9.5)
			notes(p, o.InstallerDescription)
		}
		p.space(4)
		if len(o.Items) > 0 {
			installerItems(p, o)
		}
		p.space(10)
	}
}

func installerItems(p *pdf, o *app.OptionView) {
	p.font(true, 8)
	p.ensure(p.lineHeight() + 30)
	p.box(left, p.y-2, width, p.lineHeight()+3, shade)
	p.color(grey)
	p.textRight(iQty, p.y, "QTY")
	p.text(iItem, p.y, "ITEM")
	p.text(iModel, p.y, "BRAND / MODEL")
	p.text(iType, p.y, "TYPE")
	p.color(black)
	p.y += p.lineHeight() + 4
	dep := depths(o.Items)
	for i := range o.Items {
		it := &o.Items[i]
		indent := 10 * float64(min(dep[i], 4))
		p.font(false, 9)
		name := p.wrap(itemName(it), iItemW-indent)
		model := p.wrap(strings.TrimSpace(it.Brand+" "+it.Model), iModW)
		rows := max(len(name), len(model), 1)
		h := float64(rows)*p.lineHeight() + 3
		if h < bottom-top {
			p.ensure(h)
		}
		p.textRight(iQty, p.y, Quantity(it.Quantity))
		kind := it.ItemType.Label()
		if it.IsRecurringService {
			kind += ", recurring"
		}
		p.text(iType, p.y, kind)
		for r := 0; r < rows; r++ {
			p.ensure(p.lineHeight())
			if r < len(name) {
				p.text(iItem+indent, p.y, name[r])
			}
			if r < len(model) {
				p.text(iModel, p.y, model[r])
			}
			p.y += p.lineHeight()
		}
		p.y += 3
	}
}
