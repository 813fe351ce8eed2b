package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"incidentlib/internal/cases"
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
func (s *Site) feedCases() []*cases.Case {
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

func (s *Site) feed(j Job, w io.Writer) error {
	lang := j.Lang
	cs := s.feedCases()
	f := atomFeed{
		Lang:  lang,
		Title: s.lib.Site.Title.Get(lang) + " · " + s.strings.Get(lang, "feed.title"),
		ID:    s.base + feedPath(lang),
		Links: []atomLink{
			{Href: s.base + feedPath(lang), Rel: "self", Type: "application/atom+xml"},
			{Href: s.base + homePath(lang), Rel: "alternate", Type: "text/html"},
		},
		Author: atomAuth{Name: s.lib.Site.Title.Get(lang)},
	}
	// The feed's own time is that of its newest entry, not of the build, so
	// that two builds of the same content are identical.
	updated := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range cs {
		if c.UpdatedAt.After(updated) {
			updated = c.UpdatedAt
		}
		title, tl := c.Title.In(lang)
		sum, sl := c.Summary.In(lang)
		if i := strings.Index(sum, "\n\n"); i >= 0 {
			sum = sum[:i]
		}
		e := atomEntry{
			Title: atomText{Body: c.ID + " · " + title, Lang: langIf(tl, lang)},
			ID:    s.base + casePath(lang, c.ID),
			// An entry is dated by when the case was written or last
			// changed. The incident's date is no date for a feed: it may be
			// only a year, or the date of the talk that told the story.
			Updated: c.UpdatedAt.Format(time.RFC3339),
			Links: []atomLink{
				{Href: s.base + casePath(lang, c.ID), Rel: "alternate", Type: "text/html"},
				{Href: s.base + casePath(cases.Other(lang), c.ID), Rel: "alternate", Type: "text/html", Lang: cases.Other(lang)},
			},
			Summary: atomText{Body: sum, Lang: langIf(sl, lang)},
			Author:  &atomAuth{Name: c.Org},
		}
		add := func(field string, ids ...string) {
			for _, id := range ids {
				if t, ok := s.lib.Vocab.Term(field, id); ok {
					e.Category = append(e.Category, atomCat{Term: fieldFacet[field] + "/" + id, Label: t.Label.Get(lang)})
				}
			}
		}
		add("root_cause", c.RootCause)
		add("components", c.Components...)
		add("domain", c.Domain...)
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

func langIf(written, page string) string {
	if written != page {
		return written
	}
	return ""
}

// sitemapMax is the most URLs one sitemap file may list (the protocol's
// limit); a larger site gets a sitemap index and numbered parts.
const sitemapMax = 50000

// inSitemap tells the jobs a sitemap names: every HTML page of a language.
func inSitemap(j Job) bool { return j.Lang != "" && j.Kind != KindFeed }

// sitemapParts returns how many part files the sitemap needs; 1 means
// sitemap.xml is itself the list.
func (s *Site) sitemapParts() int {
	n := s.countPages()
	return max(1, (n+sitemapMax-1)/sitemapMax)
}

// sitemap writes sitemap.xml (part 0) or one numbered part. Every page is
// listed with its hreflang alternates; case pages carry lastmod from
// updated_at.
func (s *Site) sitemap(j Job, w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	parts := s.sitemapParts()
	if parts > 1 && j.Page == 0 {
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := 1; i <= parts; i++ {
			fmt.Fprintf(&b, "<sitemap><loc>%ssitemap-%d.xml</loc></sitemap>\n", s.base, i)
		}
		b.WriteString("</sitemapindex>\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	from, to := 0, math.MaxInt
	if parts > 1 {
		from = (j.Page - 1) * sitemapMax
		to = from + sitemapMax
	}
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	n := -1
	for _, j := range s.pageJobs() {
		if !inSitemap(j) {
			continue
		}
		if n++; n < from || n >= to {
			continue
		}
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(s.base+j.Path))
		b.WriteString("</loc>")
		if j.Kind == KindCase {
			fmt.Fprintf(&b, "<lastmod>%s</lastmod>", j.Case.UpdatedAt.Format(time.RFC3339))
		}
		for _, lang := range cases.Languages {
			p := j.Path
			if lang != j.Lang {
				p = twin(j.Path, j.Lang)
			}
			fmt.Fprintf(&b, `<xhtml:link rel="alternate" hreflang="%s" href="`, lang)
			xml.EscapeText(&b, []byte(s.base+p))
			b.WriteString(`"/>`)
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	_, err := w.Write(b.Bytes())
	return err
}
