package app

import (
	"encoding/json"
	"slices"
	"strconv"

	"proposaldesk/app/jsonquote"
)

// AppendJSON appends d encoded exactly as json.Marshal(d) encodes it. The
// server writes a detail on every read it has not cached and after every
// write; through reflection, with a MarshalJSON call (and a validation
// pass over its output) for every amount and date, json.Marshal took
// about a third of its CPU under a load of writes. Every field of the
// tree is written here by hand, in the order json.Marshal writes it;
// TestAppendJSONMatchesMarshal keeps the two equal on random values, and
// TestDetailJSONFieldCounts fails when a struct of the tree gains a
// field, which must then be added here too.
func (d *ProposalDetail) AppendJSON(b []byte) ([]byte, error) {
	b, err := d.DocumentView.appendHead(b)
	if err != nil {
		return b, err
	}
	b = d.FinancialSummary.appendJSON(b)
	b = append(b, `,"changeOrders":`...)
	b = appendArray(b, d.ChangeOrders, (*ChangeOrderSummary).appendJSON)
	b = append(b, `,"isArchived":`...)
	b = strconv.AppendBool(b, d.IsArchived)
	b = appendInt(b, `,"version":`, d.Version)
	b = append(b, `,"fieldVersions":`...)
	b = appendFieldVersions(b, d.FieldVersions)
	if d.EmailFailure != nil { // omitempty
		b = d.EmailFailure.appendJSON(append(b, `,"emailFailure":`...))
	}
	if len(d.CopiedFrom) > 0 {
		// Only a copy's answer has it: json.Marshal's form (keys as
		// strings, sorted as strings) costs nothing elsewhere.
		raw, err := json.Marshal(d.CopiedFrom)
		if err != nil {
			return b, err
		}
		b = append(b, `,"copiedFrom":`...)
		b = append(b, raw...)
	}
	b = append(b, `,"clientLink":`...)
	if d.ClientLink == nil {
		b = append(b, "null"...)
	} else {
		raw, err := json.Marshal(d.ClientLink)
		if err != nil {
			return b, err
		}
		b = append(b, raw...)
	}
	return append(b, '}'), nil
}

// AppendJSON appends d encoded exactly as json.Marshal(d) encodes it; see
// ProposalDetail.AppendJSON.
func (d *ChangeOrderDetail) AppendJSON(b []byte) ([]byte, error) {
	b, err := d.DocumentView.appendHead(b)
	if err != nil {
		return b, err
	}
	b = d.FinancialSummary.appendJSON(b)
	return append(b, '}'), nil
}

// appendHead writes the fields both details start with, up to the key
// of the financial summary, whose kind differs.
func (v *DocumentView) appendHead(b []byte) ([]byte, error) {
	b = slices.Grow(b, detailSizeHint(v))
	b, err := v.appendFields(b)
	return append(b, `,"financialSummary":`...), err
}

// detailSizeHint is about the encoded size of a detail, so that the
// buffer is allocated once rather than doubled up to its size.
func detailSizeHint(v *DocumentView) int {
	n := 4096
	for i := range v.Areas {
		for j := range v.Areas[i].Options {
			n += 200 + 750*len(v.Areas[i].Options[j].Items)
		}
	}
	return n
}

