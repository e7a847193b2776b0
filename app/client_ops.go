package app

// The operations of sending a proposal and reading its evidence: a send
// writes (the edit permission and an active subscription, like the
// status change it makes); the events and the signed PDF are reads.
const (
	OpSendProposal   Operation = "SendProposal"
	OpProposalEvents Operation = "ProposalEvents"
	OpSignedPDF      Operation = "SignedPDF"
)

func init() {
	operations[OpSendProposal] = opRule{perm: PermEditProposals, subscription: true}
	operations[OpProposalEvents] = opRule{perm: PermViewProposals}
	operations[OpSignedPDF] = opRule{perm: PermViewProposals}
}
