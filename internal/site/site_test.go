package site

import (
	"encoding/json"
	"html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib"
	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/markup"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

func loadContent(t testing.TB, fsys fstest.MapFS) *cases.Library {
	t.Helper()
	lib, list := cases.Load(fsys)
	if list.Errors() > 0 {
		t.Fatalf("content has errors: %v", list.Err())
	}
	return lib
}

func contentFS(t testing.TB) fstest.MapFS { return repotest.MapFS(t, "content") }

func newSite(t testing.TB, lib *cases.Library, offline bool) *Site {
	t.Helper()
	s, err := New(library.Derive(lib), Options{Offline: offline, Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func render(t testing.TB, s *Site, j Job) string {
	t.Helper()
	b, _, err := s.RenderBytes(j)
	if err != nil {
		t.Fatalf("%s: %v", j.Path, err)
	}
	return string(b)
}

var (
	tagRe     = regexp.MustCompile(`<[^>]*>`)
	assetHash = regexp.MustCompile(`(assets/[a-z-]+)\.[0-9a-f]{10}\.([a-z]+)`)
	integrity = regexp.MustCompile(`integrity="sha256-[^"]+"`)
)
var spaceRe = regexp.MustCompile(`\s+`)

// visible returns a page's text as a reader sees it: tags removed, entities
// decoded, white space folded.
func visible(s string) string {
	return strings.TrimSpace(spaceRe.ReplaceAllString(html.UnescapeString(tagRe.ReplaceAllString(s, " ")), " "))
}

// TestLossless checks that every non-empty text field of every case appears
// on that case's page in that language, and that untranslated text is
// shown in the other language with a mark.
func TestLossless(t *testing.T) {
	lib := loadContent(t, repotest.ContentMapFS(t))
	s := newSite(t, lib, false)
	for _, c := range lib.Cases {
		for _, lang := range cases.Languages {
			page := render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
			text := visible(page)
			check := func(field string, t2 cases.Bilingual) {
				src, written := t2.In(lang)
				if src == "" {
					return
				}
				for _, para := range strings.Split(src, "\n\n") {
					want := visible(markup.Paragraphs(para))
					if !strings.Contains(text, want) {
						t.Errorf("%s %s: %s: text missing from page: %.80q", c.ID, lang, field, want)
					}
				}
				if written != lang && !strings.Contains(page, `lang="`+written+`"`) {
					t.Errorf("%s %s: %s: untranslated text without lang", c.ID, lang, field)
				}
			}
			for name, f := range map[string]cases.Bilingual{"title": c.Title, "summary": c.Summary, "symptoms_text": c.SymptomsText, "trigger": c.Trigger, "detection": c.Detection} {
				check(name, f)
			}
			for name, f := range map[string]cases.Bilingual{"impact.scope": c.Impact.Scope, "impact.users": c.Impact.Users} {
				if f.En != "unknown" {
					check(name, f)
				}
			}
			if c.Lessons != nil {
				check("lessons", *c.Lessons)
			}
			for _, r := range c.Remediation {
				check("remediation", r)
			}
			for i, a := range c.ActionItems {
				check("action_items", a.Text)
				if a.Text.Get(lang) == "" && !strings.Contains(page, s.strings.Get(lang, "notranslation")) && !strings.Contains(page, "not translated yet") && !strings.Contains(page, "아직 번역되지 않음") {
					t.Errorf("%s %s: action_items[%d] untranslated without a mark", c.ID, lang, i)
				}
			}
			plain := []string{c.ID, c.OrgName().Get(lang), c.Date.String(), c.URL, casemd.WrittenBy(s.strings, lang, c), c.Review.ReviewedBy}
			if c.Impact.Region != "unknown" {
				plain = append(plain, c.Impact.Region)
			}
			for _, src := range c.Sources {
				plain = append(plain, src.URL, src.Archived)
			}
			plain = append(plain, c.Docs...)
			for _, v := range plain {
				if v != "" && !strings.Contains(page, html.EscapeString(v)) && !strings.Contains(text, v) {
					t.Errorf("%s %s: %q missing", c.ID, lang, v)
				}
			}
			// Controlled terms appear by their label in the page's language.
			terms := map[string][]string{"symptoms": c.Symptoms, "components": c.Components, "contributing": c.Contributing, "domain": c.Domain, "root_cause": {c.RootCause}}
			for field, ids := range terms {
				for _, id := range ids {
					tm, _ := lib.Vocab.Term(field, id)
					if !strings.Contains(text, tm.Label.Get(lang)) {
						t.Errorf("%s %s: %s label %q missing", c.ID, lang, field, tm.Label.Get(lang))
					}
				}
			}
			if strings.Contains(page, "[case.") || strings.Contains(page, "[fact.") {
				t.Errorf("%s %s: untranslated UI key on page", c.ID, lang)
			}
		}
	}
}

// TestLocalised checks the seeds' way of writing dates and durations.
func TestLocalised(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	s := newSite(t, lib, false)
	c := lib.ByID["IL-0495"]
	ko := visible(render(t, s, Job{Kind: KindCase, Lang: "ko", Path: urls.Case("ko", c.ID), Case: c}))
	en := visible(render(t, s, Job{Kind: KindCase, Lang: "en", Path: urls.Case("en", c.ID), Case: c}))
	for _, want := range []string{"2024년 8월 27일", "56분", "소프트웨어 결함", "인그레스 컨트롤러", "증상", "계기", "후속 조치", "교훈", "함께 게시된 곳", "둘 다 인그레스 컨트롤러 관련"} {
		if !strings.Contains(ko, want) {
			t.Errorf("Korean page lacks %q", want)
		}
	}
	// Issue 27's words: no ISO date in the Korean header, no "원래 주소" for
	// "Also published at", no "촉발" heading, no component called shared.
	for _, unwanted := range []string{"원래 주소", "촉발", "공통 인그레스"} {
		if strings.Contains(ko, unwanted) {
			t.Errorf("Korean page has %q", unwanted)
		}
	}
	koPage := render(t, s, Job{Kind: KindCase, Lang: "ko", Path: urls.Case("ko", c.ID), Case: c})
	if i := strings.Index(koPage, `<p class="kicker">`); i < 0 {
		t.Error("no kicker on the Korean case page")
	} else if kicker := visible(koPage[i : i+strings.Index(koPage[i:], "</p>")]); !strings.Contains(kicker, "HubSpot · 2024년 8월 27일") {
		t.Errorf("Korean kicker = %q, want the date in words", kicker)
	}
	if !strings.Contains(en, "both involve Ingress controller") || strings.Contains(en, "shared Ingress") {
		t.Error("English page does not say the related cases both involve the Ingress controller")
	}
	for _, want := range []string{"27 August 2024", "56m", "Software defect", "Ingress controller", "Time to resolve", "Check your cluster for this", "For AI tools and scripts"} {
		if !strings.Contains(en, want) {
			t.Errorf("English page lacks %q", want)
		}
	}
	list := visible(render(t, s, Job{Kind: KindTopic, Lang: "ko", Path: urls.Topic("ko", "components", "ingress", 1), Topic: s.topics["components"].Topic("ingress"), Facet: "components", Page: 1}))
	n := len(s.topics["components"].Topic("ingress").Cases)
	for _, want := range []string{"사례 " + itoa(n) + "건", itoa(n) + "건 중 1~" + itoa(min(n, lib.Settings.PageSize)) + "번째", "가장 많이 나오는 구성 요소"} {
		if !strings.Contains(list, want) {
			t.Errorf("Korean topic page lacks %q", want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestEscaping feeds hostile text through a whole case page.
func TestEscaping(t *testing.T) {
	m := contentFS(t)
	b := string(m["cases/IL-0495.json"].Data)
	b = strings.Replace(b, `"en":"HubSpot's internal load balancers on Kubernetes`, `"en":"<script>alert(1)</script><img src=x onerror=alert(2)> HubSpot's internal load balancers on Kubernetes`, 1)
	b = strings.Replace(b, `"en":"HubSpot concluded`, `"en":"[click](javascript:alert(3)) <a href=\"javascript:alert(4)\">x</a> HubSpot concluded`, 1)
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(b)}
	lib := loadContent(t, m)
	s := newSite(t, lib, false)
	c := lib.ByID["IL-0495"]
	page := render(t, s, Job{Kind: KindCase, Lang: "en", Path: urls.Case("en", c.ID), Case: c})
	for _, bad := range []string{"<script>alert", "<img"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if m := regexp.MustCompile(`<a[^>]+href="?javascript:`).FindString(page); m != "" {
		t.Errorf("page has a javascript: link: %s", m)
	}
	if !strings.Contains(visible(page), "<script>alert(1)</script>") {
		t.Error("the script tag is not shown as text")
	}
}

// TestDeterministic renders every job twice.
func TestDeterministic(t *testing.T) {
	lib := loadContent(t, repotest.ContentMapFS(t))
	a, b := newSite(t, lib, false), newSite(t, loadContent(t, repotest.ContentMapFS(t)), false)
	ja, jb := a.Jobs(), b.Jobs()
	if len(ja) != len(jb) {
		t.Fatalf("%d vs %d jobs", len(ja), len(jb))
	}
	missing := regexp.MustCompile(`\[[a-z-]+\.[a-z_.-]+\]`)
	for i := range ja {
		x, y := render(t, a, ja[i]), render(t, b, jb[i])
		if x != y {
			t.Errorf("%s differs between two builds", ja[i].Path)
		}
		// strings.Get shows a missing UI string as [key]; no page may.
		if m := missing.FindString(x); m != "" && ja[i].Kind != KindAsset {
			t.Errorf("%s shows the missing UI string %s", ja[i].Path, m)
		}
	}
}

// TestGolden compares a few pages with files under testdata/golden; run
// with -update after an intended change and read the diff.
func TestGolden(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	s := newSite(t, lib, false)
	c := lib.ByID["IL-0338"]
	for name, j := range map[string]Job{
		"case-en.html":    {Kind: KindCase, Lang: "en", Path: urls.Case("en", c.ID), Case: c},
		"case-ko.html":    {Kind: KindCase, Lang: "ko", Path: urls.Case("ko", c.ID), Case: c},
		"topic-ko.html":   {Kind: KindTopic, Lang: "ko", Path: urls.Topic("ko", "components", "cloud-load-balancer", 1), Topic: s.topics["components"].Topic("cloud-load-balancer"), Facet: "components", Page: 1},
		"home-ko.html":    {Kind: KindHome, Lang: "ko", Path: urls.Home("ko")},
		"cases-ko.html":   {Kind: KindCases, Lang: "ko", Path: urls.Cases("ko", 1), Page: 1},
		"ingress-ko.html": {Kind: KindTopic, Lang: "ko", Path: urls.Topic("ko", "components", "ingress", 1), Topic: s.topics["components"].Topic("ingress"), Facet: "components", Page: 1},
	} {
		got := render(t, s, j)
		// Asset hashes change with every edit of the stylesheet or script;
		// TestAssetNames covers them, so the golden pages leave them out.
		got = assetHash.ReplaceAllString(got, "$1.HASH.$2")
		got = integrity.ReplaceAllString(got, `integrity="sha256-HASH"`)
		// One tag per line keeps golden diffs readable.
		got = strings.ReplaceAll(got, "><", ">\n<")
		path := filepath.Join("testdata", "golden", name)
		if repotest.Update() {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from golden; run go test ./internal/site -update and review the diff", name)
		}
	}
}

// TestAssetNames: an asset's published name changes when its content
// changes, and only then.
func TestAssetNames(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	names := func(css, js string) map[string]string {
		static := fstest.MapFS{"css/site.css": {Data: []byte(css)}, "js/search.js": {Data: []byte(js)}}
		s, err := New(library.Derive(lib), Options{Templates: incidentlib.Templates(), Static: static})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for k, a := range s.assets {
			out[k] = a.Path
		}
		return out
	}
	a := names("body { color: red }", "var a = /*catalogue*/null;")
	b := names("body { color: red }", "var a = /*catalogue*/null;")
	c := names("body { color: blue }", "var a = /*catalogue*/null;")
	if a["css/site.css"] != b["css/site.css"] || a["js/search.js"] != b["js/search.js"] {
		t.Errorf("same content, different names: %v %v", a, b)
	}
	if a["css/site.css"] == c["css/site.css"] {
		t.Errorf("changed stylesheet kept its name %s", a["css/site.css"])
	}
	if a["js/search.js"] != c["js/search.js"] {
		t.Errorf("unchanged script renamed: %s → %s", a["js/search.js"], c["js/search.js"])
	}
	if !strings.HasPrefix(a["css/site.css"], "assets/site.") || !strings.HasSuffix(a["css/site.css"], ".css") {
		t.Errorf("name %s", a["css/site.css"])
	}
}

// TestJSONLD holds a case page's schema.org data, written by hand, to what
// json.Marshal writes for it, on data made at random of text that JSON
// escapes (quotes, backslashes, <, > and &, control characters, U+2028,
// invalid UTF-8) and text it does not (Hangul, URLs), with the optional
// fields now set and now empty.
func TestJSONLD(t *testing.T) {
	pieces := []string{"", "a", "Title", "한국어", "https://x.example/a?b=c", `"`, `\`, "<", ">", "&", "\n", "\t", "\x01", "\x7f", "\u2028", "\u2029", "\xff", "é", " "}
	r := rand.New(rand.NewPCG(9, 10))
	str := func() string {
		return repotest.Pieces(r, pieces, r.IntN(5))
	}
	for range 5000 {
		d := articleLD{
			Context: str(), Type: str(), DateModified: str(), Description: str(), Headline: str(),
			Identifier: str(), InLanguage: str(), IsPartOf: siteLD{Type: str(), Name: str(), URL: str()},
			Keywords: str(), Publisher: orgLD{Type: str(), Name: str()}, TemporalCoverage: str(), URL: str(),
		}
		for range r.IntN(3) {
			d.IsBasedOn = append(d.IsBasedOn, str())
		}
		if r.IntN(4) == 0 {
			d.IsBasedOn = []string{}
		}
		want, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.appendJSON(nil); string(got) != string(want) {
			t.Fatalf("appendJSON wrote\n%s\njson.Marshal writes\n%s", got, want)
		}
	}
}