// appendFields writes the document's fields after an opening brace and
// leaves the object open: the detail's own fields follow them.
func (v *DocumentView) appendFields(b []byte) ([]byte, error) {
	b = appendDocumentStart(b, v.ID, v.Number, v.Name, v.Status, &[7]Time{v.CreatedDate, v.ClientLastDecisionDate,
		v.LastCompletedDate, v.LastModifiedDate, v.LastModifiedByUserDate, v.LastSubmittedDate, v.ClientLastOpenedDate})
	b = appendCustomer(b, v.Customer)
	b = append(b, `,"dealer":`...)
	b = v.Dealer.appendJSON(b)
	b = appendStringField(b, `,"coverpageImageUrl":`, v.CoverpageImageURL)
	b = appendStringField(b, `,"aboutUs":`, v.AboutUs)
	b = appendStringField(b, `,"projectDescription":`, v.ProjectDescription)
	b = appendStringField(b, `,"internalNotes":`, v.InternalNotes)
	b = append(b, `,"areas":`...)
	b, err := appendArrayErr(b, v.Areas, (*AreaView).appendJSON)
	if err != nil {
		return b, err
	}
	b = append(b, `,"profit":`...)
	b = v.Profit.appendJSON(b)
	b = append(b, `,"recurringServices":{"items":`...)
	b = appendArray(b, v.RecurringServices.Items, (*RecurringServiceItem).appendJSON)
	b = appendMoney(b, `,"totalRecurringService":`, v.RecurringServices.TotalRecurringService)
	b = appendStringField(b, `},"paymentSchedule":{"customerDescription":`, v.PaymentSchedule.CustomerDescription)
	b = append(b, `,"payments":`...)
	b = appendArray(b, v.PaymentSchedule.Payments, (*PaymentView).appendJSON)
	b = append(b, `},"paymentRequests":`...)
	b = appendArray(b, v.PaymentRequests, (*PaymentRequest).appendJSON)
	b = appendStringField(b, `,"projectTerms":`, v.ProjectTerms)
	b = appendStringField(b, `,"lastModifiedUser":{"firstName":`, v.LastModifiedUser.FirstName)
	b = appendStringField(b, `,"lastName":`, v.LastModifiedUser.LastName)
	return append(b, '}'), nil
}

func (a *AreaView) appendJSON(b []byte) ([]byte, error) {
	b = appendInt(b, `{"id":`, a.ID)
	b = appendStringField(b, `,"name":`, a.Name)
	b = append(b, `,"options":`...)
	b, err := appendArrayErr(b, a.Options, (*OptionView).appendJSON)
	return append(b, '}'), err
}

func (o *OptionView) appendJSON(b []byte) ([]byte, error) {
	b = appendInt(b, `{"id":`, o.ID)
	b = appendStringField(b, `,"status":`, string(o.Status))
	b = appendTime(b, `,"lastModifiedDate":`, o.LastModifiedDate)
	b = appendStringField(b, `,"clientDescription":`, o.ClientDescription)
	b = appendStringField(b, `,"installerDescription":`, o.InstallerDescription)
	b = append(b, `,"items":`...)
	b, err := appendArrayErr(b, o.Items, (*ItemView).appendJSON)
	if err != nil {
		return b, err
	}
	b = appendMoney(b, `,"total":`, o.Total)
	b = appendMoney(b, `,"totalRecurringService":`, o.TotalRecurringService)
	return append(b, '}'), nil
}

func (it *ItemView) appendJSON(b []byte) ([]byte, error) {
	b = appendInt(b, `{"id":`, it.ID)
	b = appendNullID(b, `,"parentId":`, it.ParentID)
	b = appendStringField(b, `,"itemType":`, string(it.ItemType))
	b = appendNullID(b, `,"referencedItemId":`, it.ReferencedItemID)
	b = appendTime(b, `,"createdDate":`, it.CreatedDate)
	b = appendTime(b, `,"lastModifiedDate":`, it.LastModifiedDate)
	b = appendTime(b, `,"costUpdateDate":`, it.CostUpdateDate)
	b = appendStringField(b, `,"brand":`, it.Brand)
	b = appendStringField(b, `,"model":`, it.Model)
	b = appendStringField(b, `,"description":`, it.Description)
	b = appendStringField(b, `,"name":`, it.Name)
	b = appendStringField(b, `,"shortDescription":`, it.ShortDescription)
	b = appendStringField(b, `,"clientNote":`, it.ClientNote)
	b = appendStringField(b, `,"imageUrl":`, it.ImageURL)
	b = appendStringField(b, `,"supplier":`, it.Supplier)
	b = appendMoney(b, `,"msrp":`, it.MSRP)
	b = appendMoney(b, `,"sellPrice":`, it.SellPrice)
	b = appendMoneyPtr(b, `,"cost":`, it.Cost)
	b = appendFixed(append(b, `,"quantity":`...), int64(it.Quantity), quantityPlaces, 0)
	b = appendMoney(b, `,"total":{"amount":`, it.Total.Amount)
	b = append(b, `,"currency":`...)
	b = it.Total.Currency.appendJSON(b)
	b = append(b, `,"isCombinedPrice":`...)
	b = strconv.AppendBool(b, it.Total.IsCombinedPrice)
	b = append(b, `},"isTaxExempt":`...)
	b = strconv.AppendBool(b, it.IsTaxExempt)
	b = append(b, `,"isRecurringService":`...)
	b = strconv.AppendBool(b, it.IsRecurringService)
	b = append(b, `,"linkedOrders":`...)
	b, err := appendAnys(b, it.LinkedOrders)
	if err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

// appendAnys writes linked orders, which the API always sends empty; a
// value someone puts there is of no known type, so json.Marshal writes
// it (inside an array it encodes as it does alone).
func appendAnys(b []byte, vs []any) ([]byte, error) {
	if vs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		e, err := json.Marshal(v)
		if err != nil {
			return b, err
		}
		b = append(b, e...)
	}
	return append(b, ']'), nil
}

