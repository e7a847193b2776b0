package apiserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"proposaldesk/apiserver/clientpage"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// serveInProcess runs one request through the handler without a network.
func serveInProcess(s *Server, req *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w
}

func validMethod(m string) bool {
	if m == "" || len(m) > 16 {
		return false
	}
	for _, c := range m {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// FuzzSignedRequest throws arbitrary signing headers, paths and bodies at
// the handler, either signed correctly (to reach the handlers) or with
// the fuzzer's own signature. No input may panic or produce a 500.
func FuzzSignedRequest(f *testing.F) {
	e := newEnv(f)
	f.Add(true, "GET", "/public/proposals?PageSize=5", "", "", "", "", "")
	f.Add(true, "POST", "/public/proposals/1/description", "application/json", `{"Description":"x"}`, "", "", "")
	f.Add(true, "POST", "/public/proposals", "application/x-www-form-urlencoded", "SalesPersonId=1&Name=a", "", "", "")
	f.Add(false, "GET", "/public/proposals", "", "", "app-x", "Mon, 02 Jan 2006 15:04:05 GMT", "AAAA")
	f.Add(false, "GET", "/authenticate/apikeyexchange?UserName=a&Password=b", "", "", "", "garbage", "%%%")
	f.Add(true, "POST", "/public/proposals/9/contact/9", "application/json", `{"proposalId":"9"}`, "", "", "")
	f.Add(true, "GET", "/public/changes?since=18446744073709551615", "", "", "", "", "")
	f.Add(true, "GET", "/public/proposals?PageSize=5;SortBy=Name&SearchText=%zz", "", "", "", "", "")
	f.Add(true, "POST", "/public/people/1/location", "application/json", `{"Street":"a","IsPrimary":"TRUE"}`, "", "", "")
	f.Fuzz(func(t *testing.T, sign bool, method, target, ct, body, appID, date, sig string) {
		if !validMethod(method) || !strings.HasPrefix(target, "/") || len(target) > 4096 {
			t.Skip()
		}
		u, err := url.ParseRequestURI(target)
		if err != nil {
			t.Skip()
		}
		for _, v := range []string{ct, appID, date, sig} {
			if strings.ContainsAny(v, "\r\n\x00") {
				t.Skip()
			}
		}
		req := &http.Request{
			Method: method, URL: u, RequestURI: target, Host: "example.test",
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Body: http.NoBody,
		}
		if body != "" {
			req.Body = httpBody(body)
			req.ContentLength = int64(len(body))
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		if sign {
			ts := signing.FormatDate(time.Now())
			key := e.main.admin.key
			req.Header.Set(signing.HeaderAppID, e.app.ID)
			req.Header.Set(signing.HeaderDate, ts)
			req.Header.Set(signing.HeaderUserKey, key)
			req.Header.Set(signing.HeaderSignature, signing.Sign(e.app.Secret,
				signing.Message(method, "http://example.test"+target, ct, ts, key)))
		} else {
			req.Header.Set(signing.HeaderAppID, appID)
			req.Header.Set(signing.HeaderDate, date)
			req.Header.Set(signing.HeaderSignature, sig)
			req.Header.Set(signing.HeaderUserKey, "")
		}
		w := serveInProcess(e.s, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s: %d %s", method, target, w.Code, w.Body.String())
		}
		// The client's page answers people in HTML, refusals included;
		// every API route answers in the API's error shape.
		if w.Code >= 400 && !strings.HasPrefix(req.URL.Path, clientpage.PathPrefix) {
			checkErrorShape(t, w.Body.Bytes())
		}
	})
}

type stringBody struct{ *strings.Reader }

func (stringBody) Close() error { return nil }

func httpBody(s string) stringBody { return stringBody{strings.NewReader(s)} }

var fuzzSpec = []field{{"Name", fString}, {"SalesPersonId", fID}, {"IsPrimary", fBool}, {"Description", fString}}

// FuzzDecodeBody checks that body decoding never panics, that every
// failure is a kinded error naming a field, and that what it accepts has
// the declared types.
func FuzzDecodeBody(f *testing.F) {
	f.Add("application/json", `{"Name":"a","salespersonid":12,"ISPRIMARY":true}`)
	f.Add("application/json; charset=utf-8", `{"name":null,"SalesPersonId":"7"}`)
	f.Add("application/x-www-form-urlencoded", "name=a&SalesPersonId=3&IsPrimary=false")
	f.Add("application/json", `{"Name":`)
	f.Add("application/json", `[1,2]`)
	f.Add("text/plain", "hello")
	f.Add("application/x-www-form-urlencoded", "Name=%zz")
	f.Add("application/json", `{"SalesPersonId":1e400}`)
	f.Add("application/json", `{"Name":"a\u0007\r\n\ud83d\ude00\udc00"}`)
	f.Add("application/x-www-form-urlencoded", "Name=a%0D%0Ab%0Dc%C2%85")
	f.Fuzz(func(t *testing.T, ct, body string) {
		got, err := decodeFields(ct, []byte(body), fuzzSpec)
		if err != nil {
			var e *app.Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %v", err)
			}
			switch e.Kind {
			case app.KindValidationFailed:
				if len(e.Fields) == 0 {
					t.Fatalf("validation error names no field: %v", err)
				}
			case app.KindUnsupportedMediaType:
			default:
				t.Fatalf("kind %s", e.Kind)
			}
			return
		}
		for name, v := range got {
			fd, ok := lookupField(fuzzSpec, name)
			if !ok {
				t.Fatalf("unknown field %q decoded", name)
			}
			switch fd.typ {
			case fString:
				s, ok := v.(string)
				if !ok {
					t.Fatalf("%s: %T", name, v)
				}
				// Accepted text is valid UTF-8 without stray control
				// characters (DECISIONS.md "Input fidelity").
				if err := app.CheckChars(name, s); err != nil {
					t.Fatalf("accepted %q: %v", s, err)
				}
			case fID:
				if id, ok := v.(int64); !ok || id <= 0 {
					t.Fatalf("%s: %v", name, v)
				}
			case fBool:
				if _, ok := v.(bool); !ok {
					t.Fatalf("%s: %T", name, v)
				}
			}
		}
	})
}

func BenchmarkSignedGetProposal(b *testing.B) {
	e := newEnv(b, func(c *Config) { c.Logger = discardLogger() })
	target := pathf("/public/proposals/%d", e.main.draft)
	ts := signing.FormatDate(time.Now())
	key := e.main.admin.key
	sig := signing.Sign(e.app.Secret, signing.Message("GET", "http://example.test"+target, "", ts, key))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest("GET", "http://example.test"+target, nil)
		req.Header.Set(signing.HeaderAppID, e.app.ID)
		req.Header.Set(signing.HeaderDate, ts)
		req.Header.Set(signing.HeaderUserKey, key)
		req.Header.Set(signing.HeaderSignature, sig)
		w := serveInProcess(e.s, req)
		if w.Code != 200 {
			b.Fatalf("%d %s", w.Code, w.Body.String())
		}
	}
}
