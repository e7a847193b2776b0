package app

// Shared test builders for the money, finance, property, view and
// benchmark tests. Every builder is deterministic: fixed dates, fixed IDs,
// and random documents only from a seeded source.

import (
	"math/rand"
	"reflect"
	"strconv"
	"time"
)

// m, q and r read fixed-point constants; a typo panics at once.
func m(s string) Money    { return MustMoney(s) }
func q(s string) Quantity { return MustQuantity(s) }
func r(s string) Rate     { return MustRate(s) }

// mp is a *Money for an item's cost.
func mp(s string) *Money { v := MustMoney(s); return &v }

// itemOpt changes a new item.
type itemOpt func(*Item)

func under(parentID int64) itemOpt { return func(it *Item) { it.ParentID = parentID } }
func withCost(s string) itemOpt    { return func(it *Item) { it.Cost = mp(s) } }
func named(n string) itemOpt       { return func(it *Item) { it.Name = n } }
func combined(it *Item)            { it.IsCombinedPrice = true }
func exempt(it *Item)              { it.IsTaxExempt = true }
func recurring(it *Item)           { it.IsRecurringService = true }

// item is an item of the given type: sell price times quantity.
func item(id int64, t ItemType, price, qty string, opts ...itemOpt) Item {
	it := Item{ID: id, ItemType: t, SellPrice: m(price), Quantity: q(qty)}
	for _, o := range opts {
		o(&it)
	}
	return it
}

func part(id int64, price, qty string, opts ...itemOpt) Item {
	return item(id, ItemPart, price, qty, opts...)
}
func labor(id int64, price, qty string, opts ...itemOpt) Item {
	return item(id, ItemLabor, price, qty, opts...)
}
func fee(id int64, price, qty string, opts ...itemOpt) Item {
	return item(id, ItemFee, price, qty, opts...)
}
func custom(id int64, price, qty string, opts ...itemOpt) Item {
	return item(id, ItemCustomItem, price, qty, opts...)
}

func option(id int64, status OptionStatus, items ...Item) Option {
	return Option{ID: id, Status: status, Items: items}
}

func area(id int64, options ...Option) Area {
	return Area{ID: id, Name: "Area " + strconv.FormatInt(id, 10), Options: options}
}

// oneOption is a document with one area whose only option holds items.
func oneOption(items ...Item) Document {
	return Document{Areas: []Area{area(1, option(10, OptionDraft, items...))}}
}

// docOpt changes a new document.
type docOpt func(*Document)

func percentOff(rate string) docOpt {
	return func(d *Document) { d.Pricing = Pricing{DiscountType: DiscountPercentage, DiscountPercentage: r(rate)} }
}
func amountOff(amount string) docOpt {
	return func(d *Document) { d.Pricing = Pricing{DiscountType: DiscountAmount, DiscountAmount: m(amount)} }
}

// taxed sets the status, which categories are taxed, and the rates:
// rates are first/second for parts, labor, fees in that order.
func taxed(status TaxStatus, multiple bool, applyTo []ApplyTo, rates ...string) docOpt {
	return func(d *Document) {
		t := TaxSettings{Status: status, Method: TaxClientLocation, ApplyTo: applyTo, HasMultipleTaxSupport: multiple}
		cats := []*TaxRates{&t.Parts, &t.Labor, &t.Fees}
		for i := 0; i+1 < len(rates) && i/2 < len(cats); i += 2 {
			cats[i/2].Rate, cats[i/2].Second = r(rates[i]), r(rates[i+1])
		}
		d.Tax = t
	}
}

func with(d Document, opts ...docOpt) Document {
	for _, o := range opts {
		o(&d)
	}
	return d
}

var (
	applyParts = []ApplyTo{ApplyParts}
	applyAll   = []ApplyTo{ApplyParts, ApplyLabor, ApplyFees}
)

// day is a fixed instant: noon UTC on the given day of March 2026.
func day(n int) Time { return At(time.Date(2026, time.March, n, 12, 0, 0, 0, time.UTC)) }

// figures is the money part of a Summary, comparable with ==.
type figures struct {
	PartsSubtotal, TaxableParts                                 Money
	PartsDiscount, PartsDiscountTaxable, PartsDiscountTaxExempt Money
	PartsTotal, LaborTotal, FeeTotal, Subtotal                  Money
	PartsTax, PartsTax2, LaborTax, LaborTax2, FeeTax, FeeTax2   Money
	TaxTotal, Total, TotalRecurring                             Money
}

