package site

import (
	"bytes"
	"fmt"
	"html/template"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
	"strings"
)

// statsView is the statistics block of a list, ready to draw, and the
// sentence that closes the list.
type statsView struct {
	// HTML is the statistics block as the topic's pages show it, rendered
	// once per topic and language (template "stats" of list.html): with
	// marked links it is the same on all of them.
	HTML          template.HTML
	Heading       string // the block's heading, when not the topic pages' "In these cases"
	Closing       string
	Groups        []barGroup
	Years         barGroup
	MedianDetect  string
	MedianResolve string
	DetectNote    string
	ResolveNote   string
	// Durations draw the times to detect and to resolve case by case
	// (durations.go); the medians above are their summary. DistHTML is
	// them rendered (template "dists"), which only a topic's first page
	// shows: they are the size of the set.
	Durations []durationChart
	DistHTML  template.HTML
}

// barGroup is one small bar chart.
type barGroup struct {
	Title  string
	Bars   []bar
	Height int
	Alt    string
}

// bar is one bar: Width is in percent of the largest bar.
type bar struct {
	Label string
	Href  string
	Count int
	Text  string
	Width int
	Y     int
}

// closing is the sentence under a topic's cases, as seed 002 ends its list:
// the components that at least two of the cases name, most common first,
// leaving out the topic's own term. It is empty when no component is that
// common.
func closing(s *Site, p *pageView, st *library.Stats, facet, term string) string {
	var names []string
	for _, tc := range st.Top[cases.Components.Name] {
		if tc.Count < 2 || (facet == cases.Components.Name && tc.ID == term) {
			continue
		}
		names = append(names, p.term(cases.Components, tc.ID).Label)
	}
	key := "list.closing"
	switch len(names) {
	case 0:
		return ""
	case 1:
		key = "list.closing_one"
	}
	return fmt.Sprintf(p.T(key), l10n.Count(p.Lang, st.Total), l10n.List(p.Lang, names))
}

func (p *pageView) statsView(st *library.Stats, facet, term string) *statsView {
	if st == nil || st.Total == 0 {
		return nil
	}
	lang := p.Lang
	v := &statsView{}
	mk := func(title string, f *cases.Facet, tcs []library.TermCount) barGroup {
		g := barGroup{Title: title}
		maxN := 1
		for _, tc := range tcs {
			maxN = max(maxN, tc.Count)
		}
		var alt []string
		for i, tc := range tcs {
			b := bar{Count: tc.Count, Text: l10n.Count(lang, tc.Count), Width: tc.Count * 100 / maxN, Y: i * 24}
			b.Label, b.Href = tc.ID, p.combined(facet, term, f, tc.ID)
			if t := p.s.topics[f.Name].Topic(tc.ID); t != nil && t.Label.Get(lang) != "" {
				b.Label = t.Label.Get(lang)
			}
			alt = append(alt, b.Label+" "+b.Text)
			g.Bars = append(g.Bars, b)
		}
		g.Height = len(g.Bars) * 24
		g.Alt = title + ": " + strings.Join(alt, ", ")
		return g
	}
	// A topic's own facet is left out: every case of it has the term.
	for _, f := range cases.StatsFacets() {
		if tcs := st.Top[f.Name]; len(tcs) > 0 && f.Name != facet {
			v.Groups = append(v.Groups, mk(f.Top.Get(lang), f, tcs))
		}
	}
	if facet != cases.Years.Name {
		v.Years = mk(p.T("stats.years"), cases.Years, st.Years)
	}
	v.Closing = closing(p.s, p, st, facet, term)
	if st.MedianDetect != nil {
		v.MedianDetect = l10n.Duration(lang, *st.MedianDetect)
	}
	if st.MedianResolve != nil {
		v.MedianResolve = l10n.Duration(lang, *st.MedianResolve)
	}
	v.DetectNote = fmt.Sprintf(p.T("stats.known_of"), l10n.Number(st.KnownDetect), l10n.Number(st.Total))
	v.ResolveNote = fmt.Sprintf(p.T("stats.known_of"), l10n.Number(st.KnownResolve), l10n.Number(st.Total))
	return v
}

// statsBlock is what template "stats" renders: a topic's statistics in the
// language of the page, whose UI strings it shows.
type statsBlock struct {
	*pageView
	Stats *statsView
}

// renderStats renders the statistics block of v into v.HTML, in lang.
func (s stats) renderStats(lang string, v *statsView) error {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	if err := s.theme.execute(b, "list", "stats", statsBlock{&pageView{Lang: lang, s: s.Site}, v}); err != nil {
		return err
	}
	v.HTML = template.HTML(b.String())
	if len(v.Durations) == 0 {
		return nil
	}
	b.Reset()
	if err := s.theme.execute(b, "list", "dists", statsBlock{&pageView{Lang: lang, s: s.Site}, v}); err != nil {
		return err
	}
	v.DistHTML = template.HTML(b.String())
	return nil
}

// combined links a bar of a topic's statistics to the search page filtered
// by both terms (ingress × misconfiguration), where both facets are search
// filters; to the bar's own topic otherwise (a list's statistics, a facet
// the search does not filter by).
func (p *pageView) combined(facet, term string, f *cases.Facet, id string) string {
	if tf := cases.FacetByName(facet); tf == nil || term == "" || !tf.Shows(cases.InSearch) || !f.Shows(cases.InSearch) {
		return p.Link(urls.Topic(p.Lang, f.Name, id, 1))
	}
	return p.Link(urls.Search(p.Lang)) + urls.Query(urls.Param{Key: facet, Values: []string{term}}, urls.Param{Key: f.Name, Values: []string{id}})
}

// stats makes the statistics of topics and renders their charts.
type stats struct{ *Site }
