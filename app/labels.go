package app

// People's words for the contract's enumerations: the desktop and the
// PDFs show these, never the API's identifiers. One place, so every
// screen and document says the same thing.

var statusLabels = map[Status]string{
	StatusUndefined:      "Not started",
	StatusDraft:          "Draft",
	StatusSubmitted:      "Submitted",
	StatusViewedByClient: "Viewed by client",
	StatusAccepted:       "Accepted",
	StatusDeclined:       "Declined",
	StatusDelayed:        "Delayed",
	StatusCompleted:      "Completed",
	StatusEmailFailed:    "Email failed",
	StatusExpired:        "Expired",
}

// Label is the status in words ("Viewed by client").
func (s Status) Label() string { return labelOf(statusLabels, s) }

var optionStatusLabels = map[OptionStatus]string{
	OptionDraft:    "Draft",
	OptionSelected: "Selected by the client",
	OptionDeclined: "Declined by the client",
}

// Label is the option status in words.
func (s OptionStatus) Label() string { return labelOf(optionStatusLabels, s) }

var taxStatusLabels = map[TaxStatus]string{
	TaxUndefined:   "Sales tax (not yet calculated)",
	TaxOK:          "Sales tax",
	TaxExempt:      "Sales tax (exempt)",
	TaxUnavailable: "Sales tax (not available)",
}

// Label is the summary line's name for the sales tax in this status, as
// a client reads it.
func (s TaxStatus) Label() string { return labelOf(taxStatusLabels, s) }

// Problem is what a salesperson must do so that tax can be computed, or
// "" when nothing is missing (Ok, Exempt).
func (s TaxStatus) Problem() string {
	switch s {
	case TaxUnavailable:
		return "Tax unavailable: check the location's state"
	case TaxUndefined:
		return "Tax not calculated: choose the customer's location"
	}
	return ""
}

var itemTypeLabels = map[ItemType]string{
	ItemPart:       "Part",
	ItemLabor:      "Labor",
	ItemFee:        "Fee",
	ItemCustomItem: "Custom item",
}

// Label is the item type in words ("Custom item").
func (t ItemType) Label() string { return labelOf(itemTypeLabels, t) }

// labelOf falls back to the identifier for a value the table lacks (a
// newer server's), so nothing shows blank.
func labelOf[T ~string](labels map[T]string, v T) string {
	if l, ok := labels[v]; ok {
		return l
	}
	return string(v)
}
