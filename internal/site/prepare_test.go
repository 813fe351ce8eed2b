package site

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

var dataCase = regexp.MustCompile(`data-case="([^"]+)"`)

// TestTopicChecklist renders "What to check" on the fixture of #42: on the
// first page of a component's topic, linking only its cases; not on its
// second page, nor on a root cause's topic (the facet shows no checklist).
func TestTopicChecklist(t *testing.T) {
	lib := loadContent(t, repotest.PrepareContent(t))
	s := newSite(t, lib, false)
	tp := s.topics[cases.Components.Name].Topic("ingress")
	for _, lang := range cases.Languages {
		page := render(t, s, Job{Kind: KindTopic, Lang: lang, Path: urls.Topic(lang, cases.Components.Name, tp.ID, 1), Topic: tp, Facet: cases.Components.Name, Page: 1})
		i := strings.Index(page, `id="prepare"`)
		if i < 0 {
			t.Fatalf("%s: the ingress topic has no checklist", lang)
		}
		section := page[i:]
		section = section[:strings.Index(section, "</section>")]
		ids := dataCase.FindAllStringSubmatch(section, -1)
		if len(ids) < len(tp.Cases) {
			t.Errorf("%s: %d case links for %d cases", lang, len(ids), len(tp.Cases))
		}
		for _, m := range ids {
			if !slices.ContainsFunc(tp.Cases, func(c *cases.Case) bool { return c.ID == m[1] }) {
				t.Errorf("%s: the checklist links %s, not an ingress case", lang, m[1])
			}
		}
		if !strings.Contains(section, s.strings.Get(lang, "prepare.heading")) || !strings.Contains(section, urls.Prepare(lang)+"?"+cases.Components.Name+"=ingress") {
			t.Errorf("%s: the section lacks its heading or its link to the prepare page", lang)
		}
		if page2 := render(t, s, Job{Kind: KindTopic, Lang: lang, Path: urls.Topic(lang, cases.Components.Name, tp.ID, 2), Topic: tp, Facet: cases.Components.Name, Page: 2}); strings.Contains(page2, `id="prepare"`) {
			t.Errorf("%s: the second page repeats the checklist", lang)
		}
		rc := s.topics[cases.RootCauses.Name].Topics[0]
		if page := render(t, s, Job{Kind: KindTopic, Lang: lang, Path: urls.Topic(lang, cases.RootCauses.Name, rc.ID, 1), Topic: rc, Facet: cases.RootCauses.Name, Page: 1}); strings.Contains(page, `id="prepare"`) {
			t.Errorf("%s: a root cause's topic has a checklist", lang)
		}
		// A case page shows its affected versions and links the prepare
		// page with its components from the callout.
		c := lib.ByID["IL-0081"]
		cp := render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
		if !strings.Contains(cp, `id="affected"`) || !strings.Contains(cp, "1.12.1") || !strings.Contains(cp, urls.Prepare(lang)+"?"+cases.Components.Name+"=") {
			t.Errorf("%s: IL-0081's page lacks its affected versions or the callout's link", lang)
		}
	}
}
