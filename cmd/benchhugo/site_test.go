package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/gencases"
)

// TestHugoSite writes the Hugo twin of a small library and checks that
// every case has a page in both languages with its taxonomies.
func TestHugoSite(t *testing.T) {
	dir := t.TempDir()
	content, site := filepath.Join(dir, "content"), filepath.Join(dir, "hugo")
	if err := gencases.WriteDir(content, gencases.Options{N: 20, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := writeHugoSite(content, site); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ko"} {
		pages, _ := filepath.Glob(filepath.Join(site, "content", lang, "cases", "il-*.md"))
		if len(pages) != 20 {
			t.Errorf("%s: %d case pages, want 20", lang, len(pages))
		}
		data, err := os.ReadFile(filepath.Join(site, "content", lang, "cases", "il-0001.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"\ncomponents: [", "\nyears: [\"2014\"]", "\norgs: [", "## "} {
			if !strings.Contains(string(data), want) {
				t.Errorf("%s case page lacks %q:\n%s", lang, want, data)
			}
		}
	}
	cfg, err := os.ReadFile(filepath.Join(site, "hugo.toml"))
	if err != nil || !strings.Contains(string(cfg), `root-cause = "root-causes"`) {
		t.Errorf("hugo.toml: %v\n%s", err, cfg)
	}
}
