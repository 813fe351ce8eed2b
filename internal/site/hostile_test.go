package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/htmlexec"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
)

// hostilePayloads are the attacks the tests of the project know (markup,
// htmlexec, build, this package), and the ends of the elements whose text
// html/template escapes differently (title, textarea).
var hostilePayloads = []string{
	`<script>alert(1)</script>`,
	`<img src=x onerror=alert(2)>`,
	`[click](javascript:alert(3))`,
	`<a href="javascript:alert(4)">x</a>`,
	`"><svg onload=alert(5)>`,
	`' onmouseover='alert(6)`,
	`</textarea><script>alert(7)</script>`,
	`</title><script>alert(8)</script>`,
	`javascript:alert(9)//`,
	`JavaScript:x`,
	`data:text/html,<script>alert(10)</script>`,
	`<!-- c --><![CDATA[x]]>`,
	`{{.}} {{template "base" .}}`,
	"a & b 'c' + d > e &amp; &#60; %41%zz%4",
	"\u2028 \u2029 \ufeff \u00a0",
	`<b>bold</b> **bold** ` + "`code`",
}

// hostileText is every payload at once, put after the original text of
// every free-text field.
var hostileText = strings.Join(hostilePayloads, " ")

// hostileURLs are the attacks that fit a URL field: its schema allows the
// first one that matches its pattern.
var hostileURLs = []string{
	`https://evil.example/"'><script>alert(11)</script><img/src=x/onerror=alert(12)>?q=javascript:alert(13)&x=</textarea>#"`,
	`https://evil.example/"'><script>alert(14)</script>/`,
}

// hostileContent is the shipped content (the small library under -short,
// repotest.ContentMapFS) with hostile text in every field
// its schema leaves free (titles, summaries, steps, org names, terms'
// labels and descriptions, the site's texts), hostile URLs where the
// schema allows them, and a hostile paragraph after every Markdown page.
func hostileContent(t *testing.T) fstest.MapFS {
	m := repotest.ContentMapFS(t)
	schemas := map[string]*cases.Schema{"vocab.json": cases.VocabSchema, "site.json": cases.SiteSchema}
	for name, f := range m {
		schema := schemas[name]
		if strings.HasPrefix(name, "cases/") && strings.HasSuffix(name, ".json") {
			schema = cases.CaseSchema
		}
		switch {
		case schema != nil:
			dec := json.NewDecoder(bytes.NewReader(f.Data))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if name == "site.json" {
				v.(map[string]any)["links"] = []any{map[string]any{"label": map[string]any{"en": "x", "ko": "x"}, "url": "https://x.example/"}}
			}
			data, err := json.Marshal(poison(schema, v))
			if err != nil {
				t.Fatal(err)
			}
			m[name] = &fstest.MapFile{Data: data}
		case strings.HasSuffix(name, ".md"):
			m[name] = &fstest.MapFile{Data: append(bytes.TrimRight(f.Data, "\n"), "\n\n"+hostileText+"\n"...)}
		}
	}
	return m
}

// poison puts hostile text into every string of v its schema leaves free.
func poison(s *cases.Schema, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for _, p := range s.Props {
			if x, ok := v[p.Name]; ok {
				v[p.Name] = poison(p.Schema, x)
			}
		}
	case []any:
		for i := range v {
			v[i] = poison(s.Items, v[i])
		}
	case string:
		switch {
		case len(s.Enum) > 0:
		case s.Pattern == "":
			return v + " " + hostileText
		default:
			re := regexp.MustCompile(s.Pattern)
			for _, u := range hostileURLs {
				if re.MatchString(u) {
					return u
				}
			}
		}
	}
	return v
}

