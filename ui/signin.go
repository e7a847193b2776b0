package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// signInForm connects to a server (a connection file, or its base URL,
// app ID and secret) and signs in with email and password.
type signInForm struct {
	d                 *Desktop
	conn              *syncer.Connection
	baseURL, appID    *plainEntry
	secret            *plainEntry
	email, password   *plainEntry
	button, importBtn *widget.Button
	message           *widget.Label
	busy              *widget.ProgressBarInfinite
	content           fyne.CanvasObject
	submitting        bool
}

func (d *Desktop) showSignIn(saved *savedSession) {
	defer d.installMenu() // export items off
	f := &signInForm{d: d, conn: d.opts.Connection}
	f.baseURL, f.appID, f.secret = newPlainEntry(d), newPlainEntry(d), newPlainEntry(d)
	f.secret.Password = true
	f.email, f.password = newPlainEntry(d), newPlainEntry(d)
	f.password.Password = true
	f.baseURL.SetPlaceHolder("https://proposals.example.com")
	f.email.SetPlaceHolder("you@example.com")
	if c := f.conn; c != nil {
		f.fill(*c)
	} else if saved != nil {
		f.baseURL.SetText(saved.BaseURL)
		f.appID.SetText(saved.AppID)
	}
	if saved != nil {
		f.email.SetText(saved.Email)
	}
	f.password.OnSubmitted = func(string) { f.submitForm() }
	f.message = widget.NewLabel("")
	f.message.Wrapping = fyne.TextWrapWord
	f.busy = widget.NewProgressBarInfinite()
	f.busy.Hide()
	f.button = widget.NewButton("Sign in", f.submitForm)
	f.button.Importance = widget.HighImportance
	f.importBtn = widget.NewButton("Import connection file…", f.importFile)
	form := widget.NewForm(
		widget.NewFormItem("Server", f.baseURL),
		widget.NewFormItem("App ID", f.appID),
		widget.NewFormItem("App secret", f.secret),
		widget.NewFormItem("Email", f.email),
		widget.NewFormItem("Password", f.password),
	)
	title := widget.NewLabelWithStyle("Sign in to Proposal Desk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	hint := widget.NewLabel("Your administrator gives you a connection file (from `server apps create`) and your email and password.")
	hint.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(title, hint, f.importBtn, form, f.button, f.busy, f.message)
	f.content = container.NewCenter(container.NewGridWrap(fyne.NewSize(520, 520), box))
	d.signin = f
	d.status, d.list, d.detail = nil, nil, nil
	d.win.SetContent(f.content)
	if f.email.Text != "" {
		d.win.Canvas().Focus(f.password)
	} else {
		d.win.Canvas().Focus(f.email)
	}
}

func (f *signInForm) fill(c syncer.Connection) {
	f.baseURL.SetText(c.BaseURL)
	f.appID.SetText(c.AppID)
	f.secret.SetText(c.AppSecret)
}

func (f *signInForm) importFile() {
	dl := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		c, err := syncer.LoadConnection(path)
		if err != nil {
			f.setMessage("That file is not a connection file: "+err.Error(), true)
			return
		}
		f.fill(c)
		f.setMessage("Connection imported: "+c.BaseURL, false)
	}, f.d.win)
	f.d.showDialog(dl)
}

func (f *signInForm) setMessage(msg string, isErr bool) {
	f.message.SetText(msg)
	if isErr {
		f.message.Importance = widget.DangerImportance
	} else {
		f.message.Importance = widget.MediumImportance
	}
	f.message.Refresh()
}

func (f *signInForm) submitForm() {
	c := syncer.Connection{
		BaseURL:   strings.TrimSpace(f.baseURL.Text),
		AppID:     strings.TrimSpace(f.appID.Text),
		AppSecret: strings.TrimSpace(f.secret.Text),
	}
	if err := c.Validate(); err != nil {
		f.setMessage("Check the connection: "+err.Error()+".", true)
		return
	}
	if strings.TrimSpace(f.email.Text) == "" || f.password.Text == "" {
		f.setMessage("Enter your email and password.", true)
		return
	}
	f.submit(c, strings.TrimSpace(f.email.Text), f.password.Text)
}

