// Package cases owns the library's input model: cases, the controlled
// vocabularies and the site settings, how they are read from content/, and
// every check made on them before anything is rendered.
//
// Loading never stops at the first problem. Each file is parsed into a tree
// that remembers the line and column of every value, checked against the case
// schema (the same one published as schema/case.json) and then converted into
// the typed model below. Every problem found anywhere becomes one diag.Diag.
package cases

import (
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"slices"
	"time"
	"unsafe"

	"incidentlib/internal/cases/internal/offheap"
	"incidentlib/internal/diag"
)

// Languages are the two languages of the library, in the order pages list them.
var Languages = []string{"en", "ko"}

// Bilingual is a field written in both languages. Either side may be empty
// when a translation is missing; In says which language was actually used.
type Bilingual struct {
	En string
	Ko string
}

// Get returns the text in lang without falling back.
func (t Bilingual) Get(lang string) string {
	if lang == "ko" {
		return t.Ko
	}
	return t.En
}

// In returns the text for lang and the language it is really written in: when
// the requested side is empty the other side is returned, so that the page can
// mark it as untranslated.
func (t Bilingual) In(lang string) (text, written string) {
	if s := t.Get(lang); s != "" {
		return s, lang
	}
	other := Other(lang)
	if s := t.Get(other); s != "" {
		return s, other
	}
	return "", lang
}

// IsZero reports whether both sides are empty.
func (t Bilingual) IsZero() bool { return t.En == "" && t.Ko == "" }

// Other returns the library's other language.
func Other(lang string) string {
	if lang == "ko" {
		return "en"
	}
	return "ko"
}

// Date is a calendar date without a time zone, as cases give it. A report
// that names only the year or the month gives a date with Day, or Month and
// Day, zero: the site then shows only what is known, never a made-up day.
// A source that gives no date at all gives the zero Date (the input's null).
type Date struct {
	Year  int        // 0 when the source gives no date
	Month time.Month // 0 when only the year is known
	Day   int        // 0 when the day is not known
}

// Known reports whether the source gave a date at all.
func (d Date) Known() bool { return d.Year != 0 }

