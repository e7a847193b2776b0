package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"proposaldesk/app"
)

// demoFile is the part of the server's demo.json the desktop reads.
type demoFile struct {
	Accounts []struct {
		Name  string `json:"name"`
		Users []struct {
			Email         string `json:"email"`
			Password      string `json:"password"`
			Role          string `json:"role"`
			EmailVerified bool   `json:"emailVerified"`
		} `json:"users"`
	} `json:"accounts"`
}

// DemoLogin reads a demo server's demo.json and returns the credentials
// of the first verified user of the first account with the role. For
// the demo only: real users type their password.
func DemoLogin(path, role string) (*Login, error) {
	r, err := app.ParseRole(role)
	if err != nil {
		return nil, fmt.Errorf("--demo-user: %w", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f demoFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(f.Accounts) == 0 {
		return nil, fmt.Errorf("%s has no accounts: is it a demo server's demo.json?", path)
	}
	for _, u := range f.Accounts[0].Users {
		if strings.EqualFold(u.Role, string(r)) && u.EmailVerified {
			return &Login{Email: u.Email, Password: u.Password}, nil
		}
	}
	return nil, fmt.Errorf("%s: the first account has no verified %s user", path, r)
}
