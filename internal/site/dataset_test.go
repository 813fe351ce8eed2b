package site

import (
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/search"
	"incidentlib/internal/urls"
)

// TestWithdrawnStays holds a withdrawn case (IL-0037 of the library) to
// OSV's rule: its page stays at its address and says when and why, while
// it leaves the case lists, every topic, the search index and every
// case's related cases.
func TestWithdrawnStays(t *testing.T) {
	lib := loadContent(t, repotest.ContentMapFS(t))
	const id = "IL-0037"
	c := lib.ByID[id]
	if c == nil || c.Withdrawn == nil || len(lib.Withdrawn) != 1 {
		t.Fatalf("%s is not the library's one withdrawn case", id)
	}
	s := newSite(t, lib, false)
	var page bool
	for _, j := range s.Jobs() {
		text := ""
		switch j.Kind {
		case KindCase:
			if j.Case == c {
				page = true
				text = render(t, s, j)
				for _, want := range []string{`class="withdrawn"`, `datetime="2026-12-01"`, strings.Split(c.Withdrawn.Reason.Get(j.Lang), ".")[0], s.strings.Get(j.Lang, "withdrawn.none")} {
					if !strings.Contains(text, want) {
						t.Errorf("%s: the page does not say %q", j.Path, want)
					}
				}
				continue
			}
			for _, g := range s.model.Related(j.Case.ID) {
				for _, l := range g.Links {
					if l.ID == id {
						t.Errorf("%s is related to the withdrawn %s", j.Case.ID, id)
					}
				}
			}
		case KindCases, KindTopic, KindHome, KindTopicFeed, KindFeed:
			text = render(t, s, j)
			if strings.Contains(text, "/"+id+"/") {
				t.Errorf("%s lists the withdrawn %s", j.Path, id)
			}
		}
	}
	if !page {
		t.Errorf("no page for %s", id)
	}
	for _, d := range search.Docs(lib) {
		if d.ID == id {
			t.Errorf("the search index holds %s", id)
		}
	}
	for _, ft := range s.topics {
		for _, tp := range ft.Topics {
			for _, tc := range tp.Cases {
				if tc == c {
					t.Errorf("topic %s/%s holds %s", ft.Name, tp.ID, id)
				}
			}
		}
	}
}

