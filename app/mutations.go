package app

// The mutation types, one per write of the API. Fields named ...ID that
// create something (CreateArea.AreaID, …) are set only by the desktop,
// which gives offline creates temporary IDs; the server leaves them zero
// and allocates its own. Temporary IDs are negative (see IsTemporaryID),
// so references to offline creates pass the same rules as real ones.

// CreateProposal is operation 2.
type CreateProposal struct {
	ID            int64   `json:"id,omitempty"`
	SalesPersonID int64   `json:"salesPersonId"`
	Name          *string `json:"name,omitempty"`
}

func (m *CreateProposal) Kind() MutationKind   { return KindCreateProposal }
func (m *CreateProposal) Operation() Operation { return OpCreateProposal }
func (m *CreateProposal) ProposalID() int64    { return 0 }

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

// UpdateProposal is operation 4: a partial update of name and salesperson.
type UpdateProposal struct {
	ID            int64   `json:"proposalId"`
	Name          *string `json:"name,omitempty"`
	SalesPersonID *int64  `json:"salesPersonId,omitempty"`
}

func (m *UpdateProposal) Kind() MutationKind   { return KindUpdateProposal }
func (m *UpdateProposal) Operation() Operation { return OpUpdateProposal }
func (m *UpdateProposal) ProposalID() int64    { return m.ID }

func (m *UpdateProposal) Validate() error {
	if m.Name != nil {
		if err := CheckName("Name", *m.Name); err != nil {
			return err
		}
	}
	if m.SalesPersonID != nil && *m.SalesPersonID <= 0 {
		return Invalid("SalesPersonId", "must be a user ID")
	}
	return nil
}

func (m *UpdateProposal) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	if m.SalesPersonID != nil {
		sp, err := salesperson(env, *m.SalesPersonID)
		if err != nil {
			return err
		}
		p.SalesPerson = sp
	}
	if m.Name != nil {
		p.Name = *m.Name
	}
	return nil
}

// SetDescription is operation 5: the client-facing project description.
type SetDescription struct {
	ID          int64  `json:"proposalId"`
	Description string `json:"description"`
}

func (m *SetDescription) Kind() MutationKind   { return KindSetDescription }
func (m *SetDescription) Operation() Operation { return OpSetDescription }
func (m *SetDescription) ProposalID() int64    { return m.ID }
func (m *SetDescription) Validate() error      { return CheckText("Description", m.Description) }

func (m *SetDescription) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	p.ProjectDescription = m.Description
	return nil
}

// SetInternalNotes is operation 6. Installers need their notes after a
// proposal is accepted, so this write works in every status.
type SetInternalNotes struct {
	ID            int64  `json:"proposalId"`
	InternalNotes string `json:"internalNotes"`
}

func (m *SetInternalNotes) Kind() MutationKind   { return KindSetInternalNotes }
func (m *SetInternalNotes) Operation() Operation { return OpSetInternalNotes }
func (m *SetInternalNotes) ProposalID() int64    { return m.ID }
func (m *SetInternalNotes) Validate() error      { return CheckText("InternalNotes", m.InternalNotes) }

func (m *SetInternalNotes) apply(p *Proposal, env *Env) error {
	p.InternalNotes = m.InternalNotes
	return nil
}

// CreateArea is operation 9: a new area with its default Draft option.
type CreateArea struct {
	ID       int64  `json:"proposalId"`
	Name     string `json:"name"`
	AreaID   int64  `json:"areaId,omitempty"`
	OptionID int64  `json:"optionId,omitempty"`
}

func (m *CreateArea) Kind() MutationKind   { return KindCreateArea }
func (m *CreateArea) Operation() Operation { return OpCreateArea }
func (m *CreateArea) ProposalID() int64    { return m.ID }
func (m *CreateArea) Validate() error      { return CheckName("Name", m.Name) }

func (m *CreateArea) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	if err := checkAreaNameFree(&p.Document, m.Name); err != nil {
		return err
	}
	now := At(env.Now)
	p.Areas = append(p.Areas, Area{
		ID:   newID(env, m.AreaID),
		Name: m.Name,
		Options: []Option{{ID: newID(env, m.OptionID), Status: OptionDraft,
			LastModifiedDate: now, Items: []Item{}}},
	})
	return nil
}

