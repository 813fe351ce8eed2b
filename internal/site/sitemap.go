package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"incidentlib/internal/urls"
	"io"
	"time"
)

// inSitemap tells the jobs a sitemap names: every HTML page of a language.
func inSitemap(j Job) bool {
	return j.Lang != "" && j.Kind != KindFeed && j.Kind != KindTopicFeed && j.Kind != KindChanges
}

// sitemapParts returns where each part of the sitemap starts in the page
// jobs, plus the end: len(parts)-1 parts. The split is made once, by the
// URLs each part really lists and the bytes they take, so that no part
// breaks either limit however the pages are made up.
func (s sitemaps) sitemapParts() []int {
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

// sitemap writes sitemap.xml (part 0) or one numbered part. Every page is
// listed with its hreflang alternates; case pages carry lastmod from
// updated_at. When there is more than one part, sitemap.xml is the index
// of the parts.
func (s sitemaps) sitemap(j Job, w io.Writer) error {
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
func (s sitemaps) sitemapURL(b *bytes.Buffer, j Job) {
	b.WriteString("<url><loc>")
	escapeXML(b, s.base)
	escapeXML(b, j.Path)
	b.WriteString("</loc>")
	if j.Kind == KindCase {
		b.WriteString("<lastmod>")
		b.WriteString(j.Case.UpdatedAt.Format(time.RFC3339))
		b.WriteString("</lastmod>")
	}
	for _, a := range s.alternates(j) {
		b.WriteString(`<xhtml:link rel="alternate" hreflang="`)
		b.WriteString(a.Lang)
		b.WriteString(`" href="`)
		escapeXML(b, a.Href)
		b.WriteString(`"/>`)
	}
	b.WriteString("</url>\n")
}

// escapeXML writes s as xml.EscapeText does. URLs are printable ASCII
// with none of the characters it escapes, and are written as they are;
// anything else goes through xml.EscapeText. A URL that is written in
// two pieces (base and path) escapes alike, since every escape is of one
// character and the pieces are split between characters.
func escapeXML(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '<' || c == '>' || c == '&' || c == '\'' || c == '"' {
			xml.EscapeText(b, []byte(s))
			return
		}
	}
	b.WriteString(s)
}

// The most one sitemap file may hold, by the sitemap protocol: a larger
// site gets a sitemap index (sitemap.xml) and numbered parts.
const (
	sitemapMaxURLs  = 50000
	sitemapMaxBytes = 50 << 20 // uncompressed
)

const (
	sitemapHead = xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n"
	sitemapTail = "</urlset>\n"
)

// sitemaps writes the sitemap, in parts when it is large.
type sitemaps struct{ *Site }
