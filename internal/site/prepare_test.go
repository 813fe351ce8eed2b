package site

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
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
		if !strings.Contains(section, s.strings.Get(lang, "prepare.heading")) || !strings.Contains(section, linkFrom(urls.Topic(lang, cases.Components.Name, tp.ID, 1), urls.Prepare(lang)+"?"+cases.Components.Name+"=ingress")) {
			t.Errorf("%s: the section lacks its heading or its link to the prepare page", lang)
		}
		// The section shows the first lines of each group and links the
		// rest: the fixture's ingress has more than that in some group.
		all := s.model.Checklist().For(tp.Cases)
		left := 0
		for _, g := range all {
			left += max(0, len(g.Items)-topicLines)
		}
		if left == 0 {
			t.Fatalf("%s: the fixture's ingress checklist fits the page whole; it does not exercise the bound", lang)
		}
		for _, ul := range strings.Split(section, `<ul class="checks">`)[1:] {
			if n := strings.Count(ul, "<li data-i="); n > topicLines {
				t.Errorf("%s: a group shows %d lines, more than %d", lang, n, topicLines)
			}
		}
		if !strings.Contains(section, `class="more"`) || !strings.Contains(section, urls.APITopic(cases.Components.Name, tp.ID)) {
			t.Errorf("%s: %d lines are left out, but the section links neither the rest nor the API's file", lang, left)
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
		if !strings.Contains(cp, `id="affected"`) || !strings.Contains(cp, "1.12.1") || !strings.Contains(cp, linkFrom(urls.Case(lang, c.ID), urls.Prepare(lang)+"?"+cases.Components.Name+"=")) {
			t.Errorf("%s: IL-0081's page lacks its affected versions or the callout's link", lang)
		}
	}
}

// TestPrepareFiles renders the prepare page and its files on the fixture
// of #42: the page holds no checklist line, only the form with each part's
// file; the file of a part registers, under its key, exactly the topic's
// cases with links from the prepare page and every line of its checklist;
// the file of a product, the cases that name it.
func TestPrepareFiles(t *testing.T) {
	lib := loadContent(t, repotest.PrepareContent(t))
	s := newSite(t, lib, false)
	tp := s.topics[cases.Components.Name].Topic("ingress")
	jobs := map[string]Job{}
	for _, j := range s.Jobs() {
		if j.Kind == KindPrepareData {
			jobs[j.Path] = j
		}
	}
	for _, lang := range cases.Languages {
		page := render(t, s, Job{Kind: KindPrepare, Lang: lang, Path: urls.Prepare(lang)})
		if strings.Contains(page, "<li data-i=") {
			t.Errorf("%s: the prepare page holds checklist lines", lang)
		}
		path := urls.PrepareData(lang, cases.Components.Name, tp.ID)
		if !strings.Contains(page, `data-src="`+linkFrom(urls.Prepare(lang), path)+`"`) {
			t.Errorf("%s: the prepare page does not name the file %s", lang, path)
		}
		j, ok := jobs[path]
		if !ok {
			t.Fatalf("%s: no job writes %s", lang, path)
		}
		var file prepareFile
		readPrepareFile(t, render(t, s, j), "components/ingress", &file)
		var ids []string
		for _, c := range file.Cases {
			ids = append(ids, c.ID)
			if !strings.HasPrefix(c.Href, "../../"+lang+"/cases/") {
				t.Errorf("%s: %s links %q, not from the prepare page", path, c.ID, c.Href)
			}
		}
		var want []string
		for _, c := range tp.Cases {
			want = append(want, c.ID)
		}
		if !slices.Equal(ids, want) {
			t.Errorf("%s: cases %v, want %v", path, ids, want)
		}
		// Every line of the topic's checklist, in its order, naming its
		// cases by their place in the file with their statuses.
		var lines []prepareCheck
		for _, g := range s.model.Checklist().For(tp.Cases) {
			for _, l := range g.Items {
				pl := prepareCheck{I: l.Item.Index, Group: g.Name}
				for _, from := range l.From {
					pl.From = append(pl.From, slices.Index(ids, from.Case.ID))
					pl.Status = append(pl.Status, from.Status)
				}
				if !slices.ContainsFunc(pl.Status, func(st string) bool { return st != "" }) {
					pl.Status = nil
				}
				lines = append(lines, pl)
			}
		}
		statuses := 0
		for k, got := range file.Checks {
			if k >= len(lines) {
				break
			}
			want := lines[k]
			if got.I != want.I || got.Group != want.Group || !slices.Equal(got.From, want.From) || !slices.Equal(got.Status, want.Status) {
				t.Errorf("%s: line %d is %d %s from %v %v, want %d %s from %v %v", path, k, got.I, got.Group, got.From, got.Status, want.I, want.Group, want.From, want.Status)
			}
			if !strings.HasPrefix(got.HTML, "<") || strings.Contains(got.HTML, `="~/`) {
				t.Errorf("%s: line %d's text is not resolved HTML: %q", path, k, got.HTML)
			}
			statuses += len(got.Status)
		}
		if len(file.Checks) != len(lines) || statuses == 0 {
			t.Errorf("%s: %d lines, want every one of the %d; %d statuses (the fixture has some)", path, len(file.Checks), len(lines), statuses)
		}
		for _, st := range cases.ActionStatuses {
			if label := s.strings.Get(lang, "action.status."+st); !strings.Contains(page, `<small class="pill status-`+st+`">`+label+`</small>`) {
				t.Errorf("%s: the prepare page does not name the status %s for its script", lang, st)
			}
		}
		product := urls.PrepareData(lang, cases.Products.Name, "ingress-nginx")
		j, ok = jobs[product]
		if !ok {
			t.Fatalf("%s: no job writes %s", lang, product)
		}
		readPrepareFile(t, render(t, s, j), "products/ingress-nginx", &file)
		for _, c := range file.Cases {
			if !slices.ContainsFunc(lib.ByID[c.ID].Affected, func(a cases.Affected) bool { return a.Product == "ingress-nginx" }) {
				t.Errorf("%s: %s does not name the product", product, c.ID)
			}
		}
		if len(file.Cases) == 0 {
			t.Errorf("%s: no case", product)
		}
	}
}

