package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

// Title is the main window's title.
const Title = "Proposal Desk"

// Login is an email and password to sign in with at start (the demo's
// --demo-user), without showing the sign-in form first.
type Login struct {
	Email, Password string
}

// Options configure the desktop.
type Options struct {
	// DataDir holds session.json and the local stores.
	DataDir string
	// Keyring keeps API keys (default: the OS keyring).
	Keyring *syncer.Keyring
	// Connection is the server to sign in to (from --connect or
	// --server); it pre-fills the sign-in form.
	Connection *syncer.Connection
	// AutoSignIn signs in at start with these credentials (demo only).
	AutoSignIn *Login
	// Do runs fn on the UI goroutine (default fyne.Do). Tests run the
	// queued functions on their own goroutine.
	Do func(fn func())
	// ClientOptions and EngineOptions configure the client and engine of
	// a session.
	ClientOptions []syncer.Option
	EngineOptions []syncer.EngineOption
	// SaveDelay is how long after the last keystroke a text edit is
	// saved (default 600 ms); leaving the field saves at once.
	SaveDelay time.Duration
	// ManualSync: no background sync loop; only "Sync now" syncs (tests).
	ManualSync bool
	// SendOnClose bounds a last send of the queued edits when the
	// session ends (the window closed, a sign-out), when the server was
	// reachable: an edit still waiting for a pause in the editing goes
	// now, not at the next start (0: none).
	SendOnClose time.Duration
	// Icon is the window icon.
	Icon fyne.Resource
	// Version is the app's version, shown in Help > About.
	Version string
}

// Desktop is the app's main window and its signed-in session.
type Desktop struct {
	app  fyne.App
	win  fyne.Window
	opts Options
	keys *syncer.Keyring
	// tabAt is when a Tab last went down in a field (autosave.go).
	tabAt time.Time

	sess   *session
	list   *listPanel
	detail *proposalView
	status *statusBar
	signin *signInForm

	// sendDlg is the open Send to client… dialog; lastSignedPDF the
	// signed PDF last opened (clientsend.go).
	sendDlg       *sendForm
	lastSignedPDF string
	// dlg is the open dialog, which Esc closes.
	dlg dialog.Dialog
	// The export dialog, the export running, and a replace question.
	export        *exportDialog
	exportRun     *exportRun
	exportConfirm dialog.Dialog
	exportBtn     *widget.Button
	exportHint    *hoverHint
	menuExport    []*fyne.MenuItem
	// lastNew is the proposal the last NewProposal made: while it stays
	// untouched, New proposal opens it again instead of leaving empty
	// proposals behind.
	lastNew int64
	// keyringTold: the keyring problem was shown (once per run).
	keyringTold bool
	// form is the open form dialog (new contact, new location).
	form *formDialog
	// panes lays out the list and the proposal (the list collapses).
	panes *panes
	// present is the client's screen while presenting (present.go).
	present *presentMode
}

// session is one signed-in user on one server.
type session struct {
	conn   syncer.Connection
	user   app.User
	st     *localstore.Store
	client *syncer.Client
	eng    *syncer.Engine
	cancel context.CancelFunc
	unsub  func()
	wg     sync.WaitGroup
}

// New builds the main window on a and shows it: the workspace when a
// user's key is saved, else the sign-in form.
func New(a fyne.App, o Options) *Desktop {
	if o.Do == nil {
		o.Do = fyne.Do
	}
	if o.SaveDelay == 0 {
		o.SaveDelay = 600 * time.Millisecond
	}
	if o.Keyring == nil {
		o.Keyring = syncer.NewKeyring()
	}
	a.Settings().SetTheme(newLegibleTheme(a.Settings().Theme()))
	d := &Desktop{app: a, opts: o, keys: o.Keyring}
	d.win = a.NewWindow(Title)
	if o.Icon != nil {
		d.win.SetIcon(o.Icon)
	}
	d.win.Resize(fyne.NewSize(1200, 780))
	d.installShortcuts()
	d.win.SetOnClosed(d.Close)
	d.start()
	return d
}

// Window is the main window.
func (d *Desktop) Window() fyne.Window { return d.win }

