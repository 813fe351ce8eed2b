// Package diag holds the problems found in content: each one a value with the
// file, line, column and field path it is about, collected into one report
// so that a build shows every problem at once instead of the first.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Diag is one problem. Line and Col are 1-based; zero means unknown.
type Diag struct {
	File    string
	Line    int
	Col     int
	Field   string // path of the field, such as components[1]; may be empty
	Msg     string
	Warning bool // a warning is reported but does not fail the build
}

// String formats the problem as file:line:col: field: message, its control
// characters escaped (Printable).
func (d Diag) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	if d.Warning {
		b.WriteString("warning: ")
	}
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Msg)
	return Printable(b.String())
}

// List collects problems. The zero value is ready to use.
//
// It keeps the first MaxKept problems and counts the others: content can
// hold any number of problems (an 8 MB file of unknown keys is a million),
// and a report, a preview's error page or a server's memory must not grow
// with them. Errors and Warnings count every problem, kept or not.
type List struct {
	Items []Diag
	// droppedErrors and droppedWarnings count the problems past MaxKept,
	// droppedKinds the warnings among them by Kind (see Brief).
	droppedErrors, droppedWarnings int
	droppedKinds                   [len(kinds)]int
}

// MaxKept is how many problems a list keeps; a report shows them and the
// number of the others.
const MaxKept = 1000

// Add records a problem, or counts it once the list holds MaxKept.
func (l *List) Add(d Diag) {
	if len(l.Items) < MaxKept {
		l.Items = append(l.Items, d)
	} else if d.Warning {
		l.droppedWarnings++
		l.droppedKinds[d.kind()]++
	} else {
		l.droppedErrors++
	}
}

// Dropped is how many problems were counted but not kept.
func (l *List) Dropped() int { return l.droppedErrors + l.droppedWarnings }

// Errorf records an error at a position.
func (l *List) Errorf(file string, line, col int, field, format string, args ...any) {
	l.Add(Diag{File: file, Line: line, Col: col, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Warnf records a warning at a position.
func (l *List) Warnf(file string, line, col int, field, format string, args ...any) {
	l.Add(Diag{File: file, Line: line, Col: col, Field: field, Msg: fmt.Sprintf(format, args...), Warning: true})
}

// Merge appends the problems of m, and its counts of those it dropped.
func (l *List) Merge(m List) {
	for _, d := range m.Items {
		l.Add(d)
	}
	l.droppedErrors += m.droppedErrors
	l.droppedWarnings += m.droppedWarnings
	for k, n := range m.droppedKinds {
		l.droppedKinds[k] += n
	}
}

// Errors returns the number of problems that are not warnings.
func (l *List) Errors() int {
	n := l.droppedErrors
	for _, d := range l.Items {
		if !d.Warning {
			n++
		}
	}
	return n
}

// Warnings returns the number of warnings.
func (l *List) Warnings() int { return len(l.Items) + l.Dropped() - l.Errors() }

// Unseen returns l's errors, and those of its warnings that no list of
// before holds: what a server that reloads on save prints, so that each
// save repeats every error (they are the state of the content) but not the
// same warnings.
func (l *List) Unseen(before ...List) []Diag {
	seen := map[string]bool{}
	for _, b := range before {
		for _, d := range b.Items {
			seen[d.String()] = true
		}
	}
	var out []Diag
	for _, d := range l.Items {
		if !d.Warning || !seen[d.String()] {
			out = append(out, d)
		}
	}
	return out
}

// Sort orders problems by file, position and message so reports are stable.
func (l *List) Sort() {
	sort.SliceStable(l.Items, func(i, j int) bool {
		a, b := l.Items[i], l.Items[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Msg < b.Msg
	})
}

// ShownPerFile is how many problems of one file a report shows in full.
const ShownPerFile = 20

// More is the line that ends the problems of a file a report shows, when
// left of them are left out.
func More(file string, left int) string {
	file = Printable(file)
	if left == 1 {
		return file + ": and 1 more problem"
	}
	return fmt.Sprintf("%s: and %d more problems", file, left)
}

// Report walks a list sorted by file as a report shows it: show gets at
// most n problems of each file, and more gets, after them, how many of
// that file's problems are left out. A file with 100,000 problems then does
// not bury the others, and its first few are what to fix first anyway.
func (l *List) Report(n int, show func(Diag), more func(file string, left int)) {
	file, shown, left := "", 0, 0
	flush := func() {
		if left > 0 {
			more(file, left)
		}
	}
	for i, d := range l.Items {
		if i == 0 || d.File != file {
			flush()
			file, shown, left = d.File, 0, 0
		}
		if shown == n {
			left++
			continue
		}
		shown++
		show(d)
	}
	flush()
}

// Err returns the list as an error when it holds at least one error, or nil.
func (l *List) Err() error {
	if l.Errors() == 0 {
		return nil
	}
	return &Error{List: *l}
}

// Error is a failed check: the whole report as one error value.
type Error struct {
	List List
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, d := range e.List.Items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	if n := e.List.Dropped(); n > 0 {
		b.WriteString("\n" + NotKept(n))
	}
	return b.String()
}

// NotKept is the line that ends a report of a list that dropped n
// problems.
func NotKept(n int) string {
	return fmt.Sprintf("… and %d more problems, not shown: only the first %d are kept; fix these and check again", n, MaxKept)
}
