package site

import (
	"html/template"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// pager links the pages of a list.
type pager struct {
	Page, Pages int
	Prev, Next  string
	Items       []pagerItem
	Label       string
	// PrevLabel and NextLabel name the arrows for screen readers.
	PrevLabel, NextLabel string
}

// pagerItem is one page number, or a gap when Href and Current are empty.
type pagerItem struct {
	N       int
	Href    string
	Current bool
	Gap     bool
}

func newPager(p *pageView, page, pages int, path func(int) string) pager {
	pg := pager{Page: page, Pages: pages, Label: l10n.PageNumber(p.Lang, page, pages), PrevLabel: p.T("pager.prev"), NextLabel: p.T("pager.next")}
	if page > 1 {
		pg.Prev = p.Link(path(page - 1))
	}
	if page < pages {
		pg.Next = p.Link(path(page + 1))
	}
	last := 0
	for n := 1; n <= pages; n++ {
		if n == 1 || n == pages || (n >= page-2 && n <= page+2) {
			if last != 0 && n > last+1 {
				pg.Items = append(pg.Items, pagerItem{Gap: true})
			}
			pg.Items = append(pg.Items, pagerItem{N: n, Href: p.Link(path(n)), Current: n == page})
			last = n
		}
	}
	return pg
}

// listView is the all-cases list and every topic page.
type listView struct {
	*pageView
	Heading   string
	Kicker    string // the facet's name above a topic's label
	Intro     template.HTML
	IntroLang string
	IntroMiss bool
	Desc      localized
	Count     string
	Range     string
	Cards     []template.HTML
	Pager     pager
	Stats     *statsView
	Dists     template.HTML // the times case by case, on a topic's first page (statsView.DistHTML)
	FacetLink string
	Filters   bool // show the facet filter form (all-cases list)
	Callout   calloutView
	Checklist *topicChecklistView // "What to check", on the first page of some facets' topics
}

func (s views) listView(j Job) (*listView, error) {
	lang := j.Lang
	var all []*cases.Case
	v := &listView{}
	var path func(int) string
	var p *pageView
	if j.Kind == KindCases {
		all = s.lib.Cases
		p = s.page(j, s.strings.Get(lang, "cases.title"))
		p.Section = "cases"
		p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(lang))}, {p.T("nav.cases"), ""}}
		v.Heading = p.Title
		v.Filters = true
		p.OwnSearch = true
		path = func(n int) string { return urls.Cases(lang, n) }
	} else {
		t := j.Topic
		all = t.Cases
		label := t.Label.Get(lang)
		p = s.page(j, label)
		p.Section = j.Facet
		p.Feed = markedLink(urls.TopicFeed(lang, j.Facet, t.ID), s.opt.Offline)
		facetName := cases.FacetByName(j.Facet).Label.Get(lang)
		p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(lang))}, {facetName, p.Link(urls.FacetIndex(lang, j.Facet))}, {label, ""}}
		v.Heading, v.Kicker = label, facetName
		v.FacetLink = p.Link(urls.FacetIndex(lang, j.Facet))
		if !t.Description.IsZero() {
			v.Desc = localize(t.Description, lang)
		}
		if intro, ok := s.lib.Topics[j.Facet][t.ID]; ok && j.Page <= 1 {
			src, written := intro.In(lang)
			_, body, _ := markup.Prose(src)
			v.Intro, v.IntroLang, v.IntroMiss = template.HTML(body), written, written != lang
		}
		if err := s.addTopicStats(p, j, v); err != nil {
			return nil, err
		}
		path = func(n int) string { return urls.Topic(lang, j.Facet, t.ID, n) }
	}
	v.pageView = p
	size := s.lib.Settings.PageSize
	from := (j.Page - 1) * size
	to := min(from+size, len(all))
	if j.Page > 1 {
		p.Title += " · " + l10n.PageNumber(lang, j.Page, s.pages(len(all)))
	}
	v.Count = l10n.Cases(lang, len(all))
	if len(all) > 0 {
		v.Range = l10n.Range(lang, from+1, to, len(all))
	}
	cards, err := cards{s.Site}.cardsHTML(lang, all[from:to])
	if err != nil {
		return nil, err
	}
	v.Cards = cards
	v.Pager = newPager(p, j.Page, s.pages(len(all)), path)
	v.Callout = s.callout(lang)
	if j.Kind == KindTopic {
		v.Checklist = prepares{s.Site}.topicChecklist(p, j)
		if f := prepareFacet(); f != nil && f.Name == j.Facet {
			v.Callout = prepares{s.Site}.prepareCallout(p, []string{j.Topic.ID}, "prepare.callout_stack")
		} else {
			v.Callout = prepares{s.Site}.prepareCallout(p, nil, "prepare.callout_stack")
		}
	}
	return v, nil
}

// addTopicStats gives v, a page of topic j.Topic, the topic's statistics,
// and on its first page the times case by case.
func (s views) addTopicStats(p *pageView, j Job, v *listView) error {
	t, lang := j.Topic, j.Lang
	var err error
	st := stats{s.Site}
	v.Stats = st.topicStats(t, langIndex(lang), func() *statsView {
		sv := p.statsView(t.Stats(), j.Facet, t.ID)
		if sv == nil {
			return nil
		}
		sv.Durations = p.durationCharts(t.Cases, "dist-")
		if err = st.renderStats(lang, sv); err != nil {
			return nil // kept for no page
		}
		return sv
	})
	if err != nil {
		return err
	}
	if v.Stats != nil && j.Page <= 1 {
		v.Dists = v.Stats.DistHTML
	}
	return nil
}

// topicJobs are the pages of the topics of facet name in lang, each
// topic's cases over as many pages as they fill; listView makes each.
func topicJobs(s *Site, f *library.FacetTopics, lang, name string) []Job {
	var jobs []Job
	for _, t := range f.Topics {
		jobs = append(jobs, Job{Kind: KindTopicFeed, Lang: lang, Path: urls.TopicFeed(lang, name, t.ID), Topic: t, Facet: name})
		for i := 1; i <= s.pages(len(t.Cases)); i++ {
			jobs = append(jobs, Job{Kind: KindTopic, Lang: lang, Path: urls.Topic(lang, name, t.ID, i), Topic: t, Facet: name, Page: i})
		}
	}
	return jobs
}
