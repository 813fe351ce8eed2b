// Package jsonpos parses JSON into a tree that remembers where every value
// and key starts, so that checks made after parsing can point at a line and
// column. The standard library's decoder reports positions only for syntax
// errors; content checks need them for every field.
//
// The parser is strict JSON (RFC 8259): no comments, no trailing commas.
// Invalid UTF-8 inside a string, escapes of lone UTF-16 surrogates and of
// control characters other than tab and newline, and duplicate keys are
// reported as problems but do not stop the parse, so one run finds all of
// them.
//
// A parse allocates little: values, array items and object members are cut
// from a few large blocks, which a Parser reuses from one document to the
// next, and a string or key written without escapes is a substring of the
// source rather than a copy. Keeping such a string therefore keeps the
// whole source in memory, which suits callers that keep the source anyway.
package jsonpos

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
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
	src   string
	lines []int // offsets where lines start
	last  cursor
}

// Source returns the text the document was parsed from.
func (d *Doc) Source() string { return d.src }

// Pos converts a byte offset into a 1-based line and column; the column
// counts characters, not bytes, as editors do.
func (d *Doc) Pos(off int) (line, col int) {
	if d.lines == nil {
		d.lines = append(d.lines, 0)
		// A line ends with a line feed, a carriage return and a line
		// feed, or a carriage return alone (old Mac files), as editors
		// count lines.
		for i := 0; i < len(d.src); i++ {
			if d.src[i] == '\n' || d.src[i] == '\r' && (i+1 == len(d.src) || d.src[i+1] != '\n') {
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
	// Checks report in the order of the file, so the column is counted on
	// from the last position asked for when it is earlier on the same line:
	// a one-line file with 100,000 problems costs one pass, not one pass
	// per problem.
	from, col := d.lines[lo], 1
	if d.last.line == lo+1 && d.last.off <= off {
		from, col = d.last.off, d.last.col
	}
	col += utf8.RuneCountInString(d.src[from:off])
	d.last = cursor{off: off, line: lo + 1, col: col}
	return lo + 1, col
}

// cursor is a position Pos returned.
type cursor struct{ off, line, col int }

type parser struct {
	src   string
	i     int
	doc   *Doc
	depth int

	// Values, items and members are cut from blocks that are replaced,
	// never grown, when full, so that pointers into them stay valid. The
	// last blocks of a parse are reused by the next one.
	values  []Value
	items   []*Value
	members []Member
	// Open arrays and objects collect their elements on these stacks;
	// each one, once closed, moves its part into a block of exact size.
	itemStack   []*Value
	memberStack []Member
	buf         []byte // unescaping scratch
	short       bool   // Parser.ShortStrings
	strs        []byte // the strings of this parse, when short
	// sets are the key sets of large objects (see seenKey), kept empty
	// for the next one.
	sets []map[string]struct{}
}

type syntaxError struct{ Problem }

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 200

// Parse parses src. It never panics; problems are in the returned Doc.
// Strings in the tree may share memory with src.
func Parse(src string) *Doc { return new(Parser).Parse(src) }

// A Parser parses one document after another, reusing the memory of the
// previous tree for the next: the Doc that its Parse returns, and every
// Value in it, is valid only until its next call. The strings in a tree stay
// valid. A loader that turns each tree into its own model before it reads
// the next file needs no more, and allocates far less with one Parser per
// goroutine; the function Parse is for a tree that must last. A Parser is
// not safe for concurrent use; its zero value is ready to use.
type Parser struct {
	// ShortStrings lets the strings that had escapes share the Parser's
	// memory too, as the tree does, so that they are valid only until
	// the next call of Parse; the others are still substrings of the
	// source. A loader that copies what it keeps from each tree then
	// allocates nothing for them.
	ShortStrings bool
	p            parser
}

// Parse parses src as the function Parse does, into the Parser's memory.
func (ps *Parser) Parse(src string) (doc *Doc) {
	doc = &Doc{src: src}
	p := &ps.p
	p.src, p.i, p.doc, p.depth = src, 0, doc, 0
	p.short, p.strs = ps.ShortStrings, p.strs[:0]
	p.values, p.items, p.members = p.values[:0], p.items[:0], p.members[:0]
	p.itemStack, p.memberStack = p.itemStack[:0], p.memberStack[:0]
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
	r, _ := utf8.DecodeRuneInString(p.src[p.i:])
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
		v := p.newValue(String)
		v.Str = p.str()
		return v
	case c == 't':
		v := p.literal("true", Bool)
		v.Bool = true
		return v
	case c == 'f':
		return p.literal("false", Bool)
	case c == 'n':
		return p.literal("null", Null)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		p.fail("unexpected %s: expected a value", p.describe())
	}
	return nil
}

// newValue returns a value of kind k starting at the current offset.
func (p *parser) newValue(k Kind) *Value {
	if len(p.values) == cap(p.values) {
		p.values = make([]Value, 0, blockSize(max(2*cap(p.values), len(p.src)/64)))
	}
	p.values = append(p.values, Value{Kind: k, Off: p.i})
	return &p.values[len(p.values)-1]
}

// blockSize bounds the length of a new block, which is twice the old one or
// a guess from the source's size, so that a small file does not allocate
// much and a huge one grows in steps.
func blockSize(guess int) int { return min(max(guess, 16), 4096) }

// cut moves the top of stack from mark into a slice of block, which it
// replaces when too full, and shrinks the stack back to mark. The slice's
// capacity is its length, so that appending to it cannot overwrite a
// neighbour.
func cut[T any](block *[]T, stack *[]T, mark int) []T {
	n := len(*stack) - mark
	if n == 0 {
		return nil
	}
	if cap(*block)-len(*block) < n {
		*block = make([]T, 0, max(n, blockSize(cap(*block)*2)))
	}
	b := *block
	out := append(b[len(b):len(b):len(b)+n], (*stack)[mark:]...)
	*block = b[:len(b)+n]
	clear((*stack)[mark:])
	*stack = (*stack)[:mark]
	return out
}

func (p *parser) literal(word string, k Kind) *Value {
	if !strings.HasPrefix(p.src[p.i:], word) {
		p.fail("unexpected %s: expected a value", p.describe())
	}
	v := p.newValue(k)
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
	v := p.newValue(Number)
	v.Off, v.Str = start, p.src[start:p.i]
	return v
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting deeper than %d levels", maxDepth)
	}
}

func (p *parser) object() *Value {
	p.enter()
	v := p.newValue(Object)
	p.i++ // {
	p.space()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		p.depth--
		return v
	}
	mark := len(p.memberStack)
	var seen map[string]struct{}
	for {
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			p.fail("unexpected %s: expected a string key", p.describe())
		}
		keyOff := p.i
		key := p.str()
		if p.seenKey(&seen, mark, key) {
			p.doc.Problems = append(p.doc.Problems, Problem{Off: keyOff, Msg: fmt.Sprintf("duplicate key %q", key)})
		}
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			p.fail("unexpected %s: expected ':' after key %q", p.describe(), key)
		}
		p.i++
		p.space()
		p.memberStack = append(p.memberStack, Member{Key: key, KeyOff: keyOff, Value: p.value()})
		if p.next('}') {
			v.Members = cut(&p.members, &p.memberStack, mark)
			if seen != nil && len(seen) <= maxKeptSet {
				clear(seen)
				p.sets = append(p.sets, seen)
			}
			return v
		}
	}
}

