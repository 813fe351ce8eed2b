package build

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"incidentlib/internal/repotest"
)

var (
	sharedOnce    sync.Once
	sharedContent string // the folder sharedLibrary returns
	sharedTemp    string // a folder to remove at the end, or ""
	sharedErr     error
)

// sharedLibrary is the content folder the tests of this package build as
// the shipped library (built, TestBuildDeterministicAndParallel,
// TestNoEngineFallbacks): content/ itself, read and never written, or
// under -short the small library (repotest.SmallCases) written once to a
// temporary folder, which TestMain removes. The full run builds the whole
// library; the quick loop, the same pages of a tenth of the cases.
func sharedLibrary(t testing.TB) string {
	t.Helper()
	sharedOnce.Do(func() {
		if !testing.Short() {
			sharedContent = filepath.Join("..", "..", "content")
			return
		}
		sharedTemp, sharedErr = os.MkdirTemp("", "incidentlib-small-")
		if sharedErr != nil {
			return
		}
		sharedContent = filepath.Join(sharedTemp, "content")
		repotest.WriteFS(t, repotest.SmallMapFS(t), sharedContent)
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedContent
}
