package serve

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// The preview finds the job of a requested file in an index of every file
// of the site. Listing the site's jobs and indexing them takes hundreds of
// milliseconds at 10,000 cases, so a saved edit does not do it again when
// the site has the same files as before, which is what almost every edit
// leaves: the model of the edit keeps the index of the model before it, and
// a job found there has its case and topic taken from the current library
// (by id) when it is served. An edit that changes which topics a case is
// in changes only the entries of those topics; one that adds, removes or
// renames a case, a prose page or a static file indexes the site again.
// The parts of a split sitemap are left out of the index (counting them
// takes the size of every page's entry) and found on request.

// fileIndex maps output files to the jobs that make them, as of the model
// that made each entry: base is shared between models and never changed;
// over and gone are the entries an edit added or took away since.
type fileIndex struct {
	base map[string]site.Job
	over map[string]site.Job
	gone map[string]bool
}

func (x *fileIndex) lookup(file string) (site.Job, bool) {
	if j, ok := x.over[file]; ok {
		return j, true
	}
	if x.gone[file] {
		return site.Job{}, false
	}
	j, ok := x.base[file]
	return j, ok
}

// newIndex indexes every file of st but the parts of a split sitemap.
func newIndex(st *site.Site) *fileIndex {
	jobs := st.Jobs()
	files := make(map[string]site.Job, 2*len(jobs))
	for _, j := range jobs {
		if j.Kind == site.KindSitemap && j.Page > 0 {
			continue
		}
		files[j.File()] = j
		if t, ok := j.Twin(); ok {
			files[t.File()] = t
		}
	}
	return &fileIndex{base: files}
}

// nextIndex returns the index of next, a model made after prev: prev's,
// when the two sites have the same files, or prev's with the entries of
// the topics that changed, or a new one.
func nextIndex(prev, next *model) *fileIndex {
	if prev == nil || prev.index == nil || prev.site == nil || !sameFiles(prev, next) {
		return newIndex(next.site)
	}
	over, gone := topicChanges(prev.lib, next.lib)
	if len(over) == 0 && len(gone) == 0 {
		return prev.index
	}
	x := &fileIndex{base: prev.index.base, over: prev.index.over, gone: prev.index.gone}
	if len(x.over)+len(x.gone)+len(over)+len(gone) > len(x.base)/8 {
		return newIndex(next.site) // many edits of topics: index afresh
	}
	x.over, x.gone = clone(x.over), clone(x.gone)
	for f := range gone {
		delete(x.over, f)
		x.gone[f] = true
	}
	for f, j := range over {
		delete(x.gone, f)
		x.over[f] = j
	}
	return x
}

func clone[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sameFiles reports whether the sites of a and b have the same files,
// topic pages aside (topicChanges): the same theme and page size, the same
// prose pages, and the same cases, listed and withdrawn. It compares ids,
// not content: at 10,000 cases it takes microseconds.
func sameFiles(a, b *model) bool {
	x, y := a.lib.Lib, b.lib.Lib
	if a.theme != b.theme || x.Settings.PageSize != y.Settings.PageSize ||
		len(x.Prose) != len(y.Prose) || !sameIDs(x.Cases, y.Cases) || !sameIDs(x.Withdrawn, y.Withdrawn) {
		return false
	}
	for i := range x.Prose {
		if x.Prose[i].Slug != y.Prose[i].Slug {
			return false
		}
	}
	return true
}

func sameIDs(a, b []*cases.Case) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

// topicChanges returns the files of topic pages and feeds that b's site
// has and a's has not (with their jobs), and those a's has and b's not.
// A topic with the same id and number of pages has the same files.
func topicChanges(a, b *library.Library) (over map[string]site.Job, gone map[string]bool) {
	at, bt := a.Topics(), b.Topics()
	size := b.Lib.Settings.PageSize
	for _, name := range cases.FacetNames() {
		fa, fb := at[name], bt[name]
		if slices.EqualFunc(fa.Topics, fb.Topics, func(x, y *library.Topic) bool {
			return x == y || (x.ID == y.ID && pages(len(x.Cases), size) == pages(len(y.Cases), size))
		}) {
			continue
		}
		had := map[string]bool{}
		for _, t := range fa.Topics {
			for _, j := range topicJobs(t, name, size) {
				had[j.File()] = true
			}
		}
		for _, t := range fb.Topics {
			for _, j := range topicJobs(t, name, size) {
				if !had[j.File()] {
					if over == nil {
						over = map[string]site.Job{}
					}
					over[j.File()] = j
				}
				delete(had, j.File())
			}
		}
		for f := range had {
			if gone == nil {
				gone = map[string]bool{}
			}
			gone[f] = true
		}
	}
	return over, gone
}

// topicJobs lists a topic's files in both languages as site.Jobs does,
// its file of the prepare page included (site.PrepareJob);
// TestIndexFollowsEdits holds them equal.
func topicJobs(t *library.Topic, facet string, size int) []site.Job {
	var jobs []site.Job
	for _, lang := range cases.Languages {
		jobs = append(jobs, site.Job{Kind: site.KindTopicFeed, Lang: lang, Path: urls.TopicFeed(lang, facet, t.ID), Topic: t, Facet: facet})
		for i := 1; i <= pages(len(t.Cases), size); i++ {
			jobs = append(jobs, site.Job{Kind: site.KindTopic, Lang: lang, Path: urls.Topic(lang, facet, t.ID, i), Topic: t, Facet: facet, Page: i})
		}
		if j, ok := site.PrepareJob(lang, facet, t); ok {
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// pages is the number of pages of a list of n cases (site's).
func pages(n, size int) int {
	if n == 0 || size <= 0 {
		return 1
	}
	return (n + size - 1) / size
}

// job returns the job that makes file in m, with its case and topic those
// of m's library: an entry made for an older model names that model's.
func (m *model) job(file string) (site.Job, bool) {
	j, ok := m.index.lookup(file)
	if !ok {
		if isSitemapPart(file) {
			return m.sitemapPart(file)
		}
		return site.Job{}, false
	}
	if j.Case != nil {
		c := m.lib.Lib.ByID[j.Case.ID]
		if c == nil {
			return site.Job{}, false
		}
		j.Case = c
	}
	if j.Topic != nil {
		f := m.lib.Topics()[j.Facet]
		if f == nil {
			return site.Job{}, false
		}
		t := f.Topic(j.Topic.ID)
		if t == nil {
			return site.Job{}, false
		}
		j.Topic = t
	}
	return j, true
}

// isSitemapPart reports whether file is named as a part of a split
// sitemap.
func isSitemapPart(file string) bool {
	n, ok := strings.CutPrefix(file, "sitemap-")
	if !ok {
		return false
	}
	n, ok = strings.CutSuffix(n, ".xml")
	i, err := strconv.Atoi(n)
	return ok && err == nil && i > 0 && urls.SitemapPart(i) == file
}

// sitemapParts are a model's sitemap parts, listed on the first request
// for one.
type sitemapParts struct {
	once  sync.Once
	files map[string]site.Job
}

func (m *model) sitemapPart(file string) (site.Job, bool) {
	p := &m.sitemaps
	p.once.Do(func() {
		p.files = map[string]site.Job{}
		for _, j := range m.site.Jobs() {
			if j.Kind == site.KindSitemap && j.Page > 0 {
				p.files[j.File()] = j
			}
		}
	})
	j, ok := p.files[file]
	return j, ok
}