// Close stops the session's sync and closes its store.
func (d *Desktop) Close() {
	if d.sess != nil {
		d.rememberWindow()
		d.endSession()
	}
}

func (d *Desktop) start() {
	saved, err := readSession(d.opts.DataDir)
	if err != nil {
		saved = nil
	}
	conn := d.opts.Connection
	want := d.opts.AutoSignIn
	if saved != nil && (conn == nil || sameServer(conn.BaseURL, saved.BaseURL)) &&
		(want == nil || syncer.KeyringUser("", want.Email) == syncer.KeyringUser("", saved.Email)) {
		if err := d.resume(saved); err == nil {
			return
		}
	}
	d.showSignIn(saved)
	if conn != nil && want != nil {
		d.signin.submit(*conn, want.Email, want.Password)
	}
}

func sameServer(a, b string) bool { return syncer.KeyringUser(a, "") == syncer.KeyringUser(b, "") }

// resume opens the workspace of the saved session with the key in the
// keyring, without a network round trip.
func (d *Desktop) resume(s *savedSession) error {
	creds, err := d.keys.Load(s.BaseURL, s.Email)
	if err != nil {
		return err
	}
	if c := d.opts.Connection; c != nil && c.AppSecret != "" && (c.AppID != s.AppID || c.AppSecret != creds.AppSecret) {
		// The connection given at start is another app (a re-seeded demo
		// server): the saved key belongs to the old one.
		return fmt.Errorf("the saved sign-in is for another app")
	}
	conn := syncer.Connection{BaseURL: s.BaseURL, AppID: s.AppID, AppSecret: creds.AppSecret}
	return d.openSession(conn, s.User, creds.APIKey)
}

// openSession opens the user's store, starts the engine and shows the
// workspace. It runs on the UI goroutine.
func (d *Desktop) openSession(conn syncer.Connection, user app.User, apiKey string) error {
	path := storePath(d.opts.DataDir, conn.BaseURL, user.Email)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	st, err := localstore.Open(path)
	if err != nil {
		return fmt.Errorf("open the local data: %w", err)
	}
	client, err := syncer.NewClient(conn, append([]syncer.Option{syncer.WithUserKey(apiKey)}, d.opts.ClientOptions...)...)
	if err != nil {
		st.Close()
		return err
	}
	s := &session{conn: conn, user: user, st: st, client: client}
	s.eng = syncer.NewEngine(st, client, user, d.opts.EngineOptions...)
	d.sess = s
	d.showWorkspace()
	var latest latestState
	s.unsub = s.eng.Subscribe(func(state syncer.State) {
		if !latest.offer(state) {
			return // the job waiting shows it
		}
		d.opts.Do(func() {
			if st, due := latest.take(); d.sess == s {
				d.syncStateChanged(st, due)
			}
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	if !d.opts.ManualSync {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.eng.Run(ctx)
		}()
	}
	return nil
}

// endSession stops the engine and closes the store.
func (d *Desktop) endSession() {
	s := d.sess
	if s == nil {
		return
	}
	if d.detail != nil {
		d.detail.flush()
	}
	d.sess = nil
	s.unsub()
	s.cancel()
	s.wg.Wait()
	if d.opts.SendOnClose > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), d.opts.SendOnClose)
		_ = s.eng.SendWaiting(ctx) // what is not sent waits in the outbox
		cancel()
	}
	s.st.Close()
}

// SignOut forgets the key (keyring and session file), stops syncing and
// shows the sign-in form. Unsent edits stay in the user's local store
// and are sent when they sign in again.
func (d *Desktop) SignOut() {
	s := d.sess
	if s == nil {
		return
	}
	d.rememberWindow()
	err := d.keys.Delete(s.conn.BaseURL, s.user.Email)
	_ = removeSession(d.opts.DataDir)
	d.endSession()
	d.showSignIn(&savedSession{BaseURL: s.conn.BaseURL, AppID: s.conn.AppID, Email: s.user.Email})
	d.signin.conn = &s.conn
	if err != nil {
		d.signin.setMessage(syncer.Explain(err), true)
	}
}

