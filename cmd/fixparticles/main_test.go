package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun fixes a small content folder: JSON strings and Markdown change,
// every other byte stays, a second run changes nothing, and a broken JSON
// file is named and left as it was.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string][2]string{
		"cases/IL-0001.json": {
			"{\r\n  \"ko\": \"HubSpot 의 API 와 MCP\",\t\"en\": \"HubSpot 's\"\r\n}",
			"{\r\n  \"ko\": \"HubSpot의 API와 MCP\",\t\"en\": \"HubSpot 's\"\r\n}",
		},
		"pages/about.ko.md":  {"# 소개\n\n`check` 는 03:30 UTC 였다.\n", "# 소개\n\n`check`는 03:30 UTC였다.\n"},
		"pages/about.en.md":  {"# About API 의\n", "# About API의\n"},
		"notes.txt":          {"API 와", "API 와"},
		"cases/broken.json":  {`{"ko": "API 와"`, `{"ko": "API 와"`},
		".hidden/skip.json":  {`{"ko": "API 와"}`, `{"ko": "API 와"}`},
		"cases/IL-0002.json": {`{"ko": "이미 붙어 있다: API와"}`, `{"ko": "이미 붙어 있다: API와"}`},
	}
	for name, f := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f[0]), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{dir}, &stdout, &stderr); code != 1 {
		t.Errorf("exit %d with a broken file, want 1", code)
	}
	if !strings.Contains(stderr.String(), "broken.json: not valid JSON") {
		t.Errorf("the broken file is not named: %s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "attached 5 particles in 3 files") {
		t.Errorf("summary: %s", stdout.String())
	}
	for name, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != f[1] {
			t.Errorf("%s = %q, want %q", name, b, f[1])
		}
	}
	if info, _ := os.Stat(filepath.Join(dir, "pages/about.ko.md")); info.Mode().Perm() != 0o640 {
		t.Errorf("mode changed to %v", info.Mode())
	}
	os.Remove(filepath.Join(dir, "cases/broken.json"))
	stdout.Reset()
	if code := run([]string{dir}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "attached 0 particles in 0 files") {
		t.Errorf("second run: exit %d, %s", code, stdout.String())
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "cases"))
	if len(entries) != 2 {
		t.Errorf("left files behind: %v", entries)
	}
}

// TestDryRun lists without writing.
func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	os.WriteFile(p, []byte("API 와 MCP"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-n", dir}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "would attach 1 particles in 1 files") {
		t.Errorf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	if b, _ := os.ReadFile(p); string(b) != "API 와 MCP" {
		t.Errorf("-n wrote %q", b)
	}
}