func (c *Contact) appendFields(b []byte) []byte {
	b = appendInt(b, `{"id":`, c.ID)
	b = appendStringField(b, `,"partyType":`, string(c.PartyType))
	b = appendStringField(b, `,"contactType":`, string(c.ContactType))
	b = appendStringField(b, `,"firstName":`, c.FirstName)
	b = appendStringField(b, `,"lastName":`, c.LastName)
	b = appendStringField(b, `,"companyName":`, c.CompanyName)
	b = appendStringField(b, `,"contactEmail":`, c.ContactEmail)
	b = appendStringField(b, `,"contactEmailCC":`, c.ContactEmailCC)
	return appendStringField(b, `,"contactPhone":`, c.ContactPhone)
}

func (l *Location) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"id":`, l.ID)
	b = appendStringField(b, `,"street":`, l.Street)
	b = appendStringField(b, `,"suite":`, l.Suite)
	b = appendStringField(b, `,"city":`, l.City)
	b = appendStringField(b, `,"postalCode":`, l.PostalCode)
	b = appendStringField(b, `,"state":`, l.State)
	b = appendStringField(b, `,"stateAbbrev":`, l.StateAbbrev)
	b = appendStringField(b, `,"country":`, l.Country)
	b = appendStringField(b, `,"phone":`, l.Phone)
	return append(b, '}')
}

func appendLocationPtr(b []byte, l *Location) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	return l.appendJSON(b)
}

func (d *Dealer) appendJSON(b []byte) []byte {
	b = appendDealerFields(b, d.CompanyName, d.WebSiteURL, d.CompanyPhone, d.CompanyLogoURL, &d.Location)
	b = d.Salesperson.appendJSON(append(b, `,"salesperson":`...))
	return append(b, '}')
}

func (p *Profit) appendJSON(b []byte) []byte {
	b = appendMoneyPtr(b, `{"total":`, p.Total)
	b = appendRatePtr(b, `,"percentage":`, p.Percentage)
	b = appendMoneyPtr(b, `,"partTotal":`, p.PartTotal)
	b = appendRatePtr(b, `,"partPercentage":`, p.PartPercentage)
	b = appendMoneyPtr(b, `,"laborTotal":`, p.LaborTotal)
	b = appendRatePtr(b, `,"laborPercentage":`, p.LaborPercentage)
	b = append(b, `,"isProfitIncludeCos":`...)
	b = strconv.AppendBool(b, p.IsProfitIncludeCos)
	return append(b, '}')
}

func (r *RecurringServiceItem) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"name":`, r.Name)
	b = appendMoney(b, `,"sellPrice":`, r.SellPrice)
	b = appendFixed(append(b, `,"quantity":`...), int64(r.Quantity), quantityPlaces, 0)
	b = appendMoney(b, `,"totalSell":`, r.TotalSell)
	return append(b, '}')
}

