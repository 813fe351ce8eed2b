package diag

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable returns s with every control character (C0 with line breaks and
// tabs, DEL and C1) and every byte that is not UTF-8 written as a Go escape
// (\n, \x1b, \u0085), and s itself when it has none. Text from content or
// from a request is printed through it, to a terminal or into a log line:
// a file name or a field value can then neither move the cursor, retitle
// the window or clear the screen, nor start a log line of its own. A
// problem's String does so; the access log of the MCP server does so with
// each field of a request.
func Printable(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isControl(r) || r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case isControl(r):
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u0085'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }

// picture is what an excerpt shows for r: a C0 control character as its
// symbol (␛ for escape, one column wide, so that the caret stays under its
// character), DEL and C1 as ␡ and ?, anything else as it is.
func picture(r rune) rune {
	switch {
	case r < 0x20:
		return 0x2400 + r
	case r == 0x7f:
		return 0x2421
	case r >= 0x80 && r < 0xa0:
		return '?'
	}
	return r
}
