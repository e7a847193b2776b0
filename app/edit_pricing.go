package app

// SetPricing sets the proposal's parts discount: a percentage of the
// parts subtotal or an amount.
type SetPricing struct {
	ID                 int64         `json:"proposalId"`
	DiscountType       *DiscountType `json:"discountType,omitempty"`
	DiscountPercentage *Rate         `json:"discountPercentage,omitempty"`
	DiscountAmount     *Money        `json:"discountAmount,omitempty"`
}

const KindSetPricing MutationKind = "setPricing"
const OpSetPricing Operation = "SetPricing"

func init() {
	registerKind(func() Mutation { return &SetPricing{} }, refusedWhenLocked)
}

func (m *SetPricing) Kind() MutationKind   { return KindSetPricing }
func (m *SetPricing) Operation() Operation { return OpSetPricing }
func (m *SetPricing) ProposalID() int64    { return m.ID }

func (m *SetPricing) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/pricing",
		Extension: true, Name: "setPricing", Summary: "Set the parts discount (extension)",
		Doc: "Sets the parts discount: PartsDiscountType Percentage with PartsDiscountPercentage (0 to 100, at most 4 decimals) or Amount with PartsDiscountAmount (0 to the parts subtotal is sensible; at most 10,000,000). Omitted fields keep their value. " + lockedDoc}
}

func (m *SetPricing) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyEnum("PartsDiscountType", &m.DiscountType, DiscountTypes, "Percentage or Amount."),
		BodyPercent("PartsDiscountPercentage", &m.DiscountPercentage, "0 to 100, at most 4 decimals.").Within(0, int64(HundredPercent)),
		BodyMoney("PartsDiscountAmount", &m.DiscountAmount, "0 to 10,000,000, at most the currency's decimals.").Within(0, int64(MaxItemPrice)),
	}
}

func (m *SetPricing) Creates(*Proposal) []NewID  { return nil }
func (m *SetPricing) Writes() []Field            { return []Field{FieldPartsDiscount} }
func (m *SetPricing) Events() []WebhookEventType { return causesUpdated }
func (m *SetPricing) Describe() string           { return "Change the parts discount" }

func (m *SetPricing) Validate() error {
	if m.DiscountType == nil && m.DiscountPercentage == nil && m.DiscountAmount == nil {
		return Invalid("PartsDiscountType", "give a discount type, percentage or amount")
	}
	// The type's values and the ranges are the params' declarations,
	// checked by Apply before Validate.
	return nil
}

func (m *SetPricing) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	if m.DiscountType != nil {
		p.Pricing.DiscountType, _ = parseEnum("PartsDiscountType", string(*m.DiscountType), DiscountTypes)
	}
	if m.DiscountPercentage != nil {
		p.Pricing.DiscountPercentage = *m.DiscountPercentage
	}
	if m.DiscountAmount != nil {
		p.Pricing.DiscountAmount = *m.DiscountAmount
	}
	return nil
}
