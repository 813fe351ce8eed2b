package site

import (
	"fmt"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// checkGroupView is one group of a checklist: what its items are for.
type checkGroupView struct {
	Name  string // one of library.CheckGroups
	Title string
	Items []checkLineView
}

// checkLineView is one line of a checklist: the text, and every case it
// came from with how far that case got.
type checkLineView struct {
	Index  int // the item's place in the library's checklist, the same in every list
	Text   localized
	Shared string // "3 cases", shown when more than one
	From   []checkFromView
}

// checkFromView is a case a checklist line came from.
type checkFromView struct {
	ID          string
	Href        string
	Title       string
	Status      string // an action status, or "" for a lesson
	StatusLabel string
}

// checklist is the view of the checklist of some cases (library.Checklist.For).
func (p *pageView) checklist(groups []library.CheckGroup) []checkGroupView {
	out := make([]checkGroupView, 0, len(groups))
	for _, g := range groups {
		gv := checkGroupView{Name: g.Name, Title: p.groupTitle(g.Name), Items: make([]checkLineView, 0, len(g.Items))}
		for _, l := range g.Items {
			lv := checkLineView{Index: l.Item.Index, Text: localize(l.Item.Text, p.Lang)}
			if len(l.From) > 1 {
				lv.Shared = fmt.Sprintf(p.T("prepare.shared"), l10n.Number(len(l.From)))
			}
			for _, f := range l.From {
				fv := checkFromView{ID: f.Case.ID, Href: p.Link(urls.Case(p.Lang, f.Case.ID)), Title: localizeLine(f.Case.Title, p.Lang).Text, Status: f.Status}
				if f.Status != "" {
					fv.StatusLabel = p.T("action.status." + f.Status)
				}
				lv.From = append(lv.From, fv)
			}
			gv.Items = append(gv.Items, lv)
		}
		out = append(out, gv)
	}
	return out
}

// groupTitle names a checklist group: an action kind, or the groups of
// items without one and of lessons.
func (p *pageView) groupTitle(name string) string {
	switch name {
	case library.GroupOther, library.GroupLessons:
		return p.T("prepare.group." + name)
	}
	return p.T("action.kind." + name)
}

// topicChecklist is the "What to check" section of a topic's first page,
// for the facets whose topics carry one (cases.InChecklist); nil otherwise.
func (s *Site) topicChecklist(p *pageView, j Job) *topicChecklistView {
	f := cases.FacetByName(j.Facet)
	if j.Kind != KindTopic || j.Page > 1 || f == nil || !f.Shows(cases.InChecklist) {
		return nil
	}
	groups := p.checklist(s.model.Checklist().For(j.Topic.Cases))
	if len(groups) == 0 {
		return nil
	}
	v := &topicChecklistView{Groups: groups, Prepare: p.Link(urls.Prepare(p.Lang))}
	if f.Shows(cases.InPrepare) {
		v.Prepare += urls.Query(urls.Param{Key: f.Name, Values: []string{j.Topic.ID}})
	}
	return v
}

// topicChecklistView is a topic's "What to check" section.
type topicChecklistView struct {
	Groups  []checkGroupView
	Prepare string // the prepare page, with the topic chosen where it can be
}
