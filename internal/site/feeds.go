package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"incidentlib/internal/cases"
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
		ID:    s.base + urls.Feed(lang),
		Links: []atomLink{
			{Href: s.base + urls.Feed(lang), Rel: "self", Type: "application/atom+xml"},
			{Href: s.base + urls.Home(lang), Rel: "alternate", Type: "text/html"},
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
			ID:    s.base + urls.Case(lang, c.ID),
			// An entry is dated by when the case was written or last
			// changed. The incident's date is no date for a feed: it may be
			// only a year, or the date of the talk that told the story.
			Updated: c.UpdatedAt.Format(time.RFC3339),
			Links: []atomLink{
				{Href: s.base + urls.Case(lang, c.ID), Rel: "alternate", Type: "text/html"},
				{Href: s.base + urls.Case(cases.Other(lang), c.ID), Rel: "alternate", Type: "text/html", Lang: cases.Other(lang)},
			},
			Summary: atomText{Body: sum, Lang: langIf(sl, lang)},
			Author:  &atomAuth{Name: c.Org},
		}
		add := func(field string, ids ...string) {
			for _, id := range ids {
				if t, ok := s.lib.Vocab.Term(field, id); ok {
					e.Category = append(e.Category, atomCat{Term: urls.FacetOfField(field) + "/" + id, Label: t.Label.Get(lang)})
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

// The most one sitemap file may hold, by the sitemap protocol: a larger
// site gets a sitemap index (sitemap.xml) and numbered parts.
const (
	sitemapMaxURLs  = 50000
	sitemapMaxBytes = 50 << 20 // uncompressed
)

// inSitemap tells the jobs a sitemap names: every HTML page of a language.
func inSitemap(j Job) bool { return j.Lang != "" && j.Kind != KindFeed }

// sitemapParts returns where each part of the sitemap starts in the page
// jobs, plus the end: len(parts)-1 parts. The split is made once, by the
// URLs each part really lists and the bytes they take, so that no part
// breaks either limit however the pages are made up.
func (s *Site) sitemapParts() []int {
	s.sitemapOnce.Do(func() {
		jobs := s.pageJobs()
		var b bytes.Buffer
		s.sitemapSplit = splitSitemap(len(jobs), func(i int) int {
			if !inSitemap(jobs[i]) {
				return -1
			}
			b.Reset()
			s.sitemapURL(&b, jobs[i])
			return b.Len()
		}, sitemapMaxURLs, sitemapMaxBytes-len(sitemapHead)-len(sitemapTail))
	})
	return s.sitemapSplit
}

// splitSitemap cuts n jobs into runs that list at most maxURLs URLs of at
// most maxBytes bytes together; size gives a job's bytes, or -1 for a job
// that is not listed. It returns the start of each run and then n.
func splitSitemap(n int, size func(i int) int, maxURLs, maxBytes int) []int {
	parts := []int{0}
	urls, bytes := 0, 0
	for i := 0; i < n; i++ {
		sz := size(i)
		if sz < 0 {
			continue
		}
		if urls > 0 && (urls+1 > maxURLs || bytes+sz > maxBytes) {
			parts = append(parts, i)
			urls, bytes = 0, 0
		}
		urls++
		bytes += sz
	}
	return append(parts, n)
}

const (
	sitemapHead = xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n"
	sitemapTail = "</urlset>\n"
)

// sitemap writes sitemap.xml (part 0) or one numbered part. Every page is
// listed with its hreflang alternates; case pages carry lastmod from
// updated_at. When there is more than one part, sitemap.xml is the index
// of the parts.
func (s *Site) sitemap(j Job, w io.Writer) error {
	var b bytes.Buffer
	parts := s.sitemapParts()
	n := len(parts) - 1
	if n > 1 && j.Page == 0 {
		b.WriteString(xml.Header)
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := 1; i <= n; i++ {
			b.WriteString("<sitemap><loc>")
			xml.EscapeText(&b, []byte(s.base+urls.SitemapPart(i)))
			b.WriteString("</loc></sitemap>\n")
		}
		b.WriteString("</sitemapindex>\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	from, to := parts[0], parts[n]
	if n > 1 {
		if j.Page < 1 || j.Page > n {
			return fmt.Errorf("no sitemap part %d of %d", j.Page, n)
		}
		from, to = parts[j.Page-1], parts[j.Page]
	}
	b.WriteString(sitemapHead)
	for _, j := range s.pageJobs()[from:to] {
		if inSitemap(j) {
			s.sitemapURL(&b, j)
		}
	}
	b.WriteString(sitemapTail)
	_, err := w.Write(b.Bytes())
	return err
}

// sitemapURL writes one page's entry.
func (s *Site) sitemapURL(b *bytes.Buffer, j Job) {
	b.WriteString("<url><loc>")
	xml.EscapeText(b, []byte(s.base+j.Path))
	b.WriteString("</loc>")
	if j.Kind == KindCase {
		b.WriteString("<lastmod>")
		b.WriteString(j.Case.UpdatedAt.Format(time.RFC3339))
		b.WriteString("</lastmod>")
	}
	for _, lang := range cases.Languages {
		p := j.Path
		if lang != j.Lang {
			p = urls.Twin(j.Path, j.Lang)
		}
		b.WriteString(`<xhtml:link rel="alternate" hreflang="`)
		b.WriteString(lang)
		b.WriteString(`" href="`)
		xml.EscapeText(b, []byte(s.base+p))
		b.WriteString(`"/>`)
	}
	b.WriteString("</url>\n")
}
