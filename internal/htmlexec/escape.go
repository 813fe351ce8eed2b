package htmlexec

import (
	"bytes"
	"fmt"
	"html/template"
	"reflect"
	"strconv"
	"strings"
	"text/template/parse"
)

// contentType is the kind of a value: plain text or one of html/template's
// typed strings, which some escapers pass through.
type contentType uint8

const (
	contentPlain contentType = iota
	contentCSS
	contentHTML
	contentHTMLAttr
	contentJS
	contentJSStr
	contentURL
	contentSrcset
)

// contentTypes are the string types stringify keeps, plain strings first,
// by their types' identities (keyOf): a few comparisons of pointers cost
// less than hashing a type for a map, or comparing reflect.Types, which
// calls the runtime each time.
var contentTypes = [...]struct {
	typ typeKey
	ct  contentType
}{
	{keyOf(reflect.TypeFor[string]()), contentPlain},
	{keyOf(reflect.TypeFor[template.HTML]()), contentHTML},
	{keyOf(reflect.TypeFor[template.URL]()), contentURL},
	{keyOf(reflect.TypeFor[template.HTMLAttr]()), contentHTMLAttr},
	{keyOf(reflect.TypeFor[template.CSS]()), contentCSS},
	{keyOf(reflect.TypeFor[template.JS]()), contentJS},
	{keyOf(reflect.TypeFor[template.JSStr]()), contentJSStr},
	{keyOf(reflect.TypeFor[template.Srcset]()), contentSrcset},
}

// contentTypeOf is the content type of a value of type typ, if it is one
// of contentTypes.
func contentTypeOf(typ reflect.Type) (contentType, bool) {
	if typ.Kind() != reflect.String {
		return 0, false
	}
	return contentTypeOfKey(keyOf(typ))
}

// contentTypeOfKey is contentTypeOf for a string type's identity.
func contentTypeOfKey(key typeKey) (contentType, bool) {
	for _, c := range contentTypes {
		if c.typ == key {
			return c.ct, true
		}
	}
	return 0, false
}

var (
	intType  = reflect.TypeFor[int]()
	boolType = reflect.TypeFor[bool]()
)

// stringify turns the value an escaper receives into text and its content
// type, as html/template does: pointers are followed, html/template's
// string types keep their type, anything else is printed by fmt.
func stringify(v reflect.Value) (string, contentType) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", contentPlain
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.String { // most values: no pointer to follow
		if ct, ok := contentTypeOfKey(keyOf(v.Type())); ok {
			return v.String(), ct
		}
	}
	if !v.IsValid() {
		return "", contentPlain // an untyped nil prints nothing
	}
	orig := v
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if ct, ok := contentTypeOf(v.Type()); ok {
		return v.String(), ct
	}
	switch v.Type() {
	case intType:
		return strconv.Itoa(int(v.Int())), contentPlain
	case boolType:
		return strconv.FormatBool(v.Bool()), contentPlain
	}
	if !orig.CanInterface() {
		unsupported("printing an unexported value")
	}
	return fmt.Sprint(stringerOrValue(orig)), contentPlain
}

// stringerOrValue follows pointers until a value that prints itself.
func stringerOrValue(v reflect.Value) any {
	for !v.Type().Implements(stringerType) && !v.Type().Implements(errorType) && v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	return v.Interface()
}

// escaper is one of the functions html/template appends to a pipeline.
// str returns the escaped text; write writes it.
type escaper struct {
	str   func(s string, ct contentType) string
	write func(w *bytes.Buffer, s string, ct contentType)
}

func writeStr(f func(string, contentType) string) func(*bytes.Buffer, string, contentType) {
	return func(w *bytes.Buffer, s string, ct contentType) { w.WriteString(f(s, ct)) }
}

var escapers = map[string]escaper{}