// showWorkspace lays out list, proposal and status bar.
func (d *Desktop) showWorkspace() {
	s := d.sess
	d.signin = nil
	d.status = newStatusBar(d)
	d.detail = newProposalView(d)
	d.list = newListPanel(d)
	newBtn := widget.NewButtonWithIcon("New proposal", nil, d.NewProposal)
	if !s.user.Role.Can(app.PermEditProposals) {
		newBtn.Disable()
	}
	d.exportBtn = widget.NewButton("Export…", d.Export)
	d.exportHint = nil
	exportBox := fyne.CanvasObject(d.exportBtn)
	if err := d.exportDenied(); err != nil {
		// Disabled, with app's reason on hover.
		d.exportBtn.Disable()
		d.exportHint = newHoverHint("Exports are for Admins. "+explain(err), d.win)
		exportBox = container.NewStack(d.exportBtn, d.exportHint)
	}
	d.installMenu()
	who := widget.NewLabel(fmt.Sprintf("%s · %s", s.user.Email, s.user.Role))
	who.Truncation = fyne.TextTruncateEllipsis
	d.panes = newPanes(d, d.list.content, d.detail.content)
	top := container.NewBorder(nil, nil, container.NewHBox(d.panes.toggle, newBtn, exportBox),
		widget.NewButton("Sign out", d.SignOut), who)
	d.win.SetContent(container.NewBorder(top, d.status.content, nil, nil, d.panes.box))
	d.syncStateChanged(s.eng.State(), false)
	d.list.refresh()
	d.tellKeyring()
	if set, err := s.st.Settings(); err == nil {
		if set.WindowWidth > 0 && set.WindowHeight > 0 {
			d.win.Resize(fyne.NewSize(float32(set.WindowWidth), float32(set.WindowHeight)))
		}
		if set.ListHidden {
			d.panes.setHidden(true, false)
		}
		if set.LastOpenProposal != 0 {
			if _, err := s.st.Record(set.LastOpenProposal); err == nil {
				d.OpenProposal(set.LastOpenProposal)
			}
		}
	}
}

// keyringHelp is what the user reads when the key cannot be kept.
const keyringHelp = "Proposal Desk could not save your sign-in in the system keyring, so you will have to sign in again the next time you start it. " +
	"Your proposals and unsent changes are kept on this computer either way. " +
	"To stay signed in, make sure a keyring service is running and unlocked (GNOME Keyring or KWallet on Linux; " +
	"Keychain on macOS; Credential Manager on Windows), then sign out and sign in again."

// tellKeyring says once per run, in words, that the key lives in memory
// only because the OS keyring is not usable.
func (d *Desktop) tellKeyring() {
	if d.keyringTold || d.keys.Persistent() {
		return
	}
	d.keyringTold = true
	text := keyringHelp
	if err := d.keys.Err(); err != nil {
		// Err is ErrKeyringUnavailable's sentence with the cause in
		// brackets: show the cause.
		cause := strings.TrimPrefix(err.Error(), syncer.ErrKeyringUnavailable.Error())
		if cause = strings.Trim(strings.TrimSpace(cause), "()"); cause != "" {
			text += "\n\nThe keyring said: " + cause + "."
		}
	}
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	d.showDialog(dialog.NewCustom("Your sign-in will not be remembered", "OK", container.NewGridWrap(fyne.NewSize(480, 200), msg), d.win))
}

// syncStateChanged shows a new engine state (UI goroutine); due: a
// state not shown on the way called for the list to be read again.
func (d *Desktop) syncStateChanged(st syncer.State, due bool) {
	if d.status == nil {
		return
	}
	prev := d.status.state
	d.status.show(st)
	if due || listDue(prev, st) {
		d.list.refresh()
		d.detail.reloadIfChanged()
		if d.present != nil {
			d.present.checkChanged()
		}
	} else if firstSync(st) && len(d.list.rows) == 0 && (!prev.Syncing || prev.Phase != st.Phase || percent(prev) != percent(st)) {
		d.list.showEmpty(0) // as often as the bar moves
	}
}

// OpenProposal shows a proposal and remembers it as the last open one.
func (d *Desktop) OpenProposal(id int64) {
	if d.sess == nil {
		return
	}
	d.detail.open(id)
	st := d.sess.st
	_ = st.UpdateSettings(context.Background(), func(s *localstore.Settings) { s.LastOpenProposal = id })
}

