package site

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/urls"
)

var metaRe = regexp.MustCompile(`<meta (?:property|name)="([^"]+)" content="([^"]*)">`)

// metas returns a page's meta tags by property or name (the last of each).
func metas(page string) map[string]string {
	out := map[string]string{}
	for _, m := range metaRe.FindAllStringSubmatch(page, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// jsonLDOf returns the text of the page's application/ld+json script.
func jsonLDOf(page string) (string, bool) {
	const open = `<script type="application/ld+json">`
	i := strings.Index(page, open)
	if i < 0 {
		return "", false
	}
	rest := page[i+len(open):]
	return rest[:strings.Index(rest, "</script>")], true
}

// TestLinkPreview checks the Open Graph and Twitter card tags of a page of
// every kind, and the schema.org data of case pages.
func TestLinkPreview(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	s := newSite(t, lib, false)
	seen := map[Kind]bool{}
	for _, j := range s.Jobs() {
		if j.Kind == KindFeed || j.Kind == KindTopicFeed || j.Kind == KindChanges || j.Kind == KindSitemap || j.Kind == KindRobots || j.Kind == KindAsset || j.Kind == KindPrepareData || (seen[j.Kind] && j.Kind != KindCase) {
			continue
		}
		seen[j.Kind] = true
		page := render(t, s, j)
		m := metas(page)
		lang := j.Lang
		if lang == "" {
			lang = "en"
		}
		locale, other := "en_US", "ko_KR"
		if lang == "ko" {
			locale, other = other, locale
		}
		title := html.UnescapeString(regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(page)[1])
		for k, want := range map[string]string{"og:locale": locale, "og:locale:alternate": other, "twitter:card": "summary", "og:site_name": "incidentlib"} {
			if m[k] != want {
				t.Errorf("%s: %s is %q, want %q", j.File(), k, m[k], want)
			}
		}
		for _, k := range []string{"og:title", "og:description", "description"} {
			if m[k] == "" {
				t.Errorf("%s: no %s", j.File(), k)
			}
		}
		// X's card falls back to Open Graph's title and description: a
		// copy of them would only be bytes on every page.
		for _, k := range []string{"twitter:title", "twitter:description"} {
			if m[k] != "" {
				t.Errorf("%s: %s repeats Open Graph's", j.File(), k)
			}
		}
		if !strings.HasPrefix(title, m["og:title"]) {
			t.Errorf("%s: og:title %q does not match the title %q", j.File(), m["og:title"], title)
		}
		if j.Kind != KindNotFound && m["og:url"] != s.base+j.Path {
			t.Errorf("%s: og:url %q, want %q", j.File(), m["og:url"], s.base+j.Path)
		}
		ld, ok := jsonLDOf(page)
		if ok != (j.Kind == KindCase) {
			t.Errorf("%s: JSON-LD present %v, want it on case pages only", j.File(), ok)
		}
		if !ok {
			continue
		}
		if m["og:type"] != "article" {
			t.Errorf("%s: og:type %q", j.File(), m["og:type"])
		}
		var d struct {
			Context  string   `json:"@context"`
			Type     string   `json:"@type"`
			Headline string   `json:"headline"`
			Lang     string   `json:"inLanguage"`
			URL      string   `json:"url"`
			ID       string   `json:"identifier"`
			Sources  []string `json:"isBasedOn"`
		}
		if err := json.Unmarshal([]byte(ld), &d); err != nil {
			t.Errorf("%s: JSON-LD does not parse: %v\n%s", j.File(), err, ld)
			continue
		}
		want, _ := j.Case.Title.In(j.Lang)
		if d.Context != "https://schema.org" || d.Type != "Article" || d.Headline != want || d.Lang != j.Lang || d.URL != s.base+j.Path || d.ID != j.Case.ID || len(d.Sources) != len(j.Case.Sources) {
			t.Errorf("%s: JSON-LD %+v", j.File(), d)
		}
	}
}

// TestJSONLDEscaping puts text that would end the script element, or open
// a comment in it, into a case: the data must still parse and say exactly
// what the case says.
func TestJSONLDEscaping(t *testing.T) {
	m := contentFS(t)
	hostile := `</script><script>alert(1)</script><!-- & \u2028 </SCRIPT `
	quoted, _ := json.Marshal(hostile)
	b := string(m["cases/IL-0495.json"].Data)
	b = strings.Replace(b, `"en":"HubSpot's internal load balancers on Kubernetes`, `"en":`+string(quoted[:len(quoted)-1])+` HubSpot's internal load balancers on Kubernetes`, 1)
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(b)}
	lib := loadContent(t, m)
	s := newSite(t, lib, false)
	c := lib.ByID["IL-0495"]
	page := render(t, s, Job{Kind: KindCase, Lang: "en", Path: urls.Case("en", c.ID), Case: c})
	ld, ok := jsonLDOf(page)
	if !ok {
		t.Fatal("no JSON-LD")
	}
	var d struct{ Headline string }
	if err := json.Unmarshal([]byte(ld), &d); err != nil {
		t.Fatalf("JSON-LD does not parse: %v\n%s", err, ld)
	}
	if want := c.Title.Get("en"); d.Headline != want || !strings.HasPrefix(want, hostile) {
		t.Errorf("headline %q, want %q", d.Headline, want)
	}
	if strings.Contains(strings.ToLower(ld), "<") {
		t.Errorf("JSON-LD holds a raw <: %s", ld)
	}
	if n := strings.Count(page, "<script"); n != 2 { // the JSON-LD and search.js
		t.Errorf("page has %d script elements, want 2", n)
	}
}
