package syncer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	gosync "sync"

	"proposaldesk/app"
	"proposaldesk/localstore"
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
	// An entry still in flight (its answer lost) must be settled by
	// sending it again before a pull: a server copy that already holds
	// its effect would make its replay look refused here.
	pending, err := e.st.Pending(0)
	if err != nil {
		return err
	}
	for _, en := range pending {
		if en.State == localstore.StateSent {
			return fmt.Errorf("outbox entry %d is still in flight; the pull waits until it is settled", en.Seq)
		}
	}

	// Contacts and locations first: edits replayed on the pulled copies
	// may name them.
	if err := e.pullPeople(ctx); err != nil {
		return err
	}

	storeID, cursor, err := e.st.Cursor()
	if err != nil {
		return err
	}
	ch, err := e.c.Changes(ctx, cursor)
	if err != nil {
		return err
	}
	reset := false
	if storeID != "" && ch.StoreID != storeID {
		// The server's data was replaced (restored from a backup):
		// download everything again and keep the unsent edits.
		e.log.Info("sync: the server has a new store; downloading everything again", "old", storeID, "new", ch.StoreID)
		if err := e.st.ResetForNewStore(ctx, ch.StoreID); err != nil {
			return err
		}
		cursor, reset = "", true
		if ch, err = e.c.Changes(ctx, ""); err != nil {
			return err
		}
	}

	// The users commit with the first chunk, before any proposal, so
	// that edits replayed on the pulled copies see them.
	var dir *directory
	if cursor == "" || reset || e.dirAt.IsZero() || e.now().Sub(e.dirAt) >= e.dirEvery {
		if dir, err = e.fetchDirectory(ctx); err != nil {
			return err
		}
	}
	acct, err := e.st.Account()
	if err != nil {
		return err
	}
	// The account information comes from the newest proposal (the
	// highest ID; see accountFrom). Newest first, it is in the first
	// chunk that has a proposal, and a first sync lists the recent
	// proposals first.
	wantAcct := dir != nil || acct.Dealer.CompanyName == ""
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
		newAcct, haveAcct := accountFrom(acct, ps)
		putAcct := wantAcct && haveAcct
		// A chunk downloaded is committed even if the sync is stopped
		// meanwhile: it is complete, and the next sync needs it no more.
		err = e.st.ApplyPull(context.WithoutCancel(ctx), func(tx *localstore.PullTx) error {
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
			if !last {
				return nil
			}
			// Only now has everything the feed named been kept.
			if err := tx.SetCursor(ch.StoreID, ch.Cursor); err != nil {
				return err
			}
			return tx.SetLastSync(e.now())
		})
		if err != nil {
			return err
		}
		if dir != nil {
			e.dirAt, dir = e.now(), nil
		}
		if putAcct {
			acct, wantAcct = newAcct, false
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