// String formats the date as the input does: YYYY-MM-DD, YYYY-MM or YYYY,
// and "" when it is not known.
func (d Date) String() string {
	switch {
	case !d.Known():
		return ""
	case d.Month == 0:
		return fmt.Sprintf("%04d", d.Year)
	case d.Day == 0:
		return fmt.Sprintf("%04d-%02d", d.Year, int(d.Month))
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// first returns the first day the date can mean, for formats that need a
// whole date (feeds).
func (d Date) first() time.Time {
	return time.Date(d.Year, max(d.Month, 1), max(d.Day, 1), 0, 0, 0, 0, time.UTC)
}

// Before reports whether d is earlier than e; a year alone sorts before
// every date inside it, and an unknown date before every known one, so that
// newest-first lists end with the cases whose source gives no date.
func (d Date) Before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// Duration is a length of time in whole minutes. A nil *Duration is unknown.
type Duration int

// Impact says what broke and for whom; "unknown" is kept as written. Scope
// and Users are written in both languages, or as one plain string (as the
// seed cases are), which is English text with no Korean side. Region is an
// identifier such as "us-east-1" and needs no translation.
type Impact struct {
	Scope  Bilingual
	Users  Bilingual
	Region string
}

// Timeline holds how long the impact lasted until it was detected,
// mitigated and over, each measured from the start of the impact, and the
// moments the source gives; nil means unknown.
type Timeline struct {
	DetectedAfter  *Duration
	MitigatedAfter *Duration
	ResolvedAfter  *Duration
	StartedAt      *Moment
	DetectedAt     *Moment
	MitigatedAt    *Moment
	ResolvedAt     *Moment
}

// moments are the timeline's moments in the order of the format.
func (t *Timeline) moments() [4]**Moment {
	return [4]**Moment{&t.StartedAt, &t.DetectedAt, &t.MitigatedAt, &t.ResolvedAt}
}

// Moment is a time of an incident to the minute, as its source gives it.
// Zoned is false when the source names no time zone: Time is then read as
// UTC, which is right for comparing it with other moments of the same
// case and for nothing else.
type Moment struct {
	Time  time.Time
	Zoned bool
	// Text is the moment as the case writes it.
	Text string
}

// Source is one public document the case is written from.
type Source struct {
	URL      string
	Kind     string
	Archived string
}

// Review records who wrote the case and whether somebody checked it.
type Review struct {
	WrittenBy  string
	ReviewedAt *Date
	ReviewedBy string
}

// Case is one incident post-mortem.
type Case struct {
	// Draft is set on a case file marked "draft": true that the preview
	// shows (Library.WithDrafts); no published case has it.
	Draft   bool
	ID      string
	Org     string
	OrgSlug string
	// OrgKo is the organisation's name on Korean pages where Org is a
	// description rather than a name ("Unnamed company": 이름을 밝히지 않은
	// 회사), from vocab.json's orgs name_ko; "" for a name, which Korean
	// pages show as the organisation writes it (HubSpot, not 허브스팟).
	OrgKo string
	// OrgAlias is the Korean spelling vocab.json's orgs gives the
	// organisation (허브스팟), so that search finds it by that; never shown.
	OrgAlias     string
	Date         Date
	DateKind     string
	Title        Bilingual
	Summary      Bilingual
	SymptomsText Bilingual
	Trigger      Bilingual
	Detection    Bilingual
	Lessons      *Bilingual
	Remediation  []Bilingual
	ActionItems  []ActionItem
	Impact       Impact
	ImpactLevel  string
	Severity     string
	Symptoms     []string
	Components   []string
	RootCause    string
	Contributing []string
	Domain       []string
	Timeline     Timeline
	Sources      []Source
	Related      []string
	RecurrenceOf string
	Review       Review
	Docs         []string
	// Affected are the products and versions the failure can occur in, as
	// the source names them; nil when it names none.
	Affected []Affected
	// Products are the products Affected names, each once, in its order:
	// the terms of the products facet.
	Products  []string
	UpdatedAt time.Time
	URL       string
	// Withdrawn is set on a case taken back (withdrawn.go): its page and
	// its API record stay, it leaves every list; nil for a listed case.
	Withdrawn *Withdrawal

	// File is the case's path inside the content folder, for messages.
	File string

	// other holds the terms of the facets that have no member above, by
	// facet name (see Facet.Terms).
	other map[string][]string

	// The file itself is not kept: at 100,000 cases that is a gigabyte.
	// readRaw reads it again, and its size and checksum tell whether it
	// is still the file the case was made from.
	src     fs.FS
	rawSize int
	rawSum  uint32
}

// readRaw returns the case file exactly as it was read (the API publishes
// it unchanged). It fails when the file has changed since.
func (c *Case) readRaw() ([]byte, error) { return c.AppendRaw(nil) }

// AppendRaw is readRaw into the end of dst, for a caller that reuses one
// buffer for many cases.
func (c *Case) AppendRaw(dst []byte) ([]byte, error) {
	if c.src == nil {
		return dst, fmt.Errorf("%s: case was not read from a file", c.File)
	}
	f, err := c.src.Open(c.File)
	if err != nil {
		return dst, err
	}
	defer f.Close()
	return c.appendRaw(f, dst)
}

// appendRaw appends what f, the case's file, holds to dst, and checks that
// it is what the case was made from.
func (c *Case) appendRaw(f io.Reader, dst []byte) ([]byte, error) {
	start := len(dst)
	dst = slices.Grow(dst, c.rawSize+1) // room for the file and the read that finds its end
	for {
		if len(dst)-start > c.rawSize {
			break // the file grew: the check below says so, however much it grew
		}
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, 4096) // the file grew
		}
		n, err := f.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return dst[:start], err
		}
	}
	b := dst[start:]
	if len(b) != c.rawSize || crc32.Checksum(b, castagnoli) != c.rawSum {
		return dst[:start], fmt.Errorf("%s changed while the site was built from it; build again", c.File)
	}
	return dst, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CaseFiles reads the files of cases again, as Case.AppendRaw does, through
// one handle of the cases folder for all of them (see folderReader): the
// API publishes every case file as it is, and opening the content folder
// and the cases folder again for each of them was most of the cost. Close
// it after use.
type CaseFiles struct {
	jail jailFS // the content folder dir reads in
	dir  *folderReader
}

// OpenCaseFiles returns a reader of the files of lib's cases.
func OpenCaseFiles(lib *Library) *CaseFiles {
	if len(lib.Cases) > 0 {
		if j, ok := lib.Cases[0].src.(jailFS); ok {
			return &CaseFiles{jail: j, dir: openFolder(j, CasesDir)}
		}
	}
	return &CaseFiles{}
}

