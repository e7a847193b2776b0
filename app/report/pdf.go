package report

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // logo formats
	_ "image/png"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// Page geometry, in points (US Letter).
const (
	pageW   = 612.0
	pageH   = 792.0
	margin  = 48.0
	left    = margin
	right   = pageW - margin
	width   = right - left
	top     = margin
	bottom  = pageH - 60.0 // the footer sits below
	lineGap = 1.25         // line height as a multiple of the font size
)

// Colours.
var (
	black = [3]uint8{0x1a, 0x1a, 0x1a}
	grey  = [3]uint8{0x66, 0x66, 0x66}
	rule  = [3]uint8{0xbb, 0xbb, 0xbb}
	shade = [3]uint8{0xf0, 0xf0, 0xf0}
	note  = [3]uint8{0xfd, 0xf6, 0xe3}
)

// pdf is one document being laid out top to bottom.
type pdf struct {
	gp     *gopdf.GoPdf
	y      float64
	page   int
	footer string
	bold   bool
	size   float64
	glyphs map[rune]bool
	err    error
}

func newPDF(footer string) (*pdf, error) {
	gp := &gopdf.GoPdf{}
	gp.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageW, H: pageH}, Unit: gopdf.UnitPT})
	gp.SetCompressLevel(6)
	if err := gp.AddTTFFontData("regular", goregular.TTF); err != nil {
		return nil, fmt.Errorf("report: font: %w", err)
	}
	if err := gp.AddTTFFontData("bold", gobold.TTF); err != nil {
		return nil, fmt.Errorf("report: font: %w", err)
	}
	p := &pdf{gp: gp, footer: footer, glyphs: map[rune]bool{}}
	p.newPage()
	return p, p.err
}

func (p *pdf) setErr(err error) {
	if err != nil && p.err == nil {
		p.err = err
	}
}

// font selects the face and size of what follows.
func (p *pdf) font(bold bool, size float64) {
	p.bold, p.size = bold, size
	name := "regular"
	if bold {
		name = "bold"
	}
	p.setErr(p.gp.SetFont(name, "", size))
}

func (p *pdf) color(c [3]uint8) { p.gp.SetTextColor(c[0], c[1], c[2]) }

func (p *pdf) lineHeight() float64 { return p.size * lineGap }

// newPage starts a page with the footer drawn.
func (p *pdf) newPage() {
	p.gp.AddPage()
	p.page++
	p.y = top
	bold, size := p.bold, p.size
	p.font(false, 7.5)
	p.color(grey)
	p.text(left, pageH-40, p.footer)
	p.textRight(right, pageH-40, fmt.Sprintf("Page %d", p.page))
	p.color(black)
	if size > 0 {
		p.font(bold, size)
	}
}

// ensure starts a new page unless h more points fit on this one.
func (p *pdf) ensure(h float64) {
	if p.y+h > bottom && p.y > top {
		p.newPage()
	}
}

func (p *pdf) space(h float64) { p.y += h }

// clean makes s printable with the current fonts (see printable).
func (p *pdf) clean(s string) string {
	return printable(s, func(r rune) bool {
		ok, seen := p.glyphs[r]
		if !seen {
			ok, _ = p.gp.IsCurrFontContainGlyph(r)
			p.glyphs[r] = ok
		}
		return ok
	})
}

// text draws one line with its top-left corner at x, y.
func (p *pdf) text(x, y float64, s string) {
	if s == "" {
		return
	}
	p.gp.SetXY(x, y)
	p.setErr(p.gp.Cell(nil, p.clean(s)))
}

// textRight draws one line ending at x.
func (p *pdf) textRight(x, y float64, s string) {
	if s == "" {
		return
	}
	s = p.clean(s)
	w := p.measure(s)
	p.gp.SetXY(x-w, y)
	p.setErr(p.gp.Cell(nil, s))
}

func (p *pdf) measure(s string) float64 {
	w, err := p.gp.MeasureTextWidth(s)
	p.setErr(err)
	return w
}

// wrap breaks text into lines no wider than w: at line breaks, then
// between words, and inside a word only when the word alone is wider.
func (p *pdf) wrap(s string, w float64) []string {
	s = p.clean(s)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		para = strings.TrimRight(para, " ")
		if para == "" {
			lines = append(lines, "")
			continue
		}
		if p.measure(para) <= w {
			lines = append(lines, para)
			continue
		}
		var line string
		for _, word := range strings.Fields(para) {
			cand := word
			if line != "" {
				cand = line + " " + word
			}
			if p.measure(cand) <= w {
				line = cand
				continue
			}
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			for p.measure(word) > w {
				n := p.fit(word, w)
				lines = append(lines, word[:n])
				word = word[n:]
			}
			line = word
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	// Trailing blank lines add nothing.
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// fit is how many bytes of word fit in w (at least one rune).
func (p *pdf) fit(word string, w float64) int {
	n := 0
	for i, r := range word {
		end := i + utf8.RuneLen(r)
		if n > 0 && p.measure(word[:end]) > w {
			break
		}
		n = end
	}
	return n
}

// paragraph writes wrapped text at x over width w, breaking pages
// between lines.
func (p *pdf) paragraph(s string, x, w float64) {
	for _, line := range p.wrap(s, w) {
		p.ensure(p.lineHeight())
		p.text(x, p.y, line)
		p.y += p.lineHeight()
	}
}

// heading writes a section title with a rule under it, kept on a page
// with at least keep more points of what follows.
func (p *pdf) heading(s string, keep float64) {
	p.font(true, 12)
	p.ensure(p.lineHeight() + 8 + keep)
	p.text(left, p.y, s)
	p.y += p.lineHeight() + 1
	p.hrule(left, right)
	p.y += 6
}

func (p *pdf) hrule(x1, x2 float64) {
	p.gp.SetStrokeColor(rule[0], rule[1], rule[2])
	p.gp.SetLineWidth(0.6)
	p.gp.Line(x1, p.y, x2, p.y)
}

// box fills a rectangle behind what is drawn next.
func (p *pdf) box(x, y, w, h float64, c [3]uint8) {
	p.gp.SetFillColor(c[0], c[1], c[2])
	p.gp.RectFromUpperLeftWithStyle(x, y, w, h, "F")
}

// image draws a logo scaled into maxW × maxH at x, y and returns its
// height, or 0 when it cannot be drawn.
func (p *pdf) image(data []byte, x, y, maxW, maxH float64) float64 {
	w, h, ok := imageSize(data, maxW, maxH)
	if !ok || !p.drawImage(data, x, y, w, h) {
		return 0
	}
	return h
}

// imageSize is the size of the image data scaled to fit maxW × maxH,
// from its header alone; ok is false when the header is unreadable.
func imageSize(data []byte, maxW, maxH float64) (w, h float64, ok bool) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, false
	}
	scale := min(maxW/float64(cfg.Width), maxH/float64(cfg.Height))
	return float64(cfg.Width) * scale, float64(cfg.Height) * scale, true
}

// drawImage draws data as a w × h picture at x, y.
func (p *pdf) drawImage(data []byte, x, y, w, h float64) bool {
	holder, err := gopdf.ImageHolderByBytes(data)
	if err != nil {
		return false
	}
	return p.gp.ImageByHolder(holder, x, y, &gopdf.Rect{W: w, H: h}) == nil
}

func (p *pdf) write(w io.Writer) error {
	if p.err != nil {
		return fmt.Errorf("report: %w", p.err)
	}
	_, err := p.gp.WriteTo(w)
	return err
}
