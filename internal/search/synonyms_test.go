package search

import (
	"os"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/cases"
)

// TestGlossarySynonyms: a Korean query finds a case by either form of a
// glossary term, through the built index (as search.js reads it) and the
// engine (as the MCP server's search answers): "파드 내쫓" finds the cases
// written with 축출, "축출" the one still written 내쫓았다, and "부하 분산기"
// the ones written 로드 밸런서; without the glossary it finds none of them.
// A glossary of two terms, not the content's, so that the test says what it
// holds whatever the glossary becomes.
func TestGlossarySynonyms(t *testing.T) {
	lib, list := cases.Load(os.DirFS("../../content"))
	if list.Errors() != 0 {
		t.Fatalf("%+v", list.Items)
	}
	glossary := cases.NewGlossary([]cases.GlossaryTerm{
		{En: "eviction", Ko: "축출", Avoid: []string{"내쫓", "퇴거"}},
		{En: "load balancer", Ko: "로드 밸런서", Avoid: []string{"부하 분산기"}},
	})
	// A case of the content rewritten with the avoided form, as a case
	// not yet edited to the glossary reads.
	old := *lib.ByID["IL-0495"]
	old.ID = "IL-9999"
	old.Summary.Ko = "디스케줄러가 파드를 내쫓았다"
	korean := func(c *cases.Case) string {
		return strings.Join([]string{c.Title.Ko, c.Summary.Ko, c.SymptomsText.Ko, c.Trigger.Ko, c.Detection.Ko}, " ") +
			strings.Join(bodyKo(c), " ")
	}
	all := append(slices.Clone(lib.Cases), &old)
	// writing returns the cases that write one form and not the other:
	// those that only the glossary makes a query of the other find.
	writing := func(form, not string) []string {
		var ids []string
		for _, c := range all {
			if k := korean(c); strings.Contains(k, form) && !strings.Contains(k, not) {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) == 0 {
			t.Fatalf("no case writes %s and not %s: the content no longer suits the test", form, not)
		}
		return ids
	}
	for _, g := range []*cases.Glossary{nil, glossary} {
		var docs []Doc
		for _, c := range all {
			docs = append(docs, caseDoc(c, g))
		}
		idx := loadIndex(t, buildMap(t, docs, nil, defaultConfig))
		e := NewEngine(docs, nil)
		for _, q := range []struct {
			text string
			want []string
		}{
			{"파드 내쫓", writing("축출", "내쫓")},
			{"축출", writing("내쫓", "축출")},
			{"부하 분산기", writing("로드 밸런서", "부하 분산기")},
		} {
			// A partial answer (no case has every word) finds nothing.
			built, partial := idx.search(q.text, nil)
			if partial {
				built = nil
			}
			var engine []string
			if r := e.Search(q.text, nil); !r.Partial {
				for _, h := range r.Hits {
					engine = append(engine, docs[h.Doc].ID)
				}
			}
			for _, id := range q.want {
				for _, found := range [][]string{built, engine} {
					if slices.Contains(found, id) != (g != nil) {
						t.Errorf("glossary %v: %q finds %v, want %s found only with the glossary", g != nil, q.text, found, id)
					}
				}
			}
		}
	}
}

// bodyKo are the Korean texts of c's lists.
func bodyKo(c *cases.Case) []string {
	var out []string
	for _, t := range c.Remediation {
		out = append(out, t.Ko)
	}
	for _, t := range c.ActionItems {
		out = append(out, t.Text.Ko)
	}
	if c.Lessons != nil {
		out = append(out, c.Lessons.Ko)
	}
	return out
}
