package site

import (
	"bytes"
	"fmt"
	"incidentlib/internal/urls"
	"io"
	"sync"
)

// Render writes the job's file to w and returns its media type.
func (s *Site) Render(j Job, w io.Writer) (string, error) {
	switch j.Kind {
	case KindAsset:
		for _, a := range s.assets {
			if a.Path == j.Asset {
				_, err := w.Write(a.Data)
				return a.Type, err
			}
		}
		return "", fmt.Errorf("no asset %s", j.Asset)
	case KindFeed:
		return "application/atom+xml", feeds{s}.feed(j, w)
	case KindTopicFeed:
		return "application/atom+xml", feeds{s}.topicFeed(j, w)
	case KindChanges:
		return "application/atom+xml", feeds{s}.changesFeed(j, w)
	case KindSitemap:
		return "application/xml", sitemaps{s}.sitemap(j, w)
	case KindPrepareData:
		return "text/javascript", prepares{s}.prepareData(j, w)
	case KindRobots:
		_, err := fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s%s\n", s.base, urls.Sitemap)
		return "text/plain", err
	case KindTwin:
		page := j
		page.Kind, page.Path = KindCase, urls.Case(j.Lang, j.Case.ID)
		buf := bufPool.Get().(*bytes.Buffer)
		defer bufPool.Put(buf)
		buf.Reset()
		v, err := views{s}.caseView(page, false)
		if err != nil {
			return "", err
		}
		if err := (twins{s}).twin(buf, v, false); err != nil {
			return "", err
		}
		_, err = w.Write(buf.Bytes())
		return "text/markdown", err
	}
	view, tmpl, err := s.view(j)
	if err != nil {
		return "", err
	}
	return "text/html", s.html(w, j, tmpl, view)
}

// html renders a page's view through its template to w.
func (s *Site) html(w io.Writer, j Job, tmpl string, view any) error {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		// A buffer that grew for one of the few very large pages goes
		// back to the collector rather than to the pool.
		if buf.Cap() <= 4<<20 {
			bufPool.Put(buf)
		}
	}()
	buf.Reset()
	if err := s.theme.execute(buf, tmpl, "base", view); err != nil {
		return err
	}
	if b, ok := w.(*bytes.Buffer); ok {
		// One allocation of about the page's size, rather than doublings
		// that leave garbage as large as the page behind.
		b.Grow(buf.Len() + buf.Len()/16)
	}
	root, here := s.rootOf(j), ""
	if root == upToRoot(j.Path) {
		here = folderOf(j.Path)
	}
	return writeLinks(w, buf.Bytes(), root, here)
}

// RenderCase renders a case page to page and its Markdown twin (j.Twin) to
// twin from one view: the two outputs of one page model, which a build
// writes side by side. The case's card in the page's language, which the
// lists show, is rendered from the same view and kept, unless it is kept
// already: most of its texts are the page's (see card). A build renders
// the case pages before the lists for that.
func (s *Site) RenderCase(j Job, page io.Writer, twin *bytes.Buffer) error {
	if j.Kind != KindCase {
		return fmt.Errorf("RenderCase: %s is not a case page", j.File())
	}
	v, err := views{s}.caseView(j, true)
	if err != nil {
		return err
	}
	if err := s.html(page, j, "case", v); err != nil {
		return err
	}
	if err := (twins{s}).twin(twin, v, false); err != nil {
		t, _ := j.Twin()
		return fmt.Errorf("%s: %w", t.File(), err)
	}
	if _, err := (cards{s}).keepCard(j.Lang, j.Case, v); err != nil {
		return fmt.Errorf("the card of %s: %w", j.Case.ID, err)
	}
	return nil
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// RenderBytes renders a job into memory.
func (s *Site) RenderBytes(j Job) ([]byte, string, error) {
	var b bytes.Buffer
	typ, err := s.Render(j, &b)
	return b.Bytes(), typ, err
}

// view builds the typed view of a page job and names its template.
func (s *Site) view(j Job) (any, string, error) {
	switch j.Kind {
	case KindCase:
		v, err := views{s}.caseView(j, true)
		return v, "case", err
	case KindCases, KindTopic:
		v, err := views{s}.listView(j)
		return v, "list", err
	case KindFacet:
		return views{s}.facetView(j), "facet", nil
	case KindHome:
		v, err := views{s}.homeView(j)
		return v, "home", err
	case KindRoot:
		return views{s}.rootView(j), "root", nil
	case KindSearch:
		return views{s}.searchView(j), "search", nil
	case KindProse:
		v, err := views{s}.proseView(j)
		return v, "prose", err
	case KindNotFound:
		return views{s}.notFoundView(j), "notfound", nil
	case KindAPIDoc:
		return views{s}.apiDocView(j), "apidoc", nil
	case KindPrepare:
		v, err := prepares{s}.prepareView(j)
		return v, "prepare", err
	}
	return nil, "", fmt.Errorf("unknown job kind %d", j.Kind)
}

// views makes the view of each kind of page (apidoc.go, case.go, facet.go,
// home.go, list.go, notfound.go, prose.go, search.go), which view hands to
// the page's template.
type views struct{ *Site }
