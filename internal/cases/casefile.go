package cases

import (
	"fmt"
	"hash/crc32"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
	"unsafe"

	"incidentlib/internal/cases/internal/offheap"
	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// caseResult is what loading one case file produced. The parse tree is not
// kept: ten thousand of them would all be alive until the last file is read,
// and the one use left for it, the position of a duplicate id, is rare
// enough to parse the file again (idPos).
type caseResult struct {
	c     *Case
	list  diag.List
	draft bool // the file is marked "draft": true
}

func loadCases(fsys fs.FS, voc *Vocab, text *offheap.Arena, list *diag.List) ([]*Case, []Draft) {
	names := listCases(fsys, list)
	results := loadCaseFiles(fsys, names, voc, text)
	return gatherCases(names, func(name string) caseResult { return results[name] }, list)
}

// gatherCases merges the results of the case files names lists, in that
// (file-name) order, so that reports are stable and the first of two files
// with the same id keeps it; the second is an error at its id. It returns
// the cases newest first, and the drafts apart, each with its own report.
// Load and Reload both gather through it.
func gatherCases(names []string, result func(name string) caseResult, list *diag.List) ([]*Case, []Draft) {
	var out []*Case
	var drafts []Draft
	firstFile := map[string]string{}
	for _, name := range names {
		r := result(name)
		if r.draft {
			d := Draft{ID: strings.TrimSuffix(path.Base(name), ".json"), File: name, Problems: r.list}
			if r.list.Errors() == 0 {
				d.Case = r.c
			}
			drafts = append(drafts, d)
			continue
		}
		list.Merge(r.list)
		if r.c == nil {
			continue
		}
		if prev, dup := firstFile[r.c.ID]; dup {
			line, col := fieldPos(r.c, "id")
			list.Errorf(r.c.File, line, col, "id", "duplicate case id %q (also in %s)", r.c.ID, prev)
			continue
		}
		firstFile[r.c.ID] = r.c.File
		out = append(out, r.c)
	}
	SortNewestFirst(out)
	return out, drafts
}

// SortNewestFirst orders cases by date, newest first, then by id.
func SortNewestFirst(cs []*Case) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Date != b.Date {
			return b.Date.Before(a.Date)
		}
		return a.ID < b.ID
	})
}

// caseReader is the memory one goroutine reuses from case file to case
// file: its parser, with the strings it unescapes, and the buffer the file
// is read into. Nothing of a case keeps pointing into them once loadCase
// returns: detach copies the strings the case keeps, and a report formats
// its own.
type caseReader struct {
	ps  jsonpos.Parser
	buf []byte
}

// loadCase reads (through dir, a reader of fsys's cases folder), checks
// and converts one case file, with cr's memory.
func loadCase(fsys fs.FS, name string, dir *folderReader, voc *Vocab, text *offheap.Arena, cr *caseReader) (r caseResult) {
	b, err := dir.read(name, cr.buf)
	if err != nil {
		r.list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return r
	}
	if cap(b) > cap(cr.buf) && cap(b) <= maxReuse {
		cr.buf = b // a larger file comes next time
	}
	// b is not written to until the next file, when nothing points into
	// it any more, so the string can share its memory instead of copying a
	// file that detach copies the useful part of.
	src := unsafe.String(unsafe.SliceData(b), len(b))
	cr.ps.ShortStrings = true // for the same reason
	p := parseChecked(&cr.ps, src, name, CaseSchema, &r.list)
	if p == nil {
		// Not JSON enough to read the mark: a file being written is a draft
		// by its text, so that a slip while typing one keeps the preview up.
		r.draft = draftMark.MatchString(src)
		return r
	}
	if d := p.v.Get("draft"); d != nil && d.Kind == jsonpos.Bool && d.Bool {
		r.draft = true
	}
	errorAt := func(val *jsonpos.Value, field, format string, args ...any) {
		line, col := p.pos(val)
		r.list.Errorf(name, line, col, field, format, args...)
	}
	c := caseFields(p.v, voc)
	c.Draft = r.draft
	c.File, c.src, c.rawSize, c.rawSum = name, fsys, len(b), crc32.Checksum(b, castagnoli)
	readReview(p.v, c, errorAt)
	readDates(p.v, c, name, errorAt)
	checkCaseLimits(p.v, c, errorAt, func(val *jsonpos.Value, field, format string, args ...any) {
		line, col := p.pos(val)
		r.list.Warnf(name, line, col, field, format, args...)
	})
	checkCaseTerms(p.v, voc, errorAt)
	checkAffected(p.v, c, voc, errorAt)
	checkSources(p.v, func(val *jsonpos.Value, field, format string, args ...any) {
		line, col := p.pos(val)
		r.list.Warnf(name, line, col, field, format, args...)
	})
	checkTranslations(p, &r.list)
	checkParticlesJSON(p, &r.list)
	checkGlossaryJSON(voc.Glossary, p, &r.list)
	checkSourceArchives(p.v, func(val *jsonpos.Value, field, format string, args ...any) {
		line, col := p.pos(val)
		r.list.Warnf(name, line, col, field, format, args...)
	})
	checkImpactText(p, &r.list)
	checkFutureDates(p, c, &r.list)
	readWithdrawal(p.v, c, errorAt)
	c.detach(text)
	r.c = c
	return r
}

