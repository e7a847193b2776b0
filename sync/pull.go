package syncer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	gosync "sync"

	"proposaldesk/app"
	"proposaldesk/localstore"
	"proposaldesk/sync/apiclient"
)

// Pull: the changes feed names the proposals changed since the stored
// cursor. They are downloaded a chunk at a time (pullChunk proposals, in
// a few GET /public/sync/proposals requests at once: pull_fetch.go) and
// each chunk is written in a local transaction of its own, so a pull of the whole account never
// holds more than one chunk of details in memory. The new cursor (and
// the last-sync time) commit only with the final chunk: a pull that
// stops midway (an error, the app killed) leaves the old cursor, and
// the next pull downloads the same proposals again. Installing a server
// copy twice is harmless (PutServerCopy ignores an older copy and an
// equal one changes nothing).

// DefaultPullChunk is how many changed proposals a pull downloads and
// commits at a time.
const DefaultPullChunk = 200

// directory is a download of the account's users (the contacts come
// through their own feed: people_pull.go).
type directory struct {
	users []app.User
}

func (e *Engine) pull(ctx context.Context) error {
	if err := e.checkNothingInFlight(); err != nil {
		return err
	}
	// Contacts and locations first: edits replayed on the pulled copies
	// may name them.
	if err := e.pullPeople(ctx); err != nil {
		return err
	}
	ch, fromStart, err := e.changes(ctx)
	if err != nil {
		return err
	}
	pl, err := e.planPull(ctx, fromStart)
	if err != nil {
		return err
	}
	return e.pullChunks(ctx, ch, pl)
}

// checkNothingInFlight refuses a pull while an outbox entry is in
// flight: its answer lost, it must be settled by sending it again first,
// or a server copy that already holds its effect would make its replay
// look refused here.
func (e *Engine) checkNothingInFlight() error {
	pending, err := e.st.Pending(0)
	if err != nil {
		return err
	}
	for _, en := range pending {
		if en.State == localstore.StateSent {
			return fmt.Errorf("outbox entry %d is still in flight; the pull waits until it is settled", en.Seq)
		}
	}
	return nil
}

// changes reads the changes feed from the stored cursor; fromStart says
// it was read from the beginning (a first sync, or a server whose data
// was replaced).
func (e *Engine) changes(ctx context.Context) (ch apiclient.ChangesResponse, fromStart bool, err error) {
	storeID, cursor, err := e.st.Cursor()
	if err != nil {
		return ch, false, err
	}
	if ch, err = e.c.Changes(ctx, cursor); err != nil {
		return ch, false, err
	}
	if storeID == "" || ch.StoreID == storeID {
		return ch, cursor == "", nil
	}
	// The server's data was replaced (restored from a backup): download
	// everything again and keep the unsent edits.
	e.log.Info("sync: the server has a new store; downloading everything again", "old", storeID, "new", ch.StoreID)
	if err := e.st.ResetForNewStore(ctx, ch.StoreID); err != nil {
		return ch, false, err
	}
	ch, err = e.c.Changes(ctx, "")
	return ch, true, err
}

// pullPlan is what a pull writes beside the proposals, each with the
// first chunk that can: the users (nil: not this time) and the account.
type pullPlan struct {
	dir *directory
	// acct is the account as stored; wantAcct says to store it again
	// from the first chunk that has a proposal.
	acct     localstore.AccountInfo
	wantAcct bool
}

// planPull decides whether the pull downloads the users (from the start,
// or when they are older than dirEvery) and the account.
func (e *Engine) planPull(ctx context.Context, fromStart bool) (pullPlan, error) {
	var pl pullPlan
	var err error
	if fromStart || e.dirAt.IsZero() || e.now().Sub(e.dirAt) >= e.dirEvery {
		if pl.dir, err = e.fetchDirectory(ctx); err != nil {
			return pl, err
		}
	}
	if pl.acct, err = e.st.Account(); err != nil {
		return pl, err
	}
	pl.wantAcct = pl.dir != nil || pl.acct.Dealer.CompanyName == ""
	return pl, nil
}