// AppendRaw is c.AppendRaw(dst), read through f's handle when c comes from
// its folder. A file the handle cannot open or read as the case was made
// from goes to c.AppendRaw, so that the errors are its own.
func (f *CaseFiles) AppendRaw(c *Case, dst []byte) ([]byte, error) {
	if j, ok := c.src.(jailFS); ok && f.dir != nil && j == f.jail {
		if file, _ := f.dir.open(c.File); file != nil {
			out, err := c.appendRaw(file, dst)
			file.Close()
			if err == nil {
				return out, nil
			}
		}
	}
	return c.AppendRaw(dst)
}

// Close releases the handle of the cases folder.
func (f *CaseFiles) Close() {
	if f.dir != nil {
		f.dir.close()
	}
}

// detach copies the case's strings, which point into the text of its file,
// into one block of their own, so that the file's text can be freed. The
// block comes from text, outside the Go heap, when text is not nil.
func (c *Case) detach(text *offheap.Arena) {
	n := 0
	c.eachString(func(s *string) { n += len(*s) })
	if n == 0 {
		return
	}
	b := text.Bytes(n)[:0]
	c.eachString(func(s *string) { b = append(b, *s...) })
	block, off := unsafe.String(&b[0], n), 0
	c.eachString(func(s *string) {
		*s = block[off : off+len(*s)]
		off += len(*s)
	})
}

// eachString calls f with every string of the case that comes from its
// file, in a fixed order.
func (c *Case) eachString(f func(*string)) {
	text := func(t *Bilingual) { f(&t.En); f(&t.Ko) }
	list := func(l []string) {
		for i := range l {
			f(&l[i])
		}
	}
	for _, s := range []*string{&c.ID, &c.Org, &c.OrgSlug, &c.DateKind, &c.ImpactLevel, &c.Severity, &c.RootCause, &c.RecurrenceOf, &c.URL,
		&c.Impact.Region, &c.Review.WrittenBy, &c.Review.ReviewedBy} {
		f(s)
	}
	for _, m := range c.Timeline.moments() {
		if *m != nil {
			f(&(*m).Text)
		}
	}
	for _, t := range []*Bilingual{&c.Title, &c.Summary, &c.SymptomsText, &c.Trigger, &c.Detection, &c.Impact.Scope, &c.Impact.Users} {
		text(t)
	}
	if c.Lessons != nil {
		text(c.Lessons)
	}
	if w := c.Withdrawn; w != nil {
		text(&w.Reason)
		list(w.ReplacedBy)
	}
	for i := range c.Remediation {
		text(&c.Remediation[i])
	}
	for i := range c.ActionItems {
		text(&c.ActionItems[i].Text)
		f(&c.ActionItems[i].Kind)
		f(&c.ActionItems[i].Status)
	}
	for i := range c.Affected {
		a := &c.Affected[i]
		for _, s := range []*string{&a.Product, &a.Introduced, &a.Fixed, &a.LastAffected} {
			f(s)
		}
		list(a.Versions)
	}
	list(c.Products)
	list(c.Symptoms)
	list(c.Components)
	list(c.Contributing)
	list(c.Domain)
	for _, f := range Facets { // in the table's order: every pass the same
		list(c.other[f.Name])
	}
	list(c.Related)
	list(c.Docs)
	for i := range c.Sources {
		f(&c.Sources[i].URL)
		f(&c.Sources[i].Kind)
		f(&c.Sources[i].Archived)
	}
}

// Term is one entry of a controlled vocabulary.
type Term struct {
	ID          string
	Label       Bilingual
	Description Bilingual
	// NameKo is for organisations only: the Korean name that Korean pages
	// show where the English one is a description, or "".
	NameKo string
}

// OrgName returns the case's organisation as each language's pages show it:
// its own name in both, or a description translated.
func (c *Case) OrgName() Bilingual {
	if c.OrgKo != "" {
		return Bilingual{En: c.Org, Ko: c.OrgKo}
	}
	return Bilingual{En: c.Org, Ko: c.Org}
}

