package app

import (
	"strconv"

	"proposaldesk/app/jsonquote"
)

// The stored form of a document (a proposal's or a change order's),
// written by hand for Proposal.AppendJSON, in json.Marshal's order.

// appendFields writes the document's fields after an opening brace and
// leaves the object open: a proposal's own fields follow them.
func (d *Document) appendFields(b []byte) []byte {
	b = appendDocumentStart(b, d.ID, d.Number, d.Name, d.Status, &[7]Time{d.CreatedDate, d.ClientLastDecisionDate,
		d.LastCompletedDate, d.LastModifiedDate, d.LastModifiedByUserDate, d.LastSubmittedDate, d.ClientLastOpenedDate})
	b = appendCustomer(b, d.Customer)
	b = append(b, `,"salesPerson":`...)
	b = d.SalesPerson.appendJSON(b)
	b = append(b, `,"dealer":`...)
	b = d.Dealer.appendJSON(b)
	b = append(b, `,"currency":`...)
	b = d.Currency.appendJSON(b)
	b = appendStringField(b, `,"coverpageImageUrl":`, d.CoverpageImageURL)
	b = appendStringField(b, `,"aboutUs":`, d.AboutUs)
	b = appendStringField(b, `,"projectDescription":`, d.ProjectDescription)
	b = appendStringField(b, `,"internalNotes":`, d.InternalNotes)
	b = appendStringField(b, `,"projectTerms":`, d.ProjectTerms)
	b = append(b, `,"areas":`...)
	b = appendArray(b, d.Areas, (*Area).appendJSON)
	b = appendStringField(b, `,"pricing":{"discountType":`, string(d.Pricing.DiscountType))
	b = appendRate(b, `,"discountPercentage":`, d.Pricing.DiscountPercentage)
	b = appendMoney(b, `,"discountAmount":`, d.Pricing.DiscountAmount)
	b = append(b, `},"tax":`...)
	b = d.Tax.appendJSON(b)
	b = appendStringField(b, `,"paymentSchedule":{"customerDescription":`, d.PaymentSchedule.CustomerDescription)
	b = append(b, `,"payments":`...)
	b = appendArray(b, d.PaymentSchedule.Payments, (*PaymentTerm).appendJSON)
	b = append(b, `},"paymentRequests":`...)
	b = appendArray(b, d.PaymentRequests, (*PaymentRequest).appendJSON)
	b = appendStringField(b, `,"lastModifiedUser":{"firstName":`, d.LastModifiedUser.FirstName)
	b = appendStringField(b, `,"lastName":`, d.LastModifiedUser.LastName)
	return append(b, '}')
}

// documentDates are the keys of the dates every document's JSON has
// after its status, in their order.
var documentDates = [7]string{`,"createdDate":`, `,"clientLastDecisionDate":`, `,"lastCompletedDate":`,
	`,"lastModifiedDate":`, `,"lastModifiedByUserDate":`, `,"lastSubmittedDate":`, `,"clientLastOpenedDate":`}

// appendDocumentStart opens a document (stored or viewed) and writes the
// fields both forms start with, up to the customer's key.
func appendDocumentStart(b []byte, id, number int64, name string, status Status, dates *[7]Time) []byte {
	b = appendInt(b, `{"id":`, id)
	b = appendInt(b, `,"number":`, number)
	b = appendStringField(b, `,"name":`, name)
	b = appendStringField(b, `,"status":`, string(status))
	for i, key := range documentDates {
		b = appendTime(b, key, dates[i])
	}
	return append(b, `,"customer":`...)
}

func (c *ChangeOrder) appendJSON(b []byte) []byte {
	return append(c.Document.appendFields(b), '}')
}

// appendCustomer writes a customer: its contact's fields and its
// location, or null.
func appendCustomer(b []byte, c *Customer) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = c.Contact.appendFields(b)
	b = append(b, `,"location":`...)
	b = appendLocationPtr(b, c.Location)
	return append(b, '}')
}

func (s *Salesperson) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"id":`, s.ID)
	b = appendStringField(b, `,"email":`, s.Email)
	b = appendStringField(b, `,"firstName":`, s.FirstName)
	b = appendStringField(b, `,"lastName":`, s.LastName)
	return append(b, '}')
}

func (d *DealerProfile) appendJSON(b []byte) []byte {
	return append(appendDealerFields(b, d.CompanyName, d.WebSiteURL, d.CompanyPhone, d.CompanyLogoURL, &d.Location), '}')
}

// appendDealerFields opens a dealer (stored or viewed) and writes the
// fields both forms have.
func appendDealerFields(b []byte, name, web, phone, logo string, l *Location) []byte {
	b = appendStringField(b, `{"companyName":`, name)
	b = appendStringField(b, `,"webSiteUrl":`, web)
	b = appendStringField(b, `,"companyPhone":`, phone)
	b = appendStringField(b, `,"companyLogoUrl":`, logo)
	return l.appendJSON(append(b, `,"location":`...))
}

func (t *TaxSettings) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"status":`, string(t.Status))
	b = appendStringField(b, `,"method":`, string(t.Method))
	b = append(b, `,"applyTo":`...)
	b = appendArray(b, t.ApplyTo, func(a *ApplyTo, b []byte) []byte { return jsonquote.AppendMarshal(b, string(*a)) })
	b = append(b, `,"parts":`...)
	b = t.Parts.appendJSON(b)
	b = append(b, `,"labor":`...)
	b = t.Labor.appendJSON(b)
	b = append(b, `,"fees":`...)
	b = t.Fees.appendJSON(b)
	b = append(b, `,"hasMultipleTaxSupport":`...)
	b = strconv.AppendBool(b, t.HasMultipleTaxSupport)
	b = append(b, `,"taxLocation":`...)
	b = appendLocationPtr(b, t.TaxLocation)
	b = append(b, `,"isTaxServiceAvailable":`...)
	b = strconv.AppendBool(b, t.IsTaxServiceAvailable)
	return append(b, '}')
}

func (r *TaxRates) appendJSON(b []byte) []byte {
	b = appendRate(b, `{"rate":`, r.Rate)
	b = appendStringField(b, `,"name":`, r.Name)
	b = appendRate(b, `,"second":`, r.Second)
	b = appendStringField(b, `,"secondName":`, r.SecondName)
	return append(b, '}')
}

func (p *PaymentTerm) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"calculation":`, p.Calculation)
	b = appendRate(b, `,"percentage":`, p.Percentage)
	b = appendMoney(b, `,"amount":`, p.Amount)
	b = appendTime(b, `,"dueDate":`, p.DueDate)
	b = appendStringField(b, `,"milestone":`, p.Milestone)
	return append(b, '}')
}
