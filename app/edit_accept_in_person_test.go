package app_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/internal/sigtest"
)

// TestAcceptInPersonCases: the in-person acceptance's rules, each case
// an edit of the fixture proposal in some status by some user.
func TestAcceptInPersonCases(t *testing.T) {
	bigPNG := base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, app.MaxSignatureBytes)...))
	cases := []struct {
		name   string
		status app.Status
		actor  app.User
		change func(p *app.Proposal)       // the proposal changed after the client signed
		edit   func(m *app.AcceptInPerson) // the edit as sent
		want   app.Kind                    // "" for accepted
	}{
		{name: "accepted", status: app.StatusSubmitted, actor: fixtureSales},
		{name: "accepted from draft", status: app.StatusDraft, actor: fixtureAdmin},
		{name: "accepted after the laptop's bookkeeping moved", status: app.StatusViewedByClient, actor: fixtureSales,
			change: func(p *app.Proposal) {
				p.Version += 5
				p.LastModifiedDate = fixtureCreated
				p.LastModifiedUser.FirstName = "X"
			}},
		{name: "hash mismatch: terms changed", status: app.StatusSubmitted, actor: fixtureSales,
			change: func(p *app.Proposal) { p.ProjectTerms = "Net 10" }, want: app.KindProposalChanged},
		{name: "hash mismatch: price changed", status: app.StatusSubmitted, actor: fixtureSales,
			change: func(p *app.Proposal) { p.Areas[0].Options[0].Items[0].SellPrice = app.MustMoney("120.00") }, want: app.KindProposalChanged},
		{name: "hash mismatch: another hash", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SnapshotHash = strings.Repeat("0", 64) }, want: app.KindProposalChanged},
		{name: "no option in any area: nothing to accept", status: app.StatusSubmitted, actor: fixtureSales,
			change: noOptions,
			edit: func(m *app.AcceptInPerson) {
				// The client saw the proposal without options.
				p := fixtureProposal(app.StatusSubmitted)
				noOptions(p)
				m.SnapshotHash, _ = app.ClientViewHash(p)
				m.Options = nil
			}, want: app.KindValidationFailed},
		{name: "options removed after the client signed", status: app.StatusSubmitted, actor: fixtureSales,
			change: noOptions, want: app.KindProposalChanged},
		{name: "locked: completed", status: app.StatusCompleted, actor: fixtureSales, want: app.KindProposalLocked},
		{name: "already accepted", status: app.StatusAccepted, actor: fixtureSales, want: app.KindProposalLocked},
		{name: "already declined", status: app.StatusDeclined, actor: fixtureSales, want: app.KindProposalLocked},
		{name: "viewer refused", status: app.StatusSubmitted, actor: fixtureViewer, want: app.KindPermissionDenied},
		{name: "signature too large", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignatureImage = bigPNG }, want: app.KindValidationFailed},
		{name: "signature declares 100000×100000 pixels in 200 KiB", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) {
				m.SignatureImage = base64.StdEncoding.EncodeToString(sigtest.Hostile(100000, 100000, app.MaxSignatureBytes))
			}, want: app.KindValidationFailed},
		{name: "signature one pixel row over the bound", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) {
				m.SignatureImage = base64.StdEncoding.EncodeToString(sigtest.Hostile(2048, 2049, 1<<10))
			}, want: app.KindValidationFailed},
		{name: "signature at the bound", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignatureImage = sigtest.DrawnBase64(4096, 1024) }},
		{name: "signature with a PNG's first bytes only", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignatureImage = "iVBORw0KGgo=" }, want: app.KindValidationFailed},
		{name: "signature not a PNG", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) {
				m.SignatureImage = base64.StdEncoding.EncodeToString([]byte("GIF89a...."))
			}, want: app.KindValidationFailed},
		{name: "signature not base64", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignatureImage = "not base64!" }, want: app.KindValidationFailed},
		{name: "no signer", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignerName = "  " }, want: app.KindValidationFailed},
		{name: "device time unreadable", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignedAt = "yesterday" }, want: app.KindValidationFailed},
		{name: "device clock years off is recorded, not refused", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) { m.SignedAt = "1999-01-01T00:00:00Z" }},
		{name: "option of another area", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) {
				m.Options = []app.OptionChoice{{AreaID: kitchenAreaID, OptionID: theaterOption1}}
			}, want: app.KindValidationFailed},
		{name: "an area named twice", status: app.StatusSubmitted, actor: fixtureSales,
			edit: func(m *app.AcceptInPerson) {
				m.Options = append(m.Options, app.OptionChoice{AreaID: theaterAreaID, OptionID: theaterOption1})
			}, want: app.KindValidationFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := fixtureProposal(c.status)
			m := fixtureAcceptance(seen)
			if c.edit != nil {
				c.edit(m)
			}
			cur := seen.Clone()
			if c.change != nil {
				c.change(cur)
			}
			got, err := app.Apply(cur, m, fixtureEnv(c.actor))
			if c.want != "" {
				if app.KindOf(err) != c.want {
					t.Fatalf("got %v (%s), want %s", err, app.KindOf(err), c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != app.StatusAccepted || !got.Status.Locked() {
				t.Errorf("status %s, want Accepted (locked)", got.Status)
			}
			if got.ClientLastDecisionDate != app.At(fixtureNow) {
				t.Errorf("decision date %v, want the applying clock %v", got.ClientLastDecisionDate, fixtureNow)
			}
			theater, _ := got.Area(theaterAreaID)
			for _, o := range theater.Options {
				want := app.OptionDeclined
				if o.ID == theaterOption1+1 {
					want = app.OptionSelected
				}
				if o.Status != want {
					t.Errorf("theater option %d is %s, want %s", o.ID, o.Status, want)
				}
			}
			kitchen, _ := got.Area(kitchenAreaID)
			if kitchen.Options[0].Status != app.OptionSelected {
				t.Errorf("the kitchen's only option is %s, want Selected", kitchen.Options[0].Status)
			}
			// Accepted, it is locked: the same acceptance again is refused.
			if _, err := app.Apply(got, m, fixtureEnv(c.actor)); app.KindOf(err) != app.KindProposalLocked {
				t.Errorf("a second acceptance: %v, want ProposalLocked", err)
			}
		})
	}
}

func TestCheckOffersOption(t *testing.T) {
	for _, c := range []struct {
		name  string
		areas []app.Area
		ok    bool
	}{
		{"no areas", nil, false},
		{"areas without options", []app.Area{{ID: 1}, {ID: 2}}, false},
		{"one area with an option", []app.Area{{ID: 1}, {ID: 2, Options: []app.Option{{ID: 3}}}}, true},
	} {
		p := &app.Proposal{}
		p.Areas = c.areas
		if err := app.CheckOffersOption(p); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func noOptions(p *app.Proposal) {
	for i := range p.Areas {
		p.Areas[i].Options = nil
	}
}
