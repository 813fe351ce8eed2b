package site

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/gencases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/related"
	"incidentlib/internal/urls"
)

// TestKoreanSpeechLevel checks that the interface speaks in one register:
// every Korean UI string that is a sentence ends in 합니다체, and every other
// one is a label (no sentence ending at all). "사례가 없다." beside "맞는
// 사례가 없습니다." is what this keeps out.
func TestKoreanSpeechLevel(t *testing.T) {
	b, err := fs_ReadFile("strings.json")
	if err != nil {
		t.Fatal(err)
	}
	strs, err := l10n.ParseStrings(b)
	if err != nil {
		t.Fatal(err)
	}
	// A sentence ends in punctuation; 합니다체 ends in -니다, -니까 or a
	// polite request (-세요, -십시오 as the MCP answers ask).
	sentence := regexp.MustCompile(`[.!?]$`)
	polite := regexp.MustCompile(`(니다|니까|세요|시오)[.!?]$`)
	// A label may end in a noun or a noun form (알 수 없음), but not like a
	// plain-style sentence (없다, 했다) or a bare 합니다 without its period
	// being the only difference from one.
	plain := regexp.MustCompile(`[^니]다$`)
	// Sentences may end in a placeholder or a quoted term; judge the words.
	trim := regexp.MustCompile(`\s*(%(\[\d\])?s)?[)"”]*$`)
	// A value shown after a colon ("받은 값: %[1]s.") is not the sentence's
	// end, and neither is one right before the period ("없습니다%[2]s.").
	shown := regexp.MustCompile(`:\s*%(\[\d\])?s\.$`)
	tail := regexp.MustCompile(`%(\[\d\])?s([.!?])$`)
	for key, m := range strs {
		ko := strings.TrimSpace(m["ko"])
		if key == "lang.switch" || key == "lang.switch_label" {
			continue // English on the Korean page, by design
		}
		// A colon introduces what follows ("같은 증상: …"); judge the words.
		judged := tail.ReplaceAllString(shown.ReplaceAllString(ko, ""), "$2")
		judged = strings.TrimSuffix(trim.ReplaceAllString(judged, ""), ":")
		switch {
		case sentence.MatchString(judged):
			if !polite.MatchString(judged) {
				t.Errorf("%s: %q is a sentence but not in 합니다체", key, ko)
			}
		case plain.MatchString(judged):
			t.Errorf("%s: %q ends like a plain-style sentence; write a label or a 합니다체 sentence", key, ko)
		}
	}
}

func fs_ReadFile(name string) ([]byte, error) {
	f, err := incidentlib.Templates().Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return []byte(b.String()), nil
}

// TestRelatedGroupsTruthful checks every case page of a generated library:
// a group heading names only terms that at least one case under it shares
// with the page's case, says "same root cause" only when every case under
// it has it, and each case's line states exactly what the pair shares.
func TestRelatedGroupsTruthful(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	lib := loadContent(t, gencases.MapFS(gencases.Options{N: n, Seed: 7}))
	model := library.Derive(lib)
	shared := func(a, b []string) []string {
		var out []string
		for _, x := range a {
			if slices.Contains(b, x) {
				out = append(out, x)
			}
		}
		return out
	}
	groups, links := 0, 0
	for _, c := range lib.Cases {
		for _, g := range model.Related(c.ID) {
			groups++
			var comps, contrib, syms []string
			allSameRC := true
			for _, l := range g.Links {
				links++
				o := lib.ByID[l.ID]
				if got, want := l.SameRootCause, c.RootCause == o.RootCause; got != want {
					t.Errorf("%s→%s: line says same root cause %v, cases say %v", c.ID, o.ID, got, want)
				}
				for _, f := range []struct {
					name      string
					got, a, b []string
				}{
					{"components", l.Components, c.Components, o.Components},
					{"contributing", l.Contributing, c.Contributing, o.Contributing},
					{"symptoms", l.Symptoms, c.Symptoms, o.Symptoms},
				} {
					if want := shared(f.a, f.b); !slices.Equal(f.got, want) {
						t.Errorf("%s→%s %s: line says %v, the pair shares %v", c.ID, o.ID, f.name, f.got, want)
					}
				}
				comps = append(comps, l.Components...)
				contrib = append(contrib, l.Contributing...)
				syms = append(syms, l.Symptoms...)
				allSameRC = allSameRC && l.SameRootCause
			}
			if g.SameRootCause && !allSameRC {
				t.Errorf("%s: heading says same root cause, but not every case under it has it", c.ID)
			}
			for _, f := range []struct {
				name        string
				head, lines []string
			}{{"components", g.Components, comps}, {"contributing", g.Contributing, contrib}, {"symptoms", g.Symptoms, syms}} {
				for _, id := range f.head {
					if !slices.Contains(f.lines, id) {
						t.Errorf("%s: heading names %s %q, which no case under it shares", c.ID, f.name, id)
					}
				}
			}
			if g.Kind == related.Computed && len(g.Links) == 0 {
				t.Errorf("%s: empty group", c.ID)
			}
		}
	}
	if links < n {
		t.Errorf("only %d related links in %d groups for %d cases", links, groups, n)
	}
}

