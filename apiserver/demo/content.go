package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

func money(s string) app.Money {
	if s == "" {
		return 0
	}
	return app.MustMoney(s)
}

// items turns package lines into an option's items; children nest under
// their parent, and a bundle-* parent is a combined-price item.
func (b *builder) items(lines []line, at time.Time, jitter bool) []app.Item {
	out := []app.Item{}
	var add func(l line, parent int64)
	add = func(l line, parent int64) {
		pr, ok := catalog[l.key]
		if !ok {
			panic("demo: catalog has no " + l.key)
		}
		qty := app.MustQuantity(l.qty)
		if jitter && pr.kind == app.ItemLabor && !pr.recurring {
			// Labor hours vary by job: 75%..135% of the package, in half hours.
			halves := int64(qty) * 2 * int64(75+b.r.IntN(61)) / 100 / int64(app.OneUnit)
			qty = app.Quantity(max(1, halves)) * app.OneUnit / 2
		}
		it := app.Item{
			ID: b.tx.NextID(), ParentID: parent, ItemType: pr.kind,
			CreatedDate: app.At(at), LastModifiedDate: app.At(at),
			Brand: pr.brand, Model: pr.model, Name: pr.name, Description: pr.description,
			ShortDescription: shortDescription(pr), Supplier: pr.supplier,
			MSRP: money(pr.msrp), SellPrice: money(pr.sell), Quantity: qty,
			IsCombinedPrice: strings.HasPrefix(l.key, "bundle-"), IsTaxExempt: pr.taxExempt, IsRecurringService: pr.recurring,
		}
		if pr.kind == app.ItemPart {
			it.ImageURL = "https://images.brightwire-av.example/catalog/" + l.key + ".jpg"
		}
		if pr.cost != "" {
			c := money(pr.cost)
			it.Cost = &c
			it.CostUpdateDate = app.At(at.AddDate(0, -1, 0))
		}
		if pr.taxExempt {
			it.ClientNote = "Software license delivered electronically; not subject to sales tax."
		}
		out = append(out, it)
		for _, ch := range l.children {
			add(ch, it.ID)
		}
	}
	for _, l := range lines {
		add(l, 0)
	}
	return out
}

func shortDescription(p product) string {
	if p.brand == "" {
		return p.name
	}
	return strings.TrimSpace(p.brand + " " + p.model)
}

// schedule is one of two common payment schedules.
func (b *builder) schedule(at time.Time) app.PaymentSchedule {
	if b.r.IntN(3) == 0 {
		return app.PaymentSchedule{
			CustomerDescription: "A fixed deposit reserves equipment; the balance is due at completion.",
			Payments: []app.PaymentTerm{
				{Calculation: app.PaymentFixed, Amount: app.MustMoney("2500"), DueDate: app.At(at.AddDate(0, 0, 7)), Milestone: "Deposit"},
				{Calculation: app.PaymentRemainder, Milestone: "Project completion"},
			},
		}
	}
	return app.PaymentSchedule{
		CustomerDescription: "50% to schedule, 40% at trim-out, balance on completion.",
		Payments: []app.PaymentTerm{
			{Calculation: app.PaymentPercent, Percentage: app.MustRate("50"), DueDate: app.At(at.AddDate(0, 0, 7)), Milestone: "Contract signing"},
			{Calculation: app.PaymentPercent, Percentage: app.MustRate("40"), Milestone: "Trim-out"},
			{Calculation: app.PaymentRemainder, Milestone: "Project completion"},
		},
	}
}

// paymentRequests are the deposit (and, once completed, the balance) of
// an accepted proposal.
func (b *builder) paymentRequests(p *app.Proposal, status app.Status) []app.PaymentRequest {
	s := app.Summarize(&p.Document)
	deposit := s.Total.Percent(app.MustRate("50"))
	decided := p.ClientLastDecisionDate.Time
	if decided.IsZero() {
		decided = b.now
	}
	reqs := []app.PaymentRequest{{ID: b.tx.NextID(), Status: app.PaymentPaid, Amount: deposit,
		DueDate: app.At(decided.AddDate(0, 0, 7)), Description: "Deposit (50%)", PaymentMethod: "ACH"}}
	if status == app.StatusCompleted {
		reqs = append(reqs, app.PaymentRequest{ID: b.tx.NextID(), Status: app.PaymentPaid, Amount: s.Total - deposit,
			DueDate: app.At(decided.AddDate(0, 1, 0)), Description: "Final balance", PaymentMethod: "Credit card"})
	} else {
		reqs = append(reqs, app.PaymentRequest{ID: b.tx.NextID(), Status: app.PaymentSubmitted, Amount: s.Total.Percent(app.MustRate("40")),
			DueDate: app.At(decided.AddDate(0, 1, 0)), Description: "Trim-out (40%)", PaymentMethod: "ACH"})
	}
	return reqs
}

