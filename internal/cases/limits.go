package cases

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
	"unicode"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// What check promises is what build can do: the limits below are checked
// with the content, with positions, so that a build never fails later on
// a name the file system refuses or shows a date the site cannot.

// maxSlugLen is the length of the longest slug (org_slug, a term id): slugs
// become folder names, which file systems cap at 255 bytes.
const maxSlugLen = 100

// clock gives today for the check of future dates; tests set it.
var clock = time.Now

// today is the latest date it is now anywhere on Earth (UTC+14), so that a
// case dated today in any time zone is not in the future.
func today() Date {
	t := clock().UTC().Add(14 * time.Hour)
	return Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}
}

// checkDate reports a date before year 1 (which the site would show as
// unknown while the API shows it as written) as an error and a date after
// today as a warning. It returns false for the error.
func checkDate(d Date, val string, at func(format string, args ...any), warn func(format string, args ...any)) bool {
	if d.Year < 1 {
		at("%q: years start at 0001", val)
		return false
	}
	if t := today(); t.Before(d) && !sameUpTo(d, t) {
		warn("%q is in the future (today is %s in the latest time zone): %s", val, t, futureFix)
	}
	return true
}

// sameUpTo reports whether d, which may give only a year or a month, holds
// the day t.
func sameUpTo(d, t Date) bool {
	return d.Year == t.Year && (d.Month == 0 || d.Month == t.Month && d.Day == 0)
}

// blank reports whether s shows nothing: white space and characters that
// have no width (zero-width space and joiners, the byte-order mark, soft
// hyphen, the Hangul fillers, the blank Braille pattern). A title made of
// them alone is an empty title.
func blank(s string) bool {
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Mn, r):
		case r == '\u115f', r == '\u1160', r == '\u3164', r == '\uffa0', r == '\u2800':
		default:
			return false
		}
	}
	return true
}

// rootEntries are the names the loader reads at the top of the content
// folder, and schema/, the copy of the case schema that `incidentlib new`
// keeps there for editors working offline (LocalSchemaFile).
var rootEntries = map[string]bool{SiteFile: true, VocabFile: true, GlossaryFile: true, CasesDir: true, pagesDir: true, topicsDir: true, path.Dir(LocalSchemaFile): true, RootDir: true}

// checkRoot warns about every entry at the top of the content folder that
// the loader does not read (a misspelled case/ or topic/, an extra.json),
// except the version control folder .git: nothing is left out unsaid.
func checkRoot(fsys fs.FS, list *diag.List) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return // the reads of site.json and vocab.json say why
	}
	for _, e := range entries {
		name := e.Name()
		if rootEntries[name] || name == ".git" {
			continue
		}
		list.Warnf(name, 0, 0, "", "not read: the content folder holds site.json, vocab.json, cases/, pages/ and topics/%s", DidYouMean(strings.TrimSuffix(name, "/"), ContentEntries))
	}
}

// hidden warns about a file or folder whose name starts with a dot in a
// folder of content: it is not read, and an author who hid a case that way
// should know.
func hidden(name string, list *diag.List) {
	list.Warnf(name, 0, 0, "", "not read: the name starts with a dot (a hidden file); rename it to publish it, or delete it")
}

// checkCaseLimits checks a case's dates against the calendar and today,
// and its times to detect and to resolve against each other.
func checkCaseLimits(v *jsonpos.Value, c *Case, errorAt, warnAt errorAtFunc) {
	dates := []struct {
		field string
		val   *jsonpos.Value
	}{{"date", v.Get("date")}, {"review.reviewed_at", getObj(v, "review").Get("reviewed_at")}}
	for _, d := range dates {
		if d.val == nil || d.val.Kind != jsonpos.String {
			continue
		}
		date, ok := parseDate(d.val.Str)
		if !ok {
			continue // the schema check or readDates said why
		}
		checkDate(date, d.val.Str,
			func(format string, args ...any) { errorAt(d.val, d.field, format, args...) },
			func(format string, args ...any) { warnAt(d.val, d.field, format, args...) })
	}
	if u := v.Get("updated_at"); u != nil && !c.UpdatedAt.IsZero() && c.UpdatedAt.Year() < 1 {
		errorAt(u, "updated_at", "%q: years start at 0001", u.Str)
	}
	checkTimeline(getObj(v, "timeline"), &c.Timeline, errorAt, warnAt)
}

// checkTimeline checks that the durations come in order (an impact is
// over no sooner than it was detected or mitigated), that the moments do,
// and that a duration agrees with its two moments where the case gives
// all three: they are the same fact written twice.
func checkTimeline(v *jsonpos.Value, tl *Timeline, errorAt, warnAt errorAtFunc) {
	durs := []*Duration{tl.DetectedAfter, tl.MitigatedAfter, tl.ResolvedAfter}
	last := len(durs) - 1
	for i, d := range durs[:last] {
		if end := durs[last]; d != nil && end != nil && *d > *end {
			k := timelineSpans[i].after
			errorAt(v.Get(k), "timeline."+k, "%s after %s but resolved after %s: an impact is over no sooner than it was %s",
				strings.TrimSuffix(k, "_after"), v.Get(k).Str, v.Get("resolved_after").Str, strings.TrimSuffix(k, "_after"))
		}
	}
	ms := tl.moments()
	start := *ms[0]
	for i, m := range ms[1:] {
		at, span := *m, timelineSpans[i]
		if at == nil || start == nil {
			continue
		}
		val := v.Get(span.at)
		if at.Zoned != start.Zoned {
			warnAt(val, "timeline."+span.at, "%q and started_at %q: one names a time zone and the other does not, so they cannot be compared; give both with their zone, or both without when the source names none", at.Text, start.Text)
			continue
		}
		took := at.Time.Sub(start.Time)
		if took < 0 {
			errorAt(val, "timeline."+span.at, "%q is before started_at %q: every moment of the timeline comes after the impact started", at.Text, start.Text)
			continue
		}
		d := durs[i]
		if d == nil {
			continue
		}
		want := time.Duration(*d) * time.Minute
		if diff := (took - want).Abs(); diff > want/10 && diff > time.Minute {
			dv := v.Get(span.after)
			warnAt(dv, "timeline."+span.after, "%s, but started_at %s to %s %s is %s: the two disagree by more than 10%%; correct one of them",
				dv.Str, start.Text, span.at, at.Text, formatDuration(Duration(took/time.Minute)))
		}
	}
}

// checkSourceArchives warns about a source whose archived copy has not been
// looked for (null): few addresses outlive their links, so every source
// names its archived copy or says "none" is known.
func checkSourceArchives(v *jsonpos.Value, warnAt errorAtFunc) {
	for i, s := range getList(v, "sources") {
		if a := s.Get("archived"); a != nil && a.Kind == jsonpos.Null {
			warnAt(a, fmt.Sprintf("sources[%d].archived", i), `null: give the address of an archived copy, or "none" when no archived copy is known`)
		}
	}
}