// draftMark finds the draft mark in a file that does not parse.
var draftMark = regexp.MustCompile(`"draft"\s*:\s*true\b`)

// maxReuse is the largest buffer a caseReader keeps: a huge file, which
// a library seldom has, is read into memory of its own.
const maxReuse = 1 << 20

// errorAtFunc reports a problem at a value of the file being loaded.
type errorAtFunc = func(val *jsonpos.Value, field, format string, args ...any)

// caseFields reads the fields of a case that the schema check has already
// judged, so that reading them cannot fail.
func caseFields(v *jsonpos.Value, voc *Vocab) *Case {
	c := &Case{
		ID:           getStr(v, "id"),
		Org:          getStr(v, "org"),
		OrgSlug:      getStr(v, "org_slug"),
		OrgKo:        voc.orgNameKo(getStr(v, "org_slug")),
		OrgAlias:     voc.orgAlias(getStr(v, "org_slug")),
		DateKind:     getStr(v, "date_kind"),
		Title:        getText(v, "title"),
		Summary:      getText(v, "summary"),
		SymptomsText: getText(v, "symptoms_text"),
		Trigger:      getText(v, "trigger"),
		Detection:    getText(v, "detection"),
		Related:      getStrings(v, "related"),
		RecurrenceOf: getStr(v, "recurrence_of"),
		Docs:         getStrings(v, "docs"),
		URL:          getStr(v, "url"),
	}
	for _, f := range Facets {
		switch {
		case f.Field == "" || f.Kind == Derived:
		case f.Kind == Many:
			f.setTerms(c, getStrings(v, f.Field))
		case v.Get(f.Field) == nil && f.Optional:
			f.setTerms(c, []string{f.Unknown}) // "" for a facet without one
		default:
			f.setTerms(c, []string{getStr(v, f.Field)})
		}
	}
	if l := v.Get("lessons"); l != nil && l.Kind == jsonpos.Object {
		t := getText(v, "lessons")
		c.Lessons = &t
	}
	for _, it := range getList(v, "remediation") {
		c.Remediation = append(c.Remediation, getText(it, "text"))
	}
	readAffected(v, c)
	imp := getObj(v, "impact")
	c.Impact = Impact{Scope: getTextOrString(imp, "scope"), Users: getTextOrString(imp, "users"), Region: getStr(imp, "region")}
	for _, s := range getList(v, "sources") {
		a := getStr(s, "archived")
		if a == "none" { // said so: no copy is known, which pages show as for null
			a = ""
		}
		c.Sources = append(c.Sources, Source{URL: getStr(s, "url"), Kind: getStr(s, "kind"), Archived: a})
	}
	return c
}