// submit exchanges email and password for a key in the background, then
// keeps the key in the keyring and opens the workspace.
func (f *signInForm) submit(c syncer.Connection, email, password string) {
	if f.submitting {
		return
	}
	f.fill(c)
	f.email.SetText(email)
	f.submitting = true
	f.button.Disable()
	f.busy.Show()
	f.busy.Start()
	f.setMessage("Signing in to "+c.BaseURL+"…", false)
	d := f.d
	go func() {
		user, key, err := exchange(d, c, email, password)
		d.opts.Do(func() {
			if d.signin != f {
				return
			}
			f.submitting = false
			f.button.Enable()
			f.busy.Stop()
			f.busy.Hide()
			if err == nil {
				err = d.openSession(c, user, key)
			}
			if err != nil {
				f.setMessage(signInMessage(err, c.BaseURL), true)
				return
			}
			f.password.SetText("")
		})
	}()
}

// exchange signs in and saves the key; it runs in the background.
func exchange(d *Desktop, c syncer.Connection, email, password string) (app.User, string, error) {
	client, err := syncer.NewClient(c, d.opts.ClientOptions...)
	if err != nil {
		return app.User{}, "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := client.SignIn(ctx, d.keys, c.BaseURL, email, password)
	if err != nil {
		return app.User{}, "", err
	}
	user := userFromExchange(res, email)
	if err := d.keys.Save(c.BaseURL, user.Email, syncer.Credentials{APIKey: res.APIKey, AppSecret: c.AppSecret}); err != nil {
		return app.User{}, "", err
	}
	err = writeSession(d.opts.DataDir, &savedSession{BaseURL: c.BaseURL, AppID: c.AppID, Email: user.Email, User: user})
	return user, res.APIKey, err
}

// waitWords says how long the server asked to wait after failed
// sign-ins (its Retry-After: seconds up to a quarter of an hour).
func waitWords(err error) string {
	var apiErr *syncer.APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter <= 0 {
		return "Wait a little"
	}
	d := apiErr.RetryAfter.Round(time.Second)
	switch {
	case d < 2*time.Second:
		return "Wait a second"
	case d < time.Minute:
		return fmt.Sprintf("Wait %d seconds", int(d.Seconds()))
	case d < 2*time.Minute:
		return "Wait a minute"
	}
	return fmt.Sprintf("Wait %d minutes", int((d + time.Minute - 1).Minutes()))
}

// signInMessage is a plain, specific sentence about a failed sign-in.
func signInMessage(err error, baseURL string) string {
	switch app.KindOf(err) {
	case app.KindInvalidCredentials:
		return "The email or password is not right. Check both and try again."
	case app.KindEmailNotVerified:
		return "This email address has not been verified yet. Open the verification email you were sent (or ask your administrator), then sign in again."
	case app.KindSignatureInvalid, app.KindCredentialsMissing:
		return "The server did not accept this app's ID and secret. Import the connection file again or ask your administrator for a new one."
	case app.KindRateLimited:
		return "Too many sign-in attempts. " + waitWords(err) + ", then try again."
	case app.KindPermissionDenied:
		return "Your account's role does not allow using Proposal Desk. Ask your administrator."
	}
	switch {
	case errors.Is(err, syncer.ErrUnreachable):
		return "The server at " + baseURL + " cannot be reached. Check the address and your network connection, then try again."
	case errors.Is(err, syncer.ErrCertificate):
		return "The server's security certificate was not accepted, so your password was not sent. Check the address, or ask whoever runs the server to fix its certificate."
	case errors.Is(err, syncer.ErrClockSkew), app.KindOf(err) == app.KindTimestampOutOfRange:
		return "The server refused this computer's clock. Set the date, time and time zone correctly, then sign in again."
	}
	return explain(err)
}

// explain is a sentence about any error for the person using the app.
func explain(err error) string {
	var ae *app.Error
	if errors.As(err, &ae) && ae.Message != "" {
		var api *syncer.APIError
		if !errors.As(err, &api) {
			return sentence(ae.Message)
		}
	}
	return sentence(syncer.Explain(err))
}

// sentence capitalizes the first letter and ends with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}