var changeOrderPlans = []struct {
	name       string
	room, pkg  int
	status     app.Status
	notes      string
	addPermit  bool
	dropLabour bool
}{
	{"Add Patio Audio and Outdoor TV", 4, 0, app.StatusAccepted, "Client approved on site walk-through.", false, false},
	{"Upgrade Great Room TV to 85\" Sony", 0, 1, app.StatusSubmitted, "", false, false},
	{"Add Gym Display", 7, 0, app.StatusDraft, "Waiting on wall blocking from the builder.", true, false},
}

// changeOrder is the i-th change order of an accepted proposal: a priced
// addition with its own area, read-only through the API.
func (b *builder) changeOrder(p *app.Proposal, i int, at time.Time) (app.ChangeOrder, error) {
	cp := changeOrderPlans[i%len(changeOrderPlans)]
	room := rooms[cp.room]
	pk := room.packages[cp.pkg]
	when := app.At(at)
	d := app.Document{
		ID: b.tx.NextID(), Number: int64(i + 1), Name: cp.name, Status: cp.status,
		CreatedDate: when, LastModifiedDate: when, LastModifiedByUserDate: when,
		SalesPerson: p.SalesPerson, Dealer: p.Dealer, Currency: p.Currency, ProjectTerms: p.ProjectTerms,
		ProjectDescription: "Change order to proposal " + fmt.Sprint(p.Number) + ": " + strings.ToLower(cp.name) + ".",
		InternalNotes:      cp.notes,
		Pricing:            app.Pricing{DiscountType: app.DiscountPercentage},
		PaymentSchedule: app.PaymentSchedule{CustomerDescription: "Due on approval.",
			Payments: []app.PaymentTerm{{Calculation: app.PaymentPercent, Percentage: app.HundredPercent, Milestone: "Approval"}}},
		PaymentRequests:  []app.PaymentRequest{},
		LastModifiedUser: p.LastModifiedUser,
	}
	// Share the proposal's customer and tax settings, as deep copies.
	base := app.Proposal{Document: p.Document}
	c := base.Clone()
	d.Customer, d.Tax = c.Customer, c.Tax
	switch cp.status {
	case app.StatusAccepted:
		d.LastSubmittedDate, d.ClientLastDecisionDate = when, app.At(at.Add(26*time.Hour))
		d.LastModifiedDate = d.ClientLastDecisionDate
	case app.StatusSubmitted:
		d.LastSubmittedDate = when
	}
	items := b.items(pk.lines, at, true)
	if cp.addPermit {
		items = append(items, b.items([]line{{"fee-permit", "1", nil}}, at, false)...)
	}
	d.Areas = []app.Area{{ID: b.tx.NextID(), Name: room.name + " (CO " + fmt.Sprint(i+1) + ")", Options: []app.Option{{
		ID: b.tx.NextID(), Status: app.OptionDraft, LastModifiedDate: when,
		ClientDescription: pk.description, InstallerDescription: pk.installer, Items: items,
	}}}}
	return app.ChangeOrder{Document: d}, nil
}

var internalNotes = []string{
	"Gate code 4471. Dog on site; client works from home on Tuesdays.",
	"Builder: Lakeway Builders, super is Ray (512) 555-0190. Drywall starts in 3 weeks.",
	"Client prefers white grilles everywhere. Attic access in the garage.",
	"Existing Sonos gear to be reused in the guest rooms; remove old DirecTV dish.",
	"Confirm HOA approval for the outdoor speakers before trenching.",
	"",
}

