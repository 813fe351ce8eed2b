package library

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
)

// mapEntry is an unmerged item of checklistByAllPairs.
type mapEntry struct {
	item   *CheckItem
	en, ko map[string]bool
}

// checklistByAllPairs is NewChecklist without its prefix filter nor its
// numbered words: each item is compared with every earlier unmerged item,
// word by word. It is the reference NewChecklist must agree with.
func checklistByAllPairs(cs []*cases.Case) *Checklist {
	cl := &Checklist{}
	var entries []*mapEntry
	add := func(c *cases.Case, group, status string, text cases.Bilingual) {
		en, ko := checkWords(text.En), checkWords(text.Ko)
		best, bestScore := -1, 0.0
		for i, e := range entries {
			if !mergeable(e.item.Group, group) {
				continue
			}
			if s, ok := nearIdenticalMaps(e.en, e.ko, en, ko); ok && s > bestScore {
				best, bestScore = i, s
			}
		}
		if best >= 0 {
			it := entries[best].item
			if it.Group == GroupOther && group != GroupOther && group != GroupLessons {
				it.Group = group
			}
			if !slices.ContainsFunc(it.From, func(s CheckSource) bool { return s.Case == c }) {
				it.From = append(it.From, CheckSource{Case: c, Status: status})
			}
			return
		}
		it := &CheckItem{Index: len(cl.Items), Group: group, Text: text, From: []CheckSource{{Case: c, Status: status}}}
		cl.Items = append(cl.Items, it)
		entries = append(entries, &mapEntry{it, en, ko})
	}
	for _, c := range cs {
		for _, a := range c.ActionItems {
			g, st := a.Kind, a.Status
			if g == "" {
				g = GroupOther
			}
			if st == "" {
				st = "unknown"
			}
			add(c, g, st, a.Text)
		}
		if c.Lessons != nil && !c.Lessons.IsZero() {
			add(c, GroupLessons, "", *c.Lessons)
		}
	}
	return cl
}

// nearIdenticalMaps is nearIdentical on sets of words.
func nearIdenticalMaps(aEn, aKo, bEn, bKo map[string]bool) (float64, bool) {
	bothEn := len(aEn) > 0 && len(bEn) > 0
	bothKo := len(aKo) > 0 && len(bKo) > 0
	switch {
	case bothEn && bothKo:
		en, ko := overlap(aEn, bEn), overlap(aKo, bKo)
		return en + ko, en >= mergeEn && ko >= mergeKo
	case bothEn:
		s := overlap(aEn, bEn)
		return s, s >= mergeAlone
	case bothKo:
		s := overlap(aKo, bKo)
		return s, s >= mergeAlone
	}
	return 0, false
}

// overlap is the share of their words two sets have in common.
func overlap(a, b map[string]bool) float64 {
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	union := len(a) + len(b) - common
	if union == 0 {
		return 0
	}
	return float64(common) / float64(union)
}

// checklistLines writes a checklist one item a line, with its group, text
// and cases, for comparing two.
func checklistLines(cl *Checklist) []string {
	var out []string
	for _, it := range cl.Items {
		var from []string
		for _, s := range it.From {
			from = append(from, s.Case.ID+":"+s.Status)
		}
		out = append(out, fmt.Sprintf("%d %s %q %q ← %s", it.Index, it.Group, it.Text.En, it.Text.Ko, strings.Join(from, " ")))
	}
	return out
}

// TestChecklistPrefixFilter holds NewChecklist's candidates to the pairs
// that can merge: on the library's own cases, on the fixture's near
// duplicates and on 300 generated cases, with each case's items also
// copied into a later case in other words (so merges happen at every
// threshold), it merges exactly as comparing every pair does.
func TestChecklistPrefixFilter(t *testing.T) {
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: 300, Seed: 3}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	cs := append(slices.Clone(loadContent(t, contentFS(t)).Cases), checklistCases()...)
	cs = append(cs, boundaryPair()...)
	cs = append(cs, gen.Cases...)
	// Echoes: a case that repeats an earlier case's items with a word
	// dropped or added, so overlaps fall on both sides of each threshold.
	for i, c := range slices.Clone(cs) {
		if i%3 != 0 || len(c.ActionItems) == 0 {
			continue
		}
		echo := &cases.Case{ID: c.ID + "-echo"}
		for j, a := range c.ActionItems {
			en, ko := strings.Fields(a.Text.En), strings.Fields(a.Text.Ko)
			switch j % 3 {
			case 0:
				en = append(en, "again")
			case 1:
				if len(en) > 2 {
					en = en[1:]
				}
				if len(ko) > 2 {
					ko = ko[:len(ko)-1]
				}
			}
			a.Text = cases.Bilingual{En: strings.Join(en, " "), Ko: strings.Join(ko, " ")}
			if j%4 == 3 {
				a.Text.En = ""
			}
			echo.ActionItems = append(echo.ActionItems, a)
		}
		cs = append(cs, echo)
	}
	got, want := checklistLines(NewChecklist(cs)), checklistLines(checklistByAllPairs(cs))
	merged := 0
	for _, it := range NewChecklist(cs).Items {
		merged += len(it.From) - 1
	}
	if merged < 50 {
		t.Fatalf("only %d merges: the test does not exercise merging", merged)
	}
	if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "IL-9001:done IL-9002:done") }) {
		t.Errorf("the boundary pair did not merge")
	}
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("item %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
	t.Logf("%d cases, %d items, %d merges", len(cs), len(got), merged)
}

