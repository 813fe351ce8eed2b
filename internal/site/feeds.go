package site

import (
	"io"
	"sort"
	"strings"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// topicFeed writes the Atom feed of a topic's cases, beside its first
// page: the most recently updated first, as the language's feed.
func (s feeds) topicFeed(j Job, w io.Writer) error { return writeAtom(w, s.topicAtom(j)) }

func (s feeds) topicAtom(j Job) *atomFeed {
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
	return s.atom(lang, title, urls.TopicFeed(lang, j.Facet, t.ID), urls.Topic(lang, j.Facet, t.ID, 1), cs, nil)
}

// feedNote is what happened to a case, for an entry of the changes feed:
// the title starts with Prefix, the entry is dated At, Why (when set)
// replaces the summary, and Tag (when set) makes the entry's id unique
// among several changes of one case.
type feedNote struct {
	Prefix string
	At     time.Time
	Why    *localized
	Tag    string
}

// changesFeed writes the Atom feed of the library's changes
// (library.Changes): cases added, updated (with the fields that changed,
// when the changes come from git) and withdrawn, newest first; a
// withdrawn case's entry gives the reason.
func (s feeds) changesFeed(j Job, w io.Writer) error { return writeAtom(w, s.changesAtom(j)) }

func (s feeds) changesAtom(j Job) *atomFeed {
	lang := j.Lang
	list := s.model.Changes()
	list = list[:min(len(list), feedSize)]
	cs := make([]*cases.Case, len(list))
	for i, ch := range list {
		cs[i] = ch.Case
	}
	note := func(i int) feedNote {
		ch := list[i]
		n := feedNote{At: ch.At}
		if ch.Commit != "" {
			n.Tag = "-" + ch.Commit[:min(12, len(ch.Commit))]
		}
		switch ch.Kind {
		case library.ChangeWithdrawn:
			n.Prefix = s.strings.Get(lang, "changes.withdrawn")
			// From git, the case may have been restored since.
			if wd := ch.Case.Withdrawn; wd != nil {
				why := localizeSource(wd.Reason, lang)
				n.Why = &why
			}
		case library.ChangeAdded:
			n.Prefix = s.strings.Get(lang, "changes.added")
		default:
			n.Prefix = s.strings.Get(lang, "changes.updated")
			if len(ch.Fields) > 0 {
				n.Prefix += " (" + strings.Join(s.fieldLabels(lang, ch.Fields), ", ") + ")"
			}
		}
		return n
	}
	return s.atom(lang, s.strings.Get(lang, "changes.title"), urls.Changes(lang), urls.Home(lang), cs, note)
}

// fieldLabels names a case's JSON fields as a reader knows them, from the
// catalogue's "field." keys (후속 조치 for action_items); a field a theme's
// catalogue does not name keeps its JSON name.
func (s feeds) fieldLabels(lang string, fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f
		if w, ok := s.strings["field."+f][lang]; ok {
			out[i] = w
		}
	}
	return out
}
