package adminrpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

var bg = context.Background()

// serve opens a bbolt store in a temporary folder and its admin socket.
func serve(t *testing.T) (store.Store, *Socket, string) {
	t.Helper()
	// A Unix socket's path is short (108 bytes): not under t.TempDir's
	// long test name.
	dir, err := os.MkdirTemp("", "adminrpc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	st, err := boltstore.Open(filepath.Join(dir, "proposals.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	path := filepath.Join(dir, "admin.sock")
	s, err := Listen(path, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return st, s, path
}

// withAccount is serve with an account made in process, and a client of
// the socket.
func withAccount(t *testing.T) (store.Store, *Client, store.Account) {
	t.Helper()
	st, _, path := serve(t)
	c := Dial(path)
	t.Cleanup(c.Close)
	var acct store.Account
	if err := Local(bg, st, OpAccountsCreate, AccountIn{Name: "Acme AV"}, &acct); err != nil {
		t.Fatal(err)
	}
	return st, c, acct
}

// The operations give the same answers in process and through the
// socket, and the socket is its user's only.
func TestLocalAndSocketAgree(t *testing.T) {
	st, s, path := serve(t)
	c := Dial(path)
	defer c.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v, %v; want mode 0600", fi, err)
	}
	var acct store.Account
	if err := c.Call(bg, OpAccountsCreate, AccountIn{Name: "Acme AV", SubscriptionDays: 30, State: "tx"}, &acct); err != nil {
		t.Fatal(err)
	}
	if acct.ID == 0 || acct.Dealer.Location.StateAbbrev != "TX" || acct.SubscriptionExpiry.Before(time.Now().AddDate(0, 0, 29)) {
		t.Errorf("account %+v", acct)
	}
	var viaSocket, local UserOut
	if err := c.Call(bg, OpUsersCreate, UserIn{AccountID: acct.ID, Email: "ann@acme.example", Role: "Admin", Verified: true, Password: "a long enough password"}, &viaSocket); err != nil {
		t.Fatal(err)
	}
	if err := Local(bg, st, OpUsersCreate, UserIn{AccountID: acct.ID, Email: "bob@acme.example", Role: "Viewer", Password: "another long password"}, &local); err != nil {
		t.Fatal(err)
	}
	if viaSocket.Role != app.RoleAdmin || !viaSocket.EmailVerified || local.Role != app.RoleViewer || local.EmailVerified {
		t.Errorf("created %+v and %+v", viaSocket, local)
	}
	var listed, listedLocal []UserOut
	if err := c.Call(bg, OpUsersList, AccountRef{AccountID: acct.ID}, &listed); err != nil {
		t.Fatal(err)
	}
	if err := Local(bg, st, OpUsersList, AccountRef{AccountID: acct.ID}, &listedLocal); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(listed, listedLocal) || len(listed) != 2 {
		t.Errorf("listed %+v through the socket, %+v in process", listed, listedLocal)
	}
	var revoked RevokeOut
	if err := c.Call(bg, OpUsersRevokeKeys, RevokeIn{Email: "bob@acme.example"}, &revoked); err != nil || revoked.UserID != local.UserID {
		t.Errorf("revoke: %+v %v", revoked, err)
	}
	var a AppOut
	if err := c.Call(bg, OpAppsCreate, AppIn{Name: "Desktop"}, &a); err != nil || a.AppID == "" || a.AppSecret == "" {
		t.Errorf("app: %+v %v", a, err)
	}

	s.Shutdown(bg)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("socket file left after Shutdown: %v", err)
	}
}