// readPrepareFile reads the value a prepare file registers under key.
func readPrepareFile(t *testing.T, js, key string, v any) {
	t.Helper()
	prefix := `window.__ilprepare=window.__ilprepare||{};__ilprepare["` + key + `"]=`
	if !strings.HasPrefix(js, prefix) || !strings.HasSuffix(js, ";\n") {
		t.Fatalf("the file of %s does not register it: %.120s", key, js)
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(js, prefix), ";\n")), v); err != nil {
		t.Fatalf("the file of %s: %v", key, err)
	}
}

// TestPrepareFileBound renders the file of a generated library's largest
// component, which has more cases than a file holds: it holds the topic's
// newest prepareCases cases and the checklist of those alone, and says how
// many the topic has and where its page is.
func TestPrepareFileBound(t *testing.T) {
	lib := loadContent(t, gencases.MapFS(gencases.Options{N: 600, Seed: 1}))
	s := newSite(t, lib, false)
	var tp *library.Topic
	for _, x := range s.topics[cases.Components.Name].Topics {
		if tp == nil || len(x.Cases) > len(tp.Cases) {
			tp = x
		}
	}
	if len(tp.Cases) <= prepareCases {
		t.Fatalf("the largest component has %d cases, not more than a file holds (%d)", len(tp.Cases), prepareCases)
	}
	lang := "ko"
	j, ok := PrepareJob(lang, cases.Components.Name, tp)
	if !ok {
		t.Fatal("no job for the component's file")
	}
	var file prepareFile
	readPrepareFile(t, render(t, s, j), cases.Components.Name+"/"+tp.ID, &file)
	if len(file.Cases) != prepareCases || file.Cases[0].ID != tp.Cases[0].ID || file.Cases[prepareCases-1].ID != tp.Cases[prepareCases-1].ID {
		t.Errorf("%d cases from %s, want the newest %d of the topic's", len(file.Cases), file.Cases[0].ID, prepareCases)
	}
	want := prepareMore{Total: len(tp.Cases), Label: tp.Label.Get(lang), Topic: "../../" + urls.Topic(lang, cases.Components.Name, tp.ID, 1)}
	if file.More == nil || *file.More != want {
		t.Errorf("more is %+v, want %+v", file.More, want)
	}
	lines := 0
	for _, g := range s.model.Checklist().For(tp.Cases[:prepareCases]) {
		lines += len(g.Items)
	}
	if len(file.Checks) != lines {
		t.Errorf("%d lines, want the %d of the newest cases", len(file.Checks), lines)
	}
	for _, l := range file.Checks {
		for _, k := range l.From {
			if k < 0 || k >= len(file.Cases) {
				t.Fatalf("line %d names case %d of %d", l.I, k, len(file.Cases))
			}
		}
	}
}
