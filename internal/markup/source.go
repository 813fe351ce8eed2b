package markup

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text outputs (the Markdown twins, llms.txt, MCP answers) carry case text
// as Markdown, and their readers render more of Markdown than the pages do:
// headings, lists, raw HTML and links of any scheme. The functions below
// write case text so that any reader renders it no further than the HTML
// page does (Paragraphs): the inline Markdown of a text is kept, with its
// links to http, https and mailto; a line break can start no block; no
// HTML tag and no link of another scheme (javascript:) is live.

// MarkdownText returns src, a case text (paragraphs of inline Markdown),
// as Markdown for a text output: each line trimmed as the page trims it,
// a block marker at its start escaped (#, >, a list marker, a fence, a
// thematic break or setext underline, a link definition), the < of
// anything but an http or https autolink escaped, and the ( of a link to
// any scheme but http, https and mailto escaped, so that it stays text.
func MarkdownText(src string) string {
	var b strings.Builder
	b.Grow(len(src) + 16)
	for i, line := range strings.Split(src, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		line = strings.TrimSpace(line)
		if blockStart(line) {
			b.WriteByte('\\')
		}
		writeInline(&b, line)
	}
	return b.String()
}

// MarkdownLine returns s, a one-line value (a title, an organisation, a
// label), as Markdown text on one line: line breaks become spaces, a block
// marker at its start is escaped, and so are the characters that make a
// tag or a link (< [ ] and the backslash); emphasis and code spans are left
// as they are, which change how text looks and never what it does.
func MarkdownLine(s string) string {
	if plainLine(s) {
		// Most titles and labels: the Markdown twins ask for tens of
		// thousands of them, and splitting each into words to join them
		// again was a third of the twins' time.
		return s
	}
	return markdownLine(s)
}

// markdownLine is MarkdownLine on any s.
func markdownLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	b.Grow(len(s) + 8)
	if blockStart(s) {
		b.WriteByte('\\')
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\<[]", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// MarkdownURL returns u (an http or https URL) for an autolink, <u>: the
// characters that would end it or put markup after it percent-encoded.
func MarkdownURL(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c <= ' ' || c == '<' || c == '>' || c == '"' || c == '`' || c == 0x7f:
			b.WriteString("%")
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// blockStart reports whether the trimmed line would start a block in
// Markdown: a heading, a quote, a list item, a fence, a thematic break or
// setext underline, a table row or a link definition.
func blockStart(line string) bool {
	if line == "" {
		return false
	}
	switch c := line[0]; {
	case c == '#' || c == '>' || c == '|' || c == '=':
		return true
	case c == '-' || c == '+' || c == '*':
		if len(line) == 1 || line[1] == ' ' || line[1] == '\t' {
			return true
		}
	case c == '`' || c == '~':
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			return true
		}
	case c >= '0' && c <= '9':
		j := 0
		for j < len(line) && j < 10 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j < len(line) && (line[j] == '.' || line[j] == ')') {
			return true
		}
	case c == '[':
		if end := strings.Index(line, "]:"); end > 0 && !strings.Contains(line[:end], "](") {
			return true
		}
	}
	// A line of - = * _ alone (with spaces) is a thematic break or a
	// setext underline, which makes the line above a heading.
	return strings.Trim(line, "-=*_ \t") == "" && strings.ContainsAny(line, "-=*_")
}

// writeInline writes one line of a case text, with the < of a tag and the
// ( of a link to an unsafe scheme escaped.
func writeInline(b *strings.Builder, line string) {
	start := 0 // line[start:i] is still to be written, as it is
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line):
			i++ // the escaped byte goes as it is
		case c == '<' && !safeAutolink(line[i:]), c == '(' && i > 0 && line[i-1] == ']' && !safeDestination(line[i+1:]):
			b.WriteString(line[start:i])
			b.WriteByte('\\')
			start = i
		}
	}
	b.WriteString(line[start:])
}

// safeAutolink reports whether s starts with an http or https autolink.
func safeAutolink(s string) bool {
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return false
	}
	u := strings.ToLower(s[1:end])
	return (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) && !strings.ContainsAny(u, " <\t")
}

// safeDestination reports whether the link destination at the start of s
// (after its "(") has no scheme or one of http, https and mailto.
func safeDestination(s string) bool {
	s = strings.TrimLeft(s, " \t<")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			scheme := strings.ToLower(s[:i])
			return scheme == "http" || scheme == "https" || scheme == "mailto"
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == '&' || c == '\\':
			return false // an entity or an escape may spell a ':'
		default:
			return true // a path or a fragment: no scheme
		}
	}
	return true
}

// plainLine reports whether MarkdownLine returns s as it is: words apart
// by single spaces (no other white space, as strings.Fields knows it),
// nothing to escape and no block marker at its start.
func plainLine(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || blockStart(s) {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf && !mayBeSpace(c) {
			i++ // Hangul, and every other letter that is no space
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += size
			continue
		}
		switch {
		case c == ' ' && s[i+1] == ' ', c < ' ', c == '\\', c == '<', c == '[', c == ']':
			return false
		}
		i++
	}
	return true
}

// mayBeSpace reports whether a character starting with the byte c, at or
// above utf8.RuneSelf, may be white space as unicode.IsSpace knows it:
// U+0085 and U+00A0 start with C2, U+1680 with E1, U+2000 to U+205F with
// E2 and U+3000 with E3.
func mayBeSpace(c byte) bool { return c == 0xC2 || c == 0xE1 || c == 0xE2 || c == 0xE3 }
