package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"incidentlib/internal/cases"
)

// The tools' sentences, notes and errors in both languages are the "mcp."
// keys of the one string catalogue (cases.Catalogue), checked at start: a
// key without one of the languages is an error (see l10n.ParseStrings),
// and TestStrings checks every key the code uses.
var msgs = cases.Catalogue.Prefixed("mcp.")

// kind is what an argument holds. The schemas show each kind as one plain
// JSON type, as every client accepts, while the decoding is lenient where
// models are known to stray: a year may come as the number 2024, a single
// term without its list.
type kind int

const (
	kString   kind = iota
	kQuery         // a string, whose script chooses the answer's language
	kInt           // a whole number from 1; "10" is taken too
	kTerm          // a term id: a string, or a number such as 2024
	kTerms         // term ids: a list of kTerm, or one kTerm alone
	kLang          // "en" or "ko"
	kLangBoth      // "en", "ko" or "both"
	kBool          // true or false; "true" and "false" are taken too
	kFacet         // a facet's URL name; its argument name is taken too
)

// kindKey names a kind in errors.
var kindKey = map[kind]string{kString: "kind.string", kQuery: "kind.query", kInt: "kind.integer", kTerm: "kind.term", kTerms: "kind.terms", kLang: "kind.lang", kLangBoth: "kind.lang_both", kBool: "kind.boolean", kFacet: "kind.string"}

// param is one argument of a tool.
type param struct {
	name     string
	kind     kind
	desc     string
	required bool
}

// schema is the argument's JSON Schema: one plain type, described.
func (p param) schema() *jsonschema.Schema {
	s := &jsonschema.Schema{Description: p.desc}
	switch p.kind {
	case kString, kQuery, kTerm:
		s.Type = "string"
	case kFacet:
		s.Type = "string"
		for _, f := range cases.FacetNames() {
			s.Enum = append(s.Enum, f)
		}
	case kInt:
		s.Type, s.Minimum = "integer", jsonschema.Ptr(1.0)
	case kTerms:
		s.Type = "array"
		s.Items = &jsonschema.Schema{Type: "string", Description: "a term id (years may be numbers too)"}
	case kLang:
		s.Type, s.Enum = "string", []any{"en", "ko"}
	case kLangBoth:
		s.Type, s.Enum = "string", []any{"en", "ko", "both"}
	case kBool:
		s.Type = "boolean"
	}
	return s
}

// inputSchema is the input schema of a tool taking params. It does not
// forbid other properties: an argument the tool does not take is ignored
// and named in a note, not refused.
func inputSchema(params []param) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for _, p := range params {
		s.Properties[p.name] = p.schema()
		s.PropertyOrder = append(s.PropertyOrder, p.name)
		if p.required {
			s.Required = append(s.Required, p.name)
		}
	}
	return s
}

// outputSchema infers the schema of a tool's structured content from its
// Go type, in the plain shapes every client accepts: a pointer's
// ["null", T] becomes T (the encoders leave such fields out rather than
// writing null) and no additionalProperties.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a mistake in the output types
	}
	plain(s)
	return s
}

func plain(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		for _, t := range s.Types {
			if t != "null" {
				s.Type = t
			}
		}
		s.Types = nil
	}
	s.AdditionalProperties = nil
	for _, p := range s.Properties {
		plain(p)
	}
	plain(s.Items)
}

// call is one tool call: the language it answers in and the notes that
// the answer will carry.
type call struct {
	tool   string
	params []param
	lang   string
	notes  []string
	args   map[string]any // decoded: string, int or []string
}

// t writes the sentence key in the call's language.
func (c *call) t(key string, args ...any) string {
	return fmt.Sprintf(msgs.Get(c.lang, key), args...)
}

// tn is t with the key's singular (".one") when n is 1, else its plural
// (".other").
func (c *call) tn(key string, n int, args ...any) string {
	if n == 1 {
		return c.t(key+".one", args...)
	}
	return c.t(key+".other", args...)
}

// note adds a note in the call's language.
func (c *call) note(key string, args ...any) { c.notes = append(c.notes, c.t(key, args...)) }

// userError is a tool error already written in the caller's language.
type userError string

func (e userError) Error() string { return string(e) }

func (c *call) fail(key string, args ...any) error { return userError(c.t(key, args...)) }

// didYouMean suggests the nearest of candidates to s, in the call's
// language, or "".
func (c *call) didYouMean(s string, candidates []string) string {
	en := cases.DidYouMean(s, candidates) // ` (did you mean "x"?)`
	q, ok := strings.CutPrefix(en, " (did you mean ")
	if !ok {
		return ""
	}
	return c.t("did_you_mean", strings.TrimSuffix(q, "?)"))
}

// names are the tool's argument names.
func (c *call) names() []string {
	names := make([]string, len(c.params))
	for i, p := range c.params {
		names[i] = p.name
	}
	return names
}

// usage lists the tool's arguments for errors and notes.
func (c *call) usage() string { return strings.Join(c.names(), ", ") }