// A hostile page must show the payloads as text: no payload may open an
// element, and no tag may have an event handler or a script URL. Payloads
// cannot put a raw quote or angle bracket into a tag, so a tag is what
// lies between < and >, and its values what lies between quotes.
var (
	payloadMarkup = []string{"<script>alert", "<img src=x", "<svg onload", "</textarea><script", "</title><script",
		`href="javascript:`, `href="data:`, `src="javascript:`, `src="data:`, "href=javascript:", "src=javascript:"}
	quoted  = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	handler = regexp.MustCompile(`\son[a-z]+\s*=`)
)

func checkDefused(t *testing.T, path string, page []byte) {
	if err := defused(page); err != nil {
		t.Fatalf("%q: %v", path, err)
	}
}

func defused(page []byte) error {
	low := bytes.ToLower(page)
	for _, m := range payloadMarkup {
		if i := bytes.Index(low, []byte(m)); i >= 0 {
			return fmt.Errorf("hostile text became markup: %s", page[i:min(len(page), i+80)])
		}
	}
	for rest := low; ; {
		i := bytes.IndexByte(rest, '<')
		if i < 0 {
			return nil
		}
		rest = rest[i+1:]
		end := bytes.IndexAny(rest, "<>")
		if end < 0 || rest[0] < 'a' || rest[0] > 'z' {
			continue
		}
		if tg := rest[:end]; bytes.Contains(tg, []byte(" on")) && handler.Match(quoted.ReplaceAll(tg, nil)) {
			return fmt.Errorf("a tag has an event handler: <%s>", tg)
		}
	}
}

// TestDefused: the check of hostile pages finds each payload left as
// markup, and passes it escaped as html/template escapes it.
func TestDefused(t *testing.T) {
	for _, page := range []string{
		`<p>x<script>alert(1)</script></p>`,
		`<p title="x"><svg onload=alert(5)>">`,
		`<img alt='' onmouseover='alert(6)' src="x.png">`,
		`<a href="JavaScript:x">x</a>`,
		`<a href=javascript:alert(9)//>x</a>`,
		`<textarea></textarea><script>alert(7)</script></textarea>`,
	} {
		if defused([]byte(page)) == nil {
			t.Errorf("%s passes", page)
		}
	}
	for _, p := range hostilePayloads {
		for _, src := range []string{`<p title="{{.}}">{{.}}</p>`, `<img alt='{{.}}' src="x.png">`, `<textarea>{{.}}</textarea>`, `<a href="{{.}}">x</a>`} {
			var b bytes.Buffer
			if err := template.Must(template.New("t").Parse(src)).Execute(&b, p); err != nil {
				t.Fatal(err)
			}
			if err := defused(b.Bytes()); err != nil {
				t.Errorf("%s escaped: %v", b.String(), err)
			}
		}
	}
}

// TestHostileContentIsHostile: the hostile library carries the payloads
// into the fields pages show, so that comparing its pages means something.
// The URLs of site.json cannot carry one: their rule refuses quotes and
// angle brackets (cmd/incidentlib's TestHostileURLSettings).
func TestHostileContentIsHostile(t *testing.T) {
	lib := loadContent(t, hostileContent(t))
	c := lib.Cases[0]
	for what, got := range map[string]string{
		"title": c.Title.En, "Korean summary": c.Summary.Ko, "org": c.Org,
		"remediation": c.Remediation[0].En, "source URL": c.Sources[0].URL,
		"component label": lib.Vocab.Terms("components")[0].Label.En, "site title": lib.Settings.Title.Ko,
		"page": lib.Prose[0].Body.En,
	} {
		if !strings.Contains(got, "<script>alert(") {
			t.Errorf("%s has no payload: %.80q", what, got)
		}
	}
}

