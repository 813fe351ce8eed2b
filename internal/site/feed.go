package site

import (
	"encoding/xml"
	"io"
	"sort"
	"strings"
	"time"

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

func (s feeds) feed(j Job, w io.Writer) error {
	lang := j.Lang
	return s.writeFeed(w, lang, s.strings.Get(lang, "feed.title"), urls.Feed(lang), urls.Home(lang), s.feedCases(), nil)
}

// writeFeed writes an Atom feed of cs in lang: its id and self link are
// the address of self, its page that of page. note, when set, says what
// happened to the i-th case of cs (the changes feed, where a case may come
// more than once); an entry's title starts with it.
// A feed's time is that of its newest entry, not of the build, so that
// two builds of the same content are identical.
func (s feeds) writeFeed(w io.Writer, lang, title, self, page string, cs []*cases.Case, note func(i int) feedNote) error {
	f := atomFeed{
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
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	return enc.Encode(f)
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