func (c *call) str(name string) string {
	s, _ := c.args[name].(string)
	return s
}

func (c *call) int(name string) int {
	n, _ := c.args[name].(int)
	return n
}

func (c *call) bool(name string) bool {
	b, _ := c.args[name].(bool)
	return b
}

func (c *call) list(name string) []string {
	l, _ := c.args[name].([]string)
	return l
}

// newCall decodes a call's arguments. The language is chosen first, so
// that every error after it is in that language: lang when it is given
// and valid, else Korean for a query in Hangul, else English.
func newCall(tool string, params []param, raw json.RawMessage) (*call, error) {
	c := &call{tool: tool, params: params, lang: "en", args: map[string]any{}}
	var in map[string]json.RawMessage
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && string(raw) != "null" {
		if raw[0] != '{' || json.Unmarshal(raw, &in) != nil {
			return c, c.fail("err.arguments", c.describe(raw))
		}
	}
	moved, unknown := renameArgs(in, params)
	var lang, query string
	json.Unmarshal(in["lang"], &lang)
	json.Unmarshal(in["query"], &query)
	switch l := strings.ToLower(strings.TrimSpace(lang)); {
	case l == "en" || l == "ko":
		c.lang = l
	case hasHangul(query):
		c.lang = "ko"
	}
	for _, mv := range moved {
		c.note("note.renamed", mv[0], mv[1])
	}
	if len(unknown) > 0 {
		var hint string
		if len(unknown) == 1 {
			hint = c.didYouMean(normName(unknown[0]), c.names())
		}
		return c, c.fail(map[bool]string{true: "err.unknown.one", false: "err.unknown.other"}[len(unknown) == 1], strings.Join(unknown, ", "), hint, tool, c.usage())
	}
	for _, p := range params {
		v, ok := in[p.name]
		if !ok || string(bytes.TrimSpace(v)) == "null" {
			if p.required {
				return c, c.fail("err.required", p.name, tool, c.usage())
			}
			continue
		}
		val, ok := c.decode(p, v)
		if !ok {
			if p.kind == kLang || p.kind == kLangBoth {
				key := map[kind]string{kLang: "err.lang", kLangBoth: "err.lang_both"}[p.kind]
				return c, c.fail(key, c.describe(v))
			}
			return c, c.fail("err.kind", p.name, c.t(kindKey[p.kind]), c.describe(v))
		}
		c.args[p.name] = val
	}
	return c, nil
}

// decode reads one argument of p's kind.
func (c *call) decode(p param, v json.RawMessage) (any, bool) {
	switch p.kind {
	case kString, kQuery, kFacet:
		var s string
		return s, json.Unmarshal(v, &s) == nil
	case kLang, kLangBoth:
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, false
		}
		s = strings.ToLower(strings.TrimSpace(s))
		return s, s == "en" || s == "ko" || (p.kind == kLangBoth && s == "both")
	case kInt:
		var n json.Number
		var s string
		if json.Unmarshal(v, &s) == nil {
			n = json.Number(strings.TrimSpace(s))
		} else if json.Unmarshal(v, &n) != nil {
			return nil, false
		}
		i, err := strconv.Atoi(string(n))
		if err != nil {
			f, ferr := strconv.ParseFloat(string(n), 64)
			if ferr != nil || f != float64(int(f)) {
				return nil, false
			}
			i = int(f)
		}
		return i, i >= 1
	case kBool:
		var b bool
		if json.Unmarshal(v, &b) == nil {
			return b, true
		}
		var s string
		json.Unmarshal(v, &s)
		s = strings.ToLower(strings.TrimSpace(s))
		return s == "true", s == "true" || s == "false"
	case kTerm:
		return termOf(v)
	case kTerms:
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			t, ok := termOf(v) // one term without its list
			return []string{t}, ok
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			t, ok := termOf(it)
			if !ok {
				return nil, false
			}
			out = append(out, t)
		}
		return out, true
	}
	return nil, false
}

// termOf reads a term id: a string, or a whole number (a year).
func termOf(v json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return strings.TrimSpace(s), true
	}
	var n json.Number
	if json.Unmarshal(v, &n) != nil {
		return "", false
	}
	if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
		return "", false
	}
	return string(n), true
}

// describe says what a bad value was, in the user's terms.
func (c *call) describe(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return c.t("value.null")
	}
	switch v[0] {
	case 'n':
		return c.t("value.null")
	case '"':
		var s string
		json.Unmarshal(v, &s)
		return c.t("value.string", echo(s))
	case 't', 'f':
		return c.t("value.boolean", string(v))
	case '[':
		return c.t("value.array")
	case '{':
		return c.t("value.object")
	}
	return c.t("value.number", clip(v))
}

// echo quotes a bad argument for an error message, shortened.
func echo(s string) string {
	if utf8.RuneCountInString(s) > echoRunes {
		s = string([]rune(s)[:echoRunes]) + "…"
	}
	return strconv.Quote(s)
}

// hasHangul reports whether s has a Korean letter.
func hasHangul(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) >= 0
}