// NewProposal creates a proposal (offline too) with the user as its
// salesperson and opens it.
func (d *Desktop) NewProposal() {
	s := d.sess
	if s == nil {
		return
	}
	d.detail.flush() // typing not saved yet counts: the proposal is not untouched
	if v := d.detail; v.p != nil && v.id != 0 && v.id == d.lastNew && untouched(v.p) {
		d.list.selectID(v.id)
		v.scroll.ScrollToTop()
		v.focusName()
		return
	}
	ctx := context.Background()
	// The last-open setting is written before the sync can send the new
	// proposal: the sync's remap then moves it to the server's ID.
	p, err := s.eng.EditThen(ctx, 0, &app.CreateProposal{SalesPersonID: s.user.ID}, func(p *app.Proposal) {
		_ = s.st.UpdateSettings(ctx, func(set *localstore.Settings) { set.LastOpenProposal = p.ID })
	})
	if err != nil {
		d.showError("Could not create a proposal", err)
		return
	}
	d.lastNew = p.ID
	d.list.refresh()
	d.detail.open(p.ID) // not OpenProposal: the setting is written
	d.detail.focusName()
}

// untouched reports whether a proposal is as New proposal made it:
// its default name, nothing typed or chosen yet.
func untouched(p *app.Proposal) bool {
	return p.Name == app.DefaultProposalName(p.Number) && p.Customer == nil && len(p.Areas) == 0 &&
		p.ProjectDescription == "" && p.InternalNotes == ""
}

// NewCustomer opens the new-contact form for the open proposal, when
// its customer may be changed.
func (d *Desktop) NewCustomer() {
	v := d.detail
	if d.sess == nil || v == nil || v.p == nil || v.rec == nil || v.rec.ReadOnly ||
		!d.sess.user.Role.Can(app.PermEditProposals) || app.OpAssignContact.LockedIn(v.p.Status) {
		return
	}
	v.newContact("")
}

// SyncNow asks for a sync at once.
func (d *Desktop) SyncNow() {
	s := d.sess
	if s == nil {
		return
	}
	if d.opts.ManualSync {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			_ = s.eng.SyncOnce(context.Background())
		}()
		return
	}
	s.eng.Request()
}

// rememberWindow stores the window size in the user's settings.
func (d *Desktop) rememberWindow() {
	if d.sess == nil {
		return
	}
	size := d.win.Canvas().Size()
	if size.Width < 100 || size.Height < 100 {
		return
	}
	_ = d.sess.st.UpdateSettings(context.Background(), func(s *localstore.Settings) {
		s.WindowWidth, s.WindowHeight = int(size.Width), int(size.Height)
	})
}

// showDialog shows a dialog and remembers it so that Esc closes it.
func (d *Desktop) showDialog(dl dialog.Dialog) { d.showDialogThen(dl, nil) }

// showDialogThen is showDialog calling onClosed (if not nil) when the
// dialog closes.
func (d *Desktop) showDialogThen(dl dialog.Dialog, onClosed func()) {
	if d.dlg != nil {
		d.dlg.Hide()
	}
	d.dlg = dl
	dl.SetOnClosed(func() {
		if d.dlg == dl {
			d.dlg = nil
		}
		if onClosed != nil {
			onClosed()
		}
	})
	dl.Show()
}

// closeDialog closes the open dialog (Esc).
func (d *Desktop) closeDialog() {
	if d.dlg != nil {
		d.dlg.Hide()
	}
}

func (d *Desktop) showError(title string, err error) {
	msg := widget.NewLabel(explain(err))
	msg.Wrapping = fyne.TextWrapWord
	dl := dialog.NewCustom(title, "Close", container.NewGridWrap(fyne.NewSize(420, 80), msg), d.win)
	d.showDialog(dl)
}

