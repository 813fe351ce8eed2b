package site

import (
	"bytes"
	"encoding/xml"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/urls"
)

// feedSize is how many cases an Atom feed carries.
const feedSize = 50

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Lang string `xml:"hreflang,attr,omitempty"`
}

type atomText struct {
	Type string `xml:"type,attr,omitempty"`
	Lang string `xml:"xml:lang,attr,omitempty"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	Title    atomText   `xml:"title"`
	ID       string     `xml:"id"`
	Updated  string     `xml:"updated"`
	Links    []atomLink `xml:"link"`
	Summary  atomText   `xml:"summary"`
	Author   *atomAuth  `xml:"author,omitempty"`
	Category []atomCat  `xml:"category"`
}

type atomAuth struct {
	Name string `xml:"name"`
}

type atomCat struct {
	Term  string `xml:"term,attr"`
	Label string `xml:"label,attr,omitempty"`
}

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuth    `xml:"author"`
	Entries []atomEntry `xml:"entry"`
	// cached are the entries as Atom, after Entries, for a feed that lists
	// cases as they are (no feedNote): a case's entry is then the same in
	// every such feed of its language, and is made once (cachedEntry).
	// listed are their cases.
	cached [][]byte
	listed []*cases.Case
}

// feedCases returns the cases a feed lists: most recently updated first.
func (s feeds) feedCases() []*cases.Case {
	cs := append([]*cases.Case(nil), s.lib.Cases...)
	sort.SliceStable(cs, func(i, j int) bool {
		if !cs[i].UpdatedAt.Equal(cs[j].UpdatedAt) {
			return cs[i].UpdatedAt.After(cs[j].UpdatedAt)
		}
		return cs[i].ID < cs[j].ID
	})
	if len(cs) > feedSize {
		cs = cs[:feedSize]
	}
	return cs
}

func (s feeds) feed(j Job, w io.Writer) error { return writeAtom(w, s.mainAtom(j)) }

func (s feeds) mainAtom(j Job) *atomFeed {
	lang := j.Lang
	return s.atom(lang, s.strings.Get(lang, "feed.title"), urls.Feed(lang), urls.Home(lang), s.feedCases(), nil)
}

// atom is an Atom feed of cs in lang: its id and self link are
// the address of self, its page that of page. note, when set, says what
// happened to the i-th case of cs (the changes feed, where a case may come
// more than once); an entry's title starts with it.
// A feed's time is that of its newest entry, not of the build, so that
// two builds of the same content are identical.
func (s feeds) atom(lang, title, self, page string, cs []*cases.Case, note func(i int) feedNote) *atomFeed {
	f := &atomFeed{
		Lang:  lang,
		Title: s.lib.Settings.Title.Get(lang) + " · " + title,
		ID:    s.base + self,
		Links: []atomLink{
			{Href: s.base + self, Rel: "self", Type: "application/atom+xml"},
			{Href: s.base + page, Rel: "alternate", Type: "text/html"},
		},
		Author: atomAuth{Name: s.lib.Settings.Title.Get(lang)},
	}
	updated := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range cs {
		at, prefix, tag := c.UpdatedAt, "", ""
		var why *localized
		if note != nil {
			n := note(i)
			prefix, at, why, tag = n.Prefix, n.At, n.Why, n.Tag
		}
		if at.After(updated) {
			updated = at
		}
		if note == nil {
			f.cached = append(f.cached, s.cachedEntry(c, lang))
			f.listed = append(f.listed, c)
			continue
		}
		e := s.feedEntry(c, lang, at)
		if prefix != "" {
			e.Title.Body = prefix + " · " + e.Title.Body
			e.ID += "#" + at.Format("20060102T150405Z") + tag
		}
		if why != nil {
			e.Summary = atomText{Body: leadParagraph(why.Src), Lang: langIf(why.Lang, lang)}
		}
		f.Entries = append(f.Entries, e)
	}
	f.Updated = updated.Format(time.RFC3339)
	return f
}

// cachedEntry is the Atom of c's entry in lang, dated when c was last
// updated, as it is in every feed that lists c: the 766 topic feeds of a
// library of 1,000 cases list 12,152 entries, of 2,000 cases and languages.
func (s feeds) cachedEntry(c *cases.Case, lang string) []byte {
	i, listed := s.caseIndex[c]
	if !listed {
		e := s.feedEntry(c, lang, c.UpdatedAt)
		return appendEntry(nil, &e)
	}
	slot := &s.feedEntries[langIndex(lang)][i]
	if b := slot.Load(); b != nil {
		return *b
	}
	e := s.feedEntry(c, lang, c.UpdatedAt)
	b := appendEntry(nil, &e)
	slot.Store(&b) // two workers may both make it: the same bytes
	return b
}

// writeAtom writes the Atom document of f.
func writeAtom(w io.Writer, f *atomFeed) error {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	b.Write(appendFeed(b.AvailableBuffer(), f))
	_, err := w.Write(b.Bytes())
	return err
}

// appendFeed appends the Atom document of f, exactly as encoding/xml
// writes it after xml.Header with an indent of one space (TestAppendFeed
// compares the two on every feed of a library with hostile text). Through
// encoding/xml's reflection, 766 topic feeds took 0.29 s of CPU at 1,000
// cases, more than their pages' share of the build.
func appendFeed(b []byte, f *atomFeed) []byte {
	b = append(b, xml.Header...)
	b = append(b, `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="`...)
	b = append(appendXMLEscaped(b, f.Lang), `">`...)
	b = appendXMLText(b, 1, "title", atomText{Body: f.Title})
	b = appendXMLElement(b, 1, "id", f.ID)
	b = appendXMLElement(b, 1, "updated", f.Updated)
	for _, l := range f.Links {
		b = appendXMLLink(b, 1, l)
	}
	b = appendXMLAuthor(b, 1, f.Author)
	for i := range f.Entries {
		b = appendEntry(b, &f.Entries[i])
	}
	for _, e := range f.cached {
		b = append(b, e...)
	}
	return append(b, "\n</feed>"...)
}