// TestFallbackWhenCompileFails: when htmlexec refuses the templates, as it
// does when html/template's escapers are not the ones it knows, the theme
// still loads and every file of the site is written by html/template with
// the same bytes.
func TestFallbackWhenCompileFails(t *testing.T) {
	refuse := func(*template.Template, string, template.FuncMap) (*htmlexec.Template, error) {
		return nil, fmt.Errorf("%w: html/template's escapers are not the ones htmlexec knows (test)", htmlexec.ErrUnsupported)
	}
	slow, err := loadTheme(incidentlib.Templates(), incidentlib.Static(), themeConfig{compile: refuse})
	if err != nil {
		t.Fatalf("the theme does not load when htmlexec refuses it: %v", err)
	}
	if len(slow.fast) != 0 {
		t.Fatalf("%d templates compiled although htmlexec refused them", len(slow.fast))
	}
	if e := slow.engines(); e.Compiled != 0 || len(e.Uncompiled) != len(pageKinds)+len(listParts)+1 {
		t.Errorf("the gauge of a theme htmlexec refused says %+v, want none compiled and %d left to the standard library", e, len(pageKinds)+len(listParts)+1)
	}
	fast, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range []*cases.Library{loadContent(t, repotest.ContentMapFS(t)), loadContent(t, hostileContent(t))} {
		a, b := twoSites(t, lib, slow, fast)
		pages := 0
		for _, j := range a.Jobs() {
			want, _, err := b.RenderBytes(j)
			if err != nil {
				t.Fatalf("%s: %v", j.Path, err)
			}
			got, typ, err := a.RenderBytes(j)
			if err != nil {
				t.Fatalf("%s through html/template: %v", j.Path, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s through html/template differs:\n%s", j.Path, firstDiff(string(got), string(want)))
			}
			if typ == "text/html" {
				pages++
			}
		}
		if pages < 100 {
			t.Fatalf("only %d pages rendered", pages)
		}
	}
}

// TestEnginesCountFallbacks: a page that htmlexec hands back to
// html/template at run time is counted, once per page, and still written
// with html/template's bytes; a theme that compiles and runs whole counts
// nothing.
func TestEnginesCountFallbacks(t *testing.T) {
	// The 404 template is replaced by one that compiles but cannot run: a
	// range over an int stops htmlexec with ErrUnsupported.
	cfg := themeConfig{compileText: htmlexec.CompileText, compile: func(set *template.Template, name string, funcs template.FuncMap) (*htmlexec.Template, error) {
		if set.Name() != "notfound" {
			return htmlexec.Compile(set, name, funcs)
		}
		odd := template.Must(template.New("odd").Parse(`{{define "base"}}{{range len .Lang}}{{end}}{{end}}`))
		return htmlexec.Compile(odd, "base", nil)
	}}
	odd, err := loadTheme(incidentlib.Templates(), incidentlib.Static(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	a, b := twoSites(t, loadContent(t, repotest.ContentMapFS(t)), odd, fast)
	notFound := 0
	for _, j := range a.Jobs() {
		got, _, err := a.RenderBytes(j)
		if err != nil {
			t.Fatalf("%s: %v", j.Path, err)
		}
		want, _, err := b.RenderBytes(j)
		if err != nil {
			t.Fatalf("%s: %v", j.Path, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s after a fallback differs:\n%s", j.Path, firstDiff(string(got), string(want)))
		}
		if j.Kind == KindNotFound {
			notFound++
		}
	}
	if e := a.Engines(); e.Fallbacks != int64(notFound) || e.Compiled != len(pageKinds)+len(listParts)+1 || len(e.Uncompiled) != 0 {
		t.Errorf("gauge %+v, want %d fallbacks (one per 404 page) and every template compiled", e, notFound)
	}
	if e := b.Engines(); e.Fallbacks != 0 || e.Compiled != len(pageKinds)+len(listParts)+1 || len(e.Uncompiled) != 0 {
		t.Errorf("the shipped theme's gauge says %+v, want every template compiled and no fallback", e)
	}
}

// twoSites builds the same library with two themes, to compare what they
// render.
func twoSites(t *testing.T, lib *cases.Library, a, b *Theme) (*Site, *Site) {
	t.Helper()
	model := library.Derive(lib)
	sa, err := New(model, Options{Theme: a})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := New(model, Options{Theme: b})
	if err != nil {
		t.Fatal(err)
	}
	return sa, sb
}
