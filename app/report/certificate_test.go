package report

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
	"proposaldesk/internal/sigtest"
)

// TestCertificateSignature: an acceptance in person shows the drawn
// signature above its baseline and "Signed by"; a typed name shows no
// image; a signature app would refuse (too many pixels declared, not a
// PNG) is not decoded, and the page says it cannot be shown.
func TestCertificateSignature(t *testing.T) {
	d := &Document{Title: "Proposal", Number: 7, Name: "Kitchen audio", Currency: app.USD}
	at := time.Date(2026, 11, 26, 13, 5, 0, 0, time.UTC)
	cases := []struct {
		name      string
		signature []byte
		images    int
		says      []string
		not       []string
	}{
		{name: "typed name", images: 0, says: []string{"Certificate of acceptance", "Ann Lee"},
			not: []string{"Signed by", "cannot be shown"}},
		{name: "drawn", signature: sigtest.Drawn(800, 240), images: 1,
			says: []string{"Certificate of acceptance", "Signed by Ann Lee"}, not: []string{"cannot be shown"}},
		{name: "hostile header", signature: sigtest.Hostile(100000, 100000, app.MaxSignatureBytes), images: 0,
			says: []string{"Signed by Ann Lee", "the drawn signature cannot be shown"}},
		{name: "just over the pixel bound", signature: sigtest.Hostile(2049, 2048, 1<<10), images: 0,
			says: []string{"cannot be shown"}},
		{name: "not a PNG", signature: []byte("GIF89a"), images: 0, says: []string{"cannot be shown"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var buf bytes.Buffer
			cert := Certificate{Decision: "Accepted", Signer: "Ann Lee", At: at, Signature: c.signature}
			if err := Signed(&buf, d, cert, Options{}); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			// A decoded 100000×100000 RGBA would be 40 GB; the whole
			// PDF takes a few MB.
			if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
				t.Errorf("rendering allocated %d MB", got>>20)
			}
			if got := pdftext.Images(t, buf.Bytes()); got != c.images {
				t.Errorf("%d images, want %d", got, c.images)
			}
			text := strings.Join(strings.Fields(pdftext.Text(t, buf.Bytes())), " ")
			for _, s := range c.says {
				if !strings.Contains(text, s) {
					t.Errorf("the PDF lacks %q:\n%s", s, text)
				}
			}
			for _, s := range c.not {
				if strings.Contains(text, s) {
					t.Errorf("the PDF says %q", s)
				}
			}
		})
	}
}
