package apiserver

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"proposaldesk/app/signing"
)

// BenchmarkSignedWrite is the signed write path in process: signature,
// body decoding, the rule engine and a store commit (without fsync), for
// a text edit (operation 5) and a rename (operation 4).
func BenchmarkSignedWrite(b *testing.B) {
	for _, bc := range []struct {
		name, path, body string
	}{
		{"description", "/public/proposals/%d/description", `{"Description":"Wall-mounted 85 inch display"}`},
		{"rename", "/public/proposals/%d", `{"Name":"Lake house, phase 2"}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := newEnv(b, func(c *Config) { c.Logger = discardLogger() })
			target := pathf(bc.path, e.proposal(e.main, "Bench").ID)
			key := e.main.admin.key
			ct := "application/json"
			b.ReportAllocs()
			for b.Loop() {
				body := bc.body
				ts := signing.FormatDate(time.Now())
				req := httptest.NewRequest("POST", "http://example.test"+target, strings.NewReader(body))
				req.Header.Set("Content-Type", ct)
				req.Header.Set(signing.HeaderAppID, e.app.ID)
				req.Header.Set(signing.HeaderDate, ts)
				req.Header.Set(signing.HeaderUserKey, key)
				req.Header.Set(signing.HeaderSignature, signing.Sign(e.app.Secret, signing.Message("POST", "http://example.test"+target, ct, ts, key)))
				w := serveInProcess(e.s, req)
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body.String())
				}
			}
		})
	}
}
