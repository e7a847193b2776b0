package ui

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// signaturePad is where the client signs with the mouse, the touchpad or
// a finger: each drag is a stroke, a tap a dot. It keeps the strokes in
// its own coordinates, draws them, and encodes them as the PNG an
// in-person acceptance carries.
type signaturePad struct {
	widget.BaseWidget
	strokes [][]fyne.Position
	drawing bool
	// changed runs when the pad goes from empty to signed or back.
	changed func()
	raster  *canvas.Raster
	hint    *widget.Label
}

var (
	_ fyne.Draggable     = (*signaturePad)(nil)
	_ fyne.Tappable      = (*signaturePad)(nil)
	_ desktop.Cursorable = (*signaturePad)(nil)
)

// padSize is the pad's size: wide enough for a full name's signature.
var padSize = fyne.NewSize(560, 170)

// The ink and the paper of the pad and of the PNG.
var (
	padInk   = color.NRGBA{R: 0x10, G: 0x20, B: 0x60, A: 0xff}
	padPaper = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

func newSignaturePad(changed func()) *signaturePad {
	p := &signaturePad{changed: changed}
	p.raster = canvas.NewRaster(func(w, h int) image.Image {
		scale := float32(1)
		if s := p.Size(); s.Width > 0 {
			scale = float32(w) / s.Width
		}
		return p.render(w, h, scale, color.Transparent) // on the pad's paper
	})
	p.hint = widget.NewLabel("Sign here with the mouse, the touchpad or a finger")
	p.hint.Importance = widget.LowImportance
	p.hint.Alignment = fyne.TextAlignCenter
	p.ExtendBaseWidget(p)
	return p
}

func (p *signaturePad) CreateRenderer() fyne.WidgetRenderer {
	paper := canvas.NewRectangle(padPaper)
	paper.StrokeColor = color.NRGBA{R: 0x88, G: 0x88, B: 0x88, A: 0xff}
	paper.StrokeWidth = 1
	line := canvas.NewRectangle(color.NRGBA{R: 0xbb, G: 0xbb, B: 0xbb, A: 0xff})
	line.SetMinSize(fyne.NewSize(1, 1))
	// The hint sits under a baseline, as on a paper form.
	foot := container.NewVBox(line, p.hint)
	return widget.NewSimpleRenderer(container.NewStack(paper, p.raster,
		container.NewBorder(nil, container.NewPadded(foot), nil, nil)))
}

func (p *signaturePad) MinSize() fyne.Size { return padSize }

func (p *signaturePad) Cursor() desktop.Cursor { return desktop.CrosshairCursor }

// Dragged extends the current stroke, or starts one where the drag began.
func (p *signaturePad) Dragged(ev *fyne.DragEvent) {
	was := p.empty()
	if !p.drawing {
		p.drawing = true
		start := ev.Position.Subtract(ev.Dragged)
		p.strokes = append(p.strokes, []fyne.Position{p.inside(start)})
	}
	last := len(p.strokes) - 1
	p.strokes[last] = append(p.strokes[last], p.inside(ev.Position))
	p.redraw(was)
}

func (p *signaturePad) DragEnd() { p.drawing = false }

// Tapped draws a dot (the dot of an i, an initial's full stop).
func (p *signaturePad) Tapped(ev *fyne.PointEvent) {
	was := p.empty()
	p.strokes = append(p.strokes, []fyne.Position{p.inside(ev.Position)})
	p.redraw(was)
}

// Clear wipes the pad for another try.
func (p *signaturePad) Clear() {
	was := p.empty()
	p.strokes, p.drawing = nil, false
	p.redraw(was)
}

// empty reports whether nothing has been drawn.
func (p *signaturePad) empty() bool { return len(p.strokes) == 0 }

// inside keeps a point on the pad (a drag may leave it).
func (p *signaturePad) inside(pos fyne.Position) fyne.Position {
	s := p.Size()
	if s.IsZero() {
		s = padSize
	}
	return fyne.NewPos(min(max(pos.X, 0), s.Width), min(max(pos.Y, 0), s.Height))
}

func (p *signaturePad) redraw(wasEmpty bool) {
	if p.empty() {
		p.hint.Show()
	} else {
		p.hint.Hide()
	}
	p.raster.Refresh()
	if wasEmpty != p.empty() && p.changed != nil {
		p.changed()
	}
}

// PNG is the signature as drawn, at the pad's size in its own units: a
// two-colour image, a few kilobytes for a name. It fails when nothing is
// drawn or when the image would pass app.MaxSignatureBytes.
func (p *signaturePad) PNG() ([]byte, error) {
	if p.empty() {
		return nil, fmt.Errorf("nothing is drawn on the signature pad")
	}
	s := p.Size()
	if s.IsZero() {
		s = padSize
	}
	img := p.render(int(math.Ceil(float64(s.Width))), int(math.Ceil(float64(s.Height))), 1, padPaper)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode the signature: %w", err)
	}
	if buf.Len() > app.MaxSignatureBytes {
		return nil, fmt.Errorf("the signature is %d bytes, more than the %d an acceptance may carry: clear it and sign again", buf.Len(), app.MaxSignatureBytes)
	}
	return buf.Bytes(), nil
}

// render draws the strokes on a w×h image of paper, scale pixels to a
// unit.
func (p *signaturePad) render(w, h int, scale float32, paper color.Color) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, max(w, 1), max(h, 1)), color.Palette{paper, padInk})
	r := max(1, int(math.Round(float64(1.6*scale))))
	for _, st := range p.strokes {
		prev := st[0]
		stamp(img, prev, prev, scale, r)
		for _, pt := range st[1:] {
			stamp(img, prev, pt, scale, r)
			prev = pt
		}
	}
	return img
}

// stamp inks the segment a→b (in units) with a round pen of radius r
// pixels, a disc every half radius along it.
func stamp(img *image.Paletted, a, b fyne.Position, scale float32, r int) {
	ax, ay := float64(a.X*scale), float64(a.Y*scale)
	bx, by := float64(b.X*scale), float64(b.Y*scale)
	n := int(math.Max(math.Abs(bx-ax), math.Abs(by-ay))/math.Max(float64(r)/2, 0.5)) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		cx, cy := int(math.Round(ax+(bx-ax)*t)), int(math.Round(ay+(by-ay)*t))
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if dx*dx+dy*dy <= r*r {
					img.SetColorIndex(cx+dx, cy+dy, 1) // outside the image: ignored
				}
			}
		}
	}
}