func (p *PaymentView) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"calculation":`, p.Calculation)
	b = appendMoney(b, `,"amount":`, p.Amount)
	b = appendTime(b, `,"due":{"date":`, p.Due.Date)
	b = appendStringField(b, `,"milestone":`, p.Due.Milestone)
	return append(b, '}', '}')
}

func (p *PaymentRequest) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"id":`, p.ID)
	b = appendStringField(b, `,"status":`, string(p.Status))
	b = appendMoney(b, `,"amount":`, p.Amount)
	b = appendTime(b, `,"dueDate":`, p.DueDate)
	b = appendStringField(b, `,"description":`, p.Description)
	b = appendStringField(b, `,"paymentMethod":`, p.PaymentMethod)
	return append(b, '}')
}

func (f *FinancialSummary) appendJSON(b []byte) []byte {
	b = appendDiscount(b, f.PartsSubtotal, f.PartsDiscountType, f.PartsDiscountPercentage, f.PartsDiscount)
	b = appendMoney(b, `,"partsDiscountTaxable":`, f.PartsDiscountTaxable)
	b = appendMoney(b, `,"partsDiscountTaxExempt":`, f.PartsDiscountTaxExempt)
	return appendTotals(b, summaryTotals{f.PartsTotal, f.LaborTotal, f.FeeTotal, f.ProposalSubtotal, f.ProposalTotal},
		`,"proposalSubtotal":`, &f.SalesTax, `,"proposalTotal":`, &f.Currency)
}

func (f *ChangeOrderFinancialSummary) appendJSON(b []byte) []byte {
	b = appendDiscount(b, f.PartsSubtotal, f.PartsDiscountType, f.PartsDiscountPercentage, f.PartsDiscount)
	return appendTotals(b, summaryTotals{f.PartsTotal, f.LaborTotal, f.FeeTotal, f.ChangeOrderSubtotal, f.ChangeOrderTotal},
		`,"changeOrderSubtotal":`, &f.SalesTax, `,"changeOrderTotal":`, &f.Currency)
}

// appendDiscount opens a financial summary with the fields both kinds
// start with.
func appendDiscount(b []byte, subtotal Money, kind DiscountType, pct Rate, discount Money) []byte {
	b = appendMoney(b, `{"partsSubtotal":`, subtotal)
	b = appendStringField(b, `,"partsDiscountType":`, string(kind))
	b = appendRate(b, `,"partsDiscountPercentage":`, pct)
	return appendMoney(b, `,"partsDiscount":`, discount)
}

type summaryTotals struct{ parts, labor, fee, subtotal, total Money }

// appendTotals closes a financial summary with the fields both kinds
// end with; only the subtotal's and the total's names differ.
func appendTotals(b []byte, t summaryTotals, subtotalKey string, tax *SalesTax, totalKey string, cur *Currency) []byte {
	b = appendMoney(b, `,"partsTotal":`, t.parts)
	b = appendMoney(b, `,"laborTotal":`, t.labor)
	b = appendMoney(b, `,"feeTotal":`, t.fee)
	b = appendMoney(b, subtotalKey, t.subtotal)
	b = append(b, `,"salesTax":`...)
	b = tax.appendJSON(b)
	b = appendMoney(b, totalKey, t.total)
	b = append(b, `,"currency":`...)
	b = cur.appendJSON(b)
	return append(b, '}')
}

