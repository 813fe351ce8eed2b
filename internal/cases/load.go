package cases

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"incidentlib/internal/cases/internal/offheap"
	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
	"incidentlib/internal/urls"
)

// Facets are the URL names of the ways cases are grouped, in menu order;
// FacetField maps a vocabulary facet's URL name to its field in vocab.json.
// Both are read from the one facet table, urls.Facets, and never written.
var (
	Facets     = urls.FacetNames()
	FacetField = urls.VocabFields()
)

// Terms returns the terms of a vocab.json field.
func (v *Vocab) Terms(field string) []Term {
	switch field {
	case "root_cause":
		return v.RootCause
	case "components":
		return v.Components
	case "symptoms":
		return v.Symptoms
	case "contributing":
		return v.Contributing
	case "domain":
		return v.Domain
	case "severity":
		return v.Severity
	}
	return nil
}

func (v *Vocab) set(field string, terms []Term) {
	switch field {
	case "root_cause":
		v.RootCause = terms
	case "components":
		v.Components = terms
	case "symptoms":
		v.Symptoms = terms
	case "contributing":
		v.Contributing = terms
	case "domain":
		v.Domain = terms
	case "severity":
		v.Severity = terms
	}
}

// Term looks a term up by vocab.json field and id.
func (v *Vocab) Term(field, id string) (Term, bool) {
	i, ok := v.index[field][id]
	if !ok {
		return Term{}, false
	}
	return v.Terms(field)[i], true
}

// Rank returns the position of a term in its vocabulary's display order.
func (v *Vocab) Rank(field, id string) int {
	if i, ok := v.index[field][id]; ok {
		return i
	}
	return 1 << 30
}

func (v *Vocab) buildIndex() {
	v.index = map[string]map[string]int{}
	for _, f := range VocabFields {
		m := map[string]int{}
		for i, t := range v.Terms(f) {
			m[t.ID] = i
		}
		v.index[f] = m
	}
	m := map[string]int{}
	for i, t := range v.Orgs {
		m[t.ID] = i
	}
	v.index["orgs"] = m
	v.suggest = map[string]*Suggester{}
	for _, f := range VocabFields {
		var ids []string
		for _, t := range v.Terms(f) {
			ids = append(ids, t.ID)
		}
		v.suggest[f] = NewSuggester(ids)
	}
}

// Load reads a content folder. It always returns every problem it found; the
// library is usable only when the list holds no errors.
func Load(fsys fs.FS) (*Library, diag.List) {
	return load(fsys, nil)
}

// LoadOffHeap is Load for a process that builds once and exits: the strings
// of the cases, and what Keep holds, live outside the garbage-collected heap
// for the life of the process. At 100,000 cases that is about a gigabyte the
// collector neither counts nor walks (see package offheap). A server, which
// loads again on every edit, must use Load: this memory is never freed.
func LoadOffHeap(fsys fs.FS) (*Library, diag.List) {
	return load(fsys, new(offheap.Arena))
}

func load(fsys fs.FS, text *offheap.Arena) (*Library, diag.List) {
	var list diag.List
	lib := &Library{ByID: map[string]*Case{}, Topics: map[string]map[string]Text{}, text: text}

	if root := readJSON(fsys, "site.json", SiteSchema, &list); root != nil {
		lib.Site = convertSite(root)
		checkParticlesJSON(root, &list)
	}
	root := readJSON(fsys, "vocab.json", VocabSchema, &list)
	if root != nil {
		lib.Vocab = convertVocab(root.v, root, &list)
		checkParticlesJSON(root, &list)
	}
	lib.Vocab.broken = root == nil || !root.ok
	lib.Vocab.buildIndex()

	lib.Cases = loadCases(fsys, &lib.Vocab, text, &list)
	finish(lib, fsys, &list)
	return lib, list
}

