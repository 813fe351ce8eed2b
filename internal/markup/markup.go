// Package markup turns the Markdown of cases, topic introductions and prose
// pages into HTML that is safe to put in a page.
//
// Case texts are paragraphs with inline Markdown only: a line that looks like
// a heading or a list item stays text, so that nothing an author typed is
// reinterpreted or dropped. Prose pages get block Markdown too. In both, raw
// HTML is not a construct at all: "<script>" is parsed as text and escaped,
// and links with dangerous schemes such as javascript: lose their target.
package markup

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

func inlineParsers() []util.PrioritizedValue {
	return []util.PrioritizedValue{
		util.Prioritized(parser.NewCodeSpanParser(), 100),
		util.Prioritized(parser.NewLinkParser(), 200),
		util.Prioritized(parser.NewAutoLinkParser(), 300),
		util.Prioritized(parser.NewEmphasisParser(), 500),
	}
}

func newRenderer() renderer.Renderer {
	return renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(html.NewRenderer(), 1000)))
}

// Case text: paragraphs and inline Markdown. No paragraph transformers, so a
// line such as "[a]: b" is kept as text instead of becoming a hidden link
// definition.
var caseMD = goldmark.New(
	goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(util.Prioritized(parser.NewParagraphParser(), 1000)),
		parser.WithInlineParsers(inlineParsers()...),
	)),
	goldmark.WithRenderer(newRenderer()),
)

// Prose pages: block Markdown without HTML blocks.
var proseMD = goldmark.New(
	goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(parser.NewSetextHeadingParser(), 100),
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(parser.NewListParser(), 300),
			util.Prioritized(parser.NewListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(parser.NewATXHeadingParser(), 600),
			util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
			util.Prioritized(parser.NewBlockquoteParser(), 800),
			util.Prioritized(parser.NewParagraphParser(), 1000),
		),
		parser.WithInlineParsers(inlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(parser.LinkReferenceParagraphTransformer, 100)),
		parser.WithAutoHeadingID(),
	)),
	goldmark.WithRenderer(newRenderer()),
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// special lists the bytes that can start inline Markdown or an entity.
// Text without any of them (and without a hard line break) renders as
// paragraphs without a parser; goldmark writes a double quote as &quot;.
const special = "*_`[]<>&!\\"

// notPlain marks the bytes after which text needs the parser: those of
// special, and a carriage return.
var notPlain = func() (t [256]bool) {
	for i := 0; i < len(special); i++ {
		t[special[i]] = true
	}
	t['\r'] = true
	return t
}()

// isPlain reports whether src renders without a parser: none of the bytes
// of special, no carriage return and no hard line break (two spaces before
// a line break). One pass over the text, which most texts pass.
func isPlain(src string) bool {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if notPlain[c] || c == '\n' && i >= 2 && src[i-1] == ' ' && src[i-2] == ' ' {
			return false
		}
	}
	return true
}

// Paragraphs renders a case text field: paragraphs separated by blank
// lines, with inline Markdown. The result is HTML, escaped and safe.
func Paragraphs(src string) string {
	if src == "" {
		return ""
	}
	if isPlain(src) {
		return plainParagraphs(src)
	}
	if html, ok := codeParagraphs(src); ok {
		return html
	}
	src = capLinks(capLines(src))
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := caseMD.Convert([]byte(src), buf); err != nil {
		return "<p>" + escape(src) + "</p>"
	}
	return compactString(buf.Bytes())
}

// Plain returns a case text field as plain text on one line: its inline
// Markdown dropped (the words of code spans and links kept) and its lines
// joined by single spaces. Lists use it for a case's one-line summary.
func Plain(src string) string {
	if !strings.ContainsAny(src, special) {
		return joinFields(src)
	}
	b := []byte(capLinks(capLines(src)))
	doc := caseMD.Parser().Parse(text.NewReader(b))
	return joinFields(plain(doc, b))
}

// joinFields is strings.Join(strings.Fields(s), " "): s itself when it is
// so already (one line, words apart by single spaces), which most one-line
// summaries are, else the words in one allocation.
func joinFields(s string) string {
	if singleSpaced(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for f := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}

// singleSpaced reports whether strings.Fields would find the words of s
// each after a single ' ', with no space before the first or after the
// last. Spaces are unicode.IsSpace's, as for strings.Fields.
func singleSpaced(s string) bool {
	space := true // before the first byte: a space there leads
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] {
				if c != ' ' || space {
					return false
				}
				space = true
			} else {
				space = false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return false
		}
		space = false
		i += n
	}
	return !space || s == ""
}

// asciiSpace marks the ASCII bytes unicode.IsSpace holds for.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// compactString is Compact on a whole fragment, without the line break it
// would leave at the end.
func compactString(b []byte) string {
	raw := ""
	return string(bytes.TrimRight(Compact(b, &raw), " \n\t\r"))
}

