package app

// SetOptionInstallerNotes is operation 12 (shown as installerDescription).
type SetOptionInstallerNotes struct {
	ID             int64  `json:"proposalId"`
	OptionID       int64  `json:"optionId"`
	InstallerNotes string `json:"installerNotes"`
}

const KindSetOptionInstaller MutationKind = "setOptionInstallerNotes"
const OpSetOptionInstaller Operation = "SetOptionInstallerNotes"

func init() {
	registerKind(func() Mutation { return &SetOptionInstallerNotes{} }, refusedWhenLocked)
}

func (m *SetOptionInstallerNotes) Kind() MutationKind   { return KindSetOptionInstaller }
func (m *SetOptionInstallerNotes) Operation() Operation { return OpSetOptionInstaller }
func (m *SetOptionInstallerNotes) ProposalID() int64    { return m.ID }
func (m *SetOptionInstallerNotes) Validate() error {
	return CheckText("InstallerNotes", m.InstallerNotes)
}

func (m *SetOptionInstallerNotes) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}/installernotes",
		Name: "setOptionInstallerNotes", Summary: "Update option installer notes (12)",
		Doc: "Shown as the option's installerDescription. An empty string clears. " + lockedDoc}
}

func (m *SetOptionInstallerNotes) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("AreaOptionId", &m.OptionID),
		BodyText("InstallerNotes", &m.InstallerNotes, "The notes; empty clears them.").Max(MaxTextLength).Require(),
	}
}

func (m *SetOptionInstallerNotes) Creates(*Proposal) []NewID { return nil }
func (m *SetOptionInstallerNotes) Writes() []Field {
	return []Field{OptionField(m.OptionID, "installerDescription")}
}

// Events: every change of content is an update.
func (m *SetOptionInstallerNotes) Events() []WebhookEventType { return causesUpdated }

func (m *SetOptionInstallerNotes) Describe() string { return "Change an option's installer notes" }

func (m *SetOptionInstallerNotes) apply(p *Proposal, env *Env) error {
	o, err := editableOption(p, m.OptionID)
	if err != nil {
		return err
	}
	o.InstallerDescription = m.InstallerNotes
	o.LastModifiedDate = At(env.Now)
	return nil
}