// appendEntry appends an entry of a feed, on the lines after the last.
func appendEntry(b []byte, e *atomEntry) []byte {
	b = append(b, "\n <entry>"...)
	b = appendXMLText(b, 2, "title", e.Title)
	b = appendXMLElement(b, 2, "id", e.ID)
	b = appendXMLElement(b, 2, "updated", e.Updated)
	for _, l := range e.Links {
		b = appendXMLLink(b, 2, l)
	}
	b = appendXMLText(b, 2, "summary", e.Summary)
	if e.Author != nil {
		b = appendXMLAuthor(b, 2, *e.Author)
	}
	for _, c := range e.Category {
		b = appendXMLIndent(b, 2)
		b = appendXMLEscaped(append(b, `<category term="`...), c.Term)
		if c.Label != "" {
			b = appendXMLEscaped(append(b, `" label="`...), c.Label)
		}
		b = append(b, `"></category>`...)
	}
	b = append(b, "\n </entry>"...)
	return b
}

// appendXMLIndent starts a line at depth.
func appendXMLIndent(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ')
	}
	return b
}

// appendXMLElement appends <name>text</name> on a line of its own.
func appendXMLElement(b []byte, depth int, name, text string) []byte {
	b = append(appendXMLIndent(b, depth), '<')
	b = append(append(b, name...), '>')
	b = appendXMLEscaped(b, text)
	b = append(append(b, "</"...), name...)
	return append(b, '>')
}

// appendXMLText appends an atomText as the element name.
func appendXMLText(b []byte, depth int, name string, t atomText) []byte {
	b = append(appendXMLIndent(b, depth), '<')
	b = append(b, name...)
	if t.Type != "" {
		b = appendXMLEscaped(append(b, ` type="`...), t.Type)
		b = append(b, '"')
	}
	if t.Lang != "" {
		b = appendXMLEscaped(append(b, ` xml:lang="`...), t.Lang)
		b = append(b, '"')
	}
	b = appendXMLEscaped(append(b, '>'), t.Body)
	b = append(append(b, "</"...), name...)
	return append(b, '>')
}