// Failures come back as the operation's own error, both ways.
func TestErrors(t *testing.T) {
	st, c, acct := withAccount(t)
	for _, tc := range []struct {
		name, op string
		in       any
		want     string
	}{
		{"control character", OpAccountsCreate, AccountIn{Name: "Evil\x1b[31m AV"}, "U+001B"},
		{"control character in a user", OpUsersCreate, UserIn{AccountID: acct.ID, Email: "dee@acme.example", FirstName: "Dee\a", Role: "Sales", Password: "a long enough password"}, "U+0007"},
		{"unknown account", OpUsersCreate, UserIn{AccountID: acct.ID + 99, Email: "x@acme.example", Role: "Sales", Password: "a long enough password"}, fmt.Sprint("account ", acct.ID+99)},
		{"not an email", OpUsersCreate, UserIn{AccountID: acct.ID, Email: "nobody", Role: "Sales", Password: "a long enough password"}, "not an email address"},
		{"unknown user", OpUsersRevokeKeys, RevokeIn{Email: "nobody@acme.example"}, "nobody@acme.example"},
		{"unknown operation", "accounts.delete", AccountRef{}, "unknown admin operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out any
			errLocal := Local(bg, st, tc.op, tc.in, &out)
			errSocket := c.Call(bg, tc.op, tc.in, &out)
			for _, err := range []error{errLocal, errSocket} {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want one saying %q", err, tc.want)
				}
			}
		})
	}
	if _, err := Run(bg, st, "accounts.delete", []byte("{}")); !errors.Is(err, ErrUnknownOp) {
		t.Errorf("Run of an unknown operation: %v", err)
	}
	// A password is not text anyone reads: the character rule leaves it
	// to its own.
	var u UserOut
	if err := Local(bg, st, OpUsersCreate, UserIn{AccountID: acct.ID, Email: "eve@acme.example", Role: "Sales", Password: "long enough\ttabbed password"}, &u); err != nil {
		t.Errorf("password with a tab: %v", err)
	}
}

// A catalog goes in through the socket; a Replace that would remove most
// of it asks first, then goes through confirmed.
func TestCatalogImport(t *testing.T) {
	_, c, acct := withAccount(t)
	var csv strings.Builder
	csv.WriteString("ItemType,Name,SellPrice,PartNumber\n")
	for i := range 10 {
		fmt.Fprintf(&csv, "Part,Item %d,1.50,P-%d\n", i, i)
	}
	rep, err := c.ImportCatalog(bg, acct.ID, app.CatalogMerge, false, strings.NewReader(csv.String()))
	if err != nil || !rep.Applied || rep.Added != 10 {
		t.Fatalf("merge: %+v %v", rep, err)
	}
	one := "ItemType,Name,SellPrice,PartNumber\nPart,Item 0,2.00,P-0\n"
	_, err = c.ImportCatalog(bg, acct.ID, app.CatalogReplace, false, strings.NewReader(one))
	if NeedsConfirmation(err) == nil {
		t.Fatalf("a Replace removing 9 of 10 items without confirmation: %v", err)
	}
	rep, err = c.ImportCatalog(bg, acct.ID, app.CatalogReplace, true, strings.NewReader(one))
	if err != nil || !rep.Applied || rep.Deleted != 9 || rep.Updated != 1 {
		t.Fatalf("confirmed replace: %+v %v", rep, err)
	}
	bad := "ItemType,Name,SellPrice,PartNumber\nPart,Item 0,not a price,P-0\n"
	rep, err = c.ImportCatalog(bg, acct.ID, app.CatalogMerge, false, strings.NewReader(bad))
	if err != nil || rep.Applied || len(rep.Rejected) != 1 || rep.Rejected[0].Line != 2 {
		t.Errorf("a bad row: %+v %v; want the report with line 2 rejected", rep, err)
	}
}

// A backup through the socket is a database that opens, of the size sent.
func TestBackup(t *testing.T) {
	_, c, acct := withAccount(t)
	var buf bytes.Buffer
	n, err := c.Backup(bg, &buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("backup: %d bytes (%d received), %v", n, buf.Len(), err)
	}
	file := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := boltstore.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got, err := b.Auth().Account(bg, acct.ID); err != nil || got.Name != "Acme AV" {
		t.Errorf("the backup's account: %+v %v", got, err)
	}
}