// installShortcuts: Ctrl+N new proposal, Ctrl+F search, Ctrl+R sync,
// Ctrl+E export, Esc closes dialogs, Enter answers a confirmation with
// its highlighted button. They are menu shortcuts too, which
// the window runs before a focused field sees the keys.
func (d *Desktop) installShortcuts() {
	c := d.win.Canvas()
	// All through handleShortcut, which knows them and turns the
	// workspace's off while presenting to the client.
	for _, k := range []fyne.KeyName{fyne.KeyN, fyne.KeyR, fyne.KeyF, fyne.KeyE, listKey} {
		c.AddShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}, func(s fyne.Shortcut) { d.handleShortcut(s) })
	}
	for _, sc := range []*desktop.CustomShortcut{sendShortcut(), presentShortcut()} {
		c.AddShortcut(sc, func(s fyne.Shortcut) { d.handleShortcut(s) })
	}
	d.installMenu()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			if d.present != nil {
				d.present.escape()
				return
			}
			if d.list != nil && c.Overlays().Top() == d.list.status.pop {
				d.list.status.pop.Hide() // the status checks
				return
			}
			d.closeDialog()
		case fyne.KeyReturn, fyne.KeyEnter:
			if cd := d.confirmTop(); cd != nil {
				cd.Confirm()
			}
		}
	})
}

// installMenu sets the main menu. The export items are disabled when
// app's rules do not let the user export (and before sign-in).
func (d *Desktop) installMenu() {
	item := func(label string, k fyne.KeyName, fn func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, fn)
		if k != "" {
			it.Shortcut = &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
		}
		return it
	}
	exportSearch := item(exportSearchLabel, fyne.KeyE, d.Export)
	exportPDFs := item(exportPDFLabel, "", d.ExportPDFs)
	if d.exportDenied() != nil {
		exportSearch.Disabled, exportPDFs.Disabled = true, true
	}
	webhooks := item(webhooksLabel, "", d.Webhooks)
	webhooks.Disabled = d.sess == nil || app.Require(d.sess.user, app.PermManageWebhooks) != nil
	d.menuExport = []*fyne.MenuItem{exportSearch, exportPDFs}
	sendItem := fyne.NewMenuItem("Send to client…", d.SendToClient)
	sendItem.Shortcut = sendShortcut()
	presentItem := fyne.NewMenuItem("Present to client", d.PresentToClient)
	presentItem.Shortcut = presentShortcut()
	d.win.SetMainMenu(fyne.NewMainMenu(
		fyne.NewMenu("File", item("New proposal", fyne.KeyN, d.NewProposal), item("Sync now", fyne.KeyR, d.SyncNow),
			fyne.NewMenuItemSeparator(), exportSearch, exportPDFs, fyne.NewMenuItemSeparator(), webhooks),
		fyne.NewMenu("Edit", item("Find proposals", fyne.KeyF, d.FocusSearch), item("New customer for this proposal…", "", d.NewCustomer)),
		fyne.NewMenu("Proposal", sendItem, presentItem, fyne.NewMenuItem("Copy client link", d.CopyClientLink),
			fyne.NewMenuItem("Open signed PDF", d.OpenSignedPDF)),
		fyne.NewMenu("View", item("Hide or show the proposal list", listKey, d.ToggleList)),
		fyne.NewMenu("Help", item(aboutLabel, "", d.About)),
	))
}

// FocusSearch puts the cursor in the list's search field.
func (d *Desktop) FocusSearch() {
	if d.list != nil {
		d.win.Canvas().Focus(d.list.search)
	}
}

// shortcutHandler lets focused entries pass the app's shortcuts on (a
// focused widget receives shortcuts before the canvas).
func (d *Desktop) handleShortcut(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	if d.presenting() {
		return ok // the workspace's shortcuts are off
	}
	if ok && *cs == *presentShortcut() {
		d.PresentToClient()
		return true
	}
	if ok && *cs == *sendShortcut() {
		d.SendToClient()
		return true
	}
	if !ok || cs.Modifier != fyne.KeyModifierShortcutDefault {
		return false
	}
	switch cs.KeyName {
	case fyne.KeyN:
		d.NewProposal()
	case fyne.KeyF:
		d.FocusSearch()
	case fyne.KeyR:
		d.SyncNow()
	case fyne.KeyE:
		d.Export()
	case listKey:
		d.ToggleList()
	default:
		return false
	}
	return true
}
