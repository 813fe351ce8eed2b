// Package jsonpos parses JSON into a tree that remembers where every value
// and key starts, so that checks made after parsing can point at a line and
// column. The standard library's decoder reports positions only for syntax
// errors; content checks need them for every field.
//
// The parser is strict JSON (RFC 8259): no comments, no trailing commas.
// Invalid UTF-8 inside a string and duplicate keys are reported as problems
// but do not stop the parse, so one run finds all of them.
package jsonpos

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a value.
type Kind uint8

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string { return kindNames[k] }

// Value is one parsed JSON value.
type Value struct {
	Kind    Kind
	Off     int    // byte offset where the value starts
	Str     string // the string for String, the literal for Number
	Bool    bool
	Items   []*Value // Array elements
	Members []Member // Object members in input order
}

// Member is one key of an object.
type Member struct {
	Key    string
	KeyOff int
	Value  *Value
}

// Get returns the member named key, or nil.
func (v *Value) Get(key string) *Value {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Problem is a parse problem at a byte offset.
type Problem struct {
	Off int
	Msg string
}

// Doc is a parsed file: its root value, problems found and a line index.
type Doc struct {
	Root     *Value
	Problems []Problem
	// Fatal is true when a syntax error stopped the parse; Root is then nil.
	Fatal bool
	src   []byte
	lines []int // offsets where lines start
}

// Pos converts a byte offset into a 1-based line and column; the column
// counts characters, not bytes, as editors do.
func (d *Doc) Pos(off int) (line, col int) {
	if d.lines == nil {
		d.lines = append(d.lines, 0)
		for i, c := range d.src {
			if c == '\n' {
				d.lines = append(d.lines, i+1)
			}
		}
	}
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if off > len(d.src) {
		off = len(d.src)
	}
	return lo + 1, utf8.RuneCount(d.src[d.lines[lo]:off]) + 1
}

type parser struct {
	src   []byte
	i     int
	doc   *Doc
	depth int
}

type syntaxError struct{ Problem }

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 200

// Parse parses src. It never panics; problems are in the returned Doc.
func Parse(src []byte) (doc *Doc) {
	doc = &Doc{src: src}
	p := &parser{src: src, doc: doc}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(syntaxError)
			if !ok {
				panic(r)
			}
			doc.Root = nil
			doc.Fatal = true
			doc.Problems = append(doc.Problems, se.Problem)
		}
	}()
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.i = 3 // a byte order mark is harmless; skip it
	}
	p.space()
	if p.i >= len(src) {
		p.fail("empty file: expected a JSON value")
	}
	doc.Root = p.value()
	p.space()
	if p.i < len(src) {
		p.fail("unexpected %s after the end of the JSON value", p.describe())
	}
	return doc
}

func (p *parser) fail(format string, args ...any) {
	panic(syntaxError{Problem{Off: p.i, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) describe() string {
	if p.i >= len(p.src) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.src[p.i:])
	return strconv.QuoteRune(r)
}

func (p *parser) space() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() *Value {
	if p.i >= len(p.src) {
		p.fail("unexpected end of file: expected a value")
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		off := p.i
		return &Value{Kind: String, Off: off, Str: p.str()}
	case c == 't':
		return p.literal("true", &Value{Kind: Bool, Bool: true})
	case c == 'f':
		return p.literal("false", &Value{Kind: Bool})
	case c == 'n':
		return p.literal("null", &Value{Kind: Null})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		p.fail("unexpected %s: expected a value", p.describe())
	}
	return nil
}

func (p *parser) literal(word string, v *Value) *Value {
	if len(p.src)-p.i < len(word) || string(p.src[p.i:p.i+len(word)]) != word {
		p.fail("unexpected %s: expected a value", p.describe())
	}
	v.Off = p.i
	p.i += len(word)
	return v
}

func (p *parser) number() *Value {
	start := p.i
	if p.src[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.src) && p.src[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.fail("invalid number")
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			p.fail("invalid number: expected digits after the decimal point")
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.fail("invalid number: expected digits in the exponent")
		}
	}
	return &Value{Kind: Number, Off: start, Str: string(p.src[start:p.i])}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting deeper than %d levels", maxDepth)
	}
}

