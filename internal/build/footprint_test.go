package build

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/gencases"
)

// TestFootprint builds a generated library of 10,000 cases and counts what
// it writes (issue 22): a host that limits files (Cloudflare Pages takes
// 100,000) must take a library of 10,000 cases, so a build writes at most
// 10 files per case, and the search index, which grows with the vocabulary,
// at most 2.5. The figures are deterministic: the same library gives the
// same files on every machine. (It built 2,000 cases until the generator's
// vocabulary grew like content/'s (#41): the index's files per case then
// fall with size, 3.7 at 1,000 cases and 2.49 at 10,000, so a smaller
// library no longer stands for this one.)
func TestFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 cases")
	}
	const n = 10000
	dir := memDir(t)
	content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
	if err := gencases.WriteDir(content, gencases.Options{N: n, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	files, search := 0, 0
	var bytes int64
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += info.Size()
		if rel, _ := filepath.Rel(out, p); strings.HasPrefix(filepath.ToSlash(rel), "search/") {
			search++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases: %d files (%.2f a case), %d of them the search index (%.2f a case), %.1f MB (%.1f kB a case)",
		n, files, float64(files)/n, search, float64(search)/n, float64(bytes)/1e6, float64(bytes)/1e3/n)
	if files > 10*n {
		t.Errorf("%d files for %d cases: more than 10 a case", files, n)
	}
	if 2*search > 5*n {
		t.Errorf("%d search index files for %d cases: more than 2.5 a case", search, n)
	}
	checkChecklistBudgets(t, out, n)
}
