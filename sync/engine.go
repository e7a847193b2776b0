package syncer

import (
	"context"
	"errors"
	"log/slog"
	gosync "sync"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The sync engine: it pushes the local outbox to the server and pulls
// the server's changes into the local store, in the background or on
// demand, and reports its state to the UI. It imports no UI toolkit;
// the desktop subscribes to State changes.

// Engine defaults.
const (
	DefaultSyncInterval    = 3 * time.Minute
	DefaultPullConcurrency = 4
	// DefaultDirectoryRefresh is how often the users cache is
	// downloaded again (it is always downloaded on the first sync, at
	// start and after the server's data was replaced).
	DefaultDirectoryRefresh = 30 * time.Minute
	// minOfflineRetry is the first wait before syncing again after the
	// server could not be reached; it doubles up to the interval.
	minOfflineRetry = 2 * time.Second
)

// Phase is what a running sync is doing.
type Phase string

const (
	PhaseIdle Phase = ""
	PhasePush Phase = "push" // sending queued edits: Done of Total entries
	PhasePull Phase = "pull" // downloading changed proposals: Done of Total
	// PhaseCatalog (catalog_pull.go): downloading catalog changes.
	// PhasePeople (people_pull.go): downloading contact changes.
)

// State is what the UI's sync indicator shows.
type State struct {
	// Online: the last request to the server got an answer (false until
	// the first request, and while the server cannot be reached).
	Online bool
	// Syncing: a sync is running; Phase, Done and Total say how far it is
	// ("sending 3 of 10", "downloading 40 of 2000").
	Syncing     bool
	Phase       Phase
	Done, Total int
	// The outbox: Pending counts queued entries not yet acknowledged
	// (Blocked of them wait behind a failed or conflicting one); Failed
	// were refused (kept until discarded or retried); Conflicts await
	// keep-mine or keep-theirs.
	Pending, Blocked, Failed, Conflicts int
	// LastSync is the last sync that completed (zero: never).
	LastSync time.Time
	// LastError is why the last sync did not complete (nil if it did).
	// Explain(LastError) is a sentence for the user.
	LastError error
}

// EngineOption configures an Engine.
type EngineOption func(*Engine)

// WithEngineClock replaces the local clock (edit times, last sync).
func WithEngineClock(now func() time.Time) EngineOption { return func(e *Engine) { e.now = now } }

// WithSyncInterval sets how often Run syncs when nothing asks it to
// (default 3 minutes).
func WithSyncInterval(d time.Duration) EngineOption {
	return func(e *Engine) {
		if d > 0 {
			e.interval = d
		}
	}
}

// WithPullConcurrency bounds the parallel downloads of a pull (default 4).
func WithPullConcurrency(n int) EngineOption {
	return func(e *Engine) { e.concurrency = max(n, 1) }
}

// WithPullChunk sets how many changed proposals a pull downloads and
// commits at a time (default DefaultPullChunk). Each chunk is one local
// transaction; the pull's memory grows with the chunk, not with the
// account.
func WithPullChunk(n int) EngineOption {
	return func(e *Engine) { e.pullChunk = max(n, 1) }
}

// WithEngineLogger sets the logger (default: discard).
func WithEngineLogger(l *slog.Logger) EngineOption { return func(e *Engine) { e.log = l } }

// WithDirectoryRefresh sets how often the users are downloaded again
// (default 30 minutes; contacts come through their changes feed at every
// sync).
func WithDirectoryRefresh(d time.Duration) EngineOption {
	return func(e *Engine) { e.dirEvery = d }
}

// Engine syncs one local store with the server for one signed-in user.
// Its methods are safe for concurrent use.
type Engine struct {
	st          *localstore.Store
	c           *Client
	actor       app.User
	now         func() time.Time
	interval    time.Duration
	concurrency int
	pullChunk   int
	dirEvery    time.Duration
	beat        time.Duration // heartbeat period (see heartbeat.go)
	log         *slog.Logger

	// syncMu serializes syncs.
	syncMu  gosync.Mutex
	dirAt   time.Time // last directory download (under syncMu)
	request chan struct{}
	// The sync edits asked for, once the editing pauses (soon.go);
	// soon and what follows it are under mu.
	editDelay, editMost time.Duration
	soon                *time.Timer
	soonFirst           time.Time
	soonGen             int

	mu    gosync.Mutex
	state State
	// eventsDue are proposals whose client events to read after the
	// sync (clientsend.go).
	eventsDue map[int64]bool
	subs      map[int]func(State)
	nextID    int

	// Notifications are delivered in order, one at a time, by whichever
	// goroutine finds the queue idle, so a subscriber may call back into
	// the engine (even Edit) without deadlocking.
	nmu        gosync.Mutex
	queue      []State
	delivering bool
}

// NewEngine returns an engine that syncs st through c as actor (the
// signed-in user, whose permissions the local rules check).
func NewEngine(st *localstore.Store, c *Client, actor app.User, opts ...EngineOption) *Engine {
	e := &Engine{
		st: st, c: c, actor: actor,
		now:         time.Now,
		interval:    DefaultSyncInterval,
		concurrency: DefaultPullConcurrency,
		pullChunk:   DefaultPullChunk,
		dirEvery:    DefaultDirectoryRefresh,
		beat:        DefaultHeartbeat,
		editDelay:   DefaultEditSyncDelay,
		editMost:    DefaultEditSyncMost,
		log:         slog.New(slog.DiscardHandler),
		request:     make(chan struct{}, 1),
		subs:        map[int]func(State){},
	}
	for _, o := range opts {
		o(e)
	}
	e.refreshCounts()
	c.setAnswered(e.answered)
	return e
}

// Run syncs in the background until ctx is done: once at the start,
// then every interval and whenever Request is called. While the server
// cannot be reached it tries again after a short wait that doubles up
// to the interval, and syncs at once when any request of the client
// gets an answer again.
func (e *Engine) Run(ctx context.Context) {
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		e.heartbeat(ctx)
	}()
	defer func() { <-beat }()
	timer := time.NewTimer(0)
	defer timer.Stop()
	retry := time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-e.request:
		}
		err := e.SyncOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		next := e.interval
		if errors.Is(err, ErrUnreachable) {
			retry = min(max(2*retry, minOfflineRetry), e.interval)
			next = retry
		} else {
			retry = 0
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(next)
	}
}

