package spec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"proposaldesk/app"
)

// An edit's operation comes from its description in app: the route's
// name, summary and doc, its path IDs, and its body fields with their
// types, limits and docs.

func editDoc(k app.MutationKind, enums []enum) (opDoc, error) {
	m, ok := app.NewMutation(k)
	if !ok {
		return opDoc{}, fmt.Errorf("route of edit %s: app has no such kind", k)
	}
	r := m.Route()
	d := opDoc{id: r.Name, summary: r.Summary, doc: r.Doc, write: true, errors: []string{"NotFound"}, tags: proposalTags}
	if r.Extension {
		d.tags = extTags
	}
	if r.NoContent {
		d.noContent = true
		d.ok = o("description", "Done; no body. ETag carries the proposal's new version.",
			"headers", headers("ETag", etagHeader, "Idempotent-Replayed", replayedHeader))
	} else {
		d.ok = jsonOK(ref("ProposalDetail"), "The proposal's full detail after the write.", "ETag", etagHeader, "Idempotent-Replayed", replayedHeader)
	}
	body, err := editBody(m, enums)
	if err != nil {
		return opDoc{}, fmt.Errorf("edit %s: %w", k, err)
	}
	d.body = body
	return d, nil
}

// editBody is the request body of an edit, from its body params (and the
// path IDs, when the body may repeat them).
func editBody(m app.Mutation, enums []enum) (*obj, error) {
	props, required, words, err := paramProps(app.BodyParams(m), enums)
	if err != nil {
		return nil, err
	}
	doc := "Fields: " + strings.Join(words, ", ") + "."
	if m.Route().BodyRepeatsPath {
		for _, p := range app.PathParams(m) {
			name := lowerFirst(p.Name)
			props.set(name, pathID().with("description", "Optional; must equal the path's "+p.Name+"."))
		}
		if len(words) == 0 {
			doc = "Optional echo of the path IDs."
		}
	}
	if len(props.keys) == 0 {
		return nil, nil
	}
	if required == nil {
		required = []string{}
	}
	return requestBody(props, required, doc), nil
}

// paramProps are the body schema's properties from params, with the names
// of the required ones, and the fields in words for the body's doc.
func paramProps(params []app.Param, enums []enum) (props *obj, required, words []string, err error) {
	props = o()
	for _, p := range params {
		s, err := paramSchema(p, enums)
		if err != nil {
			return nil, nil, nil, err
		}
		props.set(p.Name, s)
		if bodyRequired(p) {
			required = append(required, p.Name)
			words = append(words, p.Name+" (required)")
		} else {
			words = append(words, p.Name)
		}
	}
	return props, required, words, nil
}

// paramsBody is the request body of a route that is not an edit, from
// the params its handler decodes.
func paramsBody(params []app.Param, doc string) *obj {
	props, required, _, err := paramProps(params, enums())
	if err != nil {
		panic("bug: " + err.Error())
	}
	if required == nil {
		required = []string{}
	}
	return requestBody(props, required, doc)
}

// bodyRequired: a param marked Required, or a text that may not be blank
// held in a plain (non-optional) field, where an absent value reads as
// blank and is refused.
func bodyRequired(p app.Param) bool {
	if p.Required {
		return true
	}
	_, plain := p.Value() // on a zero mutation, only an optional field is unset
	return p.Type == app.ParamText && p.MinLength > 0 && plain
}

func paramSchema(p app.Param, enums []enum) (*obj, error) {
	var s *obj
	switch p.Type {
	case app.ParamID:
		s = pathID()
		if p.ZeroID {
			s.set("minimum", 0)
		}
	case app.ParamInt:
		s = o("type", "integer", "format", "int64", "minimum", 0)
	case app.ParamMoney, app.ParamQuantity, app.ParamPercent:
		// A JSON number (or its text in a form); more decimals than the
		// type holds is 400, never rounded.
		s = o("type", "number", "multipleOf", json.Number(p.FormatBound(1)))
	case app.ParamBool:
		s = boolean()
	case app.ParamText:
		s = str()
		if p.MinLength > 0 {
			s.set("minLength", p.MinLength)
			s.set("pattern", `\S`) // not only spaces
		}
		if p.MaxLength > 0 {
			s.set("maxLength", p.MaxLength)
		}
		if p.Format != "" {
			s.set("format", p.Format)
		}
	case app.ParamChoices:
		s = o("type", "array", "items", o("type", "object", "required", []string{"AreaId", "AreaOptionId"},
			"properties", o("AreaId", pathID(), "AreaOptionId", pathID())))
	case app.ParamEnum:
		s = enumOf(p.Enum)
		for _, e := range enums {
			if slices.Equal(e.values, p.Enum) {
				s = ref(e.name)
			}
		}
	default:
		return nil, fmt.Errorf("param %s: no schema for its type %d", p.Name, p.Type)
	}
	if b := p.Bounds; b != nil {
		if b.MinExclusive {
			s.set("exclusiveMinimum", json.Number(p.FormatBound(b.Min)))
		} else {
			s.set("minimum", json.Number(p.FormatBound(b.Min)))
		}
		s.set("maximum", json.Number(p.FormatBound(b.Max)))
	}
	if p.Doc != "" {
		s.set("description", p.Doc)
	}
	return s, nil
}

func lowerFirst(s string) string {
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
