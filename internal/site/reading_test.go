package site

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/urls"
)

// TestReading checks the parts of list and topic pages that a reader
// scans, and the per-language 404 pages (issue 27), on the shipped content.
func TestReading(t *testing.T) {
	s := newSite(t, loadContent(t, contentFS(t)), false)

	t.Run("org order", func(t *testing.T) {
		var names []string
		for _, tp := range s.topics["orgs"].Topics {
			names = append(names, tp.Label.En)
		}
		if i, j := slices.Index(names, "DevOps Hof"), slices.Index(names, "DFDS"); i < 0 || j < 0 || i > j {
			t.Errorf("organisations in order %q: want DevOps Hof before DFDS (collation, not bytes)", names)
		}
		for i := 1; i < len(names); i++ {
			if strings.ToLower(names[i-1]) > strings.ToLower(names[i]) {
				t.Errorf("organisations out of order, whatever their case: %q before %q", names[i-1], names[i])
			}
		}
	})

	t.Run("pager names", func(t *testing.T) {
		for lang, want := range map[string][2]string{"en": {"Previous", "Next"}, "ko": {"이전", "다음"}} {
			page2 := render(t, s, Job{Kind: KindCases, Lang: lang, Path: urls.Cases(lang, 2), Page: 2})
			for i, rel := range []string{"prev", "next"} {
				at := strings.Index(page2, `rel="`+rel+`"`)
				if at < 0 {
					t.Fatalf("%s page 2: no %s link", lang, rel)
				}
				link := page2[at:]
				link = link[:strings.Index(link, "</a>")]
				if !strings.Contains(link, `<span class="vh">`+want[i]+`</span>`) {
					t.Errorf("%s page 2: the %s arrow is not named %q: %s", lang, rel, want[i], link)
				}
			}
		}
	})

	t.Run("compact item", func(t *testing.T) {
		c := s.lib.ByID["IL-0495"]
		h, err := cards{s}.cardHTML("ko", c)
		if err != nil {
			t.Fatal(err)
		}
		card := string(h)
		summary := card[strings.Index(card, "<summary>"):strings.Index(card, "</summary>")]
		if !strings.Contains(summary, "HubSpot") || strings.Contains(summary, "\n") {
			t.Errorf("the item's summary line is not the summary's first paragraph on one line: %q", summary)
		}
		digest := card[strings.Index(card, "</summary>"):strings.Index(card, "</details>")]
		for _, it := range c.ActionItems {
			if !strings.Contains(digest, it.Text.Ko) {
				t.Errorf("the digest leaves out the action item %q (seed 002 lists them all)", it.Text.Ko)
			}
		}
		before := card[:strings.Index(card, "<details>")]
		for _, term := range []string{"소프트웨어 결함", "인그레스 컨트롤러"} {
			if !strings.Contains(before, term) {
				t.Errorf("the closed item does not show the term %q", term)
			}
		}
	})

	// A digest whose action items give neither kind nor status says
	// "status unknown" once, by the heading, and every item still; one
	// that gives them says them on every line.
	t.Run("unknown status once", func(t *testing.T) {
		c := *s.lib.ByID["IL-0495"]
		known := strings.Count(string(must(cards{s}.cardHTML("en", s.lib.ByID["IL-0495"]))), "status-")
		if known != len(c.ActionItems) {
			t.Errorf("a card whose items give their status marks %d of %d", known, len(c.ActionItems))
		}
		c.ActionItems = slices.Clone(c.ActionItems)
		for i := range c.ActionItems {
			c.ActionItems[i].Kind, c.ActionItems[i].Status = "", ""
		}
		for lang, word := range map[string]string{"en": "Status unknown", "ko": "진행 상황 미상"} {
			var b bytes.Buffer
			if err := s.theme.execute(&b, "list", "card", (&pageView{Lang: lang, s: s}).card(&c, nil)); err != nil {
				t.Fatal(err)
			}
			card := b.String()
			if n := strings.Count(card, word); n != 1 {
				t.Errorf("%s: a card whose items give no status says %q %d times, want once", lang, word, n)
			}
			for _, it := range c.ActionItems {
				if text := it.Text.Get(lang); !strings.Contains(card, text) {
					t.Errorf("%s: the digest leaves out the action item %q", lang, text)
				}
			}
			// The case's page says it once too.
			page := render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: &c})
			items := page[strings.Index(page, `id="action-items"`):]
			items = items[:strings.Index(items, "</section>")]
			if n := strings.Count(items, word); n != 1 {
				t.Errorf("%s: a case page whose items give no status says %q %d times, want once", lang, word, n)
			}
			for _, it := range c.ActionItems {
				if text := it.Text.Get(lang); !strings.Contains(items, text) {
					t.Errorf("%s: the case page leaves out the action item %q", lang, text)
				}
			}
		}
	})

	t.Run("404 per language", func(t *testing.T) {
		var got []string
		for _, j := range s.Jobs() {
			if j.Kind == KindNotFound {
				got = append(got, j.Path)
				if inSitemap(j) && slices.Contains(s.pageJobs(), j) {
					t.Errorf("%s is in the sitemap", j.Path)
				}
			}
		}
		if want := []string{urls.NotFound, urls.NotFoundIn("en"), urls.NotFoundIn("ko")}; !slices.Equal(got, want) {
			t.Errorf("404 pages %q, want %q", got, want)
		}
		ko := render(t, s, Job{Kind: KindNotFound, Lang: "ko", Path: urls.NotFoundIn("ko")})
		for _, want := range []string{`<html lang="ko">`, "<h1>페이지를 찾을 수 없습니다</h1>", `id="q-header"`, `name="robots" content="noindex"`} {
			if !strings.Contains(ko, want) {
				t.Errorf("ko/404.html lacks %s", want)
			}
		}
		if strings.Contains(ko, `href="../`) || strings.Contains(ko, `href="./`) {
			t.Errorf("ko/404.html has relative links, which break at any other depth")
		}
		root := render(t, s, Job{Kind: KindNotFound, Path: urls.NotFound})
		if strings.Contains(root, `class="site-header"`) || !strings.Contains(root, `<section lang="ko">`) {
			t.Errorf("the root 404 page is not in both languages alike (one language's header, or no Korean part)")
		}
	})

	t.Run("chooser", func(t *testing.T) {
		root := render(t, s, Job{Kind: KindRoot})
		if strings.Contains(root, `class="site-header"`) || strings.Contains(root, `class="site-footer"`) {
			t.Errorf("the language chooser has one language's header or footer")
		}
		for _, want := range []string{`<nav aria-label="Main">`, `<nav aria-label="주 메뉴">`, `href="./ko/search/"`, `href="./en/search/"`} {
			if !strings.Contains(root, want) {
				t.Errorf("the language chooser lacks %s", want)
			}
		}
	})
	// The homes and the chooser name each other alike: x-default, the
	// chooser, on both homes, in their <head> and in the sitemap, and on
	// no other page.
	t.Run("x-default", func(t *testing.T) {
		xdef := `hreflang="x-default" href="` + s.base + `"`
		for _, lang := range []string{"en", "ko"} {
			home := render(t, s, Job{Kind: KindHome, Lang: lang, Path: urls.Home(lang)})
			if !strings.Contains(home, xdef) {
				t.Errorf("the %s home's head lacks %s", lang, xdef)
			}
			list := render(t, s, Job{Kind: KindCases, Lang: lang, Path: urls.Cases(lang, 1), Page: 1})
			if strings.Contains(list, "x-default") {
				t.Errorf("the %s case list names an x-default", lang)
			}
		}
		sitemap := render(t, s, Job{Kind: KindSitemap, Path: urls.Sitemap})
		homes := 0
		for _, entry := range strings.Split(sitemap, "</url>") {
			isHome := strings.Contains(entry, "<loc>"+s.base+urls.Home("en")+"</loc>") || strings.Contains(entry, "<loc>"+s.base+urls.Home("ko")+"</loc>")
			if isHome {
				homes++
			}
			if has := strings.Contains(entry, `hreflang="x-default" href="`+s.base+`"/>`); has != isHome {
				t.Errorf("sitemap entry with x-default %v, a home %v:\n%s", has, isHome, strings.TrimSpace(entry))
			}
		}
		if homes != 2 {
			t.Errorf("the sitemap lists %d homes, want 2", homes)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
