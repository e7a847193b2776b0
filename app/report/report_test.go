package report

import (
	"bytes"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
)

func TestQuantity(t *testing.T) {
	for in, want := range map[string]string{"1.5": "1.5", "2": "2", "0.25": "0.25", "10": "10"} {
		if got := Quantity(app.MustQuantity(in)); got != want {
			t.Errorf("Quantity(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestLogoFromURLNeverFetches(t *testing.T) {
	if LogoFromURL("https://example.com/logo.png") != nil || LogoFromURL("data:text/html;base64,PGI+") != nil {
		t.Error("a remote or non-image URL gave bytes")
	}
	if b := LogoFromURL("data:image/png;base64,iVBORw0KGgo="); len(b) != 8 {
		t.Errorf("data: URL gave %d bytes", len(b))
	}
}

// TestTextCoverage renders accented, Greek, Cyrillic and unsupported
// text, a long unbroken word and enough items for page breaks.
func TestTextCoverage(t *testing.T) {
	var items []app.ItemView
	for i := range 120 {
		items = append(items, app.ItemView{ID: int64(i + 1), ItemType: app.ItemPart, Name: "Élément Ωμέγα Привет " + strings.Repeat("x", i%50),
			Quantity: app.MustQuantity("2"), SellPrice: app.MustMoney("10"), Total: app.ItemTotal{Amount: app.MustMoney("20")}})
	}
	d := &Document{Title: "Proposal", Number: 7, Name: "Müller – Ελληνικά – Москва 東京",
		Customer:           &app.Customer{Contact: app.Contact{FirstName: "Zoë", LastName: "Ñúñez"}},
		ProjectDescription: strings.Repeat("Lorem ipsum dolor sit amet. ", 200) + strings.Repeat("W", 400) + "\tend\x00\x07",
		InternalNotes:      "SECRET-GATE-CODE",
		Areas:              []app.AreaView{{ID: 1, Name: "Salón", Options: []app.OptionView{{ID: 2, Status: app.OptionDraft, InstallerDescription: "SECRET-NOTE", Items: items}}}},
		Currency:           app.USD,
	}
	for name, render := range map[string]func(*bytes.Buffer) error{
		"client":    func(b *bytes.Buffer) error { return Client(b, d, Options{}) },
		"installer": func(b *bytes.Buffer) error { return Installer(b, d, Options{}) },
	} {
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := pdftext.Text(t, buf.Bytes())
		for _, want := range []string{"Müller – Ελληνικά – Москва ??", "Zoë Ñúñez", "Élément Ωμέγα Привет", "Page 3"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: text lacks %q", name, want)
			}
		}
		if secret := strings.Contains(text, "SECRET"); secret != (name == "installer") {
			t.Errorf("%s: notes shown = %v", name, secret)
		}
	}
}
