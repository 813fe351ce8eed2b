package cases

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/diag"
	"incidentlib/internal/repotest"
)

// deny is a file system whose listed folders cannot be read, as a folder
// without permission (tests run as root, to whom chmod denies nothing).
type deny struct {
	fs.FS
	dirs map[string]bool
}

func (d deny) ReadDir(name string) ([]fs.DirEntry, error) {
	if d.dirs[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return fs.ReadDir(d.FS, name)
}

func report(l diag.List) string {
	var b strings.Builder
	for _, d := range l.Items {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// TestNothingSkippedInSilence: every folder or file of the content the
// loader cannot read or will not read is an error that names it; a link to
// a folder where folders are read is followed.
func TestNothingSkippedInSilence(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) fs.FS // nil: os.DirFS(dir)
		want  []string
	}{
		{"unreadable pages", func(t *testing.T, dir string) fs.FS {
			return deny{os.DirFS(dir), map[string]bool{"pages": true}}
		}, []string{"pages: cannot read the folder: permission denied"}},
		{"unreadable facet folder", func(t *testing.T, dir string) fs.FS {
			return deny{os.DirFS(dir), map[string]bool{"topics/components": true}}
		}, []string{"topics/components: cannot read the folder: permission denied"}},
		{"symlink loops", func(t *testing.T, dir string) fs.FS {
			for _, p := range []string{"cases/loop", "cases/IL-9999.json", "pages/loop.en.md", "topics/symptoms/loop.en.md", "topics/loop"} {
				os.Symlink(filepath.Base(p), filepath.Join(dir, p))
			}
			return nil
		}, []string{
			"cases/loop: cannot read: too many levels of symbolic links",
			"cases/IL-9999.json: cannot read: too many levels of symbolic links",
			"pages/loop.en.md: cannot read: too many levels of symbolic links",
			"topics/symptoms/loop.en.md: cannot read: too many levels of symbolic links",
			"topics/loop: too many levels of symbolic links",
		}},
		{"folders where files go", func(t *testing.T, dir string) fs.FS {
			other := t.TempDir()
			os.Symlink(other, filepath.Join(dir, "cases", "more"))
			os.Mkdir(filepath.Join(dir, "cases", "old"), 0o755)
			os.Symlink(other, filepath.Join(dir, "pages", "drafts"))
			os.Mkdir(filepath.Join(dir, "topics", "symptoms", "x"), 0o755)
			os.WriteFile(filepath.Join(dir, "topics", "notes.md"), nil, 0o644)
			return nil
		}, []string{
			"cases/more: a folder in cases/ is not read",
			"cases/old: a folder in cases/ is not read",
			"pages/drafts: a folder in pages/ is not read",
			"topics/symptoms/x: a folder in topics/symptoms/ is not read",
			"topics/notes.md: a topic introduction goes in topics/<facet>/",
		}},
		{"control characters and lone surrogates", func(t *testing.T, dir string) fs.FS {
			os.WriteFile(filepath.Join(dir, "pages", "about.en.md"), []byte("# About\n\nred \x1b[31m text\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "pages", "about.ko.md"), []byte("소개\x00"), 0o644)
			p := filepath.Join(dir, "cases", "IL-0495.json")
			b, _ := os.ReadFile(p)
			b = []byte(strings.Replace(string(b), `{"en":"HubSpot's`, `{"en":"Hub\u0000Spot\ud800's`, 1))
			os.WriteFile(p, b, 0o644)
			return nil
		}, []string{
			"pages/about.en.md:3:5: control character U+001B: only tabs and line breaks may be in text",
			"pages/about.ko.md:1:3: control character U+0000",
			`cases/IL-0495.json:1:81: control character U+0000 in a string`,
			`cases/IL-0495.json:1:91: lone surrogate \ud800`,
		}},
		{"page_size", func(t *testing.T, dir string) fs.FS {
			p := filepath.Join(dir, "site.json")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), `{`, `{"page_size": 0, `, 1)), 0o644)
			return nil
		}, []string{"site.json:1:15: page_size: 0 is out of range: it must be from 1 to 1000"}},
		{"base_url with a query", func(t *testing.T, dir string) fs.FS {
			p := filepath.Join(dir, "site.json")
			b, _ := os.ReadFile(p)
			var s = string(b)
			i := strings.Index(s, `"base_url"`)
			j := i + strings.Index(s[i:], `/",`)
			os.WriteFile(p, []byte(s[:j]+`/?x=1/",`+s[j+3:]), 0o644)
			return nil
		}, []string{`base_url: "https://`, `is not an absolute http or https URL with a host, that ends in a slash, without a query`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repotest.CopyDir(t, "content")
			fsys := tc.setup(t, dir)
			if fsys == nil {
				fsys = os.DirFS(dir)
			}
			_, list := Load(fsys)
			got := report(list)
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("report lacks %q:\n%s", want, got)
				}
			}
			if list.Errors() < len(tc.want) && tc.name != "base_url with a query" {
				t.Errorf("%d errors, want %d:\n%s", list.Errors(), len(tc.want), got)
			}
		})
	}
}