func figuresOf(s Summary) figures {
	return figures{
		PartsSubtotal: s.PartsSubtotal, TaxableParts: s.TaxableParts,
		PartsDiscount: s.PartsDiscount, PartsDiscountTaxable: s.PartsDiscountTaxable,
		PartsDiscountTaxExempt: s.PartsDiscountTaxExempt,
		PartsTotal:             s.PartsTotal, LaborTotal: s.LaborTotal, FeeTotal: s.FeeTotal, Subtotal: s.Subtotal,
		PartsTax: s.Tax[CategoryParts].First, PartsTax2: s.Tax[CategoryParts].Second,
		LaborTax: s.Tax[CategoryLabor].First, LaborTax2: s.Tax[CategoryLabor].Second,
		FeeTax: s.Tax[CategoryFees].First, FeeTax2: s.Tax[CategoryFees].Second,
		TaxTotal: s.TaxTotal, Total: s.Total, TotalRecurring: s.TotalRecurring,
	}
}

// richProposal is a proposal with something of everything the detail
// can show: a customer with a location, a dealer, items of every type, a
// two-level combined bundle, a recurring service, a tax-exempt part, a
// payment schedule, payment requests and two change orders (one without
// a customer). Its figures are worked out in view_test.go.
func richProposal() *Proposal {
	loc := Location{ID: 501, Street: "12 Elm St", Suite: "2B", City: "Springfield", PostalCode: "01101",
		State: "Massachusetts", StateAbbrev: "MA", Country: "US", Phone: "+1 413 555 0100"}
	customer := &Customer{
		Contact: Contact{ID: 401, PartyType: PartyPerson, ContactType: ContactClient, FirstName: "Ada",
			LastName: "Lovelace", ContactEmail: "ada@example.com", ContactEmailCC: "office@example.com",
			ContactPhone: "+1 413 555 0199"},
		Location: &loc,
	}
	dealerLoc := Location{ID: 601, Street: "1 Main St", City: "Boston", PostalCode: "02108",
		State: "Massachusetts", StateAbbrev: "MA", Country: "US", Phone: "+1 617 555 0000"}
	taxLoc := loc
	doc := Document{
		ID: 101, Number: 1001, Name: "Smart home", Status: StatusSubmitted,
		CreatedDate: day(1), ClientLastDecisionDate: day(5), LastModifiedDate: day(4),
		LastModifiedByUserDate: day(3), LastSubmittedDate: day(2), ClientLastOpenedDate: day(6),
		// LastCompletedDate never set: null.
		Customer:    customer,
		SalesPerson: Salesperson{ID: 7, Email: "sam@dealer.example", FirstName: "Sam", LastName: "Seller"},
		Dealer: DealerProfile{CompanyName: "AV Dealer", WebSiteURL: "https://dealer.example",
			CompanyPhone: "+1 617 555 0001", CompanyLogoURL: "https://dealer.example/logo.png", Location: dealerLoc},
		Currency:           USD,
		CoverpageImageURL:  "https://dealer.example/cover.jpg",
		AboutUs:            "We wire homes.",
		ProjectDescription: "Whole-home audio and video.",
		InternalNotes:      "Gate code 1234.",
		ProjectTerms:       "Net 30.",
		Areas: []Area{
			{ID: 11, Name: "Living Room", Options: []Option{
				{ID: 21, Status: OptionSelected, LastModifiedDate: day(3), ClientDescription: "Premium",
					InstallerDescription: "Use the north wall.", Items: []Item{
						{ID: 31, ItemType: ItemPart, ReferencedItemID: 9001, CreatedDate: day(1), LastModifiedDate: day(2),
							CostUpdateDate: day(1), Brand: "Sony", Model: "XR-65", Description: "65 inch TV", Name: "TV",
							ShortDescription: "TV", ClientNote: "Wall mounted", ImageURL: "https://img.example/tv.png",
							Supplier: "Distributor", MSRP: m("1499.99"), SellPrice: m("1299.99"), Cost: mp("900.00"),
							Quantity: q("1")},
						labor(32, "85.00", "2.5", named("Install"), withCost("40.00")),
						fee(33, "25.00", "1", named("Trip fee"), withCost("0")),
						custom(34, "150.00", "1", named("Custom shelf"), withCost("60.00")),
						part(35, "200.00", "1", named("Speaker bundle"), combined, withCost("100.00")),
						part(36, "150.00", "2", named("Speaker"), under(35), withCost("80.00")),
						labor(37, "20.00", "2", named("Speaker mount"), under(36), withCost("10.00")),
						part(38, "29.99", "1", named("Monitoring"), recurring),
						part(39, "49.95", "3", named("Donated cable"), exempt, withCost("10.00")),
					}},
				{ID: 22, Status: OptionDraft, LastModifiedDate: day(2), ClientDescription: "Basic", Items: []Item{
					part(41, "499.00", "1", named("Small TV"), withCost("350.00")),
				}},
			}},
			{ID: 12, Name: "Kitchen", Options: []Option{
				{ID: 23, Status: OptionDraft, Items: []Item{
					part(51, "10.50", "0.3333", named("Cable by the foot"), withCost("2.00")),
				}},
			}},
			{ID: 13, Name: "Garage", Options: []Option{}},
		},
		Pricing: Pricing{DiscountType: DiscountPercentage, DiscountPercentage: r("5")},
		Tax: TaxSettings{Status: TaxOK, Method: TaxClientLocation, ApplyTo: []ApplyTo{ApplyParts, ApplyLabor},
			Parts:                 TaxRates{Rate: r("6.25"), Name: "MA sales tax", Second: r("0.5"), SecondName: "Local"},
			Labor:                 TaxRates{Rate: r("6.25"), Name: "MA labor tax", Second: r("0"), SecondName: "None"},
			Fees:                  TaxRates{Rate: r("1"), Name: "Fee tax", Second: r("0.1"), SecondName: "Fee local"},
			HasMultipleTaxSupport: true, TaxLocation: &taxLoc, IsTaxServiceAvailable: true},
		PaymentSchedule: PaymentSchedule{CustomerDescription: "Half up front.", Payments: []PaymentTerm{
			{Calculation: PaymentPercent, Percentage: r("50"), DueDate: day(7), Milestone: "Signing"},
			{Calculation: PaymentFixed, Amount: m("500.00"), Milestone: "Rough-in"},
			{Calculation: PaymentRemainder, DueDate: day(20), Milestone: "Completion"},
		}},
		PaymentRequests: []PaymentRequest{
			{ID: 71, Status: PaymentPaid, Amount: m("1000.00"), DueDate: day(7), Description: "Deposit", PaymentMethod: "Card"},
		},
		LastModifiedUser: PersonName{FirstName: "Sam", LastName: "Seller"},
	}
	co1 := doc
	co1.ID, co1.Number, co1.Name, co1.Status = 201, 1, "Add a soundbar", StatusAccepted
	co1.Areas = []Area{{ID: 211, Name: "Living Room", Options: []Option{
		{ID: 221, Status: OptionSelected, Items: []Item{
			part(231, "399.00", "1", named("Soundbar"), withCost("250.00")),
			labor(232, "85.00", "1", named("Install"), withCost("40.00")),
			part(233, "9.99", "1", named("Streaming"), recurring),
		}},
	}}}
	co1.PaymentSchedule = PaymentSchedule{Payments: []PaymentTerm{{Calculation: PaymentRemainder, Milestone: "Delivery"}}}
	co1.PaymentRequests = []PaymentRequest{{ID: 72, Status: PaymentSubmitted, Amount: m("494.95"), Description: "Change order 1"}}
	co2 := co1
	co2.PaymentSchedule, co2.PaymentRequests = PaymentSchedule{}, nil
	co2.ID, co2.Number, co2.Name, co2.Status = 202, 2, "Remove the shelf", StatusDraft
	co2.Customer = nil
	co2.LastModifiedByUserDate = Time{}
	co2.Areas = nil
	p := &Proposal{Document: doc, Version: 12, ChangeOrders: []ChangeOrder{{co1.clone()}, {co2.clone()}}}
	return p.Clone()
}

