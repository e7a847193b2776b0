package app

// A proposal is read, written and answered whole (each edit answers its
// full detail), so one very large proposal costs every request of every
// account that waits behind it. Its stored size is therefore bounded,
// beside the bound on each text.

// MaxProposalBytes bounds a proposal's stored JSON: 4 MiB holds the
// largest allowed item count (5,000) with ordinary texts, and is about a
// quarter of a second to read and write on the reference machine.
const MaxProposalBytes = 4 << 20

// checkProposalSize refuses an edit that leaves next larger than
// MaxProposalBytes, unless it does not grow it (a proposal stored before
// the bound can still be trimmed).
func checkProposalSize(before, next *Proposal) error {
	n, err := encodedSize(next)
	if err != nil || n <= MaxProposalBytes {
		return err
	}
	if before != nil {
		was, err := encodedSize(before)
		if err != nil {
			return err
		}
		if n <= was {
			return nil
		}
	}
	return Errorf(KindPayloadTooLarge,
		"The proposal would take %d bytes; the limit is %d (4 MiB). Shorten its texts or remove items or options.", n, MaxProposalBytes)
}

func encodedSize(p *Proposal) (int, error) {
	b, err := p.AppendJSON(nil)
	return len(b), err
}
