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
	More  string // "and 1,165 more lines", when a topic shows only some (boundChecklist)
	Href  string // where More links: every line of the group
}

// checkLineView is one line of a checklist: the text, and every case it
// came from with how far that case got.
type checkLineView struct {
	Index  int // the item's place in the library's checklist, the same in every list
	Text   localized
	Shared string // "3 cases", shown when more than one
	From   []checkFromView
	More   string // "and 81 more", when a topic links only some of its cases
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
	return p.checklistLinking(groups, 0)
}

// checklistLinking is checklist with at most from case links a line (all
// of them when from is 0), and the count of the others.
func (p *pageView) checklistLinking(groups []library.CheckGroup, from int) []checkGroupView {
	out := make([]checkGroupView, 0, len(groups))
	for _, g := range groups {
		gv := checkGroupView{Name: g.Name, Title: p.groupTitle(g.Name), Items: make([]checkLineView, 0, len(g.Items))}
		for _, l := range g.Items {
			lv := checkLineView{Index: l.Item.Index, Text: localize(l.Item.Text, p.Lang)}
			if len(l.From) > 1 {
				lv.Shared = fmt.Sprintf(p.T("prepare.shared"), l10n.Number(len(l.From)))
			}
			shown := l.From
			if n := len(shown) - from; from > 0 && n > 0 {
				shown = shown[:from]
				lv.More = fmt.Sprintf(p.T("prepare.more_cases"), l10n.Number(n))
			}
			for _, f := range shown {
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
func (s prepares) topicChecklist(p *pageView, j Job) *topicChecklistView {
	f := cases.FacetByName(j.Facet)
	if j.Kind != KindTopic || j.Page > 1 || f == nil || !f.Shows(cases.InChecklist) {
		return nil
	}
	groups := s.model.Checklist().For(j.Topic.Cases)
	if len(groups) == 0 {
		return nil
	}
	v := &topicChecklistView{Prepare: p.Link(urls.Prepare(p.Lang)), API: p.Link(urls.APITopic(f.Name, j.Topic.ID))}
	v.Groups, v.More = boundChecklist(p, groups, topicLines, topicFrom)
	if f.Shows(cases.InPrepare) {
		v.Prepare += urls.Query(urls.Param{Key: f.Name, Values: []string{j.Topic.ID}})
	}
	for i := range v.Groups {
		if v.Groups[i].More != "" {
			v.Groups[i].Href = v.Prepare
			if !f.Shows(cases.InPrepare) {
				v.Groups[i].Href = v.API
			}
		}
	}
	return v
}

// A topic page shows at most topicLines lines of each checklist group, and
// links at most topicFrom of a line's cases. The checklist of a topic grows
// with its cases (1,583 lines and 1.3 MB of HTML for the 498 cases of a
// component at 1,000 cases), but a reader scans the top of it: the lines
// most cases share come first (library.Checklist.For), so the first ten of
// a group are the ones most worth checking, and ten a group keeps the six
// groups under a screenful each. A line says how many cases it came from
// whatever it links; its first cases are the newest. The rest are one link
// away: the prepare page with the topic chosen lists every line, and so
// does the topic's file in the API.
const (
	topicLines = 10
	topicFrom  = 5
)

// boundChecklist is the view of the first lines of each group, each with
// its first case links, and says how many lines it left out in all. It
// bounds the groups before it makes their view: a large topic's checklist
// has a thousand lines or more, and a topic page shows sixty at most.
func boundChecklist(p *pageView, groups []library.CheckGroup, lines, from int) ([]checkGroupView, int) {
	bounded := make([]library.CheckGroup, len(groups))
	for i, g := range groups {
		bounded[i] = library.CheckGroup{Name: g.Name, Items: g.Items[:min(lines, len(g.Items))]}
	}
	views, more := p.checklistLinking(bounded, from), 0
	for i := range views {
		if n := len(groups[i].Items) - lines; n > 0 {
			views[i].More = fmt.Sprintf(p.T("prepare.more_lines"), l10n.Number(n))
			more += n
		}
	}
	return views, more
}

// topicChecklistView is a topic's "What to check" section.
type topicChecklistView struct {
	Groups  []checkGroupView
	More    int    // the lines left out, in all groups
	Prepare string // the prepare page, with the topic chosen where it can be
	API     string // the topic's file in the API, which holds every line
}
