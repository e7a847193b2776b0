package ui

import (
	"math"

	"fyne.io/fyne/v2"

	"proposaldesk/app"
)

// Hooks for the smoke run and the startup timings of the real binary
// (cmd/desktop): they drive Present to client as a user would.

// PresentRow opens the proposal of the list's row i and presents it to
// the client; false when it cannot be presented (the refusal's dialog
// is closed again).
func (d *Desktop) PresentRow(i int) bool {
	if !d.OpenRow(i) || d.detail == nil || d.detail.p == nil || d.sess == nil {
		return false
	}
	v := d.detail
	readOnly := v.rec != nil && v.rec.ReadOnly
	if presentRefusal(d.sess.user, readOnly, v.p) != "" {
		return false
	}
	d.PresentToClient()
	return d.present != nil
}

// LeavePresent closes the client's screen without the salesperson's
// question (the timings leave after each measured opening).
func (d *Desktop) LeavePresent() {
	if d.present != nil {
		d.present.close()
	}
}

// SmokePresent presents the first proposal of the list that offers a
// choice of options (else the first that can be presented), types a
// signer's name, draws a signature, ticks the consent, and scrolls to
// the decision: the smoke run's screenshot of the present mode.
func (d *Desktop) SmokePresent(signer string) bool {
	if d.list == nil || d.present != nil {
		return d.present != nil
	}
	first, choice := -1, false
	for i := range d.list.rows {
		rec, err := d.sess.st.Record(d.list.rows[i].ID)
		if err != nil || presentRefusal(d.sess.user, rec.ReadOnly, rec.Local) != "" {
			continue
		}
		if c := offersChoice(rec.Local); first < 0 || c && !choice {
			first, choice = i, c
		}
		if choice {
			break
		}
	}
	if first < 0 || !d.PresentRow(first) {
		return false
	}
	pm := d.present
	pm.name.SetText(signer)
	// A signature-like scribble: a rising loop and a long tail.
	var prev fyne.Position
	for i := 0; i <= 60; i++ {
		x := float32(40 + i*7)
		y := float32(95 - 35*math.Sin(float64(i)/6))
		pos := fyne.NewPos(x, y)
		if i > 0 {
			pm.pad.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: pos}, Dragged: fyne.NewDelta(pos.X-prev.X, pos.Y-prev.Y)})
		}
		prev = pos
	}
	pm.pad.DragEnd()
	pm.consent.SetChecked(true)
	// Scrolled to the end, with no line cut at the top: the last start
	// of a page row or a totals line above the end, when the little
	// left under Accept can go.
	pm.scroll.ScrollToBottom()
	end, pad := pm.scroll.Offset.Y, (pm.body.Size().Height-pm.page.Size().Height)/2
	best := float32(-1)
	consider := func(y float32) {
		if y <= end && y > best {
			best = y
		}
	}
	for i, y := range pm.page.ys {
		consider(pad + y)
		if pm.page.objs[i] == pm.totalsSection {
			for _, o := range pm.totals.Objects {
				consider(pad + y + pm.totals.Position().Y + o.Position().Y)
			}
		}
	}
	if best >= 0 && end-best < 48 {
		pm.scroll.ScrollToOffset(fyne.NewPos(0, best))
	}
	pm.cull()
	return true
}

// offersChoice reports whether an area of p offers several options.
func offersChoice(p *app.Proposal) bool {
	for _, a := range p.Areas {
		if len(a.Options) > 1 {
			return true
		}
	}
	return false
}

// PresentableItems is the open proposal's number of items, and whether
// it can be presented to the client (the startup timings present those
// that can).
func (d *Desktop) PresentableItems() (int, bool) {
	v := d.detail
	if d.sess == nil || v == nil || v.p == nil || v.rec == nil {
		return 0, false
	}
	n := 0
	for _, a := range v.p.Areas {
		for _, o := range a.Options {
			n += len(o.Items)
		}
	}
	return n, presentRefusal(d.sess.user, v.rec.ReadOnly, v.p) == ""
}