// proposalName names a proposal after its client, as dealers do.
func (b *builder) proposalName(contact int, kind string) string {
	if contact < 0 {
		return kind + " – Prospect"
	}
	c := b.contacts[contact].c
	if c.PartyType == app.PartyCompany {
		return c.CompanyName + " – " + kind
	}
	return c.LastName + " Residence – " + kind
}

// randomRooms picks one to most different rooms, with options and a
// selection fitting the status.
func (b *builder) randomRooms(status app.Status, most int) []roomChoice {
	n := 1 + b.r.IntN(most)
	picked := b.r.Perm(len(rooms))[:n]
	out := make([]roomChoice, 0, n)
	for _, ri := range picked {
		opts := 1 + b.r.IntN(len(rooms[ri].packages))
		sel := -1
		if opts > 1 && (status == app.StatusAccepted || status == app.StatusCompleted || b.r.IntN(3) == 0) {
			sel = b.r.IntN(opts)
		}
		out = append(out, roomChoice{room: ri, options: opts, selected: sel})
	}
	return out
}

func (b *builder) randomDiscount() app.Pricing {
	switch b.r.IntN(6) {
	case 0:
		return app.Pricing{DiscountType: app.DiscountPercentage, DiscountPercentage: app.MustRate("5")}
	case 1:
		return app.Pricing{DiscountType: app.DiscountPercentage, DiscountPercentage: app.MustRate("10")}
	case 2:
		return app.Pricing{DiscountType: app.DiscountAmount, DiscountAmount: app.MustMoney("500")}
	}
	return app.Pricing{DiscountType: app.DiscountPercentage}
}

// statusCycle spreads the seeded proposals over every status, the common
// ones more often.
var statusCycle = []app.Status{
	app.StatusDraft, app.StatusSubmitted, app.StatusViewedByClient, app.StatusAccepted, app.StatusDraft,
	app.StatusDeclined, app.StatusDelayed, app.StatusCompleted, app.StatusSubmitted, app.StatusEmailFailed,
	app.StatusExpired, app.StatusUndefined,
}

// Room indexes used by the flagship proposal.
const (
	roomGreat = iota
	roomTheater
	roomKitchen
	roomPrimary
	roomPatio
	roomCloset
)

// randomPlan is an ordinary proposal: status from the cycle (or random),
// a contact, a few rooms.
func (b *builder) randomPlan(status app.Status, contact int, created time.Time, maxRooms int) plan {
	if status == app.StatusUndefined {
		contact = -1 // legacy imports came without a client
	}
	pl := plan{
		name: b.proposalName(contact, projectKinds[b.r.IntN(len(projectKinds))]), status: status,
		contact: contact, location: b.r.IntN(3), rooms: b.randomRooms(status, maxRooms),
		seller: b.sellers[b.r.IntN(len(b.sellers))], created: created, discount: b.randomDiscount(),
		schedule: status != app.StatusDraft && status != app.StatusUndefined, laborJitter: true,
		internalNotes: internalNotes[b.r.IntN(len(internalNotes))],
	}
	if contact >= 0 && strings.Contains(b.contacts[contact].c.CompanyName, "Church") {
		pl.taxExempt = true
	}
	if len(pl.rooms) > 0 {
		pl.description = "Design, supply and installation of " + strings.ToLower(rooms[pl.rooms[0].room].name) +
			" systems, with programming, training and a one-year labor warranty."
	}
	if (status == app.StatusAccepted || status == app.StatusCompleted) && b.r.IntN(3) == 0 {
		pl.changeOrders = 1
	}
	return pl
}

func (b *builder) daysAgo(minDays, maxDays int) time.Time {
	d := minDays + b.r.IntN(maxDays-minDays+1)
	return b.now.Add(-time.Duration(d)*24*time.Hour - time.Duration(b.r.IntN(8*60))*time.Minute)
}

