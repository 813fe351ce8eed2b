package markup

import "strings"

// maxNesting is how many block quotes and list items a line of a prose
// page may open inside one another. The parser's work on a line grows with
// the square of its depth: one line of 64,000 "> " took half a minute,
// four times as many, seven. No page nests more than a few levels, so the
// markers past this depth are kept as text.
const maxNesting = 16

// capNesting returns src with the container markers of each line past
// maxNesting escaped, so that they are text; src itself when no line nests
// that deep, which is every page written by a person.
func capNesting(src string) string {
	var b strings.Builder
	last := 0 // src[:last] is in b
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if at := deepMarker(src[start:end]); at >= 0 {
			if b.Len() == 0 {
				b.Grow(len(src) + 16)
			}
			b.WriteString(src[last : start+at])
			b.WriteByte('\\')
			last = start + at
		}
		start = end + 1
	}
	if last == 0 {
		return src
	}
	b.WriteString(src[last:])
	return b.String()
}

// deepMarker returns the offset in line of the container marker that
// would open level maxNesting+1, or -1.
func deepMarker(line string) int {
	depth, i := 0, 0
	for {
		// Up to three spaces may come before a marker.
		for n := 0; n < 3 && i < len(line) && line[i] == ' '; n++ {
			i++
		}
		m := markerLen(line[i:])
		if m == 0 {
			return -1
		}
		if depth == maxNesting {
			return i
		}
		depth++
		i += m
	}
}

// markerLen is the length of the block quote or list marker at the start
// of s, with the space after it, or 0.
func markerLen(s string) int {
	if s == "" {
		return 0
	}
	space := func(j int) int {
		if j == len(s) {
			return j
		}
		if s[j] == ' ' || s[j] == '\t' {
			return j + 1
		}
		return 0
	}
	switch c := s[0]; {
	case c == '>':
		if len(s) > 1 && (s[1] == ' ' || s[1] == '\t') {
			return 2
		}
		return 1
	case c == '-' || c == '+' || c == '*':
		return space(1)
	case c >= '0' && c <= '9':
		j := 1
		for j < len(s) && j < 9 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j < len(s) && (s[j] == '.' || s[j] == ')') {
			return space(j + 1)
		}
	}
	return 0
}