// Vocab is content/vocab.json: each controlled facet's terms in display
// order (Terms), and the organisations.
type Vocab struct {
	// terms are the terms of each controlled facet by its Field.
	terms map[string][]Term
	// Orgs are the organisations (vocab.json's "orgs", by org_slug): Label
	// is the name as the organisation writes it (en) and its Korean
	// spelling (ko), which search takes as a synonym and no page shows;
	// NameKo is a translation Korean pages show, for a description only.
	Orgs []Term
	// Products are vocab.json's products, which cases name in
	// affected[].product, in display order.
	Products []Product

	index map[string]map[string]int
	// suggest answers "did you mean" for each field's terms.
	suggest map[string]*suggester
	// Glossary is content/glossary.json's Korean terms, nil when there is
	// none; every Korean text of the content is checked against it.
	Glossary *Glossary
	// broken is set when vocab.json could not be read, parsed or checked:
	// its own errors say why, and the checks that look terms up in it are
	// skipped rather than report every term of every case as unknown.
	broken bool
}

// Link is a labelled link from site.json.
type Link struct {
	Label Bilingual
	URL   string
}

// Callout is the configurable box shown on every case page.
type Callout struct {
	Title Bilingual
	Text  Bilingual
	Link  Link
}

// Settings is content/site.json.
type Settings struct {
	Title       Bilingual
	Description Bilingual
	BaseURL     string
	PageSize    int // cases per list page
	Callout     Callout
	MCP         MCP
	Links       []Link
	Repository  Repository
	License     License
}

// License is the licence of the library's data (site.json's license);
// empty when none is chosen.
type License struct {
	Name string
	URL  string
}

// Repository is where changes to the content go (site.json's repository).
// Empty strings show nothing.
type Repository struct {
	URL string
	// EditURL opens a content file for editing when the file's path in the
	// content folder (cases/IL-0495.json) is added to it.
	EditURL string
}

// MCP names the Model Context Protocol server that serves the same data.
type MCP struct {
	URL   string
	Note  Bilingual
	Tools []string
}

// Prose is a prose page from content/pages/<slug>.<lang>.md.
type Prose struct {
	Slug string
	Body Bilingual // Markdown source per language
	File Bilingual // path per language, for messages
}

// Library is everything read from content/.
type Library struct {
	Cases    []*Case // sorted newest first, then by ID
	ByID     map[string]*Case
	Vocab    Vocab
	Settings Settings
	Prose    []Prose
	Topics   map[string]map[string]Bilingual // facet URL name → term → Markdown intro
	// Withdrawn are the cases taken back (a case's withdrawn), newest
	// first: in ByID, never in Cases, so that no list, topic, search index
	// or related case names them; their pages and API records stay.
	Withdrawn []*Case
	// Drafts are the case files marked "draft": true, in file-name order:
	// never in Cases, and their problems never in the load's report.
	Drafts []Draft

	// text holds the strings of a library loaded by LoadOffHeap, and what
	// Keep is given; nil for Load, whose strings are on the heap.
	text *offheap.Arena
}

// Draft is a case file marked "draft": true: a case being written, which
// is published only once the mark is gone. The preview shows it, marked,
// when it has no errors, and its problems on its page when it has.
type Draft struct {
	ID       string // from the file name, which a case's id must match
	File     string
	Case     *Case     // nil when Problems holds an error
	Problems diag.List // its own report: errors and warnings
}

// WithDrafts returns the library with the drafts that have no errors among
// its cases, marked Draft, as the preview shows them; the library itself
// when there is none. A draft whose id a published case has stays out.
func (l *Library) WithDrafts() *Library {
	var add []*Case
	for _, d := range l.Drafts {
		if d.Case != nil && l.ByID[d.Case.ID] == nil {
			add = append(add, d.Case)
		}
	}
	if len(add) == 0 {
		return l
	}
	c := *l
	c.Cases = append(slices.Clip(l.Cases), add...)
	SortNewestFirst(c.Cases)
	c.ByID = maps.Clone(l.ByID)
	for _, a := range add {
		c.ByID[a.ID] = a
	}
	return &c
}

// Keep returns a copy of b as a string that lives as long as the library:
// outside the collected heap, like the strings of the cases, when the
// library was loaded by LoadOffHeap, on the heap otherwise. It is for text
// made from the cases and kept for a whole build, such as a case's rendered
// card, which a site of 10,000 cases holds 20,000 of. Safe for concurrent
// use.
func (l *Library) Keep(b []byte) string {
	return l.text.String(b)
}
