package site

import (
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// TestUnknownDate renders a case whose source gives no date ("date": null):
// its page, its card and its line among another case's related cases say
// the date is unknown, in the page's language, and nothing makes up a
// year, links to a year page or counts it in the cases per year.
func TestUnknownDate(t *testing.T) {
	m := contentFS(t)
	const path, from, to = "cases/IL-0495.json", `"date":"2024-08-27"`, `"date":null`
	b := string(m[path].Data)
	if !strings.Contains(b, from) {
		t.Fatalf("%s no longer has %s", path, from)
	}
	m[path] = &fstest.MapFile{Data: []byte(strings.Replace(b, from, to, 1))}
	lib := loadContent(t, m)
	s := newSite(t, lib, false)
	c := lib.ByID["IL-0495"]
	related := s.model.Related(c.ID)
	if len(related) == 0 {
		t.Fatal("IL-0495 has no related cases to show it")
	}
	other := lib.ByID[related[0].Links[0].ID]
	org := s.topics["orgs"].Topic(c.OrgSlug)
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"date unknown", "Incident date unknown"}},
		{"ko", []string{"날짜 미상", "발생일 알 수 없음"}},
	} {
		pages := map[string]string{
			"case":    render(t, s, Job{Kind: KindCase, Lang: tc.lang, Path: urls.Case(tc.lang, c.ID), Case: c}),
			"card":    render(t, s, Job{Kind: KindTopic, Lang: tc.lang, Path: urls.Topic(tc.lang, "orgs", c.OrgSlug, 1), Topic: org, Facet: "orgs", Page: 1}),
			"related": render(t, s, Job{Kind: KindCase, Lang: tc.lang, Path: urls.Case(tc.lang, other.ID), Case: other}),
		}
		for name, html := range pages {
			text := visible(html)
			if !strings.Contains(text, tc.want[0]) {
				t.Errorf("%s %s page does not say %q", tc.lang, name, tc.want[0])
			}
			for _, bad := range []string{"/years/0/", `datetime=""`, "0000", " 0년", "· 0 "} {
				if strings.Contains(html, bad) {
					t.Errorf("%s %s page has %q", tc.lang, name, bad)
				}
			}
		}
		if text := visible(pages["case"]); !strings.Contains(text, tc.want[1]) {
			t.Errorf("%s case page's facts do not say %q", tc.lang, tc.want[1])
		}
	}
	for _, tp := range library.Derive(lib).Topics()["orgs"].Topics {
		for _, y := range tp.Stats().Years {
			if y.ID == "0" || y.ID == "" {
				t.Errorf("cases per year count the undated case under %q", y.ID)
			}
		}
	}
}
