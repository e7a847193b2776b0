package apiserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"proposaldesk/app"
)

// Input fidelity: what a client sends is stored exactly or refused with
// the field named, never repaired on the way in (DECISIONS.md "Input
// fidelity").

// checkJSONString checks a raw JSON string token before it is decoded:
// encoding/json would turn invalid UTF-8 bytes and unpaired surrogate
// escapes (\ud800) into U+FFFD without a word.
func checkJSONString(name string, raw []byte) error {
	if !utf8.Valid(raw) {
		return app.Invalid(name, "must be valid UTF-8 text")
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if i >= len(raw) || raw[i] != 'u' {
			continue
		}
		hi, ok := hex4(raw, i+1)
		i += 4
		if !ok || hi < 0xd800 || hi > 0xdfff {
			continue
		}
		lo, okLo := uint64(0), false
		if hi <= 0xdbff && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
			lo, okLo = hex4(raw, i+3)
		}
		if !okLo || lo < 0xdc00 || lo > 0xdfff {
			return app.Invalid(name, "contains an unpaired UTF-16 surrogate (\\u%04X); it is not valid Unicode text", hi)
		}
		i += 6
	}
	return nil
}

func hex4(b []byte, at int) (uint64, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[at:at+4]), 16, 32)
	return v, err == nil
}

// checkQuery refuses a query string that net/http's parser would drop
// parts of without a word: a ';' (treated as a separator by some
// clients and proxies, dropped by Go since 1.17) or a bad %-escape.
func checkQuery(raw string) error {
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		key, val, _ := strings.Cut(part, "=")
		name := key
		if i := strings.IndexByte(name, ';'); i >= 0 {
			name = name[:i]
		}
		if k, err := url.QueryUnescape(name); err == nil {
			name = k
		}
		name = printableName(name)
		if strings.Contains(part, ";") {
			return app.Invalid(name, "contains ';', which is not a query separator here; send it as %%3B, and separate parameters with '&'")
		}
		if _, err := url.QueryUnescape(key); err != nil {
			return app.Invalid(name, "has an invalid %%-escape in its name")
		}
		if _, err := url.QueryUnescape(val); err != nil {
			return app.Invalid(name, "has an invalid %%-escape in its value")
		}
	}
	return nil
}

// printableName keeps a client-chosen parameter name safe to echo.
func printableName(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	s = strings.ToValidUTF8(s, "?")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}

// Header limits. net/http answers requests whose header is larger than
// http.Server.MaxHeaderBytes itself, with a plain-text 431 no handler
// sees. So the listener's cap (HardMaxHeaderBytes, for cmd/server) sits
// above the API's (MaxHeaderBytes): a header between the two reaches the
// handler and gets the contract's JSON 431.
const (
	MaxHeaderBytes     = 64 << 10
	HardMaxHeaderBytes = 256 << 10
)

// headerBytes is about what the request line and header took on the
// wire.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4 + len("Host: \r\n") + len(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// refuseBadInput answers, in the contract's shape, a request whose
// header is too large or whose query would be parsed lossily. It
// reports whether it answered.
func (s *Server) refuseBadInput(w http.ResponseWriter, r *http.Request) bool {
	if n := headerBytes(r); n > MaxHeaderBytes {
		s.writeErrorBody(w, r, http.StatusRequestHeaderFieldsTooLarge, app.KindPayloadTooLarge,
			fmt.Sprintf("The request line and headers take %d bytes; the limit is %d.", n, MaxHeaderBytes), nil)
		return true
	}
	if err := checkQuery(r.URL.RawQuery); err != nil {
		s.writeError(w, r, err)
		return true
	}
	return false
}
