package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// savedSession is who was signed in last, kept in DataDir/session.json
// so the app opens straight into the workspace, offline too. It holds no
// secret: the API key and app secret are in the OS keyring.
type savedSession struct {
	BaseURL string   `json:"baseUrl"`
	AppID   string   `json:"appId"`
	Email   string   `json:"email"`
	User    app.User `json:"user"`
}

const sessionFile = "session.json"

func readSession(dir string) (*savedSession, error) {
	data, err := os.ReadFile(filepath.Join(dir, sessionFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s savedSession
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", sessionFile, err)
	}
	if s.BaseURL == "" || s.Email == "" {
		return nil, nil
	}
	return &s, nil
}

func writeSession(dir string, s *savedSession) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, sessionFile+".tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, sessionFile))
}

func removeSession(dir string) error {
	err := os.Remove(filepath.Join(dir, sessionFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// storePath is the local store of one user on one server: each has its
// own file, so signing in as someone else never mixes their proposals or
// their unsent edits.
func storePath(dir, baseURL, email string) string {
	sum := sha256.Sum256([]byte(syncer.KeyringUser(baseURL, email)))
	return filepath.Join(dir, "stores", hex.EncodeToString(sum[:8]), "proposals.db")
}

// userFromExchange is the signed-in user as the key exchange describes
// them.
func userFromExchange(res syncer.ExchangeResult, email string) app.User {
	u := app.User{Email: res.UserName, EmailVerified: true}
	if u.Email == "" {
		u.Email = email
	}
	u.ID, _ = strconv.ParseInt(res.UserID, 10, 64)
	if len(res.Roles) > 0 {
		u.Role, _ = app.ParseRole(res.Roles[0])
	}
	first, last, _ := strings.Cut(res.DisplayName, " ")
	u.FirstName, u.LastName = first, last
	return u
}
