package build

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"incidentlib"
	"incidentlib/internal/repotest"
)

var (
	builtOnce sync.Once
	builtDir  string
	builtErr  error
)

// built builds the shipped content (sharedLibrary: the small library under
// -short) once for the tests of this file.
func built(t *testing.T) (string, map[string][]byte) {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "incidentlib-out-")
		if err != nil {
			builtErr = err
			return
		}
		builtDir = filepath.Join(dir, "public")
		_, _, builtErr = Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: sharedLibrary(t), Out: builtDir})
	})
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return builtDir, tree(t, builtDir)
}

func TestMain(m *testing.M) {
	if out := os.Getenv(childEnv); out != "" {
		buildChild(out)
		return
	}
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(filepath.Dir(builtDir))
	}
	if sharedTemp != "" {
		os.RemoveAll(sharedTemp)
	}
	os.Exit(code)
}

// fileFor maps an absolute site URL to the file that serves it.
func fileFor(t *testing.T, base, u string) string {
	t.Helper()
	if !strings.HasPrefix(u, base) {
		t.Errorf("URL %s is not under %s", u, base)
		return ""
	}
	p := strings.TrimPrefix(u, base)
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return p
}

// TestSitemap checks sitemap.xml against the rules of the sitemap protocol
// (namespace, absolute loc under the base URL, W3C datetime lastmod, at most
// 50,000 URLs) and that every URL it lists, and every alternate, exists.
func TestSitemap(t *testing.T) {
	_, files := built(t)
	var sm struct {
		XMLName xml.Name
		URLs    []struct {
			Loc     string `xml:"loc"`
			Lastmod string `xml:"lastmod"`
			Links   []struct {
				Rel      string `xml:"rel,attr"`
				Hreflang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"http://www.w3.org/1999/xhtml link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(files["sitemap.xml"], &sm); err != nil {
		t.Fatal(err)
	}
	if sm.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" || sm.XMLName.Local != "urlset" {
		t.Fatalf("root element %v", sm.XMLName)
	}
	if len(sm.URLs) == 0 || len(sm.URLs) > 50000 {
		t.Fatalf("%d URLs", len(sm.URLs))
	}
	base := "https://benchlet.com/incidentlib/"
	html := 0
	for p := range files {
		if strings.HasSuffix(p, ".html") && p != "index.html" && path.Base(p) != "404.html" { // no 404 page is indexed
			html++
		}
	}
	if len(sm.URLs) != html {
		t.Errorf("sitemap lists %d URLs, the site has %d language pages", len(sm.URLs), html)
	}
	seen := map[string]bool{}
	for _, u := range sm.URLs {
		if seen[u.Loc] {
			t.Errorf("%s listed twice", u.Loc)
		}
		seen[u.Loc] = true
		if len(u.Loc) > 2048 {
			t.Errorf("loc longer than 2048: %s", u.Loc)
		}
		if f := fileFor(t, base, u.Loc); files[f] == nil {
			t.Errorf("sitemap lists %s, but %s does not exist", u.Loc, f)
		}
		if u.Lastmod != "" {
			if _, err := time.Parse(time.RFC3339, u.Lastmod); err != nil {
				t.Errorf("%s: lastmod %q", u.Loc, u.Lastmod)
			}
		} else if strings.Contains(u.Loc, "/cases/IL-") {
			t.Errorf("%s: case page without lastmod", u.Loc)
		}
		// Every page names its two language versions; the homes also name
		// the language chooser as x-default.
		home := u.Loc == base+"en/" || u.Loc == base+"ko/"
		if want := map[bool]int{false: 2, true: 3}[home]; len(u.Links) != want {
			t.Errorf("%s: %d alternates, want %d", u.Loc, len(u.Links), want)
		}
		for _, l := range u.Links {
			lang := l.Hreflang == "en" || l.Hreflang == "ko" || home && l.Hreflang == "x-default" && l.Href == base
			if l.Rel != "alternate" || !lang || files[fileFor(t, base, l.Href)] == nil {
				t.Errorf("%s: bad alternate %+v", u.Loc, l)
			}
		}
	}
	if !bytes.Contains(files["robots.txt"], []byte("Sitemap: "+base+"sitemap.xml")) {
		t.Errorf("robots.txt does not name the sitemap:\n%s", files["robots.txt"])
	}
}

func TestFeeds(t *testing.T) {
	_, files := built(t)
	for _, lang := range []string{"en", "ko"} {
		var f struct {
			XMLName xml.Name
			Lang    string `xml:"lang,attr"`
			Updated string `xml:"updated"`
			Entries []struct {
				Title   string `xml:"title"`
				ID      string `xml:"id"`
				Updated string `xml:"updated"`
			} `xml:"entry"`
		}
		if err := xml.Unmarshal(files[lang+"/feed.xml"], &f); err != nil {
			t.Fatal(err)
		}
		if f.XMLName.Space != "http://www.w3.org/2005/Atom" || f.Lang != lang || len(f.Entries) < 6 {
			t.Fatalf("%s feed: %v %q %d entries", lang, f.XMLName, f.Lang, len(f.Entries))
		}
		for i, e := range f.Entries {
			if _, err := time.Parse(time.RFC3339, e.Updated); err != nil || e.Title == "" || e.ID == "" {
				t.Errorf("%s entry %d: %+v", lang, i, e)
			}
			if i > 0 && e.Updated > f.Entries[i-1].Updated {
				t.Errorf("%s feed not newest first at %d", lang, i)
			}
		}
		if f.Updated != f.Entries[0].Updated {
			t.Errorf("%s feed updated %s, newest entry %s", lang, f.Updated, f.Entries[0].Updated)
		}
	}
}

// TestAPI parses every JSON file of the API and validates every case
// against the published schema, which must also reject a broken case.
func TestAPI(t *testing.T) {
	dir, files := built(t)
	for p, b := range files {
		if strings.HasSuffix(p, ".json") && !json.Valid(b) {
			t.Errorf("%s is not valid JSON", p)
		}
	}
	for _, want := range []string{"api/v1/cases.json", "api/v1/vocab.json", "api/v1/schema/case.json",
		"api/v1/cases/IL-0495.json", "api/v1/cases/IL-0495/similar.json", "api/v1/topics/components/ingress.json",
		"llms.txt", "en/cases/IL-0495/index.md", "ko/cases/IL-0495/index.md", "_headers"} {
		if files[want] == nil {
			t.Errorf("%s missing", want)
		}
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(files["api/v1/schema/case.json"]))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("case.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("case.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(b []byte) error {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return err
		}
		return sch.Validate(v)
	}
	n := 0
	for p, b := range files {
		if regexp.MustCompile(`^api/v1/cases/[A-Z]{2}-[0-9]+\.json$`).MatchString(p) {
			n++
			if err := validate(b); err != nil {
				t.Errorf("%s does not validate: %v", p, err)
			}
			src, _ := os.ReadFile(filepath.Join("..", "..", "content", "cases", filepath.Base(p)))
			if !bytes.Equal(src, b) {
				t.Errorf("%s is not the input file as it is", p)
			}
		}
	}
	least := 14
	if testing.Short() {
		least = len(repotest.SmallCases) // sharedLibrary is the small library
	}
	if n < least {
		t.Errorf("only %d case files", n)
	}
	good := files["api/v1/cases/IL-0495.json"]
	for name, bad := range map[string]string{
		"wrong type":    strings.Replace(string(good), `"severity":"unknown"`, `"severity":3`, 1),
		"unknown field": strings.Replace(string(good), `"docs":[]`, `"docs":[],"extra":1`, 1),
		"missing field": strings.Replace(string(good), `"docs":[],`, ``, 1),
		"bad id":        strings.Replace(string(good), `"id":"IL-0495"`, `"id":"../etc"`, 1),
		"bad url":       strings.Replace(string(good), `"url":"https://`, `"url":"javascript://`, 1),
	} {
		if bad == string(good) {
			t.Fatalf("%s: replacement did not apply", name)
		}
		if validate([]byte(bad)) == nil {
			t.Errorf("schema accepts a case with a %s", name)
		}
	}
	var list struct {
		Count     int `json:"count"`
		Withdrawn int `json:"withdrawn"` // listed after the others, marked
		Cases     []struct {
			ID    string            `json:"id"`
			Pages map[string]string `json:"pages"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(files["api/v1/cases.json"], &list); err != nil {
		t.Fatal(err)
	}
	if list.Count+list.Withdrawn != n || len(list.Cases) != n || list.Withdrawn != 1 || list.Cases[0].Pages["ko"] == "" {
		t.Errorf("cases.json: count %d, %d cases", list.Count, len(list.Cases))
	}
	_ = dir
}

// TestHeaders checks the _headers rules: hashed assets cached forever,
// stable names briefly, and every asset the pages use is a hashed name.
func TestHeaders(t *testing.T) {
	_, files := built(t)
	h := string(files["_headers"])
	if !strings.Contains(h, "/assets/*\n  Cache-Control: public, max-age=31536000, immutable") {
		t.Errorf("assets rule missing:\n%s", h)
	}
	for _, p := range []string{"/en/*", "/ko/*", "/api/*", "/search/*", "/"} {
		if !strings.Contains(h, p+"\n  Cache-Control: public, max-age=300") {
			t.Errorf("no short cache rule for %s", p)
		}
	}
	hashed := regexp.MustCompile(`^assets/[a-z-]+\.[0-9a-f]{10}\.(css|js|svg)$`)
	assets := 0
	for p := range files {
		if strings.HasPrefix(p, "assets/") {
			assets++
			if !hashed.MatchString(p) {
				t.Errorf("asset %s has no content hash in its name", p)
			}
		}
	}
	if assets < 2 {
		t.Errorf("%d assets", assets)
	}
	page := string(files["en/cases/IL-0495/index.html"])
	if !regexp.MustCompile(`<link rel="?stylesheet"? href="?\.\./\.\./\.\./assets/site\.[0-9a-f]{10}\.css"? integrity="?sha256-`).MatchString(page) {
		t.Errorf("case page does not load the hashed stylesheet with integrity")
	}
}

// TestContentSchemas: the published schemas of site.json and vocab.json
// accept the shipped files and refuse a broken one.
func TestContentSchemas(t *testing.T) {
	_, files := built(t)
	for _, tt := range []struct{ schema, file, from, to string }{
		{"api/v1/schema/site.json", "site.json", `"page_size": 10`, `"page_size": "10"`},
		{"api/v1/schema/vocab.json", "vocab.json", `"id"`, `"idx"`},
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(files[tt.schema]))
		if err != nil {
			t.Fatalf("%s: %v", tt.schema, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(tt.file, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join("..", "..", "content", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []bool{false, true} {
			text := string(src)
			if bad {
				if text = strings.Replace(text, tt.from, tt.to, 1); text == string(src) {
					t.Fatalf("%s has no %s to break", tt.file, tt.from)
				}
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(v); (err != nil) != bad {
				t.Errorf("%s against %s (broken: %v): %v", tt.file, tt.schema, bad, err)
			}
		}
	}
}
