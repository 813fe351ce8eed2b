package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// TestDrafts: the preview shows a whole draft, marked, among the cases, and
// a draft still full of holes as its problems on its own page only, while
// every other page stays up; a published case never carries the mark.
func TestDrafts(t *testing.T) {
	content := repotest.ContentDir(t)
	src, err := os.ReadFile(filepath.Join(content, "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	draft := strings.Replace(string(src), `{"id":"IL-0495",`, `{"draft":true,"id":"IL-0999",`, 1)
	// The newest case of the library, so that the first page of the list
	// shows it however many cases the library holds.
	draft = strings.Replace(draft, `"date":"2024-08-27"`, `"date":"2026-12-01"`, 1)
	skeleton, err := cases.Skeleton("IL-0998", cases.LocalSchemaRef, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"IL-0999.json": draft, "IL-0998.json": string(skeleton)} {
		if err := os.WriteFile(filepath.Join(content, "cases", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: content})
	const mark = "Draft: shown only in the preview"
	if status, body := raw(t, r.url+"/en/cases/IL-0999/"); status != 200 || !strings.Contains(body, mark) {
		t.Errorf("the whole draft: status %d, marked %v", status, strings.Contains(body, mark))
	}
	if status, body := raw(t, r.url+"/ko/cases/IL-0999/"); status != 200 || !strings.Contains(body, "초안") {
		t.Errorf("the whole draft in Korean: status %d, marked %v", status, strings.Contains(body, "초안"))
	}
	if status, body := raw(t, r.url+"/en/cases/"); status != 200 || !strings.Contains(body, "IL-0999") {
		t.Errorf("the list of cases: status %d, lists the draft %v", status, strings.Contains(body, "IL-0999"))
	}
	if status, body := raw(t, r.url+"/en/cases/IL-0495/"); status != 200 || strings.Contains(body, mark) {
		t.Errorf("a published case: status %d, marked %v", status, strings.Contains(body, mark))
	}
	status, body := raw(t, r.url+"/en/cases/IL-0998/")
	if status != 500 || !strings.Contains(body, "The draft IL-0998 cannot be shown yet: 17 problems") || !strings.Contains(body, "cases/IL-0998.json:") {
		t.Errorf("the skeleton's page: status %d\n%.600s", status, body)
	}
	if !strings.Contains(r.log.String(), "draft IL-0998: 17 problems left, listed at /en/cases/IL-0998/") {
		t.Errorf("the terminal does not point at the draft's problems:\n%s", r.log.String())
	}
	for _, p := range []string{"/en/", "/ko/", "/en/search/", "/en/cases/IL-0053/"} {
		if status, body := raw(t, r.url+p); status != 200 || strings.Contains(body, "IL-0998") {
			t.Errorf("%s: status %d, names the broken draft %v", p, status, strings.Contains(body, "IL-0998"))
		}
	}
}

// TestDraftEdited: a draft filled in while the preview runs shows, marked,
// once it has no errors, and once its mark is deleted it shows as a
// published case, unmarked.
func TestDraftEdited(t *testing.T) {
	content := repotest.ContentDir(t)
	file := filepath.Join(content, "cases", "IL-0999.json")
	skeleton, err := cases.Skeleton("IL-0999", cases.LocalSchemaRef, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, skeleton, 0o644); err != nil {
		t.Fatal(err)
	}
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: content})
	page := r.url + "/en/cases/IL-0999/"
	if status, body := raw(t, page); status != 500 || !strings.Contains(body, "The draft IL-0999") {
		t.Fatalf("the skeleton: status %d", status)
	}
	src, err := os.ReadFile(filepath.Join(content, "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	whole := strings.Replace(string(src), `{"id":"IL-0495",`, `{"draft":true,"id":"IL-0999",`, 1)
	if err := os.WriteFile(file, []byte(whole), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 10*time.Second, "the filled-in draft, marked", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, "Draft: shown only in the preview")
	})
	if err := os.WriteFile(file, []byte(strings.Replace(whole, `"draft":true,`, ``, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 10*time.Second, "the published case, unmarked", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, "IL-0999") && !strings.Contains(body, "Draft: shown only in the preview")
	})
}

// TestRootFilesServed: the preview serves content/root's files at the root,
// as a build copies them, through the content's jail.
func TestRootFilesServed(t *testing.T) {
	content := repotest.ContentDir(t)
	root := filepath.Join(content, cases.RootDir, ".well-known")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "security.txt"), []byte("Contact: mailto:s@example.org\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(content, cases.RootDir, "passwd")); err != nil {
		t.Fatal(err)
	}
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: content})
	if status, body := raw(t, r.url+"/.well-known/security.txt"); status != 200 || body != "Contact: mailto:s@example.org\n" {
		t.Errorf("security.txt: status %d, %q", status, body)
	}
	if status, body := raw(t, r.url+"/passwd"); status != 404 || strings.Contains(body, "root:") {
		t.Errorf("a link out of the content folder: status %d", status)
	}
}