// atom is what TestFeedsAreAtom reads of a feed: RFC 4287's required
// elements of the feed and of each entry.
type atom struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Author  []struct {
		Name string `xml:"name"`
	} `xml:"author"`
	Links []struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
	} `xml:"link"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Summary string `xml:"summary"`
		Links   []struct {
			Href string `xml:"href,attr"`
			Rel  string `xml:"rel,attr"`
		} `xml:"link"`
	} `xml:"entry"`
}

// TestFeedsAreAtom reads every topic feed and both changes feeds as
// Atom: a feed has an id, a title, an RFC 3339 updated, an author and a
// self link; every entry an id, a title, an updated, a summary and an
// alternate link; ids are unique. A topic feed holds its topic's cases
// (up to feedSize) with their sources, and each topic page links its feed.
func TestFeedsAreAtom(t *testing.T) {
	lib := loadContent(t, repotest.ContentMapFS(t))
	s := newSite(t, lib, false)
	feeds := 0
	for _, j := range s.Jobs() {
		if j.Kind != KindTopicFeed && j.Kind != KindChanges {
			continue
		}
		feeds++
		data := render(t, s, j)
		var f atom
		dec := xml.NewDecoder(strings.NewReader(data))
		dec.Strict = true
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", j.Path, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Errorf("%s: more after the feed: %v", j.Path, err)
		}
		self := false
		for _, l := range f.Links {
			self = self || l.Rel == "self" && l.Href == s.URL(j.Path)
		}
		if f.ID == "" || f.Title == "" || !rfc3339(f.Updated) || len(f.Author) == 0 || !self {
			t.Errorf("%s: the feed lacks an element Atom requires: %+v", j.Path, f)
		}
		ids := map[string]bool{}
		for _, e := range f.Entries {
			alt := false
			for _, l := range e.Links {
				alt = alt || l.Rel == "alternate"
			}
			if e.ID == "" || ids[e.ID] || e.Title == "" || !rfc3339(e.Updated) || e.Summary == "" || !alt {
				t.Errorf("%s: entry %q lacks an element or repeats an id", j.Path, e.ID)
			}
			ids[e.ID] = true
		}
		if j.Kind == KindTopicFeed {
			if want := min(len(j.Topic.Cases), feedSize); len(f.Entries) != want {
				t.Errorf("%s: %d entries, want %d", j.Path, len(f.Entries), want)
			}
			page := render(t, s, Job{Kind: KindTopic, Lang: j.Lang, Path: urls.Topic(j.Lang, j.Facet, j.Topic.ID, 1), Topic: j.Topic, Facet: j.Facet, Page: 1})
			if !strings.Contains(page, `<link rel="alternate" type="application/atom+xml" href="`+linkFrom(urls.Topic(j.Lang, j.Facet, j.Topic.ID, 1), j.Path)+`">`) {
				t.Errorf("%s: the topic's page does not link its feed", j.Path)
			}
		}
	}
	if want := 2*countTopics(s) + 2; feeds != want {
		t.Errorf("%d feeds, want %d", feeds, want)
	}
}

func countTopics(s *Site) int {
	n := 0
	for _, ft := range s.topics {
		n += len(ft.Topics)
	}
	return n
}

func rfc3339(v string) bool {
	_, err := time.Parse(time.RFC3339, v)
	return err == nil
}

// TestDurationCharts reads the charts of every topic's first page and of
// the home pages as XML: each is well formed, labelled by a caption of
// the page, and has one mark for each case of the set whose time is
// known, each a link to that case's page with a name a screen reader
// reads.
func TestDurationCharts(t *testing.T) {
	lib := loadContent(t, repotest.ContentMapFS(t))
	s := newSite(t, lib, false)
	svgRe := regexp.MustCompile(`(?s)<svg class="dist".*?</svg>`)
	checked := 0
	for _, j := range s.Jobs() {
		var set []*cases.Case
		switch {
		case j.Kind == KindTopic && j.Page == 1:
			set = j.Topic.Cases
		case j.Kind == KindHome:
			set = lib.Cases
		default:
			continue
		}
		page := render(t, s, j)
		svgs := svgRe.FindAllString(page, -1)
		if len(svgs) == 0 {
			continue // no case of the set knows either time
		}
		checked++
		known := map[string]int{}
		for _, c := range set {
			if c.Timeline.DetectedAfter != nil {
				known["detect"]++
			}
			if c.Timeline.ResolvedAfter != nil {
				known["resolve"]++
			}
		}
		for _, svg := range svgs {
			var doc struct {
				Labelled string `xml:"aria-labelledby,attr"`
				Role     string `xml:"role,attr"`
				Links    []struct {
					Href  string `xml:"href,attr"`
					Label string `xml:"aria-label,attr"`
				} `xml:"a"`
			}
			dec := xml.NewDecoder(strings.NewReader(svg))
			dec.Strict = true
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("%s: a chart is not well-formed: %v", j.Path, err)
			}
			if doc.Role != "group" || !strings.Contains(page, `id="`+doc.Labelled+`"`) {
				t.Errorf("%s: chart labelled by %q, which the page lacks", j.Path, doc.Labelled)
			}
			span := strings.TrimPrefix(doc.Labelled, "dist-")
			want := known[span]
			if want > distLinked {
				want = 0 // drawn as columns
			}
			if len(doc.Links) != want {
				t.Errorf("%s: %s chart has %d marks, want %d", j.Path, span, len(doc.Links), want)
			}
			for _, l := range doc.Links {
				id, _, _ := strings.Cut(l.Label, ":")
				if leadsTo(j.Path, l.Href) != urls.Case(j.Lang, id) || lib.ByID[id] == nil {
					t.Errorf("%s: mark %q links %s", j.Path, l.Label, l.Href)
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d pages with charts", checked)
	}
}
