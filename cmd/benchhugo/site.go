package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
)

// The Hugo copy of a generated library: every case as a page in both
// languages, its controlled terms, organisation and year as taxonomies (one
// topic page per term, and a page per facet listing its terms), the cases
// as a section listed 20 to a page, and a home page, written through the
// minimal theme below. It is written once per library size, untimed.

const hugoConfig = `baseURL = "https://benchlet.com/incidentlib/"
title = "incidentlib"
defaultContentLanguage = "en"
defaultContentLanguageInSubdir = true
disableKinds = ["rss", "robotstxt"]
# Page 1 of a list is the list itself; Hugo's redirect pages from page/1/
# would be files that incidentlib does not write.
disableAliases = true

[pagination]
pagerSize = 20

[markup.goldmark.renderer]
unsafe = false

[languages.en]
weight = 1
contentDir = "content/en"
languageName = "English"

[languages.ko]
weight = 2
contentDir = "content/ko"
languageName = "한국어"

[taxonomies]
%s
`

// The theme: one base, a case page, and one list template for the home
// page, the facet pages, and the case list and topic pages, both 20 cases
// to a page as ours are.
var theme = map[string]string{
	"layouts/baseof.html": `<!DOCTYPE html>
<html lang="{{ site.Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · {{ site.Title }}</title>
<link rel="canonical" href="{{ .Permalink }}">
{{- range .AllTranslations }}
<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">
{{- end }}
</head>
<body>
<header><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a>
<nav>{{ range $name, $_ := site.Taxonomies }}<a href="{{ (site.GetPage $name).RelPermalink }}">{{ $name }}</a> {{ end }}</nav>
{{ range .Translations }}<a hreflang="{{ .Language.Lang }}" href="{{ .RelPermalink }}">{{ .Language.LanguageName }}</a>{{ end }}
</header>
<main>{{ block "main" . }}{{ end }}</main>
</body>
</html>
`,
	"layouts/single.html": `{{ define "main" }}<article>
<h1>{{ .Title }}</h1>
<p>{{ .Params.org }} · <time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time></p>
<dl>{{ range $tax, $_ := site.Taxonomies }}{{ with $.GetTerms $tax }}<dt>{{ $tax }}</dt><dd>{{ range . }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a> {{ end }}</dd>{{ end }}{{ end }}</dl>
{{ .Content }}
</article>{{ end }}
`,
	"layouts/list.html": `{{ define "main" }}<h1>{{ .Title }}</h1>
{{ .Content }}
{{- if eq .Kind "taxonomy" }}
<ul>{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.LinkTitle }}</a> {{ .Count }}</li>{{ end }}</ul>
{{- else if eq .Kind "home" }}
<ul>{{ range first 10 (where site.RegularPages "Section" "cases") }}{{ partial "card.html" . }}{{ end }}</ul>
{{- else }}
{{ $p := .Paginate .Pages }}
<ul>{{ range $p.Pages }}{{ partial "card.html" . }}{{ end }}</ul>
<nav>{{ with $p.Prev }}<a rel="prev" href="{{ .URL }}">←</a>{{ end }} {{ $p.PageNumber }} / {{ $p.TotalPages }} {{ with $p.Next }}<a rel="next" href="{{ .URL }}">→</a>{{ end }}</nav>
{{- end }}
{{ end }}
`,
	"layouts/_partials/card.html": `<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <span>{{ .Params.org }}</span> <time>{{ .Date.Format "2006-01-02" }}</time><p>{{ .Summary }}</p></li>
`,
}

// taxonomy names the facet as Hugo's singular and plural.
func taxonomyLines() string {
	var b strings.Builder
	for _, f := range cases.Facets {
		singular := strings.TrimSuffix(f.Name, "s")
		if f.Name == "severities" {
			singular = "severity"
		}
		fmt.Fprintf(&b, "%s = %q\n", singular, f.Name)
	}
	return b.String()
}

// writeHugoSite writes the Hugo site of the library in content to dir.
func writeHugoSite(content, dir string) error {
	lib, list := cases.Load(os.DirFS(content))
	if list.Errors() > 0 {
		return list.Err()
	}
	files := map[string]string{"hugo.toml": fmt.Sprintf(hugoConfig, taxonomyLines())}
	for name, text := range theme {
		files[name] = text
	}
	for _, f := range contentFiles(lib) {
		files[f[0]] = f[1]
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// contentFiles returns the content files: a page per case and language, the
// section pages and a page per vocabulary term with its label.
func contentFiles(lib *cases.Library) [][2]string {
	var out [][2]string
	for l, lang := range cases.Languages {
		pick := func(t cases.Bilingual) string {
			if l == 1 && t.Ko != "" {
				return t.Ko
			}
			return t.En
		}
		out = append(out, [2]string{"content/" + lang + "/cases/_index.md", "---\ntitle: " + strconv.Quote(pick(cases.Bilingual{En: "All cases", Ko: "모든 사례"})) + "\n---\n"})
		for _, f := range cases.Facets {
			if !f.Controlled {
				continue
			}
			for _, t := range lib.Vocab.Terms(f.Field) {
				out = append(out, [2]string{"content/" + lang + "/" + f.Name + "/" + t.ID + "/_index.md",
					"---\ntitle: " + strconv.Quote(pick(t.Label)) + "\n---\n" + pick(t.Description) + "\n"})
			}
		}
		for _, c := range lib.Cases {
			out = append(out, [2]string{"content/" + lang + "/cases/" + strings.ToLower(c.ID) + ".md", casePage(c, pick)})
		}
	}
	return out
}

func casePage(c *cases.Case, pick func(cases.Bilingual) string) string {
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "title: %s\n", strconv.Quote(pick(c.Title)))
	fmt.Fprintf(&b, "date: %04d-%02d-%02d\n", c.Date.Year, max(int(c.Date.Month), 1), max(c.Date.Day, 1))
	fmt.Fprintf(&b, "org: %s\n", strconv.Quote(c.Org))
	summary, _, _ := strings.Cut(pick(c.Summary), "\n\n")
	fmt.Fprintf(&b, "summary: %s\n", strconv.Quote(summary))
	for _, f := range cases.Facets {
		terms := f.Terms(c)
		if len(terms) == 0 {
			continue
		}
		var q []string
		for _, t := range terms {
			q = append(q, strconv.Quote(t))
		}
		fmt.Fprintf(&b, "%s: [%s]\n", f.Name, strings.Join(q, ", "))
	}
	b.WriteString("---\n\n")
	section := func(title string, t cases.Bilingual) {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", title, pick(t))
	}
	section("Summary", c.Summary)
	section("Symptoms", c.SymptomsText)
	section("Trigger", c.Trigger)
	section("Detection", c.Detection)
	if c.Lessons != nil {
		section("Lessons", *c.Lessons)
	}
	for _, list := range []struct {
		title string
		items []cases.Bilingual
	}{{"Remediation", c.Remediation}, {"Action items", actionTexts(c.ActionItems)}} {
		fmt.Fprintf(&b, "## %s\n\n", list.title)
		for _, it := range list.items {
			fmt.Fprintf(&b, "- %s\n", pick(it))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Sources\n\n")
	for _, s := range c.Sources {
		fmt.Fprintf(&b, "- <%s>\n", s.URL)
	}
	return b.String()
}

// actionTexts are the texts of action items, which the Hugo comparison
// writes as a plain list.
func actionTexts(items []cases.ActionItem) []cases.Bilingual {
	out := make([]cases.Bilingual, len(items))
	for i, it := range items {
		out[i] = it.Text
	}
	return out
}