// boundaryPair is two cases whose items merge exactly at the thresholds,
// where the prefix filter is tight: the second item's words are a part of
// the first's (3 of 5 English words, 9 of 20 Korean), and the words only
// the first has are the rarest, so of the first item's prefix only its
// last word is shared, in either language.
func boundaryPair() []*cases.Case {
	made := 0
	en := func() string { made++; return fmt.Sprintf("zq%c%c", 'a'+made/20, 'a'+made%20) }
	syl := []rune("갸냐댜랴먀뱌샤쟈챠캬탸퍄햐")
	ko := func() string { made++; return string([]rune{syl[made/len(syl)%len(syl)], syl[made%len(syl)]}) }
	words := func(f func() string, n int) []string {
		var out []string
		for range n {
			out = append(out, f())
		}
		return out
	}
	enOwn, enShared := words(en, 2), words(en, 3)
	koOwn, koShared := words(ko, 11), words(ko, 9)
	item := func(en, ko []string) cases.ActionItem {
		return cases.ActionItem{Text: cases.Bilingual{En: strings.Join(en, " "), Ko: strings.Join(ko, " ")}, Kind: "detect", Status: "done"}
	}
	return []*cases.Case{
		{ID: "IL-9001", ActionItems: []cases.ActionItem{item(append(enOwn, enShared...), append(koOwn, koShared...))}},
		{ID: "IL-9002", ActionItems: []cases.ActionItem{item(enShared, koShared)}},
	}
}

// TestChecklistForByCase holds For, which looks only at the items of the
// cases asked for, to For over every item: on runs of cases, on every
// third case, on cases out of the library's order, on a case given twice
// and on one the checklist does not know.
func TestChecklistForByCase(t *testing.T) {
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: 200, Seed: 5}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	cs := append(slices.Clone(gen.Cases), checklistCases()...)
	cs = append(cs, boundaryPair()...)
	cl := NewChecklist(cs)
	all := &Checklist{Items: cl.Items}
	var subsets [][]*cases.Case
	for i := 0; i < len(cs); i += 37 {
		subsets = append(subsets, cs[i:min(i+25, len(cs))])
	}
	var third, reversed []*cases.Case
	for i, c := range cs {
		if i%3 == 0 {
			third = append(third, c)
		}
		reversed = append([]*cases.Case{c}, reversed...)
	}
	// A case twice, and a case without items (of another library), ask
	// for nothing more.
	twice := append(slices.Clone(cs[:30]), cs[10:40]...)
	subsets = append(subsets, third, reversed[:60], cs[len(cs)-6:], twice, append(slices.Clone(cs[:5]), &cases.Case{ID: "IL-9999"}))
	lines := func(groups []CheckGroup) string {
		var b strings.Builder
		for _, g := range groups {
			for _, l := range g.Items {
				fmt.Fprintf(&b, "%s %d", g.Name, l.Item.Index)
				for _, s := range l.From {
					fmt.Fprintf(&b, " %s:%s", s.Case.ID, s.Status)
				}
				b.WriteString("\n")
			}
		}
		return b.String()
	}
	shared := 0
	for i, sub := range subsets {
		got, want := lines(cl.For(sub)), lines(all.For(sub))
		if got != want {
			t.Fatalf("subset %d:\n got %s\nwant %s", i, got, want)
		}
		if strings.Count(want, ":") > strings.Count(want, "\n") {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("no subset has an item from two of its cases: the test does not exercise merged items")
	}
}

// BenchmarkChecklist merges the action items and lessons of 1,000
// generated cases.
func BenchmarkChecklist(b *testing.B) { benchChecklist(b, 1000) }

// BenchmarkChecklist10000 merges those of 10,000 generated cases, where
// the candidates the prefix filter finds grow faster than the items.
func BenchmarkChecklist10000(b *testing.B) { benchChecklist(b, 10000) }

func benchChecklist(b *testing.B, n int) {
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	b.ReportAllocs()
	start := repotest.CPUTime()
	for b.Loop() {
		NewChecklist(lib.Cases)
	}
	b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkChecklistFor takes the checklist of every topic of 1,000
// generated cases, as their pages and API files do; the figures are per
// whole library.
func BenchmarkChecklistFor(b *testing.B) {
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: 1000, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	l := Derive(lib)
	cl := l.Checklist()
	b.ReportAllocs()
	for b.Loop() {
		for _, ft := range l.Topics() {
			for _, t := range ft.Topics {
				cl.For(t.Cases)
			}
		}
	}
}
