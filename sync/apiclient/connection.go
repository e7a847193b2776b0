package apiclient

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// Connection is what the desktop needs to reach a server: its base URL and
// the app credentials it signs with. The JSON keys are those of the
// server's demo.json and of the connection file an admin hands out; other
// keys in the file are ignored.
type Connection struct {
	BaseURL   string `json:"baseUrl"`
	AppID     string `json:"appId"`
	AppSecret string `json:"appSecret"`
}

// LoadConnection reads a connection file (or a server's demo.json).
func LoadConnection(path string) (Connection, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Connection{}, fmt.Errorf("read connection file: %w", err)
	}
	var c Connection
	if err := json.Unmarshal(data, &c); err != nil {
		return Connection{}, fmt.Errorf("connection file %s: %w", path, err)
	}
	if err := c.Validate(); err != nil {
		return Connection{}, fmt.Errorf("connection file %s: %w", path, err)
	}
	return c, nil
}

// Validate checks that the connection names an http(s) server without a
// query or fragment, and has app credentials.
func (c Connection) Validate() error {
	if c.BaseURL == "" {
		return fmt.Errorf("baseUrl is missing")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return fmt.Errorf("baseUrl %q: %w", c.BaseURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("baseUrl %q: the scheme must be http or https", c.BaseURL)
	}
	if u.Host == "" {
		return fmt.Errorf("baseUrl %q: no host", c.BaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("baseUrl %q: must not carry a query, fragment or user info", c.BaseURL)
	}
	if c.AppID == "" || c.AppSecret == "" {
		return fmt.Errorf("appId and appSecret are required")
	}
	return nil
}

// base is the base URL without a trailing slash.
func (c Connection) base() string { return strings.TrimRight(c.BaseURL, "/") }