// finish completes a library whose cases are read and sorted: the id index,
// the checks across cases, prose pages and topic introductions, and the
// report in a stable order. Load and Reload end the same way.
func finish(lib *Library, fsys fs.FS, list *diag.List) {
	for _, c := range lib.Cases {
		lib.ByID[c.ID] = c
	}
	checkRoot(fsys, list)
	crossCheck(lib, list)
	checkOrgs(lib, list)
	lib.Pages = loadPages(fsys, list)
	loadTopics(fsys, lib, list)
	list.Sort()
}

// parsed is a file parsed and checked against its schema.
type parsed struct {
	v    *jsonpos.Value
	doc  *jsonpos.Doc
	file string
	ok   bool // the schema check passed
}

func (p *parsed) pos(v *jsonpos.Value) (int, int) { return p.doc.Pos(v.Off) }

func readJSON(fsys fs.FS, name string, s *Schema, list *diag.List) *parsed {
	src, err := ReadContent(fsys, name)
	if err != nil {
		list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return nil
	}
	return parseChecked(new(jsonpos.Parser), string(src), name, s, list)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// parseChecked parses src with ps, so the result is valid until ps parses
// again.
func parseChecked(ps *jsonpos.Parser, src, name string, s *Schema, list *diag.List) *parsed {
	doc := ps.Parse(src)
	for _, p := range doc.Problems {
		line, col := doc.Pos(p.Off)
		list.Errorf(name, line, col, "", "%s", p.Msg)
	}
	if doc.Fatal {
		return nil
	}
	v := &validator{doc: doc, file: name, list: list}
	ok := v.validate(doc.Root, s, make(fieldPath, 0, 8))
	if doc.Root.Kind != jsonpos.Object {
		return nil
	}
	return &parsed{v: doc.Root, doc: doc, file: name, ok: ok}
}

// The conversions below run after the schema check, so they may assume the
// right kinds; where a value had the wrong kind they leave the zero value.

func getStr(v *jsonpos.Value, key string) string {
	if m := v.Get(key); m != nil && m.Kind == jsonpos.String {
		return m.Str
	}
	return ""
}

func getText(v *jsonpos.Value, key string) Text {
	m := v.Get(key)
	if m == nil || m.Kind != jsonpos.Object {
		return Text{}
	}
	return Text{En: getStr(m, "en"), Ko: getStr(m, "ko")}
}

// getTextOrString reads a field that is either {en, ko} or one plain string.
// A plain string is English with no Korean side, except "unknown", which
// means the same in both languages.
func getTextOrString(v *jsonpos.Value, key string) Text {
	m := v.Get(key)
	if m != nil && m.Kind == jsonpos.String {
		if m.Str == "unknown" {
			return Text{En: m.Str, Ko: m.Str}
		}
		return Text{En: m.Str}
	}
	return getText(v, key)
}

func getList(v *jsonpos.Value, key string) []*jsonpos.Value {
	if m := v.Get(key); m != nil && m.Kind == jsonpos.Array {
		return m.Items
	}
	return nil
}

func getStrings(v *jsonpos.Value, key string) []string {
	var out []string
	for _, it := range getList(v, key) {
		if it.Kind == jsonpos.String {
			out = append(out, it.Str)
		}
	}
	return out
}

func getObj(v *jsonpos.Value, key string) *jsonpos.Value {
	if m := v.Get(key); m != nil && m.Kind == jsonpos.Object {
		return m
	}
	return &jsonpos.Value{Kind: jsonpos.Object}
}

func convertSite(p *parsed) Site {
	v := p.v
	s := Site{
		Title:       getText(v, "title"),
		Description: getText(v, "description"),
		BaseURL:     getStr(v, "base_url"),
		PageSize:    20,
	}
	if n := v.Get("page_size"); n != nil && n.Kind == jsonpos.Number {
		if size, err := strconv.Atoi(n.Str); err == nil && size >= MinPageSize && size <= MaxPageSize {
			s.PageSize = size
		}
	}
	co := getObj(v, "callout")
	s.Callout = Callout{Title: getText(co, "title"), Text: getText(co, "text")}
	if l := co.Get("link"); l != nil && l.Kind == jsonpos.Object {
		s.Callout.Link = Link{Label: getText(l, "label"), URL: getStr(l, "url")}
	}
	mcp := getObj(v, "mcp")
	s.MCP = MCP{URL: getStr(mcp, "url"), Tools: getStrings(mcp, "tools"), Note: getText(mcp, "note")}
	for _, l := range getList(v, "links") {
		s.Links = append(s.Links, Link{Label: getText(l, "label"), URL: getStr(l, "url")})
	}
	repo := getObj(v, "repository")
	s.Repository = Repository{URL: getStr(repo, "url"), EditURL: getStr(repo, "edit_url")}
	return s
}

func convertVocab(v *jsonpos.Value, p *parsed, list *diag.List) Vocab {
	var voc Vocab
	for _, f := range VocabFields {
		seen := map[string]bool{}
		var terms []Term
		for i, it := range getList(v, f) {
			if it.Kind != jsonpos.Object {
				continue
			}
			t := Term{ID: getStr(it, "id"), Label: Text{En: getStr(it, "en"), Ko: getStr(it, "ko")}, Description: getText(it, "description")}
			if seen[t.ID] {
				line, col := p.pos(it)
				list.Errorf(p.file, line, col, fmt.Sprintf("%s[%d].id", f, i), "duplicate term %q", t.ID)
				continue
			}
			seen[t.ID] = true
			terms = append(terms, t)
		}
		voc.set(f, terms)
	}
	seen := map[string]bool{}
	for i, it := range getList(v, "orgs") {
		if it.Kind != jsonpos.Object {
			continue
		}
		t := Term{ID: getStr(it, "id"), Label: Text{En: getStr(it, "en"), Ko: getStr(it, "ko")}, NameKo: getStr(it, "name_ko")}
		if seen[t.ID] {
			line, col := p.pos(it)
			list.Errorf(p.file, line, col, fmt.Sprintf("orgs[%d].id", i), "duplicate organisation %q", t.ID)
			continue
		}
		seen[t.ID] = true
		voc.Orgs = append(voc.Orgs, t)
	}
	return voc
}

// OrgName returns the names vocab.json gives the organisation slug.
func (v *Vocab) OrgName(slug string) (Text, bool) {
	i, ok := v.index["orgs"][slug]
	if !ok {
		return Text{}, false
	}
	return v.Orgs[i].Label, true
}

// checkOrgs warns, once per organisation, about cases whose organisation
// has no entry in vocab.json's orgs while that list is in use: such a case
// is not found by the organisation's Korean name.
func checkOrgs(lib *Library, list *diag.List) {
	if len(lib.Vocab.Orgs) == 0 || lib.Vocab.broken {
		return
	}
	warned := map[string]bool{}
	for _, c := range lib.Cases {
		// An empty or malformed slug is already an error of its own.
		if _, ok := lib.Vocab.OrgName(c.OrgSlug); ok || warned[c.OrgSlug] || !isSlug(c.OrgSlug) {
			continue
		}
		warned[c.OrgSlug] = true
		line, col := fieldPos(c, "org_slug")
		list.Warnf(c.File, line, col, "org_slug", "organisation %q has no entry in vocab.json's orgs, so search will not find it by its Korean name%s", c.OrgSlug, orgFix(&lib.Vocab, c))
	}
}

// caseResult is what loading one case file produced. The parse tree is not
// kept: ten thousand of them would all be alive until the last file is read,
// and the one use left for it, the position of a duplicate id, is rare
// enough to parse the file again (idPos).
type caseResult struct {
	c    *Case
	list diag.List
}

func loadCases(fsys fs.FS, voc *Vocab, text *offheap.Arena, list *diag.List) []*Case {
	names := listCases(fsys, list)
	results := loadCaseFiles(fsys, names, voc, text)
	var out []*Case
	firstFile := map[string]string{}
	for _, name := range names { // listed in name order, so reports are stable
		r := results[name]
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
	return out
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

// loadCase reads, checks and converts one case file, parsing it with ps.
func loadCase(fsys fs.FS, name string, voc *Vocab, text *offheap.Arena, ps *jsonpos.Parser) (r caseResult) {
	b, err := ReadContent(fsys, name)
	if err != nil {
		r.list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return r
	}
	// b is never written to again, so the string can share its memory
	// instead of copying a file that detach copies the useful part of.
	src := unsafe.String(unsafe.SliceData(b), len(b))
	p := parseChecked(ps, src, name, CaseSchema, &r.list)
	if p == nil {
		return r
	}
	errorAt := func(val *jsonpos.Value, field, format string, args ...any) {
		line, col := p.pos(val)
		r.list.Errorf(name, line, col, field, format, args...)
	}
	c := caseFields(p.v, voc)
	c.File, c.src, c.rawSize, c.rawSum = name, fsys, len(b), crc32.Checksum(b, castagnoli)
	readReview(p.v, c, errorAt)
	readDates(p.v, c, name, errorAt)
	checkCaseLimits(p.v, c, errorAt, func(val *jsonpos.Value, field, format string, args ...any) {
		line, col := p.pos(val)
		r.list.Warnf(name, line, col, field, format, args...)
	})
	checkCaseTerms(p.v, voc, errorAt)
	checkTranslations(c, p, &r.list)
	checkParticlesJSON(p, &r.list)
	checkImpactText(p, &r.list)
	checkFutureDates(p, c, &r.list)
	c.detach(text)
	r.c = c
	return r
}

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
		Severity:     getStr(v, "severity"),
		Symptoms:     getStrings(v, "symptoms"),
		Components:   getStrings(v, "components"),
		RootCause:    getStr(v, "root_cause"),
		Contributing: getStrings(v, "contributing"),
		Domain:       getStrings(v, "domain"),
		Related:      getStrings(v, "related"),
		RecurrenceOf: getStr(v, "recurrence_of"),
		Docs:         getStrings(v, "docs"),
		URL:          getStr(v, "url"),
	}
	if l := v.Get("lessons"); l != nil && l.Kind == jsonpos.Object {
		t := getText(v, "lessons")
		c.Lessons = &t
	}
	for _, it := range getList(v, "remediation") {
		c.Remediation = append(c.Remediation, getText(it, "text"))
	}
	for _, it := range getList(v, "action_items") {
		c.ActionItems = append(c.ActionItems, getText(it, "text"))
	}
	imp := getObj(v, "impact")
	c.Impact = Impact{Scope: getTextOrString(imp, "scope"), Users: getTextOrString(imp, "users"), Region: getStr(imp, "region")}
	for _, s := range getList(v, "sources") {
		c.Sources = append(c.Sources, Source{URL: getStr(s, "url"), Kind: getStr(s, "kind"), Archived: getStr(s, "archived")})
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
	for _, k := range []string{"detected_after", "resolved_after"} {
		d := tl.Get(k)
		if d == nil || d.Kind != jsonpos.String {
			continue
		}
		dur, ok := ParseDuration(d.Str)
		if !ok {
			if isDuration(d.Str) { // otherwise the schema check said so
				errorAt(d, "timeline."+k, "%q is not a duration like 56m or 1h10m", d.Str)
			}
			continue
		}
		if k == "detected_after" {
			c.Timeline.DetectedAfter = &dur
		} else {
			c.Timeline.ResolvedAfter = &dur
		}
	}
}

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
	checkTerms("symptoms", "symptoms")
	checkTerms("components", "components")
	checkTerms("contributing", "contributing")
	checkTerms("domain", "domain")
	if rc := v.Get("root_cause"); rc != nil {
		checkTerm(voc, rc, "root_cause", "root_cause", -1, errorAt)
	}
	if sv := v.Get("severity"); sv != nil && sv.Str != "unknown" {
		checkTerm(voc, sv, "severity", "severity", -1, errorAt)
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
// page still shows the other language, marked as not translated.
func checkTranslations(c *Case, p *parsed, list *diag.List) {
	var walk func(v *jsonpos.Value, at fieldPath)
	walk = func(v *jsonpos.Value, at fieldPath) {
		switch v.Kind {
		case jsonpos.Object:
			en, ko := v.Get("en"), v.Get("ko")
			if en != nil && ko != nil && en.Kind == jsonpos.String && ko.Kind == jsonpos.String && len(v.Members) == 2 {
				switch {
				case blank(en.Str) && blank(ko.Str):
					line, col := p.pos(v)
					list.Errorf(p.file, line, col, at.String(), "text is empty in both languages")
				case blank(ko.Str):
					line, col := p.pos(ko)
					list.Warnf(p.file, line, col, at.String()+".ko", "Korean translation missing: the Korean page shows the English text, marked as not translated")
				case blank(en.Str):
					line, col := p.pos(en)
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

// checkLinks checks references between cases and organisation names.
func checkLinks(lib *Library, list *diag.List) {
	orgName := map[string]*Case{}
	ids := NewSuggester(caseIDs(lib)) // once: a check with many unknown ids stays linear
	for _, c := range lib.Cases {
		raw, err := c.ReadRaw() // cheap next to rendering; keeps positions out of the model
		if err != nil {
			list.Errorf(c.File, 0, 0, "", "%v", err)
			continue
		}
		doc := jsonpos.Parse(string(raw))
		if doc.Root == nil {
			continue
		}
		at := func(v *jsonpos.Value, field, format string, args ...any) {
			line, col := doc.Pos(v.Off)
			list.Errorf(c.File, line, col, field, format, args...)
		}
		for i, it := range getList(doc.Root, "related") {
			field := fmt.Sprintf("related[%d]", i)
			switch {
			case !isID(it.Str):
				// The schema check reported it.
			case it.Str == c.ID:
				at(it, field, "a case cannot be related to itself")
			case lib.ByID[it.Str] == nil:
				at(it, field, "no case with id %q%s", it.Str, ids.CloseID(it.Str, c.ID))
			}
		}
		if r := doc.Root.Get("recurrence_of"); r != nil && r.Kind == jsonpos.String {
			switch {
			case !isID(r.Str):
			case r.Str == c.ID:
				at(r, "recurrence_of", "a case cannot be a recurrence of itself")
			case lib.ByID[r.Str] == nil:
				at(r, "recurrence_of", "no case with id %q%s", r.Str, ids.CloseID(r.Str, c.ID))
			}
		}
		if prev, ok := orgName[c.OrgSlug]; ok && prev.Org != c.Org && c.OrgSlug != "" {
			at(doc.Root.Get("org"), "org", "org_slug %q is %q in %s but %q here", c.OrgSlug, prev.Org, prev.File, c.Org)
		} else if !ok {
			orgName[c.OrgSlug] = c
		}
	}
}

func caseIDs(lib *Library) []string {
	ids := make([]string, 0, len(lib.ByID))
	for id := range lib.ByID {
		ids = append(ids, id)
	}
	return ids
}

// parseDate reads YYYY-MM-DD, YYYY-MM or YYYY.
func parseDate(s string) (Date, bool) {
	var layout string
	switch len(s) {
	case 10:
		layout = "2006-01-02"
	case 7:
		layout = "2006-01"
	case 4:
		layout = "2006"
	default:
		return Date{}, false
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return Date{}, false
	}
	d := Date{Year: t.Year()}
	if len(s) >= 7 {
		d.Month = t.Month()
	}
	if len(s) == 10 {
		d.Day = t.Day()
	}
	return d, true
}

// ParseDuration reads durations such as 56m, 1h10m or 2d3h into minutes.
func ParseDuration(s string) (Duration, bool) {
	if s == "" {
		return 0, false
	}
	total, n, digits := 0, 0, 0
	last := byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= '0' && ch <= '9' {
			n = n*10 + int(ch-'0')
			digits++
			if n > 1e7 {
				return 0, false
			}
			continue
		}
		if digits == 0 {
			return 0, false
		}
		unit := 0
		switch ch {
		case 'd':
			unit = 1440
		case 'h':
			unit = 60
		case 'm':
			unit = 1
		}
		if unit == 0 || (last != 0 && !strings.ContainsRune("dhm"[strings.IndexByte("dhm", last)+1:], rune(ch))) {
			return 0, false
		}
		total += n * unit
		n, digits, last = 0, 0, ch
	}
	if digits != 0 || last == 0 {
		return 0, false
	}
	return Duration(total), true
}

// loadPages reads content/pages/<slug>.<lang>.md.
func loadPages(fsys fs.FS, list *diag.List) []Page {
	entries := readDir(fsys, "pages", list) // prose pages are optional
	bySlug := map[string]*Page{}
	var slugs []string
	for _, e := range entries {
		name := "pages/" + e.Name()
		slug, lang, ok := splitLangFile(e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			hidden(name, list)
			continue
		}
		if dir, err := isDir(fsys, name, e); err != nil || dir {
			notAFile(name, "pages/", err, list)
			continue
		}
		if !ok || !isSlug(slug) {
			list.Errorf(name, 0, 0, "", "a page file is named <slug>.<en|ko>.md with a lower-case slug")
			continue
		}
		if reservedSlug(slug) {
			list.Errorf(name, 0, 0, "", "%q is taken by the site's own pages (/<lang>/%s/); choose another name", slug, slug)
			continue
		}
		body, ok := readText(fsys, name, list)
		if !ok {
			continue
		}
		pg := bySlug[slug]
		if pg == nil {
			pg = &Page{Slug: slug}
			bySlug[slug] = pg
			slugs = append(slugs, slug)
		}
		checkParticlesText(name, body, list)
		setLang(&pg.Body, lang, body)
		setLang(&pg.File, lang, name)
	}
	sort.Strings(slugs)
	var out []Page
	for _, s := range slugs {
		pg := bySlug[s]
		for _, lang := range Languages {
			if pg.Body.Get(lang) == "" {
				list.Warnf("pages/"+s+"."+Other(lang)+".md", 0, 0, "", "no %s version (pages/%s.%s.md): that page shows this text, marked as not translated", langName(lang), s, lang)
			}
		}
		out = append(out, *pg)
	}
	return out
}

// notAFile reports an entry of a folder of Markdown files that is a folder,
// or that cannot be read (a link that leads nowhere or round in a loop).
func notAFile(name, in string, err error, list *diag.List) {
	if err != nil {
		list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return
	}
	list.Errorf(name, 0, 0, "", "a folder in %s is not read: the Markdown files go directly in %s", in, in)
}

// reservedSlug reports whether a prose page would take the address of one of
// the site's own sections.
func reservedSlug(slug string) bool {
	for _, f := range Facets {
		if f == slug {
			return true
		}
	}
	switch slug {
	case "cases", "search", "api", "feed", "page":
		return true
	}
	return false
}

func langName(lang string) string {
	if lang == "ko" {
		return "Korean"
	}
	return "English"
}

func splitLangFile(name string) (stem, lang string, ok bool) {
	if !strings.HasSuffix(name, ".md") {
		return "", "", false
	}
	base := strings.TrimSuffix(name, ".md")
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return "", "", false
	}
	stem, lang = base[:i], base[i+1:]
	return stem, lang, lang == "en" || lang == "ko"
}

func setLang(t *Text, lang, s string) {
	if lang == "ko" {
		t.Ko = s
	} else {
		t.En = s
	}
}

func readText(fsys fs.FS, name string, list *diag.List) (string, bool) {
	b, err := ReadContent(fsys, name)
	if err != nil {
		list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return "", false
	}
	if !utf8.Valid(b) {
		line, col := 1, 1
		for i := 0; i < len(b); {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += n
		}
		list.Errorf(name, line, col, "", "invalid UTF-8")
		return "", false
	}
	// A byte-order mark at the start is no text, as in JSON files.
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if len(b) > MaxTextBytes {
		list.Errorf(name, 0, 0, "", "%s", textTooLong(len(b)))
		return "", false
	}
	if line, col, r, ok := controlChar(b); ok {
		list.Errorf(name, line, col, "", "control character %U: only tabs and line breaks may be in text", r)
		return "", false
	}
	return string(b), true
}

// controlChar finds the first control character of text other than tab
// and line break (a carriage return before a line feed is a line break).
func controlChar(b []byte) (line, col int, r rune, found bool) {
	line, col = 1, 1
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r == '\t', r == '\r' && i+1 < len(b) && b[i+1] == '\n':
		case r < 0x20, r >= 0x7f && r <= 0x9f:
			return line, col, r, true
		}
		col++
		i += n
	}
	return 0, 0, 0, false
}

// loadTopics reads content/topics/<facet>/<term>.<lang>.md.
func loadTopics(fsys fs.FS, lib *Library, list *diag.List) {
	facets := readDir(fsys, "topics", list) // topic introductions are optional
	for _, f := range facets {
		if strings.HasPrefix(f.Name(), ".") {
			hidden("topics/"+f.Name(), list)
			continue
		}
		dir, err := isDir(fsys, "topics/"+f.Name(), f)
		if err != nil || !dir {
			if err == nil {
				err = errors.New("a topic introduction goes in topics/<facet>/, not in topics/")
			}
			list.Errorf("topics/"+f.Name(), 0, 0, "", "%v", unwrapPathError(err))
			continue
		}
		field, ok := FacetField[f.Name()]
		if !ok {
			list.Errorf("topics/"+f.Name(), 0, 0, "", "unknown facet %q: topic introductions live in one of %s%s", f.Name(), strings.Join(vocabFacets(), ", "), DidYouMean(f.Name(), vocabFacets()))
			continue
		}
		entries := readDir(fsys, "topics/"+f.Name(), list)
		for _, e := range entries {
			name := "topics/" + f.Name() + "/" + e.Name()
			if strings.HasPrefix(e.Name(), ".") {
				hidden(name, list)
				continue
			}
			if dir, err := isDir(fsys, name, e); err != nil || dir {
				notAFile(name, "topics/"+f.Name()+"/", err, list)
				continue
			}
			term, lang, ok := splitLangFile(e.Name())
			if !ok {
				list.Errorf(name, 0, 0, "", "a topic introduction is named <term>.<en|ko>.md")
				continue
			}
			if _, ok := lib.Vocab.Term(field, term); !ok && !lib.Vocab.broken {
				list.Errorf(name, 0, 0, "", "unknown %s term %q%s", f.Name(), term, lib.Vocab.suggest[field].DidYouMean(term))
				continue
			}
			body, ok := readText(fsys, name, list)
			if !ok {
				continue
			}
			if lib.Topics[f.Name()] == nil {
				lib.Topics[f.Name()] = map[string]Text{}
			}
			checkParticlesText(name, body, list)
			t := lib.Topics[f.Name()][term]
			setLang(&t, lang, body)
			lib.Topics[f.Name()][term] = t
		}
	}
}

func vocabFacets() []string {
	var out []string
	for _, f := range Facets {
		if _, ok := FacetField[f]; ok {
			out = append(out, f)
		}
	}
	return out
}

// orgAlias returns the Korean spelling of an organisation's name, or "".
func (v *Vocab) orgAlias(slug string) string {
	t, _ := v.OrgName(slug)
	return t.Ko
}

// orgNameKo returns the Korean name Korean pages show for an organisation
// whose English name is a description, or "".
func (v *Vocab) orgNameKo(slug string) string {
	if i, ok := v.index["orgs"][slug]; ok {
		return v.Orgs[i].NameKo
	}
	return ""
}
