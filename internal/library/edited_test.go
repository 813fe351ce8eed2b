package library

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"testing/fstest"

	"incidentlib/internal/cases"
)

// TestEditedIsDerived: after saves that edit the text of cases (the
// preview's usual save), the library made from the one before, which
// makes again only the topics the edited cases are in, has the topics
// and version a library derived afresh has: the same topics in the same
// order, with the same labels and cases in the same order. The edits
// move a case into and out of topics, into a topic no other case has,
// and to a newer day.
func TestEditedIsDerived(t *testing.T) {
	m := contentFS(t)
	const d = "cases/IL-9002.json" // a draft, among the cases the preview shows
	m[d] = &fstest.MapFile{Data: m["cases/IL-0053.json"].Data}
	editJSON(t, m, d, func(c map[string]any) { c["id"], c["draft"] = "IL-9002", true })
	const a, b, o = "cases/IL-0495.json", "cases/IL-0338.json", "cases/IL-0642.json" // o alone is about OpenShift
	steps := []struct {
		name    string
		changed []string
		do      func()
	}{
		{"retitle", []string{a}, func() {
			editJSON(t, m, a, func(c map[string]any) { c["title"].(map[string]any)["en"] = "A new title" })
		}},
		{"into a topic", []string{a}, func() {
			editJSON(t, m, a, func(c map[string]any) { c["components"] = append(c["components"].([]any), "cdn") })
		}},
		{"out of a topic, two cases", []string{a, b}, func() {
			editJSON(t, m, a, func(c map[string]any) { c["components"] = []any{"cdn"} })
			editJSON(t, m, b, func(c map[string]any) { c["symptoms"] = []any{"high-latency"} })
		}},
		{"out of a topic it alone was in", []string{o}, func() {
			editJSON(t, m, o, func(c map[string]any) { delete(c, "affected") })
		}},
		{"into a topic no other case is in, twice", []string{o, b}, func() {
			editJSON(t, m, o, func(c map[string]any) {
				c["affected"] = []any{map[string]any{"product": "openshift", "versions": []any{"4.5.20"}}}
			})
			editJSON(t, m, b, func(c map[string]any) {
				c["affected"] = []any{map[string]any{"product": "etcd", "versions": []any{"3.5.0"}}, map[string]any{"product": "etcd", "versions": []any{"3.4.0"}}}
			})
		}},
		{"a domain few cases have", []string{b}, func() {
			editJSON(t, m, b, func(c map[string]any) { c["domain"] = []any{"databases"} })
		}},
		{"the draft into a topic", []string{d}, func() {
			editJSON(t, m, d, func(c map[string]any) { c["components"] = []any{"cdn"}; c["updated_at"] = "2027-01-01T00:00:00Z" })
		}},
		{"a newer day", []string{a}, func() {
			editJSON(t, m, a, func(c map[string]any) { c["updated_at"] = "2026-12-31T10:00:00Z" })
		}},
		{"the same day", []string{b}, func() {
			editJSON(t, m, b, func(c map[string]any) { c["updated_at"] = "2026-12-31T11:00:00Z" })
		}},
		{"off the day", []string{a}, func() {
			editJSON(t, m, a, func(c map[string]any) { c["updated_at"] = "2026-11-01T11:00:00Z" })
		}},
	}
	ctx := context.Background()
	lib, err := New(ctx, m, Options{Drafts: true})
	if err != nil || !lib.Ready() {
		t.Fatalf("content: %v %v", err, lib.Diags.Items)
	}
	for _, st := range steps {
		st.do()
		lib, err = New(ctx, m, Options{Previous: lib, Changed: st.changed, Drafts: true, LateRelated: true})
		if err != nil || !lib.Ready() {
			t.Fatalf("%s: %v %v", st.name, err, lib.Diags.Items)
		}
		if lib.Stages[0].Name != "edit" {
			t.Fatalf("%s: the library was made by %q, not from the edit", st.name, lib.Stages[0].Name)
		}
		fresh, err := New(ctx, m, Options{Drafts: true})
		if err != nil || !fresh.Ready() {
			t.Fatalf("%s: fresh: %v %v", st.name, err, fresh.Diags.Items)
		}
		if len(lib.Lib.Cases) != len(fresh.Lib.Cases) || lib.Lib.ByID["IL-9002"] == nil {
			t.Fatalf("%s: %d cases, want %d with the draft", st.name, len(lib.Lib.Cases), len(fresh.Lib.Cases))
		}
		if lib.Version != fresh.Version {
			t.Errorf("%s: version %s, want %s", st.name, lib.Version, fresh.Version)
		}
		for _, name := range cases.FacetNames() {
			got, want := topicLines(lib.Topics()[name]), topicLines(fresh.Topics()[name])
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s topics differ:\n got %q\nwant %q", st.name, name, got, want)
			}
			for _, w := range fresh.Topics()[name].Topics {
				if g := lib.Topics()[name].Topic(w.ID); g == nil || g.Label != w.Label || g.Description != w.Description {
					t.Errorf("%s: %s topic %s: %+v, want %+v", st.name, name, w.ID, g, w)
				}
			}
		}
	}
}

// topicLines lists a facet's topics in order, each with its cases.
func topicLines(f *FacetTopics) []string {
	var out []string
	for _, t := range f.Topics {
		line := t.ID + ":"
		for _, c := range t.Cases {
			line += " " + c.ID
		}
		out = append(out, line)
	}
	return out
}

// editJSON rewrites a case file through a decoded map.
func editJSON(t *testing.T, m fstest.MapFS, name string, change func(c map[string]any)) {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m[name].Data, &c); err != nil {
		t.Fatal(err)
	}
	change(c)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	m[name] = &fstest.MapFile{Data: b}
}
