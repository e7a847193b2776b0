package adminrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"proposaldesk/app"
)

// Client calls a running server's admin socket.
type Client struct {
	hc *http.Client
}

// Dial makes a client of the admin socket at path; it connects on its
// first call.
func Dial(path string) *Client {
	return &Client{hc: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}}}
}

// Close closes the client's idle connection.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// Call runs the operation name inside the server, as Local runs it here.
func (c *Client) Call(ctx context.Context, name string, in, out any) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := c.post(ctx, "http://admin/op/"+name, "application/json", bytes.NewReader(raw))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return failure(resp)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ImportCatalog sends a catalog file to apiserver.ImportCatalogConfirming
// inside the server. A Replace refused for want of confirm comes back as
// the *app.Error NeedsConfirmation finds.
func (c *Client) ImportCatalog(ctx context.Context, account int64, mode app.CatalogImportMode, confirm bool, file io.Reader) (app.CatalogImportReport, error) {
	var rep app.CatalogImportReport
	u := "http://admin/catalog/import?account=" + strconv.FormatInt(account, 10) + "&mode=" + url.QueryEscape(string(mode)) +
		"&confirmRemoval=" + strconv.FormatBool(confirm)
	resp, err := c.post(ctx, u, "text/csv", file)
	if err != nil {
		return rep, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return rep, failure(resp)
	}
	return rep, json.NewDecoder(resp.Body).Decode(&rep)
}

// Backup writes a consistent copy of the server's database to w and
// returns its size; a copy the server cut short is an error.
func (c *Client) Backup(ctx context.Context, w io.Writer) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://admin/backup", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("admin socket: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("admin socket: HTTP %d", resp.StatusCode)
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, err
	}
	if e := resp.Trailer.Get(trailerError); e != "" {
		return n, errors.New("server: " + e)
	}
	if want := resp.Trailer.Get(trailerBytes); want != strconv.FormatInt(n, 10) {
		return n, fmt.Errorf("backup truncated: got %d bytes, server sent %q", n, want)
	}
	return n, nil
}

func (c *Client) post(ctx context.Context, u, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	return resp, nil
}

// failure is the error of an answer other than 200: the server's message,
// as an *app.Error when it names a field.
func failure(resp *http.Response) error {
	var e errorBody
	if json.NewDecoder(resp.Body).Decode(&e) != nil || e.Error == "" {
		return fmt.Errorf("admin socket: HTTP %d", resp.StatusCode)
	}
	if e.Field != "" {
		return &app.Error{Kind: app.KindValidationFailed, Message: e.Error, Fields: []app.FieldError{{Field: e.Field}}}
	}
	return errors.New(e.Error)
}
