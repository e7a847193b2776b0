package exportfmt

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"proposaldesk/app"
)

// ProposalColumns is the header of the proposals CSV: one row a proposal,
// with every figure of its financial summary. Profit columns are empty
// for a reader who may not see costs.
var ProposalColumns = []string{
	"proposalId", "number", "name", "status", "archived",
	"customerId", "customerName", "customerCompany", "customerEmail", "customerPhone",
	"locationStreet", "locationCity", "locationState", "locationPostalCode",
	"salespersonId", "salespersonName", "salespersonEmail",
	"createdDate", "lastModifiedDate", "lastSubmittedDate", "clientLastDecisionDate", "lastCompletedDate",
	"currency",
	"partsSubtotal", "partsDiscountType", "partsDiscountPercentage", "partsDiscount",
	"partsDiscountTaxable", "partsDiscountTaxExempt", "partsTotal", "laborTotal", "feeTotal",
	"proposalSubtotal",
	"taxStatus", "partsTax", "laborTax", "feeTax", "partsTax2", "laborTax2", "feeTax2",
	"partsTotalTax", "laborTotalTax", "feeTotalTax", "salesTaxTotal",
	"proposalTotal", "totalRecurringService",
	"profitTotal", "profitPercentage", "changeOrders",
}

// ItemColumns is the header of the line-items CSV: one row an item of
// every option of every area.
var ItemColumns = []string{
	"proposalId", "proposalNumber", "areaId", "areaName",
	"optionId", "optionNumber", "optionStatus", "optionCounted", "optionTotal", "optionTotalRecurringService",
	"itemId", "parentId", "itemType", "name", "brand", "model", "shortDescription", "description",
	"clientNote", "supplier", "quantity", "msrp", "sellPrice", "cost", "total", "isCombinedPrice",
	"isTaxExempt", "isRecurringService",
}

// CSV writes one part of a CSV export. The header is written by the
// constructor; call Flush at the end (and whenever the output should
// reach the writer) and check its error.
type CSV struct {
	w     *csv.Writer
	items bool
	row   []string
}

// NewProposalsCSV starts the proposals file on w.
func NewProposalsCSV(w io.Writer) *CSV { return newCSV(w, ProposalColumns, false) }

// NewItemsCSV starts the line-items file on w.
func NewItemsCSV(w io.Writer) *CSV { return newCSV(w, ItemColumns, true) }

func newCSV(w io.Writer, header []string, items bool) *CSV {
	c := &CSV{w: csv.NewWriter(w), items: items, row: make([]string, 0, len(header))}
	c.w.UseCRLF = true // RFC 4180 line breaks
	c.w.Write(header)
	return c
}

// Write adds a proposal: one row to the proposals file, or a row per item
// to the line-items file. It returns the number of rows written.
func (c *CSV) Write(d *app.ProposalDetail) (int, error) {
	if !c.items {
		return 1, c.w.Write(c.proposalRow(d))
	}
	n := 0
	for _, a := range d.Areas {
		counted := a.CountedIndex()
		for j := range a.Options {
			o := &a.Options[j]
			for k := range o.Items {
				if err := c.w.Write(c.itemRow(d, &a, o, j, j == counted, &o.Items[k])); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
}

// Flush writes buffered rows to the underlying writer.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

func (c *CSV) proposalRow(d *app.ProposalDetail) []string {
	fs := &d.FinancialSummary
	tax := &fs.SalesTax
	r := c.row[:0]
	r = append(r, id(d.ID), id(d.Number), Text(d.Name), string(d.Status), strconv.FormatBool(d.IsArchived))
	if cu := d.Customer; cu != nil {
		r = append(r, id(cu.ID), Text(cu.DisplayName()), Text(cu.CompanyName), Text(cu.ContactEmail), Text(cu.ContactPhone))
		if l := cu.Location; l != nil {
			r = append(r, Text(l.Street), Text(l.City), Text(stateOf(l)), Text(l.PostalCode))
		} else {
			r = append(r, "", "", "", "")
		}
	} else {
		r = append(r, "", "", "", "", "", "", "", "", "")
	}
	sp := d.Dealer.Salesperson
	r = append(r, id(sp.ID), Text(strings.TrimSpace(sp.FirstName+" "+sp.LastName)), Text(sp.Email))
	r = append(r, date(d.CreatedDate), date(d.LastModifiedDate), date(d.LastSubmittedDate),
		date(d.ClientLastDecisionDate), date(d.LastCompletedDate))
	r = append(r, fs.Currency.Code,
		fs.PartsSubtotal.String(), string(fs.PartsDiscountType), fs.PartsDiscountPercentage.String(), fs.PartsDiscount.String(),
		fs.PartsDiscountTaxable.String(), fs.PartsDiscountTaxExempt.String(), fs.PartsTotal.String(),
		fs.LaborTotal.String(), fs.FeeTotal.String(), fs.ProposalSubtotal.String())
	tc := &tax.Calculation
	r = append(r, string(tax.TaxStatus),
		tc.PartsTax.String(), tc.LaborTax.String(), tc.FeeTax.String(),
		tc.PartsTax2.String(), tc.LaborTax2.String(), tc.FeeTax2.String(),
		tc.PartsTotalTax.String(), tc.LaborTotalTax.String(), tc.FeeTotalTax.String(), tax.Total.String(),
		fs.ProposalTotal.String(), d.RecurringServices.TotalRecurringService.String())
	r = append(r, optMoney(d.Profit.Total), optRate(d.Profit.Percentage), strconv.Itoa(len(d.ChangeOrders)))
	c.row = r
	return r
}

func (c *CSV) itemRow(d *app.ProposalDetail, a *app.AreaView, o *app.OptionView, optIndex int, counted bool, it *app.ItemView) []string {
	r := c.row[:0]
	r = append(r, id(d.ID), id(d.Number), id(a.ID), Text(a.Name),
		id(o.ID), strconv.Itoa(optIndex+1), string(o.Status), strconv.FormatBool(counted),
		o.Total.String(), o.TotalRecurringService.String())
	parent := ""
	if it.ParentID != 0 {
		parent = id(int64(it.ParentID))
	}
	r = append(r, id(it.ID), parent, string(it.ItemType), Text(it.Name), Text(it.Brand), Text(it.Model),
		Text(it.ShortDescription), Text(it.Description), Text(it.ClientNote), Text(it.Supplier),
		it.Quantity.String(), it.MSRP.String(), it.SellPrice.String(), optMoney(it.Cost),
		it.Total.Amount.String(), strconv.FormatBool(it.Total.IsCombinedPrice),
		strconv.FormatBool(it.IsTaxExempt), strconv.FormatBool(it.IsRecurringService))
	c.row = r
	return r
}

// Text makes free text safe to open in a spreadsheet: a cell that starts
// with =, +, -, @, a tab or a carriage return would be read as a formula
// (CSV injection), so it gets a leading apostrophe, which spreadsheets
// hide. Figures are written as numbers and never passed through Text.
func Text(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

func id(v int64) string { return strconv.FormatInt(v, 10) }

func date(t app.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(app.TimeLayout)
}

func optMoney(m *app.Money) string {
	if m == nil {
		return ""
	}
	return m.String()
}

func optRate(r *app.Rate) string {
	if r == nil {
		return ""
	}
	return r.String()
}

func stateOf(l *app.Location) string {
	if l.StateAbbrev != "" {
		return l.StateAbbrev
	}
	return l.State
}