// maxKeptSet is the most keys of an object whose set a parser keeps for
// the next: the set of a huge object would hold its memory for as long as
// the Parser lives.
const maxKeptSet = 1024

// seenKey reports whether the object whose members start at mark already
// has key. A few members are compared one by one; past that a set is kept,
// so that an object of 100,000 keys is checked in linear time.
func (p *parser) seenKey(seen *map[string]struct{}, mark int, key string) bool {
	members := p.memberStack[mark:]
	const few = 16
	if len(members) < few {
		for _, m := range members {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		if n := len(p.sets); n > 0 {
			// A set of an object closed before, emptied: a file of many
			// objects of many keys (each case file's top level) makes
			// one, not one per object.
			*seen, p.sets = p.sets[n-1], p.sets[:n-1]
		} else {
			*seen = make(map[string]struct{}, 2*len(members))
		}
		for _, m := range members {
			(*seen)[m.Key] = struct{}{}
		}
	}
	_, dup := (*seen)[key]
	if !dup {
		// The member is pushed after its value is parsed; recording the
		// key now is the same, as a duplicate is reported either way.
		(*seen)[key] = struct{}{}
	}
	return dup
}

// next reads what follows a member or an item: a comma before another one,
// or the closing bracket, which ends the object or array (true).
func (p *parser) next(closing byte) bool {
	p.space()
	if p.i >= len(p.src) {
		p.fail("unexpected end of file: expected ',' or '%c'", closing)
	}
	switch p.src[p.i] {
	case ',':
		p.i++
		p.space()
		if p.i < len(p.src) && p.src[p.i] == closing {
			p.fail("trailing comma before '%c'", closing)
		}
		return false
	case closing:
		p.i++
		p.depth--
		return true
	}
	p.fail("unexpected %s: expected ',' or '%c'", p.describe(), closing)
	return false
}

func (p *parser) array() *Value {
	p.enter()
	v := p.newValue(Array)
	p.i++ // [
	p.space()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		p.depth--
		return v
	}
	mark := len(p.itemStack)
	for {
		p.space()
		p.itemStack = append(p.itemStack, p.value())
		if p.next(']') {
			v.Items = cut(&p.items, &p.itemStack, mark)
			return v
		}
	}
}

