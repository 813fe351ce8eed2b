package diag

import (
	"sort"
	"strconv"
	"strings"
)

// ShownWarnings is how many warnings a build and the preview show in full;
// the others are counted by kind, and incidentlib check lists them all. A
// library can hold thousands of warnings of one kind, and a person reads
// the first few and the counts.
const ShownWarnings = 20

// kinds are the names Kind gives.
var kinds = [...]string{"error", "particle", "하다/되다", "glossary", "future date", "translation", "archive", "organisation", "not read", "other"}

// Kind names what a problem is about, for the counts of a summary:
// "particle", "future date", "translation". Errors are "error"; a warning
// whose message no rule below knows is "other".
func (d Diag) Kind() string { return kinds[d.kind()] }

func (d Diag) kind() int {
	if !d.Warning {
		return 0
	}
	m := d.Msg
	switch {
	case strings.HasPrefix(m, "particle written apart"):
		return 1
	case strings.HasPrefix(m, "하다/되다 written apart"):
		return 2
	case strings.HasPrefix(m, "glossary:"):
		return 3
	case strings.Contains(m, "is in the future"):
		return 4
	case strings.Contains(m, "translation missing"), strings.Contains(m, "not translated"):
		return 5
	case d.Field == "archived" || strings.HasSuffix(d.Field, ".archived"):
		return 6
	case strings.Contains(m, "has no entry in vocab.json's orgs"):
		return 7
	case strings.HasPrefix(m, "not read:"), strings.HasPrefix(m, "ignored:"):
		return 8
	}
	return 9
}

// Brief returns what a build or the preview shows of l: every error it
// keeps and its first n warnings, in l's order, and the line that counts
// the other warnings by kind ("and 4,180 more: 4,102 particle, 78 future
// date; run incidentlib check for all"), or "" when none are left out.
// Warnings past MaxKept are counted too.
func (l *List) Brief(n int) (List, string) {
	var out List
	counts := l.droppedKinds
	rest := l.droppedWarnings
	for _, d := range l.Items {
		switch {
		case !d.Warning:
			out.Items = append(out.Items, d)
		case n > 0:
			out.Items = append(out.Items, d)
			n--
		default:
			counts[d.kind()]++
			rest++
		}
	}
	out.droppedErrors = l.droppedErrors
	if rest == 0 {
		return out, ""
	}
	var order []int
	for k, c := range counts {
		if c > 0 {
			order = append(order, k)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return counts[order[i]] > counts[order[j]] })
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = Thousands(counts[k]) + " " + kinds[k]
	}
	return out, "and " + Thousands(rest) + " more: " + strings.Join(parts, ", ") + "; run incidentlib check for all"
}

// Thousands writes n with a comma between groups of three digits: 4,180.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
