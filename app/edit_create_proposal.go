package app

// CreateProposal is operation 2. ID is set only by the desktop, which
// gives a proposal created offline a temporary ID.
type CreateProposal struct {
	ID            int64   `json:"id,omitempty"`
	SalesPersonID int64   `json:"salesPersonId"`
	Name          *string `json:"name,omitempty"`
}

const KindCreateProposal MutationKind = "createProposal"
const OpCreateProposal Operation = "CreateProposal"

func init() {
	registerKind(func() Mutation { return &CreateProposal{} }, allowedWhenLocked)
}

func (m *CreateProposal) Kind() MutationKind   { return KindCreateProposal }
func (m *CreateProposal) Operation() Operation { return OpCreateProposal }
func (m *CreateProposal) ProposalID() int64    { return 0 }

func (m *CreateProposal) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals",
		Name: "createProposal", Summary: "Create proposal (2)",
		Doc: "Creates a Draft proposal. Without a Name (or with a blank one) the proposal is named \"Proposal <number>\", the web application's default. Tax starts Undefined with method ClientLocation and applyTo [Parts]; projectTerms come from the account."}
}

func (m *CreateProposal) Params() []Param {
	return []Param{
		BodyID("SalesPersonId", &m.SalesPersonID, "A user of the same account (404 NotFound otherwise).").Require(),
		BodyText("Name", &m.Name, "The proposal's name; blank means the default name.").Max(MaxNameLength).BlankIsAbsent(),
	}
}

func (m *CreateProposal) Creates(*Proposal) []NewID {
	return []NewID{{ID: &m.ID, Find: func(_, after *Proposal) (int64, bool) { return after.ID, true }}}
}

func (m *CreateProposal) Writes() []Field            { return []Field{FieldName, FieldSalesPerson} }
func (m *CreateProposal) Events() []WebhookEventType { return causesCreated }
func (m *CreateProposal) Describe() string           { return "Create the proposal" }

func (m *CreateProposal) Validate() error {
	if m.SalesPersonID <= 0 {
		return Invalid("SalesPersonId", "is required")
	}
	if m.Name != nil {
		return CheckName("Name", *m.Name)
	}
	return nil
}

func (m *CreateProposal) apply(p *Proposal, env *Env) error {
	sp, err := salesperson(env, m.SalesPersonID)
	if err != nil {
		return err
	}
	now := At(env.Now)
	p.ID = newID(env, m.ID)
	if env.NextNumber != nil {
		p.Number = env.NextNumber()
	}
	p.Name = DefaultProposalName(p.Number)
	if m.Name != nil {
		p.Name = *m.Name
	}
	p.Status = StatusDraft
	p.CreatedDate = now
	p.SalesPerson = sp
	p.Dealer = env.Account.Dealer
	p.Currency = env.Account.Currency
	if p.Currency.Code == "" {
		p.Currency = USD
	}
	p.ProjectTerms = env.Account.Terms
	p.Pricing = Pricing{DiscountType: DiscountPercentage}
	p.Tax = TaxSettings{Status: TaxUndefined, Method: TaxClientLocation, ApplyTo: []ApplyTo{ApplyParts}}
	p.Areas = []Area{}
	p.PaymentRequests = []PaymentRequest{}
	p.ChangeOrders = []ChangeOrder{}
	return nil
}
