package site

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// Kind is what a job produces.
type Kind uint8

// Job is one file of the site to render.
type Job struct {
	Kind  Kind
	Lang  string
	Path  string // site path; a folder path means <path>index.html
	Case  *cases.Case
	Topic *library.Topic
	Facet string
	Page  int // 1-based page of a paginated list
	Slug  string
	Asset string
}

// File returns where the job's output goes inside the output folder.
func (j Job) File() string {
	return urls.File(j.Path)
}

// Twin returns the job of a case page's Markdown twin, which Jobs does not
// list: a build renders it together with its page (RenderCase), from the
// same view, and serve renders it on its own when it is asked for.
func (j Job) Twin() (Job, bool) {
	if j.Kind != KindCase {
		return Job{}, false
	}
	return Job{Kind: KindTwin, Lang: j.Lang, Path: urls.Markdown(j.Lang, j.Case.ID), Case: j.Case}, true
}

// pages returns the number of pages a list of n cases needs.
func (s *Site) pages(n int) int {
	size := s.lib.Settings.PageSize
	if n == 0 {
		return 1
	}
	return (n + size - 1) / size
}

// Jobs lists every file of the site, in a fixed order.
func (s *Site) Jobs() []Job {
	var jobs []Job
	add := func(j Job) { jobs = append(jobs, j) }
	add(Job{Kind: KindRoot, Path: ""})
	add(Job{Kind: KindNotFound, Path: urls.NotFound})
	for _, lang := range cases.Languages {
		add(Job{Kind: KindNotFound, Lang: lang, Path: urls.NotFoundIn(lang)})
	}
	add(Job{Kind: KindSitemap, Path: urls.Sitemap})
	if parts := len(sitemaps{s}.sitemapParts()) - 1; parts > 1 {
		for i := 1; i <= parts; i++ {
			add(Job{Kind: KindSitemap, Path: urls.SitemapPart(i), Page: i})
		}
	}
	add(Job{Kind: KindRobots, Path: urls.Robots})
	for _, a := range s.sortedAssets() {
		add(Job{Kind: KindAsset, Path: a.Path, Asset: a.Path})
	}
	jobs = append(jobs, s.pageJobs()...)
	return append(jobs, prepares{s}.prepareDataJobs()...)
}

// pageJobs lists the pages of both languages.
func (s *Site) pageJobs() []Job {
	s.pageJobsOnce.Do(func() { s.pageJobList = s.listPageJobs() })
	return s.pageJobList
}

func (s *Site) listPageJobs() []Job {
	var jobs []Job
	add := func(j Job) { jobs = append(jobs, j) }
	for _, lang := range cases.Languages {
		add(Job{Kind: KindHome, Lang: lang, Path: urls.Home(lang)})
		add(Job{Kind: KindSearch, Lang: lang, Path: urls.Search(lang)})
		add(Job{Kind: KindPrepare, Lang: lang, Path: urls.Prepare(lang)})
		add(Job{Kind: KindAPIDoc, Lang: lang, Path: urls.APIDoc(lang)})
		add(Job{Kind: KindFeed, Lang: lang, Path: urls.Feed(lang)})
		add(Job{Kind: KindChanges, Lang: lang, Path: urls.Changes(lang)})
		for _, p := range s.lib.Prose {
			add(Job{Kind: KindProse, Lang: lang, Path: urls.Prose(lang, p.Slug), Slug: p.Slug})
		}
		for i := 1; i <= s.pages(len(s.lib.Cases)); i++ {
			add(Job{Kind: KindCases, Lang: lang, Path: urls.Cases(lang, i), Page: i})
		}
		for _, c := range s.lib.Cases {
			add(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
		}
		// A withdrawn case keeps its page, which says why (withdrawn.go).
		for _, c := range s.lib.Withdrawn {
			add(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
		}
		for _, name := range cases.FacetNames() {
			f := s.topics[name]
			add(Job{Kind: KindFacet, Lang: lang, Path: urls.FacetIndex(lang, name), Facet: name})
			jobs = append(jobs, topicJobs(s, f, lang, name)...)
		}
	}
	return jobs
}
