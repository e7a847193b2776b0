package report

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// MaxLogoBytes bounds a logo taken from a data: URL.
const MaxLogoBytes = 2 << 20

// LogoFromURL returns the image bytes of a dealer's companyLogoUrl when
// it is a data: URL of a PNG or JPEG image, else nil. Nothing is ever
// fetched: a logo at a remote URL is not drawn and the document shows
// the company name instead.
func LogoFromURL(u string) []byte {
	rest, ok := strings.CutPrefix(strings.TrimSpace(u), "data:")
	if !ok {
		return nil
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || len(data) > MaxLogoBytes*4/3+4 {
		return nil
	}
	parts := strings.Split(meta, ";")
	mt := strings.ToLower(parts[0])
	if mt != "image/png" && mt != "image/jpeg" && mt != "image/jpg" {
		return nil
	}
	if parts[len(parts)-1] == "base64" {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(data); err != nil {
				return nil
			}
		}
		return b
	}
	s, err := url.PathUnescape(data)
	if err != nil {
		return nil
	}
	return []byte(s)
}
