package apiserver

import (
	"strings"
	"testing"

	"proposaldesk/app"
)

// Answers the contract's error table and number rules describe.

func TestExponentNumbersAreRefusedInWords(t *testing.T) {
	e := newEnv(t)
	path := pathf("/public/proposals/%d/items/%d", e.main.draft, e.main.item)
	for _, r := range []tres{
		e.postJSON(e.main.admin, path, `{"Quantity":1e2}`),
		e.postForm(e.main.admin, path, "Quantity=1e2"),
	} {
		b := wantError(t, r, 400, app.KindValidationFailed)
		if !strings.Contains(b.Message, "exponents are not accepted") || !strings.Contains(b.Message, "Quantity") {
			t.Errorf("message %q does not say that exponents are not accepted", b.Message)
		}
	}
}

func TestEmptyFormNumberIsRefused(t *testing.T) {
	e := newEnv(t)
	r := e.postForm(e.main.admin, pathf("/public/proposals/%d/items/%d", e.main.draft, e.main.item), "Quantity=")
	b := wantError(t, r, 400, app.KindValidationFailed)
	if len(b.ResponseStatus.Errors) != 1 || b.ResponseStatus.Errors[0].FieldName != "Quantity" {
		t.Errorf("errors %+v, want one naming Quantity", b.ResponseStatus.Errors)
	}
}

func TestMethodNotAllowedAnswer(t *testing.T) {
	e := newEnv(t)
	r := e.do(treq{method: "PUT", path: pathf("/public/proposals/%d", e.main.draft), as: e.main.admin})
	wantError(t, r, 405, app.KindMethodNotAllowed)
	if allow := r.header.Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "POST") {
		t.Errorf("Allow %q, want GET and POST", allow)
	}
}

func TestAcceptIsDocumentedOptional(t *testing.T) {
	e := newEnv(t)
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	r := e.get(e.main.admin, "/openapi.json")
	wantStatus(t, r, 200)
	r.json(t, &doc)
	found := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			for _, p := range op.Parameters {
				if p.In == "header" && strings.EqualFold(p.Name, "Accept") {
					found++
					if p.Required {
						t.Errorf("%s %s documents Accept as required", method, path)
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no operation documents the Accept header")
	}
}

// One account cannot grow a proposal past app.MaxProposalBytes: the edit
// that would is 413 in words, and nothing of it is stored.
func TestProposalSizeIsBounded(t *testing.T) {
	e := newEnv(t)
	big := strings.Repeat("x", app.MaxTextLength)
	path := pathf("/public/proposals/%d/area-options/%d/items", e.main.draft, e.main.option)
	var refused *ErrorBody
	for i := 0; i < 60 && refused == nil; i++ {
		r := e.postJSON(e.main.admin, path, map[string]any{"ItemType": "Part", "Name": "Big", "Description": big, "ClientNote": big})
		if r.status == 413 {
			b := wantError(t, r, 413, app.KindPayloadTooLarge)
			refused = &b
			break
		}
		wantStatus(t, r, 200)
	}
	if refused == nil {
		t.Fatal("60 items of 200,000 characters each were all accepted")
	}
	if !strings.Contains(refused.Message, "limit") {
		t.Errorf("message %q does not give the limit", refused.Message)
	}
	b, err := e.load(e.main, e.main.draft).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > app.MaxProposalBytes {
		t.Errorf("stored proposal is %d bytes, over the limit of %d", len(b), app.MaxProposalBytes)
	}
	// Copying it is no way around the bound: a copy is the same size.
	r := e.postJSON(e.main.admin, pathf("/public/proposals/%d/copy", e.main.draft), `{}`)
	wantStatus(t, r, 200)
}