// pullChunks downloads and commits the proposals the feed named, a chunk
// at a time.
func (e *Engine) pullChunks(ctx context.Context, ch apiclient.ChangesResponse, pl pullPlan) error {
	// The account information comes from the newest proposal (the
	// highest ID; see accountFrom). Newest first, it is in the first
	// chunk that has a proposal, and a first sync lists the recent
	// proposals first.
	ids := ch.ProposalIDs
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Compare(b, a) })

	total := len(ids)
	chunks := max(1, (total+e.pullChunk-1)/e.pullChunk) // one, empty, when nothing changed
	e.progress(PhasePull, 0, total)
	// The next chunk downloads while one commits (prefetch), so the
	// commit's fsync and encoding overlap the next chunk's decoding.
	fetches := e.prefetcher(ctx, ids, ch.StoreID)
	defer fetches.stop()
	for i := range chunks {
		last := i == chunks-1
		ps, removed, err := fetches.get(i)
		if err != nil {
			return err
		}
		if !last {
			fetches.start(i + 1)
		}
		var done *apiclient.ChangesResponse
		if last {
			done = &ch
		}
		if err := e.commitChunk(ctx, &pl, ps, removed, done); err != nil {
			return err
		}
	}
	return nil
}

// commitChunk writes one downloaded chunk in a local transaction, with
// what of pl is still to be written; done, on the last chunk, is the
// feed whose cursor commits with it. pl keeps what is left.
func (e *Engine) commitChunk(ctx context.Context, pl *pullPlan, ps []pulled, removed []int64, done *apiclient.ChangesResponse) error {
	newAcct, haveAcct := accountFrom(pl.acct, ps)
	putAcct := pl.wantAcct && haveAcct
	dir := pl.dir
	// A chunk downloaded is committed even if the sync is stopped
	// meanwhile: it is complete, and the next sync needs it no more.
	err := e.st.ApplyPull(context.WithoutCancel(ctx), func(tx *localstore.PullTx) error {
		if dir != nil {
			if err := tx.PutUsers(dir.users); err != nil {
				return err
			}
		}
		if putAcct {
			if err := tx.PutAccount(newAcct); err != nil {
				return err
			}
		}
		if err := putPulled(tx, ps, removed); err != nil {
			return err
		}
		if done == nil {
			return nil
		}
		// Only now has everything the feed named been kept.
		if err := tx.SetCursor(done.StoreID, done.Cursor); err != nil {
			return err
		}
		return tx.SetLastSync(e.now())
	})
	if err != nil {
		return err
	}
	for _, p := range ps {
		e.noteClientLink(p.p)
	}
	if dir != nil {
		e.dirAt, pl.dir = e.now(), nil
	}
	if putAcct {
		pl.acct, pl.wantAcct = newAcct, false
	}
	return nil
}

// putPulled installs a chunk's server copies and drops the proposals the
// server no longer has.
func putPulled(tx *localstore.PullTx, ps []pulled, removed []int64) error {
	for _, p := range ps {
		var err error
		if p.raw != nil {
			err = tx.PutServerCopyJSON(p.p, p.raw)
		} else {
			err = tx.PutServerCopy(p.p)
		}
		if err != nil {
			return fmt.Errorf("proposal %d: %w", p.p.ID, err)
		}
	}
	for _, id := range removed {
		if err := tx.RemoveProposal(id); err != nil {
			return err
		}
	}
	return nil
}

// fetchDirectory downloads the users (one request).
func (e *Engine) fetchDirectory(ctx context.Context) (*directory, error) {
	sps, err := e.c.ListUsers(ctx)
	if err != nil {
		return nil, err
	}
	d := &directory{}
	for _, sp := range sps {
		u := app.User{ID: sp.ID, Email: sp.Email, FirstName: sp.FirstName, LastName: sp.LastName}
		if sp.ID == e.actor.ID {
			u = e.actor
		}
		d.users = append(d.users, u)
	}
	return d, nil
}

// accountFrom works out the account information the rules need from the
// newest proposal pulled (the API has no account endpoint): its dealer,
// currency and terms. Tax overrides are kept as cached.
func accountFrom(old localstore.AccountInfo, ps []pulled) (localstore.AccountInfo, bool) {
	var newest *app.Proposal
	for _, p := range ps {
		if newest == nil || p.p.ID > newest.ID {
			newest = p.p
		}
	}
	if newest == nil {
		return old, false
	}
	a := old
	a.Dealer, a.Currency, a.Terms = newest.Dealer, newest.Currency, newest.ProjectTerms
	return a, true
}

// parallel runs fn for 0..n-1 with at most limit at once; the first
// error cancels the rest and is returned.
func parallel(ctx context.Context, limit, n int, fn func(ctx context.Context, i int) error) error {
	if n == 0 {
		return nil
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       gosync.WaitGroup
		once     gosync.Once
		firstErr error
	)
	next := make(chan int)
	for w := 0; w < min(limit, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return parent.Err()
}