// TestFollowsLinks: a linked facet folder and linked files are read like
// the real ones.
func TestFollowsLinks(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	elsewhere := filepath.Join(t.TempDir(), "symptoms")
	if err := os.Rename(filepath.Join(dir, "topics", "symptoms"), elsewhere); err != nil {
		t.Fatal(err)
	}
	os.Symlink(elsewhere, filepath.Join(dir, "topics", "symptoms"))
	page := filepath.Join(t.TempDir(), "about.en.md")
	os.Rename(filepath.Join(dir, "pages", "about.en.md"), page)
	os.Symlink(page, filepath.Join(dir, "pages", "about.en.md"))
	linked, list := Load(os.DirFS(dir))
	if list.Errors() > 0 {
		t.Fatal(report(list))
	}
	real, _ := Load(repotest.MapFS(t, "content"))
	if len(linked.Topics["symptoms"]) == 0 || len(linked.Topics["symptoms"]) != len(real.Topics["symptoms"]) {
		t.Errorf("linked facet folder: %d introductions, want %d", len(linked.Topics["symptoms"]), len(real.Topics["symptoms"]))
	}
	if len(linked.Prose) != len(real.Prose) || linked.Prose[0].Body != real.Prose[0].Body {
		t.Errorf("linked page not read")
	}
}

// TestMarkdownBOM: a byte-order mark at the start of a Markdown file is no
// text, as in JSON.
func TestMarkdownBOM(t *testing.T) {
	m := repotest.MapFS(t, "content")
	plain := string(m["pages/about.en.md"].Data)
	m["pages/about.en.md"].Data = append([]byte("\ufeff"), m["pages/about.en.md"].Data...)
	lib, list := Load(m)
	if list.Errors() > 0 {
		t.Fatal(report(list))
	}
	for _, p := range lib.Prose {
		if p.Slug == "about" && p.Body.En != plain {
			t.Errorf("about.en.md read as %.20q, want %.20q", p.Body.En, plain)
		}
	}
}

func TestCheckBaseURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://example.org/":            true,
		"http://example.org/incidentlib/": true,
		"https://example.org/a/b/":        true,
		"https://example.org":             false,
		"javascript:alert(1)//":           false,
		"https://example.org/?x=1/":       false,
		"https://example.org/#top/":       false,
		"ftp://example.org/":              false,
		"https:///":                       false,
		"https://exa mple.org/":           false,
		"//example.org/":                  false,
		"https://example.org/incidentlib": false,
		`https://e.org/"><script>/`:       false,
		"https://e.org/a'b/":              false,
		"https://e.org/<b>/":              false,
		"https://e.org/\x1b[31m/":         false,
		"https://e.org/a\\b/":             false,
		"https://[::1]:8080/x/":           true,
		"https://e.org/a)b/":              false,
		"https://e.org/" + strings.Repeat("a", maxSettingURLLen) + "/": false,
	} {
		if err := CheckBaseURL(u); (err == nil) != ok {
			t.Errorf("CheckBaseURL(%q) = %v", u, err)
		}
	}
	if err := CheckBaseURL("javascript:x"); err == nil || !strings.Contains(err.Error(), "without a query, a fragment, a quote, an angle bracket") {
		t.Errorf("message: %v", err)
	}
}

// TestReservedSlugs (#39 row 16): a term or organisation slug that Windows
// reserves for a device would be a folder of the site that cannot be made
// there; check refuses it.
func TestReservedSlugs(t *testing.T) {
	for _, slug := range []string{"con", "nul", "com1"} {
		if err := checkSlug(slug); err == "" {
			t.Errorf("slug %q accepted", slug)
		}
	}
	if err := checkSlug("console"); err != "" {
		t.Errorf("console: %s", err)
	}
}
