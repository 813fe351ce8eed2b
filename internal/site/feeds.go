package site

import (
	"io"
	"sort"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// topicFeed writes the Atom feed of a topic's cases, beside its first
// page: the most recently updated first, as the language's feed.
func (s *Site) topicFeed(j Job, w io.Writer) error {
	t, lang := j.Topic, j.Lang
	cs := append([]*cases.Case(nil), t.Cases...)
	sort.SliceStable(cs, func(i, k int) bool {
		if !cs[i].UpdatedAt.Equal(cs[k].UpdatedAt) {
			return cs[i].UpdatedAt.After(cs[k].UpdatedAt)
		}
		return cs[i].ID < cs[k].ID
	})
	cs = cs[:min(len(cs), feedSize)]
	title := cases.FacetByName(j.Facet).Label.Get(lang) + ": " + t.Label.Get(lang)
	return s.writeFeed(w, lang, title, urls.TopicFeed(lang, j.Facet, t.ID), urls.Topic(lang, j.Facet, t.ID, 1), cs, nil)
}

// changesFeed writes the Atom feed of the library's changes
// (library.Changes): cases updated and withdrawn, newest first; a
// withdrawn case's entry gives the reason.
func (s *Site) changesFeed(j Job, w io.Writer) error {
	lang := j.Lang
	list := s.model.Changes()
	list = list[:min(len(list), feedSize)]
	byCase := make(map[*cases.Case]library.CaseChange, len(list))
	cs := make([]*cases.Case, len(list))
	for i, ch := range list {
		cs[i], byCase[ch.Case] = ch.Case, ch
	}
	note := func(c *cases.Case) (string, time.Time, *localized) {
		ch := byCase[c]
		if ch.Kind == library.ChangeWithdrawn {
			why := localizeSource(c.Withdrawn.Reason, lang)
			return s.strings.Get(lang, "changes.withdrawn"), ch.At, &why
		}
		return s.strings.Get(lang, "changes.updated"), ch.At, nil
	}
	return s.writeFeed(w, lang, s.strings.Get(lang, "changes.title"), urls.Changes(lang), urls.Home(lang), cs, note)
}