func appendXMLLink(b []byte, depth int, l atomLink) []byte {
	b = appendXMLEscaped(append(appendXMLIndent(b, depth), `<link href="`...), l.Href)
	for _, a := range [...][2]string{{` rel="`, l.Rel}, {` type="`, l.Type}, {` hreflang="`, l.Lang}} {
		if a[1] != "" {
			b = appendXMLEscaped(append(append(b, '"'), a[0]...), a[1])
		}
	}
	return append(b, `"></link>`...)
}

func appendXMLAuthor(b []byte, depth int, a atomAuth) []byte {
	b = append(appendXMLIndent(b, depth), "<author>"...)
	b = appendXMLElement(b, depth+1, "name", a.Name)
	return append(appendXMLIndent(b, depth), "</author>"...)
}

// appendXMLEscaped appends s escaped as encoding/xml escapes text and
// attribute values: the five markup characters, tab and line ends as
// character references, and what XML cannot hold (control characters,
// U+FFFE, U+FFFF, invalid UTF-8) as U+FFFD.
func appendXMLEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\'' && c != '&' && c != '<' && c != '>' {
			i++
			continue
		}
		r, width := rune(c), 1
		if c >= utf8.RuneSelf {
			r, width = utf8.DecodeRuneInString(s[i:])
		}
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r < 0xFFFD || r >= 0x10000 && r <= 0x10FFFF || r == 0xFFFD && width > 1 {
				i += width
				continue
			}
			esc = "\uFFFD"
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		i += width
		last = i
	}
	return append(b, s[last:]...)
}

// feedEntry is a case as every feed lists it: its title, the first
// paragraph of its summary after the incident's date, its pages in both
// languages and its sources, its organisation and its main terms.
func (s feeds) feedEntry(c *cases.Case, lang string, at time.Time) atomEntry {
	title, tl := c.Title.In(lang)
	sum, sl := c.Summary.In(lang)
	sum = leadParagraph(sum)
	if c.Date.Known() {
		sum = l10n.Date(lang, c.Date.Year, c.Date.Month, c.Date.Day) + " · " + sum
	}
	e := atomEntry{
		Title: atomText{Body: c.ID + " · " + title, Lang: langIf(tl, lang)},
		ID:    s.base + urls.Case(lang, c.ID),
		// An entry is dated by when the case was written or last changed.
		// The incident's date is no date for a feed (it may be only a
		// year, or the date of the talk that told the story): the summary
		// starts with it instead.
		Updated: at.Format(time.RFC3339),
		Links: []atomLink{
			{Href: s.base + urls.Case(lang, c.ID), Rel: "alternate", Type: "text/html"},
			{Href: s.base + urls.Case(cases.Other(lang), c.ID), Rel: "alternate", Type: "text/html", Lang: cases.Other(lang)},
		},
		Summary: atomText{Body: sum, Lang: langIf(sl, lang)},
		Author:  &atomAuth{Name: c.OrgName().Get(lang)},
	}
	for _, src := range c.Sources {
		e.Links = append(e.Links, atomLink{Href: src.URL, Rel: "related", Type: "text/html"})
	}
	add := func(f *cases.Facet, ids ...string) {
		for _, id := range ids {
			if t, ok := s.lib.Vocab.Term(f.Field, id); ok {
				e.Category = append(e.Category, atomCat{Term: f.Name + "/" + id, Label: t.Label.Get(lang)})
			}
		}
	}
	add(cases.RootCauses, c.RootCause)
	add(cases.Components, c.Components...)
	add(cases.Domains, c.Domain...)
	return e
}

// leadParagraph is the text before the first blank line.
func leadParagraph(s string) string {
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func langIf(written, page string) string {
	if written != page {
		return written
	}
	return ""
}

// feeds writes the Atom feeds of the cases, one a language.
type feeds struct{ *Site }