// benchProposal is a large proposal: areas × options × items; every tenth
// item is a combined bundle with the next three nested under it, and some
// items are recurring or tax-exempt.
func benchProposal(areas, options, items int) *Proposal {
	p := richProposal()
	p.Areas = make([]Area, areas)
	id := int64(1000)
	for a := range p.Areas {
		id++
		p.Areas[a] = Area{ID: id, Name: "Area", Options: make([]Option, options)}
		for o := range p.Areas[a].Options {
			id++
			opt := Option{ID: id, Status: OptionDraft, Items: make([]Item, items)}
			if o == 1 {
				opt.Status = OptionSelected
			}
			var bundle int64
			for i := range opt.Items {
				id++
				it := Item{ID: id, ItemType: ItemTypes[i%len(ItemTypes)],
					SellPrice: Money(1999 + 37*i), Quantity: Quantity(int64(OneUnit) + int64(2500*(i%4))),
					Cost: mp("9.99")}
				switch {
				case i%10 == 0:
					it.IsCombinedPrice = true
					bundle = it.ID
				case i%10 <= 3:
					it.ParentID = bundle
				}
				it.IsRecurringService = i%13 == 12
				it.IsTaxExempt = i%7 == 6
				opt.Items[i] = it
			}
			p.Areas[a].Options[o] = opt
		}
	}
	return p
}

