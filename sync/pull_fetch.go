package syncer

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	gosync "sync"

	"proposaldesk/app"
)

// pulled is a downloaded proposal: the copy to install and, when the
// server's JSON decodes to exactly that copy, the JSON itself, which the
// local store keeps as it is instead of encoding the copy again.
type pulled struct {
	p   *app.Proposal
	raw []byte
}

// prefetcher downloads the chunks of a pull, at most one ahead of the
// one being committed.
type prefetcher struct {
	e       *Engine
	ctx     context.Context
	cancel  context.CancelFunc
	ids     []int64
	storeID string
	next    int // the chunk in flight on ch, or -1
	ch      chan fetched
}

type fetched struct {
	ps      []pulled
	removed []int64
	err     error
}

func (e *Engine) prefetcher(ctx context.Context, ids []int64, storeID string) *prefetcher {
	ctx, cancel := context.WithCancel(ctx)
	return &prefetcher{e: e, ctx: ctx, cancel: cancel, ids: ids, storeID: storeID, next: -1}
}

// start downloads chunk i in the background.
func (f *prefetcher) start(i int) {
	from, to := min(i*f.e.pullChunk, len(f.ids)), min((i+1)*f.e.pullChunk, len(f.ids))
	f.next, f.ch = i, make(chan fetched, 1)
	ch := f.ch
	go func() {
		ps, removed, err := f.e.fetchProposals(f.ctx, f.ids[from:to], f.storeID, from, len(f.ids))
		ch <- fetched{ps, removed, err}
	}()
}

// get is chunk i, downloaded: the one started, or now.
func (f *prefetcher) get(i int) ([]pulled, []int64, error) {
	if f.next != i {
		f.start(i)
	}
	got := <-f.ch
	f.next = -1
	return got.ps, got.removed, got.err
}

// stop cancels a download still in flight and waits for it, so that no
// progress is reported after the pull has returned.
func (f *prefetcher) stop() {
	f.cancel()
	if f.next >= 0 {
		<-f.ch
		f.next = -1
	}
}

// fetchProposals downloads the proposals ids of one chunk, split into
// e.concurrency requests in flight (the server reads and this side
// decodes in parallel), counting progress from done of total. Proposals
// the server no longer shows this user are returned as removed. A
// response from another store than the feed's (the server's data
// replaced midway) fails the pull: the next one starts over.
func (e *Engine) fetchProposals(ctx context.Context, ids []int64, storeID string, done, total int) ([]pulled, []int64, error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	// Never more IDs in a request than the server takes.
	parts := splitIDs(ids, max(e.concurrency, (len(ids)+app.MaxSyncProposals-1)/app.MaxSyncProposals))
	got := make([][]pulled, len(parts))
	gone := make([][]int64, len(parts))
	var mu gosync.Mutex
	err := parallel(ctx, e.concurrency, len(parts), func(ctx context.Context, i int) error {
		page, err := e.c.SyncProposals(ctx, parts[i])
		if err != nil {
			return err
		}
		if page.StoreID != storeID {
			return fmt.Errorf("the server's store changed during the pull (%q, now %q)", storeID, page.StoreID)
		}
		asked := make(map[int64]bool, len(parts[i]))
		for _, id := range parts[i] {
			asked[id] = true
		}
		for _, raw := range page.Proposals {
			p, err := pulledFrom(raw)
			if err != nil {
				return err
			}
			if !asked[p.p.ID] {
				return fmt.Errorf("the server sent proposal %d, which was not asked for", p.p.ID)
			}
			delete(asked, p.p.ID)
			got[i] = append(got[i], p)
			mu.Lock()
			done++
			e.progress(PhasePull, done, total)
			mu.Unlock()
		}
		for _, id := range page.Missing {
			if !asked[id] {
				return fmt.Errorf("the server lists proposal %d as missing, which was not asked for or was sent", id)
			}
			delete(asked, id)
		}
		if len(asked) > 0 {
			return fmt.Errorf("the server answered nothing for %d of the proposals asked for", len(asked))
		}
		gone[i] = page.Missing
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var ps []pulled
	var removed []int64
	for i := range parts {
		ps = append(ps, got[i]...)
		removed = append(removed, gone[i]...)
	}
	return ps, removed, nil
}

// pulledFrom decodes one proposal of GET /public/sync/proposals into
// the copy the detail GETs would have given (PulledCopy), keeping raw
// when it decodes to exactly that copy.
func pulledFrom(raw json.RawMessage) (pulled, error) {
	var p app.Proposal
	if err := json.Unmarshal(raw, &p); err != nil {
		return pulled{}, fmt.Errorf("decode a pulled proposal: %w", err)
	}
	sp := PulledCopy(&p)
	if reflect.DeepEqual(&p, sp) {
		return pulled{p: sp, raw: raw}, nil
	}
	return pulled{p: sp}, nil
}

// splitIDs cuts ids into at most n parts of nearly equal length, in
// order, none empty.
func splitIDs(ids []int64, n int) [][]int64 {
	n = max(1, min(n, len(ids)))
	parts := make([][]int64, 0, n)
	for i := range n {
		parts = append(parts, ids[i*len(ids)/n:(i+1)*len(ids)/n])
	}
	return parts
}