func (p *parser) object() *Value {
	p.enter()
	v := &Value{Kind: Object, Off: p.i}
	p.i++ // {
	p.space()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		p.depth--
		return v
	}
	for {
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			p.fail("unexpected %s: expected a string key", p.describe())
		}
		keyOff := p.i
		key := p.str()
		for _, m := range v.Members {
			if m.Key == key {
				p.doc.Problems = append(p.doc.Problems, Problem{Off: keyOff, Msg: fmt.Sprintf("duplicate key %q", key)})
				break
			}
		}
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			p.fail("unexpected %s: expected ':' after key %q", p.describe(), key)
		}
		p.i++
		p.space()
		v.Members = append(v.Members, Member{Key: key, KeyOff: keyOff, Value: p.value()})
		p.space()
		if p.i >= len(p.src) {
			p.fail("unexpected end of file: expected ',' or '}'")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
			p.space()
			if p.i < len(p.src) && p.src[p.i] == '}' {
				p.fail("trailing comma before '}'")
			}
		case '}':
			p.i++
			p.depth--
			return v
		default:
			p.fail("unexpected %s: expected ',' or '}'", p.describe())
		}
	}
}

func (p *parser) array() *Value {
	p.enter()
	v := &Value{Kind: Array, Off: p.i}
	p.i++ // [
	p.space()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		p.depth--
		return v
	}
	for {
		p.space()
		v.Items = append(v.Items, p.value())
		p.space()
		if p.i >= len(p.src) {
			p.fail("unexpected end of file: expected ',' or ']'")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
			p.space()
			if p.i < len(p.src) && p.src[p.i] == ']' {
				p.fail("trailing comma before ']'")
			}
		case ']':
			p.i++
			p.depth--
			return v
		default:
			p.fail("unexpected %s: expected ',' or ']'", p.describe())
		}
	}
}

// str parses a string starting at the opening quote.
func (p *parser) str() string {
	start := p.i
	p.i++
	// Fast path: no escapes and plain bytes.
	j := p.i
	for j < len(p.src) {
		c := p.src[j]
		if c == '"' {
			s := p.src[p.i:j]
			if utf8.Valid(s) {
				p.i = j + 1
				return string(s)
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
		j++
	}
	var b []byte
	for {
		if p.i >= len(p.src) {
			p.i = start
			p.fail("unterminated string")
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b)
		case c == '\\':
			p.i++
			if p.i >= len(p.src) {
				p.fail("unterminated string")
			}
			e := p.src[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := p.hex4()
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.i+1 < len(p.src) && p.src[p.i] == '\\' && p.src[p.i+1] == 'u' {
						p.i += 2
						r2 = p.hex4()
					}
					r = utf16.DecodeRune(r, r2)
				}
				b = utf8.AppendRune(b, r)
			default:
				p.i -= 2
				p.fail("invalid escape \\%c in string", e)
			}
		case c < 0x20:
			p.fail("control character %U in string (write it as an escape)", rune(c))
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, n := utf8.DecodeRune(p.src[p.i:])
			if r == utf8.RuneError && n == 1 {
				p.doc.Problems = append(p.doc.Problems, Problem{Off: p.i, Msg: "invalid UTF-8 in string"})
			}
			b = utf8.AppendRune(b, r)
			p.i += n
		}
	}
}

func (p *parser) hex4() rune {
	if len(p.src)-p.i < 4 {
		p.fail("invalid \\u escape")
	}
	n, err := strconv.ParseUint(string(p.src[p.i:p.i+4]), 16, 32)
	if err != nil {
		p.fail("invalid \\u escape")
	}
	p.i += 4
	return rune(n)
}