// CreateOption is operation 10.
type CreateOption struct {
	ID                int64  `json:"proposalId"`
	AreaID            int64  `json:"areaId"`
	ClientDescription string `json:"clientDescription"`
	InternalNotes     string `json:"internalNotes"`
	OptionID          int64  `json:"optionId,omitempty"`
}

func (m *CreateOption) Kind() MutationKind   { return KindCreateOption }
func (m *CreateOption) Operation() Operation { return OpCreateOption }
func (m *CreateOption) ProposalID() int64    { return m.ID }

func (m *CreateOption) Validate() error {
	if err := CheckText("ClientDescription", m.ClientDescription); err != nil {
		return err
	}
	return CheckText("InternalNotes", m.InternalNotes)
}

func (m *CreateOption) apply(p *Proposal, env *Env) error {
	area, ok := p.Area(m.AreaID)
	if !ok {
		return Errorf(KindNotFound, "area %d not found in proposal %d", m.AreaID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return err
	}
	if err := CanAddOption(area); err != nil {
		return err
	}
	area.Options = append(area.Options, Option{
		ID: newID(env, m.OptionID), Status: OptionDraft, LastModifiedDate: At(env.Now),
		ClientDescription: m.ClientDescription, InstallerDescription: m.InternalNotes, Items: []Item{},
	})
	return nil
}

// SetOptionClientDescription is operation 11.
type SetOptionClientDescription struct {
	ID                int64  `json:"proposalId"`
	OptionID          int64  `json:"optionId"`
	ClientDescription string `json:"clientDescription"`
}

func (m *SetOptionClientDescription) Kind() MutationKind   { return KindSetOptionClientDesc }
func (m *SetOptionClientDescription) Operation() Operation { return OpSetOptionClientDesc }
func (m *SetOptionClientDescription) ProposalID() int64    { return m.ID }
func (m *SetOptionClientDescription) Validate() error {
	return CheckText("ClientDescription", m.ClientDescription)
}

func (m *SetOptionClientDescription) apply(p *Proposal, env *Env) error {
	o, err := editableOption(p, m.OptionID)
	if err != nil {
		return err
	}
	o.ClientDescription = m.ClientDescription
	o.LastModifiedDate = At(env.Now)
	return nil
}

// SetOptionInstallerNotes is operation 12 (shown as installerDescription).
type SetOptionInstallerNotes struct {
	ID             int64  `json:"proposalId"`
	OptionID       int64  `json:"optionId"`
	InstallerNotes string `json:"installerNotes"`
}

func (m *SetOptionInstallerNotes) Kind() MutationKind   { return KindSetOptionInstaller }
func (m *SetOptionInstallerNotes) Operation() Operation { return OpSetOptionInstaller }
func (m *SetOptionInstallerNotes) ProposalID() int64    { return m.ID }
func (m *SetOptionInstallerNotes) Validate() error {
	return CheckText("InstallerNotes", m.InstallerNotes)
}

func (m *SetOptionInstallerNotes) apply(p *Proposal, env *Env) error {
	o, err := editableOption(p, m.OptionID)
	if err != nil {
		return err
	}
	o.InstallerDescription = m.InstallerNotes
	o.LastModifiedDate = At(env.Now)
	return nil
}

// editableOption finds an option of the proposal that may be edited.
func editableOption(p *Proposal, optionID int64) (*Option, error) {
	o, ok := p.Option(optionID)
	if !ok {
		return nil, Errorf(KindNotFound, "option %d not found in proposal %d", optionID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return nil, err
	}
	return o, nil
}

// AssignContact is operation 13. A contact with exactly one primary
// location brings that location along; otherwise the proposal is left
// without a location until one is assigned.
type AssignContact struct {
	ID        int64 `json:"proposalId"`
	ContactID int64 `json:"contactId"`
}

func (m *AssignContact) Kind() MutationKind   { return KindAssignContact }
func (m *AssignContact) Operation() Operation { return OpAssignContact }
func (m *AssignContact) ProposalID() int64    { return m.ID }

func (m *AssignContact) Validate() error {
	// A negative ID is a contact the desktop created offline.
	if m.ContactID == 0 {
		return Invalid("ContactId", "is required")
	}
	return nil
}

func (m *AssignContact) apply(p *Proposal, env *Env) error {
	var contact Contact
	ok := false
	if env.Directory != nil {
		contact, ok = env.Directory.Contact(m.ContactID)
	}
	if !ok {
		return Errorf(KindNotFound, "contact %d not found in this account", m.ContactID)
	}
	var primary *Location
	if env.Directory != nil {
		primary = PrimaryLocation(env.Directory.ContactLocations(m.ContactID))
	}
	p.Customer = &Customer{Contact: contact, Location: copyLocation(primary)}
	applyLocationTax(&p.Document, primary, env.Account.Taxes)
	return nil
}

// PrimaryLocation is the contact's single primary location, or nil when
// it has none or (bad data) several.
func PrimaryLocation(locs []ContactLocation) *Location {
	var found *Location
	for i := range locs {
		if locs[i].IsPrimary {
			if found != nil {
				return nil
			}
			found = &locs[i].Location
		}
	}
	return found
}

// AssignLocation is operation 14: one of the assigned contact's locations,
// which recalculates tax.
type AssignLocation struct {
	ID         int64 `json:"proposalId"`
	LocationID int64 `json:"locationId"`
}

func (m *AssignLocation) Kind() MutationKind   { return KindAssignLocation }
func (m *AssignLocation) Operation() Operation { return OpAssignLocation }
func (m *AssignLocation) ProposalID() int64    { return m.ID }

func (m *AssignLocation) Validate() error {
	// A negative ID is a location the desktop created offline.
	if m.LocationID == 0 {
		return Invalid("LocationId", "is required")
	}
	return nil
}

func (m *AssignLocation) apply(p *Proposal, env *Env) error {
	var loc ContactLocation
	ok := false
	if env.Directory != nil {
		loc, ok = env.Directory.Location(m.LocationID)
	}
	if !ok {
		return Errorf(KindNotFound, "location %d not found in this account", m.LocationID)
	}
	if p.Customer == nil {
		return Errorf(KindNoContactAssigned, "proposal %d has no contact assigned, so a location cannot be set", p.Number)
	}
	if loc.ContactID != p.Customer.ID {
		return Errorf(KindNotFound, "location %d does not belong to the proposal's contact", m.LocationID)
	}
	p.Customer.Location = copyLocation(&loc.Location)
	applyLocationTax(&p.Document, &loc.Location, env.Account.Taxes)
	return nil
}

// ChangeStatus is the status-change extension; the allowed moves are
// Status.CanMoveTo.
type ChangeStatus struct {
	ID     int64  `json:"proposalId"`
	Status Status `json:"status"`
}

func (m *ChangeStatus) Kind() MutationKind   { return KindChangeStatus }
func (m *ChangeStatus) Operation() Operation { return OpChangeStatus }
func (m *ChangeStatus) ProposalID() int64    { return m.ID }

func (m *ChangeStatus) Validate() error {
	if _, err := ParseStatus(string(m.Status)); err != nil {
		return Invalid("Status", "%v", err)
	}
	return nil
}

func (m *ChangeStatus) apply(p *Proposal, env *Env) error {
	// Validate accepted the status in any letter case; move to its
	// canonical spelling.
	next, err := ParseStatus(string(m.Status))
	if err != nil {
		return Invalid("Status", "%v", err)
	}
	if !p.Status.CanMoveTo(next) {
		return Errorf(KindInvalidTransition, "a %s proposal cannot move to %s", p.Status, next)
	}
	now := At(env.Now)
	p.Status = next
	switch next {
	case StatusSubmitted:
		p.LastSubmittedDate = now
	case StatusAccepted, StatusDeclined:
		p.ClientLastDecisionDate = now
	case StatusCompleted:
		p.LastCompletedDate = now
	}
	return nil
}
