package exportfmt

import (
	"bytes"
	"encoding/csv"
	"testing"

	"proposaldesk/app"
)

func TestTextDefusesFormulas(t *testing.T) {
	for in, want := range map[string]string{"=SUM(A1)": "'=SUM(A1)", "+1": "'+1", "-x": "'-x", "@cmd": "'@cmd", "Plain": "Plain", "": "", "a=b": "a=b"} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCSVRoundTrip(t *testing.T) {
	cost := app.MustMoney("3.50")
	d := &app.ProposalDetail{}
	d.ID, d.Number, d.Name, d.Status = 9, 1009, "Quote \"A\", line\nbreak – Ωμέγα", app.StatusDraft
	d.Areas = []app.AreaView{{ID: 1, Name: "=Kitchen", Options: []app.OptionView{
		{ID: 2, Status: app.OptionDraft, Items: []app.ItemView{{ID: 3, Name: "TV", Quantity: app.MustQuantity("2"), SellPrice: app.MustMoney("-1.25"), Cost: &cost}}},
		{ID: 4, Status: app.OptionSelected, Items: []app.ItemView{{ID: 5, Name: "Amp"}, {ID: 6, ParentID: 5, Name: "Cable"}}},
	}}}
	var pb, ib bytes.Buffer
	p, it := NewProposalsCSV(&pb), NewItemsCSV(&ib)
	if n, err := p.Write(d); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	if n, err := it.Write(d); n != 3 || err != nil {
		t.Fatal(n, err)
	}
	p.Flush()
	it.Flush()
	prs, err := csv.NewReader(&pb).ReadAll()
	if err != nil || len(prs) != 2 || prs[1][2] != d.Name {
		t.Fatalf("proposals: %v %q", err, prs)
	}
	irs, err := csv.NewReader(&ib).ReadAll()
	if err != nil || len(irs) != 4 {
		t.Fatalf("items: %v %d", err, len(irs))
	}
	col := func(name string) int {
		for i, c := range ItemColumns {
			if c == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	r := irs[1]
	if r[col("areaName")] != "'=Kitchen" || r[col("sellPrice")] != "-1.25" || r[col("cost")] != "3.50" || r[col("optionCounted")] != "false" {
		t.Errorf("item row %q", r)
	}
	if irs[2][col("optionCounted")] != "true" || irs[3][col("parentId")] != "5" || irs[2][col("cost")] != "" {
		t.Errorf("rows %q / %q", irs[2], irs[3])
	}
}
