package compat_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// portalClient follows the habits of a public open-source Portal client,
// deliberately not this project's: the key exchange is signed over the
// URL without its query string, sends "Username" (not "UserName") and no
// user-key header, and the key is read from the top-level "UserKey".
// Every other request is signed over its full URL, and writes are
// form-encoded.
type portalClient struct {
	base, appID, secret string
	userKey             string
	http                *http.Client
}

// sign is Portal's request signature: Base64 HMAC-SHA256, keyed with the
// secret's bytes, over method + URL + content type (not for GET) +
// timestamp + user key.
func (c *portalClient) sign(method, signedURL, contentType, stamp string) string {
	if method == http.MethodGet {
		contentType = ""
	}
	mac := hmac.New(sha256.New, []byte(c.secret))
	io.WriteString(mac, method+signedURL+contentType+stamp+c.userKey)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// do sends one signed request; signedURL is the URL the signature covers.
func (c *portalClient) do(method, fullURL, signedURL, contentType, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, fullURL, rd)
	if err != nil {
		return 0, nil, err
	}
	stamp := time.Now().UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("X-MSS-API-APPID", c.appID)
	req.Header.Set("X-MSS-CUSTOM-DATE", stamp)
	if c.userKey != "" {
		req.Header.Set("X-MSS-API-USERKEY", c.userKey)
	}
	req.Header.Set("X-MSS-SIGNATURE", c.sign(method, signedURL, contentType, stamp))
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// get signs the full URL, query included.
func (c *portalClient) get(path string) (int, []byte, error) {
	u := c.base + path
	return c.do(http.MethodGet, u, u, "", "")
}

// postForm sends a form-encoded body.
func (c *portalClient) postForm(path string, form url.Values) (int, []byte, error) {
	u := c.base + path
	return c.do(http.MethodPost, u, u, "application/x-www-form-urlencoded", form.Encode())
}

// signIn is the exchange as Portal clients make it.
func (c *portalClient) signIn(user, password string) error {
	path := "/authenticate/apikeyexchange"
	q := url.Values{"Username": {user}, "Password": {password}}
	c.userKey = ""
	status, body, err := c.do(http.MethodGet, c.base+path+"?"+q.Encode(), c.base+path, "", "")
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("exchange: HTTP %d: %s", status, body)
	}
	var res struct {
		UserKey string `json:"UserKey"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return fmt.Errorf("exchange: %w", err)
	}
	if res.UserKey == "" {
		return fmt.Errorf("exchange: no top-level UserKey in %s", body)
	}
	c.userKey = res.UserKey
	return nil
}