// readReview reads who wrote and who reviewed the case, and when.
func readReview(v *jsonpos.Value, c *Case, errorAt errorAtFunc) {
	rev := getObj(v, "review")
	c.Review = Review{WrittenBy: getStr(rev, "written_by"), ReviewedBy: getStr(rev, "reviewed_by")}
	if d := rev.Get("reviewed_at"); d != nil && d.Kind == jsonpos.String {
		if date, ok := parseDate(d.Str); ok {
			c.Review.ReviewedAt = &date
		} else if isDate(d.Str) {
			errorAt(d, "review.reviewed_at", "%q is not a real date", d.Str)
		}
	}
}

// readDates reads the dates, times and durations, which the schema checks
// only for their form: it reports a date that does not exist and an ID that
// does not match the file name, which the schema cannot express either.
func readDates(v *jsonpos.Value, c *Case, name string, errorAt errorAtFunc) {
	if want := strings.TrimSuffix(path.Base(name), ".json"); isID(c.ID) && c.ID != want {
		errorAt(v.Get("id"), "id", "id %q does not match the file name %s (name the file %s.json)", c.ID, path.Base(name), c.ID)
	}
	if d := v.Get("date"); d != nil && d.Kind == jsonpos.String {
		if date, ok := parseDate(d.Str); ok {
			c.Date = date
		} else if isDate(d.Str) {
			errorAt(d, "date", "%q is not a real date", d.Str)
		}
	}
	if u := v.Get("updated_at"); u != nil && u.Kind == jsonpos.String {
		if t, err := time.Parse(time.RFC3339Nano, u.Str); err == nil {
			c.UpdatedAt = t.UTC()
		} else if isDateTime(u.Str) {
			errorAt(u, "updated_at", "%q is not a real time", u.Str)
		}
	}
	tl := getObj(v, "timeline")
	durs := map[string]**Duration{"detected_after": &c.Timeline.DetectedAfter, "mitigated_after": &c.Timeline.MitigatedAfter, "resolved_after": &c.Timeline.ResolvedAfter}
	for _, k := range timelineSpans {
		d := tl.Get(k.after)
		if d == nil || d.Kind != jsonpos.String {
			continue
		}
		dur, ok := parseDuration(d.Str)
		if !ok {
			if isDuration(d.Str) { // otherwise the schema check said so
				errorAt(d, "timeline."+k.after, "%q is not a duration like 56m or 1h10m", d.Str)
			}
			continue
		}
		*durs[k.after] = &dur
	}
	for i, m := range c.Timeline.moments() {
		key := timelineMoments[i]
		d := tl.Get(key)
		if d == nil || d.Kind != jsonpos.String {
			continue
		}
		if mo, ok := parseMoment(d.Str); ok {
			*m = &mo
		} else if matcher(momentPattern)(d.Str) {
			errorAt(d, "timeline."+key, "%q is not a real time", d.Str)
		}
	}
}

// timelineMoments are the timeline's moments in the format's order, as
// Timeline.moments returns them; timelineSpans pair each duration with the
// moment it ends at.
var (
	timelineMoments = [4]string{"started_at", "detected_at", "mitigated_at", "resolved_at"}
	timelineSpans   = []struct{ after, at string }{
		{"detected_after", "detected_at"}, {"mitigated_after", "mitigated_at"}, {"resolved_after", "resolved_at"},
	}
)

// checkCaseTerms checks that every controlled term is in the vocabulary and
// listed once.
func checkCaseTerms(v *jsonpos.Value, voc *Vocab, errorAt errorAtFunc) {
	checkTerms := func(key, field string) {
		items := getList(v, key)
		for i, it := range items {
			checkTerm(voc, it, field, key, i, errorAt)
		}
		// A case lists a few terms: compare them pairwise. A long list
		// (a mistake, or a generated file) gets a set instead, so that its
		// check stays linear.
		var seen map[string]bool
		if len(items) > 16 {
			seen = make(map[string]bool, len(items))
		}
		for i, it := range items {
			dup := seen[it.Str]
			if seen == nil {
				for _, prev := range items[:i] {
					dup = dup || prev.Str == it.Str
				}
			} else {
				seen[it.Str] = true
			}
			if dup {
				errorAt(it, fmt.Sprintf("%s[%d]", key, i), "%q is listed twice", it.Str)
			}
		}
	}
	for _, f := range ControlledFacets() {
		if f.Kind == Many {
			checkTerms(f.Field, f.Field)
		} else if t := v.Get(f.Field); t != nil && (f.Unknown == "" || t.Str != f.Unknown) {
			checkTerm(voc, t, f.Field, f.Field, -1, errorAt)
		}
	}
}

