package site

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

// TestEditLinks checks site.json's repository: empty (as shipped), no page
// has a "Suggest a correction" link or names a repository; set, every case
// page links its own file in both languages and in its Markdown twin, prose
// pages link theirs, and the contribute page says where changes go.
func TestEditLinks(t *testing.T) {
	fsys := repotest.ContentMapFS(t)
	const empty = `"repository": {"url": "", "edit_url": ""}`
	site := string(fsys["site.json"].Data)
	if !strings.Contains(site, empty) {
		t.Fatalf("content/site.json has no %s", empty)
	}
	pages := func(lib *cases.Library) map[string]string {
		s := newSite(t, lib, false)
		out := map[string]string{}
		for _, lang := range cases.Languages {
			for _, c := range lib.Cases {
				out[lang+" "+c.ID] = render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
			}
			var md bytes.Buffer
			if err := s.CaseMarkdown(&md, lib.ByID["IL-0495"], lang, false); err != nil {
				t.Fatal(err)
			}
			out[lang+" md"] = md.String()
			for _, slug := range []string{"about", "contribute"} {
				out[lang+" "+slug] = render(t, s, Job{Kind: KindProse, Lang: lang, Path: urls.Prose(lang, slug), Slug: slug})
			}
		}
		return out
	}
	for name, page := range pages(loadContent(t, fsys)) {
		for _, s := range []string{`class="edit"`, "Suggest a correction: <", "수정 제안하기: <", `class="repository"`} {
			if strings.Contains(page, s) {
				t.Errorf("%s: %q with no repository set", name, s)
			}
		}
	}

	fsys["site.json"] = &fstest.MapFile{Data: []byte(strings.Replace(site, empty,
		`"repository": {"url": "https://example.org/lib", "edit_url": "https://example.org/lib/edit/main/content/"}`, 1))}
	for name, page := range pages(loadContent(t, fsys)) {
		lang, what, _ := strings.Cut(name, " ")
		label := map[string]string{"en": ">Suggest a correction<", "ko": ">수정 제안하기<"}[lang]
		var file string
		switch {
		case strings.HasPrefix(what, "IL-"):
			file = "cases/" + what + ".json"
		case what == "md":
			file, label = "cases/IL-0495.json", strings.Trim(label, "<>")+": <"
		default:
			file = "pages/" + what + "." + lang + ".md"
		}
		if !strings.Contains(page, label) || !strings.Contains(page, "https://example.org/lib/edit/main/content/"+file) {
			t.Errorf("%s: no %q link to %s", name, label, file)
		}
		if repo := strings.Contains(page, `class="repository"`) && strings.Contains(page, `href="https://example.org/lib"`); repo != (what == "contribute") {
			t.Errorf("%s: names the repository: %v", name, repo)
		}
	}

	for _, bad := range []string{`"edit_url": "https://example.org/lib/edit"`, `"edit_url": "ftp://x/"`, `"url": "example.org"`} {
		repo := `"repository": {"url": "", "edit_url": ""}`
		if strings.HasPrefix(bad, `"url"`) {
			repo = `"repository": {` + bad + `, "edit_url": ""}`
		} else {
			repo = `"repository": {"url": "", ` + bad + `}`
		}
		m := fstest.MapFS{}
		for k, v := range contentFS(t) {
			m[k] = v
		}
		m["site.json"] = &fstest.MapFile{Data: []byte(strings.Replace(site, empty, repo, 1))}
		// The content's own warnings may come first: the one error is
		// what counts.
		_, list := cases.Load(m)
		i := slices.IndexFunc(list.Items, func(d diag.Diag) bool { return !d.Warning })
		if list.Errors() != 1 || !strings.Contains(list.Items[i].String(), "site.json:") || !strings.Contains(list.Items[i].String(), "repository.") {
			t.Errorf("%s: %+v", bad, list.Items)
		}
	}
}