// plainParagraphs is what goldmark makes of text with no Markdown in it:
// paragraphs split at blank lines, each line trimmed, empty lines and
// paragraphs left out, and double quotes written as &quot;.
func plainParagraphs(src string) string {
	var b strings.Builder
	b.Grow(len(src) + 32)
	for rest := src; ; {
		para, after, more := strings.Cut(rest, "\n\n")
		first := true
		for line := range strings.Lines(para) {
			l := strings.TrimSpace(line)
			if l == "" {
				continue
			}
			if first {
				b.WriteString("<p>")
				first = false
			} else {
				b.WriteByte('\n')
			}
			writeQuoted(&b, l) // the only character left to escape
		}
		if !first {
			b.WriteString("</p>") // as Compact leaves goldmark's paragraphs
		}
		if !more {
			break
		}
		rest = after
	}
	return b.String()
}

// codeParagraphs renders without a parser the texts whose only Markdown is
// code spans of the simplest shape, as goldmark renders them: false for any
// other text. Such a text has no byte of special but '`', no carriage
// return, no space or tab at either end of a line (so that lines need no
// trimming, a blank line is an empty one, and no line is indented), and on
// each line an even number of single backticks, each pair around a code
// that neither starts nor ends with a space. A code span then never
// crosses a line, and the first backtick of a line opens one.
func codeParagraphs(src string) (string, bool) {
	ticks := 0
	for line := range strings.Lines(src) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			continue
		}
		if isLineSpace(line[0]) || isLineSpace(line[len(line)-1]) {
			return "", false
		}
		open := -1 // where the open code span's content starts
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c != '`' {
				if notPlain[c] {
					return "", false
				}
				continue
			}
			ticks++
			if i+1 < len(line) && line[i+1] == '`' {
				return "", false // a longer backtick string
			}
			if open < 0 {
				open = i + 1
				continue
			}
			if i == open || line[open] == ' ' || line[i-1] == ' ' {
				return "", false // empty, or space at an end: the parser's
			}
			open = -1
		}
		if open >= 0 {
			return "", false // a backtick left open
		}
	}
	if ticks == 0 {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(src) + 16*ticks)
	inPara := false
	for line := range strings.Lines(src) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if inPara {
				b.WriteString("</p>")
				inPara = false
			}
			continue
		}
		if inPara {
			b.WriteByte('\n')
		} else {
			b.WriteString("<p>")
			inPara = true
		}
		code := false
		for {
			i := strings.IndexByte(line, '`')
			if i < 0 {
				writeQuoted(&b, line)
				break
			}
			writeQuoted(&b, line[:i])
			if code {
				b.WriteString("</code>")
			} else {
				b.WriteString("<code>")
			}
			code = !code
			line = line[i+1:]
		}
	}
	if inPara {
		b.WriteString("</p>")
	}
	return b.String(), true
}

func isLineSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

// writeQuoted writes s to b with its double quotes as &quot;.
func writeQuoted(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString("&quot;")
		s = s[i+1:]
	}
}

func escape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Heading is one heading of a prose document, for a table of contents.
type Heading struct {
	Level int
	ID    string
	Text  string
}

// Prose renders a prose page or topic introduction. Headings get IDs made
// from their text that keep Hangul, so Korean headings have readable anchors.
// The first level-1 heading is returned as the title and left out of the HTML.
func Prose(src string) (title, body string, toc []Heading) {
	src = capLinks(capLines(capNesting(src)))
	ctx := parser.NewContext(parser.WithIDs(&headingIDs{seen: map[string]int{}}))
	doc := proseMD.Parser().Parse(text.NewReader([]byte(src)), parser.WithContext(ctx))
	source := []byte(src)
	if h, ok := doc.FirstChild().(*ast.Heading); ok && h.Level == 1 {
		title = plain(h, source)
		doc.RemoveChild(doc, h)
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			id, _ := h.AttributeString("id")
			idb, _ := id.([]byte)
			toc = append(toc, Heading{Level: h.Level, ID: string(idb), Text: plain(h, source)})
		}
		return ast.WalkContinue, nil
	})
	var buf bytes.Buffer
	if err := proseMD.Renderer().Render(&buf, source, doc); err != nil {
		return title, "<p>" + escape(src) + "</p>", toc
	}
	return title, compactString(buf.Bytes()), toc
}

func plain(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(src))
				if t.SoftLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// headingIDs makes anchors from heading text: lower case, letters and digits
// of any script kept, everything else folded into single hyphens, and a
// counter added when the same heading appears twice.
type headingIDs struct {
	seen map[string]int
}

func (h *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(string(value)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	id := b.String()
	if id == "" {
		id = "section"
	}
	n := h.seen[id]
	h.seen[id] = n + 1
	if n > 0 {
		id += "-" + strconv.Itoa(n)
	}
	return []byte(id)
}

func (h *headingIDs) Put(value []byte) { h.seen[string(value)]++ }