// Request asks Run for a sync as soon as possible. Requests made while a
// sync runs are served by exactly one more sync after it.
func (e *Engine) Request() {
	select {
	case e.request <- struct{}{}:
	default:
	}
}

// answered is the client's hook: the server answered a request.
func (e *Engine) answered() {
	e.mu.Lock()
	wasOffline := !e.state.Online
	syncing := e.state.Syncing
	e.state.Online = true
	s := e.state
	e.mu.Unlock()
	if wasOffline {
		e.publish(s)
		if !syncing {
			e.Request() // reconnected: send what waits
		}
	}
}

// State is the current state.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.state
}

// Subscribe calls fn with the new State on every change, one call at a
// time and in order, from the goroutine that made the change (the sync,
// or the caller of Edit). fn must not block for long; a UI hands the
// value to its own thread. cancel stops the calls.
func (e *Engine) Subscribe(fn func(State)) (cancel func()) {
	e.mu.Lock()
	id := e.nextID
	e.nextID++
	e.subs[id] = fn
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		delete(e.subs, id)
		e.mu.Unlock()
	}
}

// update changes the state under the lock and publishes the result.
func (e *Engine) update(fn func(s *State)) {
	e.mu.Lock()
	fn(&e.state)
	s := e.state
	e.mu.Unlock()
	e.publish(s)
}

func (e *Engine) publish(s State) {
	e.nmu.Lock()
	e.queue = append(e.queue, s)
	if e.delivering {
		e.nmu.Unlock()
		return
	}
	e.delivering = true
	for len(e.queue) > 0 {
		next := e.queue[0]
		e.queue = e.queue[1:]
		e.nmu.Unlock()
		e.mu.Lock()
		subs := make([]func(State), 0, len(e.subs))
		for id := 0; id < e.nextID; id++ {
			if fn, ok := e.subs[id]; ok {
				subs = append(subs, fn)
			}
		}
		e.mu.Unlock()
		for _, fn := range subs {
			fn(next)
		}
		e.nmu.Lock()
	}
	e.delivering = false
	e.nmu.Unlock()
}

// refreshCounts reads the outbox counts into the state and publishes.
func (e *Engine) refreshCounts() {
	c, err := e.st.Counts()
	if err != nil {
		e.log.Error("sync: outbox counts", "err", err)
		return
	}
	e.update(func(s *State) {
		s.Pending, s.Blocked, s.Failed, s.Conflicts = c.Pending, c.Blocked, c.Failed, c.Conflicts
		s.LastSync = c.LastSync
	})
}

// env is the environment of a local edit: now on the server's clock
// (the client's offset corrects a skewed laptop clock) and the actor.
// The store adds the rest (account, directory, its offline catalog)
// from inside the edit's transaction.
func (e *Engine) env() app.Env {
	return app.Env{Now: e.now().Add(e.c.ClockOffset()), Actor: e.actor}
}

