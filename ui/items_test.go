package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"proposaldesk/app"
)

func TestColumnWidths(t *testing.T) {
	w := []float32{0.5, 0.25, 0.25}
	for _, c := range []struct {
		name  string
		width float32
		mins  []float32
		want  []float32
	}{
		{"no mins: by weight", 400, nil, []float32{200, 100, 100}},
		{"mins met: by weight", 400, []float32{0, 0, 80}, []float32{200, 100, 100}},
		{"last widened, the first gives", 400, []float32{0, 0, 130}, []float32{170, 100, 130}},
		{"two widened", 400, []float32{0, 110, 130}, []float32{160, 110, 130}},
		{"the first keeps its own min", 400, []float32{150, 0, 180}, []float32{150, 100, 180}},
		{"the first's min above its share", 100, []float32{80, 0, 0}, []float32{50, 25, 25}},
	} {
		if got := columnWidths(c.width, w, c.mins); !slices.Equal(got, c.want) {
			t.Errorf("%s: columnWidths(%v, %v, %v) = %v, want %v", c.name, c.width, w, c.mins, got, c.want)
		}
	}
}

// At 1024×600 a line's total is never cut or run into the cost field,
// and typing a quantity that widens it widens the column for the whole
// option, header included, so the columns still line up.
func TestLineTotalKeepsItsRoom(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	d.win.Resize(fyne.NewSize(1024, 600))
	v, _ := h.contentFixture(runName("Wide total"), nil, nil)
	test.Tap(tipButtons(v.body, "Custom item")[0])
	row := rowOfItem(t, v, "Custom item")
	retype(row.fields[colSell], "9999.99")
	retype(row.fields[colQuantity], "9999")
	row.fields[colQuantity].flush()
	d.win.Canvas().Capture()
	if row.total.Text != "$99,989,900.01" {
		t.Fatalf("the line total reads %q", row.total.Text)
	}
	need := row.total.MinSize().Width
	if got := row.total.Size().Width; got < need {
		t.Fatalf("the total %q has %.0f of the %.0f units it needs", row.total.Text, got, need)
	}
	last := row.fields[len(row.fields)-1]
	if end := last.Position().X + last.Size().Width; end > row.total.Position().X {
		t.Fatalf("the field before the total ends at %.0f, past the total's start %.0f", end, row.total.Position().X)
	}
	cols := v.cui().cols[v.p.Areas[0].Options[0].ID]
	head := cols.head.Objects
	if hx, rx := head[len(head)-1].Position().X, row.total.Position().X; hx != rx {
		t.Fatalf("the Total heading starts at %.0f, the totals at %.0f", hx, rx)
	}
}

// moneyWidth measures only the longest total, which in the rows'
// monospace font is the widest: it must be the widest measured.
func TestMoneyWidthIsTheWidest(t *testing.T) {
	test.NewTempApp(t)
	texts := []string{"$9.00", "included", "$12,345.00", "—", "$999.99"}
	widest := float32(0)
	for _, s := range texts {
		widest = max(widest, fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{Monospace: true}).Width)
	}
	if got, want := moneyWidth(texts), widest+2*theme.InnerPadding(); got != want {
		t.Fatalf("moneyWidth = %.1f, want the widest total's %.1f", got, want)
	}
}