// randomDocument is a document for property tests: random areas,
// options, items, nesting, recurring and exempt items, discount and tax
// settings. Figures stay small enough that no sum nears int64's range.
func randomDocument(rnd *rand.Rand) Document {
	var d Document
	id := int64(0)
	next := func() int64 { id++; return id }
	pick := func(n int) int { return rnd.Intn(n) }
	d.Areas = make([]Area, pick(5))
	for a := range d.Areas {
		d.Areas[a] = Area{ID: next(), Name: "A", Options: make([]Option, pick(4))}
		for o := range d.Areas[a].Options {
			opt := Option{ID: next(), Status: OptionStatuses[pick(len(OptionStatuses))]}
			opt.Items = make([]Item, pick(9))
			for i := range opt.Items {
				it := Item{ID: next(), ItemType: ItemTypes[pick(len(ItemTypes))],
					SellPrice: Money(rnd.Int63n(500000)), Quantity: Quantity(rnd.Int63n(100 * int64(OneUnit)))}
				if pick(10) == 0 {
					it.SellPrice = -it.SellPrice // a credit line
				}
				if pick(4) == 0 {
					it.Quantity = Quantity(int64(OneUnit) * int64(1+pick(5)))
				}
				if pick(3) > 0 {
					c := Money(rnd.Int63n(400000))
					it.Cost = &c
				}
				if i > 0 && pick(3) == 0 {
					it.ParentID = opt.Items[pick(i)].ID
				}
				it.IsCombinedPrice = pick(3) == 0
				it.IsRecurringService = pick(7) == 0
				it.IsTaxExempt = pick(4) == 0
				opt.Items[i] = it
			}
			d.Areas[a].Options[o] = opt
		}
	}
	switch pick(3) {
	case 0:
		d.Pricing = Pricing{DiscountType: DiscountPercentage, DiscountPercentage: Rate(rnd.Int63n(int64(HundredPercent) + 1))}
	case 1:
		d.Pricing = Pricing{DiscountType: DiscountAmount, DiscountAmount: Money(rnd.Int63n(3000000))}
	}
	t := TaxSettings{Status: TaxStatuses[pick(len(TaxStatuses))], Method: TaxMethods[pick(len(TaxMethods))],
		HasMultipleTaxSupport: pick(2) == 0}
	if pick(2) == 0 {
		t.Status = TaxOK // half the documents are taxed
	}
	for _, a := range ApplyTos {
		if pick(2) == 0 {
			t.ApplyTo = append(t.ApplyTo, a)
		}
	}
	for _, tr := range []*TaxRates{&t.Parts, &t.Labor, &t.Fees} {
		tr.Rate, tr.Second = Rate(rnd.Int63n(150001)), Rate(rnd.Int63n(50001))
	}
	d.Tax = t
	return d
}

// genDocument makes randomDocument a testing/quick argument.
type genDocument struct{ Document }

func (genDocument) Generate(rnd *rand.Rand, _ int) reflect.Value {
	return reflect.ValueOf(genDocument{randomDocument(rnd)})
}