// checkTerm reports v, the member key of a case or its element i (when not
// negative), unless it is a term of the vocabulary field.
func checkTerm(voc *Vocab, v *jsonpos.Value, field, key string, i int, errorAt func(*jsonpos.Value, string, string, ...any)) {
	if v.Kind != jsonpos.String || v.Str == "" || voc.broken {
		return
	}
	if _, ok := voc.Term(field, v.Str); ok {
		return
	}
	path := key
	if i >= 0 {
		path = fmt.Sprintf("%s[%d]", key, i)
	}
	errorAt(v, path, "unknown term %q%s", v.Str, termHint(voc, field, v.Str))
}

// checkTranslations warns about every text with one language missing: the
// page still shows the other language, marked as not translated. A
// language left empty and one whose key was deleted are the same to a
// reader, and get the same message.
func checkTranslations(p *parsed, list *diag.List) {
	var walk func(v *jsonpos.Value, at fieldPath)
	walk = func(v *jsonpos.Value, at fieldPath) {
		switch v.Kind {
		case jsonpos.Object:
			if isText(v) {
				en, ko := v.Get("en"), v.Get("ko")
				// A missing language is reported at the text that lacks it.
				pos := func(side *jsonpos.Value) (int, int) {
					if side == nil {
						return p.pos(v)
					}
					return p.pos(side)
				}
				switch {
				case blankSide(en) && blankSide(ko):
					line, col := p.pos(v)
					list.Errorf(p.file, line, col, at.String(), "text is empty in both languages")
				case blankSide(ko):
					line, col := pos(ko)
					list.Warnf(p.file, line, col, at.String()+".ko", "Korean translation missing: the Korean page shows the English text, marked as not translated")
				case blankSide(en):
					line, col := pos(en)
					list.Warnf(p.file, line, col, at.String()+".en", "English translation missing: the English page shows the Korean text, marked as not translated")
				}
				return
			}
			for _, m := range v.Members {
				walk(m.Value, at.key(m.Key))
			}
		case jsonpos.Array:
			for i, it := range v.Items {
				walk(it, at.index(i))
			}
		}
	}
	walk(p.v, make(fieldPath, 0, 8))
}

// isText reports whether v is a text in both languages: an object of the
// strings en and ko, one of which may have been left out.
func isText(v *jsonpos.Value) bool {
	if len(v.Members) == 0 || len(v.Members) > 2 {
		return false
	}
	for _, m := range v.Members {
		if (m.Key != "en" && m.Key != "ko") || m.Value.Kind != jsonpos.String {
			return false
		}
	}
	return true
}

// blankSide reports whether one language of a text is missing or blank.
func blankSide(v *jsonpos.Value) bool { return v == nil || blank(v.Str) }

// checkSources keeps the promise every page's footer makes, that every case
// links its sources: a case with none, and a source over plain http (the
// contribute page asks for https), are warnings, so that check -strict
// fails on them.
func checkSources(v *jsonpos.Value, warnAt errorAtFunc) {
	list := v.Get("sources")
	if list == nil || list.Kind != jsonpos.Array {
		return // the schema check said why
	}
	if len(list.Items) == 0 {
		warnAt(list, "sources", "no source: every page promises that each case links the public reports it is written from; add at least one")
		return
	}
	for i, s := range list.Items {
		for _, key := range []string{"url", "archived"} {
			if u := s.Get(key); u != nil && u.Kind == jsonpos.String && strings.HasPrefix(strings.ToLower(u.Str), "http://") {
				warnAt(u, fmt.Sprintf("sources[%d].%s", i, key), "%q is plain http: link the https address (most sites serve one), as the contribute page asks", u.Str)
			}
		}
	}
}
