package diag

import (
	"strings"
	"unicode/utf8"
)

// excerptWidth is how many characters an excerpt shows on each side of the
// column: case files are often one long line.
const excerptWidth = 36

// Excerpt returns the two lines shown under a problem, as compilers show
// them: the part of line d.Line of src around the column, and a caret under
// the column. It returns "" when d has no position in src. The command line
// and the preview server's error page both show it.
func (d Diag) Excerpt(src string) string {
	if d.Line <= 0 {
		return ""
	}
	line := src
	for i := 1; i < d.Line; i++ {
		j := strings.IndexAny(line, "\r\n")
		if j < 0 {
			return ""
		}
		// A line ends with \n, \r\n or \r alone, as jsonpos counts lines.
		if strings.HasPrefix(line[j:], "\r\n") {
			j++
		}
		line = line[j+1:]
	}
	if j := strings.IndexAny(line, "\r\n"); j >= 0 {
		line = line[:j]
	}
	text, caret := clip(line, d.Col-1, excerptWidth)
	return text + "\n" + strings.Repeat(" ", caret) + "^"
}

// clip returns the part of line within width characters of column col
// (0-based, in characters) and where col falls in it. Tabs become spaces so
// that the caret lines up, and other control characters their symbols
// (picture), so that an excerpt never drives the terminal.
func clip(line string, col, width int) (string, int) {
	r := []rune(strings.ReplaceAll(line, "\t", " "))
	if !utf8.ValidString(line) {
		r = []rune(strings.ToValidUTF8(string(r), "?"))
	}
	for i, c := range r {
		r[i] = picture(c)
	}
	from, to := max(0, col-width), min(len(r), col+width)
	if from > to {
		return "", 0
	}
	excerpt, caret := string(r[from:to]), col-from
	if from > 0 {
		excerpt, caret = "…"+excerpt, caret+1
	}
	if to < len(r) {
		excerpt += "…"
	}
	// Wide Hangul takes two columns in a terminal: count it twice before
	// the caret so the caret stands under the right character.
	for _, c := range r[from:min(col, to)] {
		if c >= 0x1100 && (c <= 0x115f || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xff60)) {
			caret++
		}
	}
	return excerpt, caret
}