// Edit applies m to the local view of proposal proposalID (0 for a
// create) with the server's rules, queues it for the server and asks for
// a sync. A rule error is an *app.Error and nothing is queued.
func (e *Engine) Edit(ctx context.Context, proposalID int64, m app.Mutation) (*app.Proposal, error) {
	return e.EditThen(ctx, proposalID, m, nil)
}

// EditThen is Edit calling then(p) after the edit is stored and before
// a sync is asked for. The desktop records there the proposal it is
// about to open (the last-open setting), so that a sync that gives a new
// proposal the server's ID at once carries the setting along.
func (e *Engine) EditThen(ctx context.Context, proposalID int64, m app.Mutation, then func(*app.Proposal)) (*app.Proposal, error) {
	p, err := e.st.Edit(ctx, proposalID, m, e.env())
	if err != nil {
		return nil, err
	}
	if then != nil {
		then(p)
	}
	e.queued()
	return p, nil
}

// CreateContact creates a contact offline (a temporary ID until the
// server's is known) and asks for a sync.
func (e *Engine) CreateContact(ctx context.Context, nc app.NewContact) (app.Contact, error) {
	c, err := e.st.CreateContact(ctx, nc, e.env())
	if err != nil {
		return app.Contact{}, err
	}
	e.queued()
	return c, nil
}

// CreateLocation adds a location to a contact offline and asks for a
// sync.
func (e *Engine) CreateLocation(ctx context.Context, contactID int64, nl app.NewLocation) (app.ContactLocation, error) {
	l, err := e.st.CreateLocation(ctx, contactID, nl, e.env())
	if err != nil {
		return app.ContactLocation{}, err
	}
	e.queued()
	return l, nil
}

// Discard drops a queued entry (and the entries depending on it).
func (e *Engine) Discard(ctx context.Context, seq uint64) error {
	if err := e.st.Discard(ctx, seq); err != nil {
		return err
	}
	e.changed()
	return nil
}

// Retry puts a failed entry back in the queue and asks for a sync.
func (e *Engine) Retry(ctx context.Context, seq uint64) error {
	if err := e.st.Retry(ctx, seq); err != nil {
		return err
	}
	e.changed()
	return nil
}

// ResolveConflict settles an entry in conflict: keepMine sends it on top
// of the server's value; otherwise the server's value stands.
func (e *Engine) ResolveConflict(ctx context.Context, seq uint64, keepMine bool) error {
	if err := e.st.ResolveConflict(ctx, seq, keepMine); err != nil {
		return err
	}
	e.changed()
	return nil
}

// queued counts one more pending entry and asks for a sync once the
// editing pauses (requestSoon). (A new entry is never blocked: the local
// rules refuse an edit of something a failed create made, as it is not
// in the local view.)
func (e *Engine) queued() {
	e.update(func(s *State) { s.Pending++ })
	e.requestSoon()
}

// changed publishes the new counts and asks for a sync.
func (e *Engine) changed() {
	e.refreshCounts()
	e.Request()
}

// SyncOnce pushes the outbox, then pulls the server's changes, and
// returns when done. Concurrent calls run one after the other.
func (e *Engine) SyncOnce(ctx context.Context) error {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	e.update(func(s *State) { s.Syncing, s.Phase, s.Done, s.Total = true, PhasePush, 0, 0 })
	err := e.push(ctx)
	if err == nil {
		err = e.pull(ctx)
	}
	if err == nil {
		err = e.pullCatalog(ctx) // catalog_pull.go
	}
	if err == nil {
		err = e.pullClientEvents(ctx) // clientsend.go
	}
	if err != nil {
		e.log.Warn("sync did not complete", "err", err)
	}
	c, cerr := e.st.Counts()
	e.update(func(s *State) {
		s.Syncing, s.Phase, s.Done, s.Total = false, PhaseIdle, 0, 0
		s.LastError = err
		switch {
		case err == nil:
			s.Online = true
		case errors.Is(err, ErrUnreachable), errors.Is(err, ErrCertificate):
			s.Online = false
		}
		if cerr == nil {
			s.Pending, s.Blocked, s.Failed, s.Conflicts = c.Pending, c.Blocked, c.Failed, c.Conflicts
			s.LastSync = c.LastSync
		}
	})
	return err
}

// progress publishes the phase's progress.
func (e *Engine) progress(phase Phase, done, total int) {
	e.update(func(s *State) { s.Phase, s.Done, s.Total = phase, done, total })
}