func (s *SalesTax) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"taxStatus":`, string(s.TaxStatus))
	b = appendMoney(b, `,"total":`, s.Total)
	c := &s.Calculation
	b = appendStringField(b, `,"calculation":{"method":`, string(c.Method))
	b = append(b, `,"applyTo":`...)
	if c.ApplyTo == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, a := range c.ApplyTo {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonquote.AppendMarshal(b, string(a))
		}
		b = append(b, ']')
	}
	b = appendRate(b, `,"partsTax":`, c.PartsTax)
	b = appendRate(b, `,"laborTax":`, c.LaborTax)
	b = appendRate(b, `,"feeTax":`, c.FeeTax)
	b = appendRate(b, `,"partsTax2":`, c.PartsTax2)
	b = appendRate(b, `,"laborTax2":`, c.LaborTax2)
	b = appendRate(b, `,"feeTax2":`, c.FeeTax2)
	b = appendStringField(b, `,"partsTaxName":`, c.PartsTaxName)
	b = appendStringField(b, `,"laborTaxName":`, c.LaborTaxName)
	b = appendStringField(b, `,"feeTaxName":`, c.FeeTaxName)
	b = appendStringField(b, `,"partsTax2Name":`, c.PartsTax2Name)
	b = appendStringField(b, `,"laborTax2Name":`, c.LaborTax2Name)
	b = appendStringField(b, `,"feeTax2Name":`, c.FeeTax2Name)
	b = append(b, `,"hasMultipleTaxSupport":`...)
	b = strconv.AppendBool(b, c.HasMultipleTaxSupport)
	b = append(b, `,"taxLocation":`...)
	b = appendLocationPtr(b, c.TaxLocation)
	b = append(b, `,"isTaxServiceAvailable":`...)
	b = strconv.AppendBool(b, c.IsTaxServiceAvailable)
	b = appendMoney(b, `,"partsTotalTax":`, c.PartsTotalTax)
	b = appendMoney(b, `,"laborTotalTax":`, c.LaborTotalTax)
	b = appendMoney(b, `,"feeTotalTax":`, c.FeeTotalTax)
	return append(b, '}', '}')
}

func (c *ChangeOrderSummary) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"id":`, c.ID)
	b = appendInt(b, `,"number":`, c.Number)
	b = appendStringField(b, `,"name":`, c.Name)
	b = appendStringField(b, `,"status":`, string(c.Status))
	b = appendMoney(b, `,"total":{"changeOrderTotal":`, c.Total.ChangeOrderTotal)
	b = append(b, `,"currency":`...)
	b = c.Total.Currency.appendJSON(b)
	b = append(b, `},"customer":`...)
	if c.Customer == nil {
		b = append(b, "null"...)
	} else {
		b = append(c.Customer.appendFields(b), '}')
	}
	b = appendTime(b, `,"createdDate":`, c.CreatedDate)
	b = appendTime(b, `,"lastModifiedDate":`, c.LastModifiedDate)
	b = appendTime(b, `,"lastModifiedByUserDate":`, c.LastModifiedByUserDate)
	return append(b, '}')
}

func (c *Currency) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"code":`, c.Code)
	b = appendStringField(b, `,"symbol":`, c.Symbol)
	return append(b, '}')
}

// appendFieldVersions writes the map with its keys sorted, as json.Marshal
// does.
func appendFieldVersions(b []byte, m map[Field]int64) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var small [32]Field // on the stack: most documents have fewer keys
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonquote.AppendMarshal(b, string(k)), ':')
		b = strconv.AppendInt(b, m[k], 10)
	}
	return append(b, '}')
}

// appendArray writes a slice as json.Marshal does: null when nil.
func appendArray[T any](b []byte, s []T, elem func(*T, []byte) []byte) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(&s[i], b)
	}
	return append(b, ']')
}

// appendArrayErr is appendArray for elements whose encoding can fail.
func appendArrayErr[T any](b []byte, s []T, elem func(*T, []byte) ([]byte, error)) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(&s[i], b); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// The helpers below write a key (with the comma or brace before it) and
// a value as its MarshalJSON would.

func appendStringField(b []byte, key, s string) []byte {
	return jsonquote.AppendMarshal(append(b, key...), s)
}

func appendInt(b []byte, key string, v int64) []byte {
	return strconv.AppendInt(append(b, key...), v, 10)
}

func appendNullID(b []byte, key string, id NullID) []byte {
	b = append(b, key...)
	if id == 0 {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(id), 10)
}

func appendTime(b []byte, key string, t Time) []byte {
	return t.appendJSON(append(b, key...))
}

func appendMoney(b []byte, key string, m Money) []byte {
	return appendFixed(append(b, key...), int64(m), moneyPlaces, moneyPlaces)
}

func appendMoneyPtr(b []byte, key string, m *Money) []byte {
	if m == nil {
		return append(append(b, key...), "null"...)
	}
	return appendMoney(b, key, *m)
}

func appendRate(b []byte, key string, r Rate) []byte {
	return appendFixed(append(b, key...), int64(r), ratePlaces, 0)
}

func appendRatePtr(b []byte, key string, r *Rate) []byte {
	if r == nil {
		return append(append(b, key...), "null"...)
	}
	return appendRate(b, key, *r)
}