func init() {
	text := func(s string, ct contentType) string {
		if ct == contentHTML {
			return s
		}
		return replaceString(s, false)
	}
	rcdata := func(s string, ct contentType) string { return replaceString(s, ct == contentHTML) }
	attr := func(s string, ct contentType) string {
		if ct == contentHTML {
			unsupported("HTML in an attribute") // html/template strips its tags
		}
		return replaceString(s, false)
	}
	escapers["_html_template_htmlescaper"] = escaper{text, func(w *bytes.Buffer, s string, ct contentType) {
		if ct == contentHTML {
			w.WriteString(s)
			return
		}
		replace(w, s, false)
	}}
	escapers["_html_template_rcdataescaper"] = escaper{rcdata, func(w *bytes.Buffer, s string, ct contentType) { replace(w, s, ct == contentHTML) }}
	escapers["_html_template_attrescaper"] = escaper{attr, func(w *bytes.Buffer, s string, ct contentType) {
		if ct == contentHTML {
			unsupported("HTML in an attribute")
		}
		replace(w, s, false)
	}}
	filter := func(s string, ct contentType) string {
		if ct == contentURL || safeURL(s) {
			return s
		}
		return "#ZgotmplZ"
	}
	escapers["_html_template_urlfilter"] = escaper{filter, writeStr(filter)}
	normalize := func(s string, _ contentType) string { return processURL(s, true) }
	escapers["_html_template_urlnormalizer"] = escaper{normalize, writeStr(normalize)}
	escape := func(s string, ct contentType) string { return processURL(s, ct == contentURL) }
	escapers["_html_template_urlescaper"] = escaper{escape, writeStr(escape)}
}

func escaperOf(cmd *parse.CommandNode) (escaper, bool) {
	if len(cmd.Args) != 1 {
		return escaper{}, false
	}
	id, ok := cmd.Args[0].(*parse.IdentifierNode)
	if !ok {
		return escaper{}, false
	}
	e, ok := escapers[id.Ident]
	return e, ok
}

// replacement is the entity html/template writes for an ASCII character in
// text and quoted attributes; keepAmp leaves & alone, for text that is
// already HTML.
func replacement(c byte, keepAmp bool) string {
	switch c {
	case 0:
		return "\uFFFD"
	case '"':
		return "&#34;"
	case '&':
		if keepAmp {
			return ""
		}
		return "&amp;"
	case '\'':
		return "&#39;"
	case '+':
		return "&#43;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	}
	return ""
}

// special marks the bytes replacement may change.
var special = [256]bool{0: true, '"': true, '&': true, '\'': true, '+': true, '<': true, '>': true}

func replace(w *bytes.Buffer, s string, keepAmp bool) {
	written := 0
	for i := 0; i < len(s); i++ {
		if !special[s[i]] {
			continue
		}
		if r := replacement(s[i], keepAmp); r != "" {
			w.WriteString(s[written:i])
			w.WriteString(r)
			written = i + 1
		}
	}
	w.WriteString(s[written:])
}

func replaceString(s string, keepAmp bool) string {
	for i := 0; i < len(s); i++ {
		if special[s[i]] && replacement(s[i], keepAmp) != "" {
			var b bytes.Buffer
			b.Grow(len(s) + 16)
			replace(&b, s, keepAmp)
			return b.String()
		}
	}
	return s
}

// safeURL reports whether a URL is relative or uses http, https or mailto.
// The scheme is what comes before the first ':' when no '/' comes before
// it, so the scan stops at the first of the two: most links here are
// relative and start with one.
func safeURL(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/':
			return true
		case ':':
			scheme := s[:i]
			return strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") || strings.EqualFold(scheme, "mailto")
		}
	}
	return true
}

// processURL percent-encodes the bytes of s that may not appear in a URL
// attribute. Normalizing keeps URL punctuation and valid escapes; escaping
// (for a query value) encodes them too.
func processURL(s string, norm bool) string {
	var b []byte
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~':
			continue
		case urlPunct[c]:
			if norm {
				continue
			}
		case c == '%':
			if norm && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				continue
			}
		}
		if b == nil {
			b = make([]byte, 0, len(s)+16)
		}
		b = append(b, s[written:i]...)
		b = append(b, '%', hexDigit[c>>4], hexDigit[c&15])
		written = i + 1
	}
	if b == nil {
		return s
	}
	return string(append(b, s[written:]...))
}

const hexDigit = "0123456789abcdef"

// urlPunct marks the punctuation of URLs, which normalizing keeps.
var urlPunct = func() (t [256]bool) {
	for _, c := range []byte("!#$&*+,/:;=?@[]") {
		t[c] = true
	}
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
