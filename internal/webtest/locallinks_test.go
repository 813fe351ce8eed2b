package webtest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// linkFixtureWant is what both link checkers must find in testdata/bad.
var linkFixtureWant = []string{"/missing.css (HTTP 404) on /console.html", "/nothing.html (HTTP 404) on /broken.html"}

// TestLocalLinks holds LocalLinks to what linkinator finds on the same
// fixtures (TestLinks), and to the kinds of link a minified page writes.
func TestLocalLinks(t *testing.T) {
	t.Parallel()
	if broken := LocalLinks(t, "testdata/good"); len(broken) != 0 {
		t.Errorf("LocalLinks(good) = %q, want none (the external link must be skipped)", broken)
	}
	if broken := LocalLinks(t, "testdata/bad"); !slices.Equal(broken, linkFixtureWant) {
		t.Errorf("LocalLinks(bad) =\n%q\nwant\n%q", broken, linkFixtureWant)
	}

	dir, want := linkKindsSite(t)
	if got := LocalLinks(t, dir); !slices.Equal(got, want) {
		t.Errorf("LocalLinks =\n%q\nwant\n%q", got, want)
	}
}

// linkKindsSite writes a site with a link of every kind a minified page
// writes, some broken, and returns it with its broken links.
func linkKindsSite(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.png", "png")
	write("en/cases/IL-1/index.html", "case")
	write("404.html", `<a href=/never-checked.html>home</a>`)
	write("en/index.html", `<!doctype html><html lang=en><link rel=preconnect href=/gone/>
<a href=cases/IL-1/>case</a><a href=cases/IL-1>redirects to the folder</a><a href="cases/IL-1/?q=a&amp;b=1#top">query</a>
<img src=../a.png srcset="../a.png 1x, ../b.png 2x"><script src=/js/none.js></script>
<meta http-equiv=refresh content="0; url=/en/moved.html"><meta property=og:image content=https://example.org/x.png>
<a href=cases/IL-2/>missing case</a><a href=mailto:x@example.org>mail</a><a href=#top>top</a></html>`)
	// 404.html is no entry page, but its links are read where it is served
	// for a missing page.
	want := []string{"/b.png (HTTP 404) on /en/", "/en/cases/IL-2/ (HTTP 404) on /en/", "/en/moved.html (HTTP 404) on /en/", "/js/none.js (HTTP 404) on /en/",
		"/never-checked.html (HTTP 404) on /en/cases/IL-2/", "/never-checked.html (HTTP 404) on /en/moved.html"}
	return dir, want
}

func TestElementText(t *testing.T) {
	for _, tc := range []struct {
		page, want string
		ok         bool
	}{
		{`<title>x</title><h1 class=t>HubSpot의 <em>API</em> &amp; MCP</h1><h1>second</h1>`, "HubSpot의 API & MCP", true},
		{`<h2>no</h2>`, "", false},
		{`<h1>unclosed`, "unclosed", true},
	} {
		got, ok := ElementText([]byte(tc.page), "h1")
		if got != tc.want || ok != tc.ok {
			t.Errorf("ElementText(%q) = %q, %v; want %q, %v", tc.page, got, ok, tc.want, tc.ok)
		}
	}
}
