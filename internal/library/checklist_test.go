package library

import (
	"slices"
	"testing"

	"incidentlib/internal/cases"
)

// checklistCases are four cases: two say nearly the same thing in other
// words in both languages (an alert on failed reloads), a third says a
// different thing about reloads, and each has an item of its own.
func checklistCases() []*cases.Case {
	item := func(en, ko, kind, status string) cases.ActionItem {
		return cases.ActionItem{Text: cases.Bilingual{En: en, Ko: ko}, Kind: kind, Status: status}
	}
	return []*cases.Case{
		{ID: "IL-0001", ActionItems: []cases.ActionItem{
			item("Add an alert on failed ingress controller configuration reloads", "인그레스 컨트롤러 설정 리로드가 실패하면 알림을 보낸다.", "detect", "done"),
			item("Run load tests before each release", "릴리스마다 부하 테스트를 돌린다.", "prevent", ""),
		}},
		{ID: "IL-0002", ActionItems: []cases.ActionItem{
			item("Add alerting on ingress controller configuration reload failures", "인그레스 컨트롤러 설정 리로드 실패에 알림을 건다.", "", "planned"),
			item("Document the rollback procedure for the ingress controller", "인그레스 컨트롤러 롤백 절차를 문서로 남긴다.", "process", "proposed"),
		}},
		{ID: "IL-0003", ActionItems: []cases.ActionItem{
			item("Reload the ingress controller configuration without dropping connections", "연결을 끊지 않고 인그레스 컨트롤러 설정을 리로드한다.", "mitigate", "done"),
		}, Lessons: &cases.Bilingual{En: "Reloads are not free.", Ko: "리로드에는 비용이 따른다."}},
		{ID: "IL-0004", ActionItems: []cases.ActionItem{
			item("Add an alert when ingress controller configuration reloads fail", "인그레스 컨트롤러 설정 리로드가 실패할 때 알림을 보낸다.", "detect", "unknown"),
		}},
	}
}

func TestChecklistMerges(t *testing.T) {
	cs := checklistCases()
	cl := NewChecklist(cs)
	if len(cl.Items) != 5 {
		for _, it := range cl.Items {
			t.Logf("%s %q from %d", it.Group, it.Text.En, len(it.From))
		}
		t.Fatalf("%d items, want 5 (the three alerts on failed reloads merged, the other four apart)", len(cl.Items))
	}
	groups := cl.For(cs)
	var names []string
	for _, g := range groups {
		names = append(names, g.Name)
	}
	if want := []string{"prevent", "detect", "mitigate", "process", GroupLessons}; !slices.Equal(names, want) {
		t.Errorf("groups %v, want %v", names, want)
	}
	alert := groups[1].Items[0]
	if got := ids(alert.From); !slices.Equal(got, []string{"IL-0001", "IL-0002", "IL-0004"}) {
		t.Errorf("the merged alert links %v, want IL-0001, IL-0002 and IL-0004", got)
	}
	if st := alert.From[1].Status; st != "planned" {
		t.Errorf("IL-0002's status in the merged line is %q, want planned", st)
	}
	if alert.Item.Text.En != cs[0].ActionItems[0].Text.En {
		t.Errorf("the merged line says %q, want the first case's words", alert.Item.Text.En)
	}
	// The case without the alert gets its own lines and no merged one.
	for _, g := range cl.For(cs[2:3]) {
		for _, l := range g.Items {
			if len(l.From) != 1 || l.From[0].Case != cs[2] {
				t.Errorf("IL-0003's checklist has %q from %v", l.Item.Text.En, ids(l.From))
			}
		}
	}
	// Deterministic: the same cases give the same checklist.
	again := NewChecklist(checklistCases())
	for i := range cl.Items {
		if cl.Items[i].Text != again.Items[i].Text || len(cl.Items[i].From) != len(again.Items[i].From) {
			t.Fatalf("item %d differs between two runs", i)
		}
	}
}

// TestChecklistOrder puts the item most cases share first in its group.
func TestChecklistOrder(t *testing.T) {
	cs := checklistCases()
	cs[0].ActionItems[0].Kind = "detect"
	extra := &cases.Case{ID: "IL-0005", ActionItems: []cases.ActionItem{{Text: cases.Bilingual{En: "Page the on-call engineer on high latency", Ko: "지연이 커지면 당번 엔지니어를 호출한다."}, Kind: "detect"}}}
	cs = append([]*cases.Case{extra}, cs...)
	groups := NewChecklist(cs).For(cs)
	for _, g := range groups {
		if g.Name == "detect" {
			if len(g.Items) != 2 || len(g.Items[0].From) != 3 {
				t.Fatalf("detect: %d items, the first from %d cases; want the shared alert first", len(g.Items), len(g.Items[0].From))
			}
			return
		}
	}
	t.Fatal("no detect group")
}

func TestCheckWords(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"Add alerts on failing reloads", "add alert on failed reloads"},
		{"인그레스가 리로드를", "인그레스 리로드"},
	} {
		a, b := checkWords(tc.a), checkWords(tc.b)
		if overlap(a, b) != 1 {
			t.Errorf("%q %v and %q %v should be the same words", tc.a, a, tc.b, b)
		}
	}
}

func ids(from []CheckSource) []string {
	var out []string
	for _, s := range from {
		out = append(out, s.Case.ID)
	}
	return out
}
