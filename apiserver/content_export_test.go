package apiserver

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"proposaldesk/app"
)

// Items made through the content routes reach the exports: the CSV's
// items part with their area and option, the client PDF with sell prices
// and client notes but never costs or installer notes, the installer PDF
// with quantities, models and installer notes but no prices.
func TestContentReachesExports(t *testing.T) {
	e := newEnv(t)
	a := e.main
	post := func(path, body string) app.ProposalDetail {
		t.Helper()
		return detail(t, e.do(treq{method: "POST", path: path, body: body, ct: "application/json", as: a.admin}))
	}
	p := e.proposal(a, "Exported content")
	d := post(pathf("/public/proposals/%d/area", p.ID), `{"Name":"Cinema"}`)
	opt := d.Areas[0].Options[0].ID
	post(pathf("/public/proposals/%d/area-options/%d/installernotes", p.ID, opt), `{"InstallerNotes":"Conduit behind the screen wall"}`)
	post(pathf("/public/proposals/%d/area-options/%d/items", p.ID, opt),
		`{"ItemType":"Part","Name":"Laser projector","Brand":"Epson","Model":"LS12000","SellPrice":4999.99,"Cost":3777.77,"ClientNote":"Ceiling mount in white"}`)
	post(pathf("/public/proposals/%d/area-options/%d/items", p.ID, opt), `{"ItemType":"Labor","Name":"Calibration","SellPrice":350,"Quantity":1.5}`)

	res := e.do(treq{method: "GET", path: "/public/export/proposals?Format=csv&Part=items&SearchText=Exported", as: a.admin})
	wantStatus(t, res, 200)
	rows, err := csv.NewReader(bytes.NewReader(res.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if len(rows) != 3 {
		t.Fatalf("%d item rows, want 2", len(rows)-1)
	}
	for _, r := range rows[1:] {
		if r[col["areaName"]] != "Cinema" || r[col["optionId"]] != app.FormatID(opt) {
			t.Errorf("row %v lacks its area and option", r)
		}
	}

	client := e.do(treq{method: "GET", path: pathf("/public/proposals/%d/document?Kind=client", p.ID), as: a.admin})
	wantStatus(t, client, 200)
	text := pdfText(t, client.body)
	for _, want := range []string{"Laser projector", "4,999.99", "Ceiling mount in white", "Calibration"} {
		if !strings.Contains(text, want) {
			t.Errorf("client PDF lacks %q: %s", want, text)
		}
	}
	for _, never := range []string{"3,777.77", "3777.77", "Conduit behind the screen wall"} {
		if strings.Contains(text, never) {
			t.Errorf("client PDF shows %q", never)
		}
	}
	installer := e.do(treq{method: "GET", path: pathf("/public/proposals/%d/document?Kind=installer", p.ID), as: a.admin})
	wantStatus(t, installer, 200)
	text = pdfText(t, installer.body)
	for _, want := range []string{"Laser projector", "LS12000", "Conduit behind the screen wall", "1.5"} {
		if !strings.Contains(text, want) {
			t.Errorf("installer PDF lacks %q: %s", want, text)
		}
	}
	for _, never := range []string{"4,999.99", "3,777.77"} {
		if strings.Contains(text, never) {
			t.Errorf("installer PDF shows the price %q", never)
		}
	}
}
