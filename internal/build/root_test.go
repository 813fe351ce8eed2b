package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// writeFiles writes files (by slash path) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRootFiles: the files of content/root arrive as they are at the root
// of the output, the publisher's _redirects and _headers rules before the
// build's own, and the marker lists them all: the next build takes the
// folder without -force-out.
func TestRootFiles(t *testing.T) {
	content := smallContent(t)
	root := map[string]string{
		"CNAME":                        "incidents.example.org\n",
		"favicon.ico":                  "\x00\x00\x01\x00icon",
		".well-known/security.txt":     "Contact: mailto:security@example.org\n",
		"google1234567890abcdef.html":  "google-site-verification: google1234567890abcdef.html",
		"_redirects":                   "/old-path  /en/  301\n",
		"_headers":                     "/en/*\n  X-Publisher: yes\n",
		"en/cases/IL-0495/extra.txt":   "beside a page, in a folder of the build's",
		"deep/er/folder/of/notes.json": "{}",
	}
	writeFiles(t, filepath.Join(content, RootDir), root)
	out := filepath.Join(t.TempDir(), "public")
	for i := range 2 {
		st, list, err := Run(context.Background(), opts(content, out))
		if err != nil {
			t.Fatalf("build %d: %v", i+1, err)
		}
		if len(list.Items) > 0 {
			t.Errorf("build %d: the content's root folder is reported: %v", i+1, list.Items)
		}
		if st.Kinds["root file"] != 6 {
			t.Errorf("build %d: %d root files counted, want 6 (the merged two are the host's)", i+1, st.Kinds["root file"])
		}
	}
	got := tree(t, out)
	for p, data := range root {
		switch p {
		case "_redirects", "_headers":
			if !strings.HasPrefix(string(got[p]), data+"\n# ") || len(got[p]) <= len(data)+40 {
				t.Errorf("%s does not start with the publisher's rules and go on with the build's:\n%s", p, got[p])
			}
		default:
			if string(got[p]) != data {
				t.Errorf("%s = %q, want %q", p, got[p], data)
			}
		}
	}
	if !strings.Contains(string(got["_redirects"]), "/ko/*  /ko/404.html  404") {
		t.Errorf("the build's 404 rules are missing:\n%s", got["_redirects"])
	}
	if _, ok := got[".nojekyll"]; !ok {
		t.Error("no .nojekyll")
	}
}

// TestRootFileCollisions: a file of content/root that would take the place
// of a file or folder the build writes fails the build, naming both, and
// leaves the earlier output as it was; so does one that is not a regular
// file.
func TestRootFileCollisions(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), opts(content, out)); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	for _, tt := range []struct {
		file string
		want []string
	}{
		{"404.html", []string{"root/404.html", "collides with 404.html"}},
		{"search/manifest.json", []string{"root/search/manifest.json", "collides with search/manifest.json"}},
		{"en", []string{"root/en", "the folder en/"}},
		{"robots.txt/x", []string{"root/robots.txt/x", "the file robots.txt"}},
		{Marker, []string{"root/" + Marker, "list of its files"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			dir := filepath.Join(content, RootDir)
			os.RemoveAll(dir)
			writeFiles(t, dir, map[string]string{"CNAME": "x.example.org", tt.file: "mine"})
			_, _, err := Run(context.Background(), opts(content, out))
			if err == nil {
				t.Fatal("the build took it")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message lacks %q: %v", w, err)
				}
			}
			sameTree(t, before, tree(t, out), "the output of a failed build")
		})
	}
	dir := filepath.Join(content, RootDir)
	os.RemoveAll(dir)
	os.MkdirAll(dir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	_, _, err := Run(context.Background(), opts(content, out))
	if err == nil || !strings.Contains(err.Error(), "root/pipe") || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a FIFO in root: err = %v", err)
	}
	sameTree(t, before, tree(t, out), "the output of a failed build")
}
