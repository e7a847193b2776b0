package report

import (
	"bytes"
	"image/png"
	"io"
	"strconv"
	"time"

	"proposaldesk/app"
)

// Certificate is the evidence of a client's decision, printed on the
// last page of the signed PDF.
type Certificate struct {
	// Decision is "Accepted" or "Declined".
	Decision       string
	Signer         string // the typed full name (empty for a decline)
	At             time.Time
	IP, UserAgent  string
	LinkID         string
	SnapshotHash   string
	ConsentText    string
	ConsentVersion string
	Reason         string // a decline's reason
	// ChainHead is the hash of the proposal's last evidence event when
	// the PDF was made; EventCount how many events the chain held.
	ChainHead  string
	EventCount int
	// Signature is the PNG the signer drew (an acceptance in person);
	// nil for a typed name, whose page shows no drawing.
	Signature []byte
}

// Signed writes the client PDF of d (the snapshot decided on, with the
// client's choices) followed by a certificate page.
func Signed(w io.Writer, d *Document, c Certificate, opts Options) error {
	p, err := newPDF(footerOf(d))
	if err != nil {
		return err
	}
	clientPages(p, d, opts)
	p.newPage()
	p.font(true, 18)
	p.paragraph("Certificate of "+lowerDecision(c.Decision), left, width)
	p.font(false, 10)
	p.paragraph(d.heading()+" · "+d.Name, left, width)
	p.space(12)
	rows := [][2]string{
		{"Decision", c.Decision},
		{"Signer", c.Signer},
		{"Time (UTC)", c.At.UTC().Format("2006-01-02 15:04:05 UTC")},
		{"Client address", c.IP},
		{"User agent", c.UserAgent},
		{"Link", c.LinkID},
		{"Snapshot SHA-256", c.SnapshotHash},
		{"Consent version", c.ConsentVersion},
		{"Consent", c.ConsentText},
		{"Reason", c.Reason},
		{"Events recorded", strconv.Itoa(c.EventCount)},
		{"Chain head SHA-256", c.ChainHead},
	}
	for _, r := range rows {
		if r[1] == "" {
			continue
		}
		p.ensure(30)
		p.font(true, 9)
		p.color(grey)
		p.text(left, p.y, r[0])
		p.color(black)
		p.font(false, 9.5)
		p.paragraph(r[1], left+130, width-130)
		p.space(4)
	}
	if len(c.Signature) > 0 {
		p.signature(c.Signature, c.Signer)
	}
	p.space(10)
	p.font(false, 8.5)
	p.color(grey)
	p.paragraph("The snapshot hash identifies the exact proposal the client saw. Each evidence event's hash covers the one before it, "+
		"so the chain head above changes if any earlier event is altered or removed. The events are available from the dealer.", left, width)
	p.color(black)
	return p.write(w)
}

// The box a drawn signature is scaled into, in points.
const signatureW, signatureH = 220.0, 70.0

// signature draws the signer's drawing scaled into the signature box,
// standing on a thin baseline, with "Signed by <name>" under it. A PNG
// app would refuse (unreadable, or larger than app.MaxSignaturePixels,
// as an event recorded before that rule might hold) is not decoded: the
// page says so instead, so a hostile header cannot exhaust memory.
func (p *pdf) signature(data []byte, signer string) {
	p.ensure(signatureH + 40)
	p.space(8)
	top := p.y
	drawn := false
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err == nil && app.SignatureSizeOK(cfg.Width, cfg.Height) {
		if w, h, ok := imageSize(data, signatureW, signatureH); ok {
			// Standing on the baseline, as ink on a signature line.
			drawn = p.drawImage(data, left, top+signatureH-h, w, h)
		}
	}
	if !drawn {
		p.font(false, 9)
		p.color(grey)
		p.text(left, top+signatureH-p.lineHeight(), "(the drawn signature cannot be shown)")
		p.color(black)
	}
	p.y = top + signatureH + 2
	p.gp.SetStrokeColor(grey[0], grey[1], grey[2])
	p.gp.SetLineWidth(0.5)
	p.gp.Line(left, p.y, left+signatureW, p.y)
	p.space(4)
	p.font(false, 9)
	p.paragraph("Signed by "+signer, left, signatureW)
}

func lowerDecision(s string) string {
	switch s {
	case "Accepted":
		return "acceptance"
	case "Declined":
		return "refusal"
	}
	return "decision"
}
