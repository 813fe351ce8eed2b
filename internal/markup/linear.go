package markup

import "strings"

// maxLinkTail is how far past "](" the destination and title of an inline
// link may reach. The parser looks for the end of a link from every "]("
// to the end of its paragraph when the link is never closed, so that a
// paragraph of unclosed openers ("[a](" repeated) took time in the square
// of its length: 37 s for 256 kB. No link a person writes is longer, so
// the "(" of a link that does not close within this many bytes is escaped
// and stays text, as it would have anyway; every "](" then costs the
// parser at most this much, and rendering is linear in the size of the
// text.
const maxLinkTail = 2048

// capLinks returns src with the "(" of every "](" whose link does not end
// within maxLinkTail bytes escaped; src itself when there is none, which
// is every text written by a person.
func capLinks(src string) string {
	var b strings.Builder
	last := 0 // src[:last] is in b
	for i := 0; ; {
		j := strings.Index(src[i:], "](")
		if j < 0 {
			break
		}
		open := i + j + 1
		i = open + 1
		if linkEnds(src[i:min(len(src), i+maxLinkTail)]) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(src) + 64)
		}
		b.WriteString(src[last:open])
		b.WriteByte('\\')
		last = open
	}
	if last == 0 {
		return src
	}
	b.WriteString(src[last:])
	return b.String()
}

// linkEnds reports whether s, the text after the "(" of an inline link,
// holds the link's closing ")" as the parser finds it: spaces and at most
// one line break, a destination (in angle brackets, or without spaces with
// its parentheses balanced), and an optional title in quotes or
// parentheses. It errs towards false (the link stays text) on shapes no
// link has.
func linkEnds(s string) bool {
	i := skipSpace(s, 0)
	if i < len(s) && s[i] == '<' {
		k := strings.IndexAny(s[i:], ">\n")
		if k < 0 || s[i+k] != '>' {
			return false
		}
		i += k + 1
	} else {
		depth := 0
	dest:
		for ; i < len(s); i++ {
			switch c := s[i]; {
			case c == '\\':
				i++
			case c == '(':
				depth++
			case c == ')':
				if depth == 0 {
					break dest
				}
				depth--
			case c <= ' ':
				break dest
			}
		}
	}
	i = skipSpace(s, i)
	if i < len(s) && (s[i] == '"' || s[i] == '\'' || s[i] == '(') {
		closer := s[i]
		if closer == '(' {
			closer = ')'
		}
		for i++; i < len(s) && s[i] != closer; i++ {
			if s[i] == '\\' {
				i++
			}
		}
		if i >= len(s) {
			return false
		}
		i = skipSpace(s, i+1)
	}
	return i < len(s) && s[i] == ')'
}

// skipSpace returns the offset of the first byte of s from i on that is
// not a space, a tab or a line break.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// maxParagraphLines is how many lines a run of lines without a blank one
// may hold. The parser looks at every line after a "]" of the same
// paragraph to find the text of a link label, so that a paragraph of many
// short lines with brackets ("[a]\n" repeated) took time in the square of
// its length. No person writes a paragraph this long; a longer run is
// split into paragraphs of this many lines (outside fenced code blocks,
// which are not parsed for links).
const maxParagraphLines = 200

// capLines returns src with a blank line after every maxParagraphLines
// lines of a run without one; src itself when no run is that long.
func capLines(src string) string {
	var b strings.Builder
	last, run := 0, 0 // src[:last] is in b
	fence := ""       // the fence of the open code block
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := strings.TrimLeft(src[start:end], " ")
		switch {
		case fence != "":
			if strings.HasPrefix(line, fence) {
				fence = ""
			}
			run = 0
		case strings.HasPrefix(line, "```"), strings.HasPrefix(line, "~~~"):
			fence = line[:3]
			run = 0
		case strings.TrimSpace(line) == "":
			run = 0
		default:
			run++
			if run > maxParagraphLines {
				if b.Len() == 0 {
					b.Grow(len(src) + len(src)/64)
				}
				b.WriteString(src[last:start])
				b.WriteByte('\n')
				last, run = start, 1
			}
		}
		start = end + 1
	}
	if last == 0 {
		return src
	}
	b.WriteString(src[last:])
	return b.String()
}