// TestKoreanCounters checks that Korean pages count with counters: the home
// page's figures and a topic's count.
func TestKoreanCounters(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	s := newSite(t, lib, false)
	// Tags go without a space: "사례 <strong>14</strong>건" reads 사례 14건.
	home := html.UnescapeString(tagRe.ReplaceAllString(render(t, s, Job{Kind: KindHome, Lang: "ko", Path: urls.Home("ko")}), ""))
	for _, want := range []string{
		"사례 " + l10n.Number(len(lib.Cases)) + "건",
		"조직 " + l10n.Number(len(s.topics["orgs"].Topics)) + "곳",
		"구성 요소 " + l10n.Number(len(s.topics["components"].Topics)) + "개",
		"원인 " + l10n.Number(len(s.topics["root-causes"].Topics)) + "가지",
	} {
		if !strings.Contains(home, want) {
			t.Errorf("Korean home lacks %q", want)
		}
	}
	if regexp.MustCompile(`\d+ 사례`).MatchString(home) {
		t.Error("Korean home writes a bare number before 사례")
	}
	var topic *library.Topic
	for _, tp := range s.topics["components"].Topics {
		if len(tp.Cases) >= 2 {
			topic = tp
			break
		}
	}
	page := visible(render(t, s, Job{Kind: KindTopic, Lang: "ko", Path: urls.Topic("ko", "components", topic.ID, 1), Topic: topic, Facet: "components", Page: 1}))
	n := l10n.Number(len(topic.Cases))
	for _, want := range []string{"사례 " + n + "건", n + "건 중 1~"} {
		if !strings.Contains(page, want) {
			t.Errorf("Korean topic page lacks %q", want)
		}
	}
}

// TestNoUntranslatedMark checks that every case page is whole in both
// languages: no text of the other language, marked as not translated, on
// any of them, the seed cases included (their impact fields, plain English
// strings in the seeds, have Korean now).
func TestNoUntranslatedMark(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	s := newSite(t, lib, false)
	// The count finds the mark: a copy of IL-0495 with its impact in
	// English only, as the seed has it, shows it marked on the Korean page.
	seed := *lib.ByID["IL-0495"]
	seed.Impact.Scope.Ko, seed.Impact.Users.Ko = "", ""
	if n := strings.Count(render(t, s, Job{Kind: KindCase, Lang: "ko", Path: urls.Case("ko", seed.ID), Case: &seed}), `class="mark"`); n != 2 {
		t.Errorf("IL-0495 with English-only impact: %d untranslated marks, want 2", n)
	}
	for _, c := range lib.Cases {
		for _, lang := range []string{"en", "ko"} {
			page := render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
			n := strings.Count(page, `class="mark"`)
			if n > 0 {
				t.Errorf("%s %s: %d texts shown in the other language, marked as not translated", c.ID, lang, n)
			}
		}
	}
}