// str parses a string starting at the opening quote. A string without
// escapes is returned as a substring of the source; one with escapes is
// unescaped run by run, not byte by byte, since most of its bytes are plain.
func (p *parser) str() string {
	start := p.i
	p.i++
	end := p.plain(p.i)
	if end < len(p.src) && p.src[end] == '"' {
		if s := p.src[p.i:end]; utf8.ValidString(s) {
			p.i = end + 1
			return s
		}
	}
	b := p.buf[:0]
	for {
		end := p.plain(p.i)
		if run := p.src[p.i:end]; utf8.ValidString(run) {
			b = append(b, run...)
			p.i = end
		} else {
			b = p.appendInvalid(b, end)
		}
		if p.i >= len(p.src) {
			p.i = start
			p.fail("unterminated string")
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			p.buf = b // keep the grown scratch for the next string
			if p.short {
				return p.shortString(b)
			}
			return string(b)
		case c == '\\':
			esc := p.i
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
				b = p.appendControl(b, '\b', esc)
			case 'f':
				b = p.appendControl(b, '\f', esc)
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = p.appendControl(b, '\r', esc)
			case 't':
				b = append(b, '\t')
			case 'u':
				r := p.hex4()
				if utf16.IsSurrogate(r) {
					r = p.pair(r, esc)
				}
				b = p.appendControl(b, r, esc)
			default:
				p.i -= 2
				p.fail("invalid escape \\%c in string", e)
			}
		default: // c < 0x20
			p.fail("control character %U in string (write it as an escape)", rune(c))
		}
	}
}

// shortString returns b as a string in the memory of the parse's strings,
// which the next parse writes over.
func (p *parser) shortString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(p.strs)-len(p.strs) < len(b) {
		// The strings cut from the full block so far stay where they
		// are; the new block is reused from the next parse on.
		p.strs = make([]byte, 0, max(len(b), min(len(p.src), 1<<20), 2*cap(p.strs)))
	}
	start := len(p.strs)
	p.strs = append(p.strs, b...)
	return unsafe.String(&p.strs[start], len(b))
}

// plain returns the offset of the first byte at or after i that ends a run
// of bytes a string holds as they are: a quote, a backslash, a control
// character, or the end of the source. Most strings are long prose, so it
// looks at eight bytes at a time and at single bytes only near the end of
// the run.
func (p *parser) plain(i int) int {
	s := p.src
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if zeroByte(w^(ones*'"'))|zeroByte(w^(ones*'\\'))|byteBelow(w, 0x20) != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return i
}

const ones = 0x0101010101010101

// zeroByte is not zero exactly when one of w's bytes is zero: subtracting
// one from a zero byte is the only way to set its top bit while borrowing
// from a byte whose own top bit was clear.
func zeroByte(w uint64) uint64 { return (w - ones) &^ w & (ones * 0x80) }

// byteBelow is not zero exactly when one of w's bytes is below n, for n at
// most 0x80, by the same argument.
func byteBelow(w uint64, n byte) uint64 { return (w - ones*uint64(n)) &^ w & (ones * 0x80) }

// pair completes the surrogate r, whose escape starts at esc, with the low
// surrogate escaped right after it. A surrogate without its other half is
// no character at all: it is reported and read as U+FFFD, and an escape
// after it that is not its half is left to be read on its own.
func (p *parser) pair(r rune, esc int) rune {
	if r < 0xdc00 && p.i+1 < len(p.src) && p.src[p.i] == '\\' && p.src[p.i+1] == 'u' {
		back := p.i
		p.i += 2
		if r2 := p.hex4(); r2 >= 0xdc00 && r2 <= 0xdfff {
			return utf16.DecodeRune(r, r2)
		}
		p.i = back
	}
	p.problem(esc, fmt.Sprintf("lone surrogate %s: half of a UTF-16 pair is no character", p.src[esc:esc+6]))
	return utf8.RuneError
}

// appendControl appends the character r written as the escape at esc,
// reporting it when it is a control character other than tab and newline:
// text with a NUL or an escape sequence in it is a mistake in a text
// format, and a terminal or a feed reader would trip on it.
func (p *parser) appendControl(b []byte, r rune, esc int) []byte {
	if (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f) {
		p.problem(esc, fmt.Sprintf("control character %U in a string: only tabs and line breaks may be in text", r))
	}
	return utf8.AppendRune(b, r)
}

func (p *parser) problem(off int, msg string) {
	p.doc.Problems = append(p.doc.Problems, Problem{Off: off, Msg: msg})
}

// appendInvalid appends the run up to end, which holds invalid UTF-8,
// replacing each bad byte with U+FFFD and reporting it. The run ends at an
// ASCII byte, so decoding inside it sees what decoding the source would.
func (p *parser) appendInvalid(b []byte, end int) []byte {
	for p.i < end {
		r, n := utf8.DecodeRuneInString(p.src[p.i:end])
		if r == utf8.RuneError && n == 1 {
			p.doc.Problems = append(p.doc.Problems, Problem{Off: p.i, Msg: "invalid UTF-8 in string"})
		}
		b = utf8.AppendRune(b, r)
		p.i += n
	}
	return b
}

func (p *parser) hex4() rune {
	if len(p.src)-p.i < 4 {
		p.fail("invalid \\u escape")
	}
	n, err := strconv.ParseUint(p.src[p.i:p.i+4], 16, 32)
	if err != nil {
		p.fail("invalid \\u escape")
	}
	p.i += 4
	return rune(n)
}
