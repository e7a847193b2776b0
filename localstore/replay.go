package localstore

import (
	"fmt"

	"proposaldesk/app"
)

// replay applies a proposal's queued edits one after another, as
// rebuildRecord does after every acknowledgment. After its first edit
// it owns the proposal it builds, so it changes it in place instead of
// copying it for each edit: with 500 lines queued on a 500-item
// proposal the copies were most of the time it took to send them
// (BenchmarkPushItems500 in sync). An edit refused in place may have
// left the proposal half changed, so the proposal is then made again
// from the last one replay did not own, with the edits applied since,
// and the edit is applied to it as Apply does: what replay gives is
// always what Apply, edit after edit, gives.
type replay struct {
	base  *app.Proposal // the last view replay does not own (a server copy, a source)
	view  *app.Proposal
	owned bool
	since []replayed // applied to base to make view
}

type replayed struct {
	m   app.Mutation
	env app.Env
}

// from starts again from p, which replay does not own.
func (r *replay) from(p *app.Proposal) {
	r.base, r.view, r.owned, r.since = p, p, false, r.since[:0]
}

// apply applies m to the view. A refusal (refused) leaves the view as
// it was; err is a failure to make it again.
func (r *replay) apply(m app.Mutation, env app.Env) (refused, err error) {
	if r.owned && m.ProposalID() != 0 {
		if app.ApplyInPlace(r.view, m, env) == nil {
			r.since = append(r.since, replayed{m, env})
			return nil, nil
		}
		if err := r.again(); err != nil {
			return nil, err
		}
	}
	next, refused := app.Apply(r.view, m, env)
	if refused != nil {
		return refused, nil
	}
	r.view, r.owned = next, true
	r.since = append(r.since, replayed{m, env})
	return nil, nil
}

// again makes the view from base and the edits applied since, and makes
// it the new base: it is kept as it is (the edit refused in place is
// applied to a copy), so a refusal after it replays only the edits
// applied after it, not the whole queue again.
func (r *replay) again() error {
	view := r.base
	for i, s := range r.since {
		next, err := app.Apply(view, s.m, s.env)
		if err != nil {
			// Apply gives the same answer for the same edit and
			// proposal: this is a bug, not a refusal to show.
			return fmt.Errorf("localstore: replaying edit %d of %d again: %w", i+1, len(r.since), err)
		}
		view = next
	}
	r.from(view)
	return nil
}
