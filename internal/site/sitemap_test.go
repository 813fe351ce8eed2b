package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

func TestSplitSitemap(t *testing.T) {
	for _, tt := range []struct {
		sizes            []int // -1: not listed
		maxURLs, maxByte int
		want             []int
	}{
		{nil, 2, 100, []int{0, 0}},
		{[]int{10, 10, 10}, 5, 100, []int{0, 3}},
		{[]int{10, 10, 10, 10, 10}, 2, 100, []int{0, 2, 4, 5}},
		// Jobs that are not listed do not count.
		{[]int{10, -1, -1, 10, -1, 10}, 2, 100, []int{0, 5, 6}},
		// Bytes: a part may fill the limit exactly, never pass it.
		{[]int{40, 60, 1, 99, 100}, 10, 100, []int{0, 2, 4, 5}},
		// A single entry larger than the limit still gets a part.
		{[]int{150, 10}, 10, 100, []int{0, 1, 2}},
	} {
		got := splitSitemap(len(tt.sizes), func(i int) int { return tt.sizes[i] }, tt.maxURLs, tt.maxByte)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitSitemap(%v, %d URLs, %d bytes) = %v, want %v", tt.sizes, tt.maxURLs, tt.maxByte, got, tt.want)
		}
	}
}

type sitemapFile struct {
	XMLName xml.Name
	URLs    []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
	Parts []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

// TestSitemapAtScale lists more than twice the protocol's 50,000 URLs: the
// sitemap becomes an index of parts, none over the limits, that together
// list every page exactly once and nothing else. No page is rendered.
func TestSitemapAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: lists 120,000 URLs")
	}
	const base = "https://example.org/lib/"
	s := &Site{base: base}
	c := &cases.Case{ID: "IL-0001", UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var jobs []Job
	want := map[string]bool{}
	for _, lang := range cases.Languages {
		jobs = append(jobs, Job{Kind: KindFeed, Lang: lang, Path: urls.Feed(lang)})
		for i := 0; i < 60001; i++ {
			j := Job{Kind: KindTopic, Lang: lang, Path: urls.Topic(lang, "components", fmt.Sprintf("t%d", i), 1)}
			if i%1000 == 0 {
				j = Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, fmt.Sprintf("IL-%06d", i)), Case: c}
			}
			jobs = append(jobs, j)
			want[base+j.Path] = true
		}
	}
	s.pageJobsOnce.Do(func() { s.pageJobList = jobs })

	files := map[string][]byte{}
	for _, j := range s.Jobs() {
		if j.Kind != KindSitemap {
			continue
		}
		b, typ, err := s.RenderBytes(j)
		if err != nil || typ != "application/xml" {
			t.Fatalf("%s: %v (%s)", j.Path, err, typ)
		}
		files[j.Path] = b
	}
	var index sitemapFile
	if err := xml.Unmarshal(files[urls.Sitemap], &index); err != nil {
		t.Fatal(err)
	}
	if index.XMLName.Local != "sitemapindex" || len(index.URLs) > 0 {
		t.Fatalf("%s is a %s with %d URLs, want an index", urls.Sitemap, index.XMLName.Local, len(index.URLs))
	}
	if len(index.Parts) != 3 || len(files) != 4 {
		t.Fatalf("the index names %d parts, %d sitemap files written; want 3 and 4", len(index.Parts), len(files))
	}
	seen := map[string]bool{}
	for i, p := range index.Parts {
		name := urls.SitemapPart(i + 1)
		if p.Loc != base+name {
			t.Errorf("part %d at %s, want %s", i+1, p.Loc, base+name)
		}
		var part sitemapFile
		if err := xml.Unmarshal(files[name], &part); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := len(part.URLs); n == 0 || n > sitemapMaxURLs {
			t.Errorf("%s lists %d URLs", name, n)
		}
		if n := len(files[name]); n > sitemapMaxBytes {
			t.Errorf("%s has %d bytes", name, n)
		}
		for _, u := range part.URLs {
			if seen[u.Loc] || !want[u.Loc] {
				t.Errorf("%s lists %s: seen before %v, a page %v", name, u.Loc, seen[u.Loc], want[u.Loc])
			}
			seen[u.Loc] = true
		}
	}
	if len(seen) != len(want) {
		t.Errorf("the parts list %d pages of %d", len(seen), len(want))
	}
	if !bytes.Contains(files[urls.SitemapPart(1)], []byte("<lastmod>2026-01-02T03:04:05Z</lastmod>")) {
		t.Error("case pages lost their lastmod")
	}
}

// TestEscapeXML holds escapeXML to xml.EscapeText on strings made at random
// of URL characters, those it escapes, control characters, Hangul and
// invalid UTF-8.
func TestEscapeXML(t *testing.T) {
	pieces := []string{"https://", "x.example", "/en/cases/IL-0001/", "~", "%20", "<", ">", "&", "'", `"`, "\t", "\n", "\r", "\x01", "\x7f", "한", "\xff", " "}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var in strings.Builder
		for range r.IntN(8) {
			in.WriteString(pieces[r.IntN(len(pieces))])
		}
		var got, want bytes.Buffer
		escapeXML(&got, in.String())
		xml.EscapeText(&want, []byte(in.String()))
		if got.String() != want.String() {
			t.Fatalf("escapeXML(%q) = %q, want %q", in.String(), got.String(), want.String())
		}
	}
}
