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
// the bound can still be trimmed). Every edit runs it, so a proposal is
// encoded to be measured only when a cheap upper bound of its size
// passes the limit: encoding a 500-item proposal was 70 % of an edit's
// Apply (BenchmarkApplyItem500, 0.13 → 0.45 ms, same run).
func checkProposalSize(before, next *Proposal) error {
	if sizeBound(next) <= MaxProposalBytes {
		return nil
	}
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

// What an area, option or item encodes to beyond its texts (keys, IDs,
// amounts, dates, flags), with room to spare: an item's is about 600
// bytes at its longest. TestSizeBoundCoversTheEncoding holds the bound
// above the encoding with every text of every part filled.
const (
	areaOverhead   = 256
	optionOverhead = 512
	itemOverhead   = 1536
	// escaped is the most a text's byte takes in JSON (\u00XX).
	escaped = 6
)

// sizeBound is an upper bound of p's encoded size: everything but the
// areas encoded exactly (the customer, dealer, terms, change orders,
// field versions: small beside the areas, whose items make a proposal
// large), and each area, option and item by its overhead and its texts
// at their longest escaping.
func sizeBound(p *Proposal) int {
	rest := *p
	rest.Areas, rest.FieldVersions = nil, nil
	n, err := encodedSize(&rest)
	if err != nil {
		return MaxProposalBytes + 1 // measured, to say why
	}
	// The field versions, which grow with every field edited, by their
	// keys and the longest number: encoding and sorting them was 90% of
	// this bound's time on a proposal edited 500 times.
	n += len(`,"fieldVersions":{}`)
	for f := range p.FieldVersions {
		n += escaped*len(f) + len(`"":-9223372036854775808,`)
	}
	for i := range p.Areas {
		a := &p.Areas[i]
		n += areaOverhead + escaped*len(a.Name)
		for j := range a.Options {
			o := &a.Options[j]
			n += optionOverhead + escaped*(len(o.ClientDescription)+len(o.InstallerDescription))
			for k := range o.Items {
				it := &o.Items[k]
				n += itemOverhead + escaped*(len(it.Brand)+len(it.Model)+len(it.Description)+len(it.Name)+
					len(it.ShortDescription)+len(it.ClientNote)+len(it.ImageURL)+len(it.Supplier))
			}
		}
	}
	return n
}