// seedMain seeds the main account: the flagship proposal first, then n-1
// proposals over every status, two of them archived.
func (b *builder) seedMain(n int) error {
	flagship := plan{
		name: "Hendricks Residence – Whole-Home AV", status: app.StatusAccepted, contact: cHendricks,
		rooms: []roomChoice{
			{roomGreat, 2, 1}, {roomTheater, 3, 1}, {roomKitchen, 1, -1},
			{roomPrimary, 2, 0}, {roomPatio, 1, -1}, {roomCloset, 1, -1},
		},
		seller: b.sellers[min(1, len(b.sellers)-1)], created: b.now.AddDate(0, 0, -120),
		discount:     app.Pricing{DiscountType: app.DiscountPercentage, DiscountPercentage: app.MustRate("5")},
		changeOrders: 3, schedule: true,
		description: "Complete audio-video, lighting control, shading and networking for the new Westlake home: " +
			"a dedicated theater, whole-home music and a Control4 system tying it together.",
		internalNotes: internalNotes[1],
	}
	if _, err := b.build(flagship); err != nil {
		return err
	}
	archivedDeclined, archivedExpired := false, false
	for i := 1; i < n; i++ {
		status := statusCycle[i%len(statusCycle)]
		contact := i % len(b.contacts)
		if status == app.StatusDraft && i%3 == 0 {
			contact = -1
		}
		pl := b.randomPlan(status, contact, b.daysAgo(2+(n-i)*9, 10+(n-i)*10), 4)
		switch {
		case status == app.StatusDeclined && !archivedDeclined:
			pl.archived, archivedDeclined = true, true
		case status == app.StatusExpired && !archivedExpired:
			pl.archived, archivedExpired = true, true
		}
		if _, err := b.build(pl); err != nil {
			return err
		}
	}
	return nil
}

// seedOther seeds a smaller account.
func (b *builder) seedOther(n int) error {
	for i := range n {
		status := statusCycle[(i*5+1)%len(statusCycle)]
		pl := b.randomPlan(status, i%len(b.contacts), b.daysAgo(3+i*20, 20+i*30), 3)
		if _, err := b.build(pl); err != nil {
			return err
		}
	}
	return nil
}

// growBatch is how many generated proposals share one transaction.
const growBatch = 500

// Grow adds generated proposals to the main account until it has target
// of them, growBatch per transaction, and returns how many it added.
// Generated proposal k is the same whatever the batch or the run.
func Grow(ctx context.Context, st store.Store, target int, opts Options) (int, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	accts, err := st.Auth().Accounts(ctx)
	if err != nil {
		return 0, fmt.Errorf("demo grow: %w", err)
	}
	var acct store.Account
	for _, a := range accts {
		if a.Name == MainAccountName {
			acct = a
		}
	}
	if acct.ID == 0 {
		return 0, fmt.Errorf("demo grow: no account named %q", MainAccountName)
	}
	recs, err := st.Auth().UsersOfAccount(ctx, acct.ID)
	if err != nil {
		return 0, fmt.Errorf("demo grow: %w", err)
	}
	users := make([]app.User, len(recs))
	for i, u := range recs {
		users[i] = u.User
	}
	var have int
	if err := st.View(ctx, acct.ID, func(tx store.Tx) error {
		ids, err := tx.ProposalIDs()
		have = len(ids)
		return err
	}); err != nil {
		return 0, fmt.Errorf("demo grow: %w", err)
	}
	added := 0
	for have < target {
		if err := ctx.Err(); err != nil {
			return added, err
		}
		n := min(growBatch, target-have)
		err := st.Update(ctx, acct.ID, func(tx store.Tx) error {
			b := newBuilder(tx, acct, users, opts.Now, nil)
			if len(b.sellers) == 0 {
				return fmt.Errorf("no user of %q can be a salesperson", acct.Name)
			}
			for k := have; k < have+n; k++ {
				b.r = rand.New(rand.NewPCG(opts.Seed, 1_000_000+uint64(k)))
				contact := -1
				if b.r.IntN(10) > 0 {
					if err := b.randomContact(false); err != nil {
						return err
					}
					contact = len(b.contacts) - 1
				}
				status := app.Statuses[b.r.IntN(len(app.Statuses))]
				if b.r.IntN(2) == 0 {
					status = []app.Status{app.StatusDraft, app.StatusSubmitted, app.StatusAccepted, app.StatusCompleted}[b.r.IntN(4)]
				}
				pl := b.randomPlan(status, contact, b.daysAgo(1, 730), 3)
				pl.archived = b.r.IntN(20) == 0
				if _, err := b.build(pl); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return added, fmt.Errorf("demo grow: %w", err)
		}
		have += n
		added += n
	}
	return added, nil
}
