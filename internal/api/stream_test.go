package api

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// pieceFile is a streamed file that refuses any write larger than max, so
// that a download made whole in memory and written at once fails.
type pieceFile struct {
	bytes.Buffer
	max, writes int
	closed      bool
}

func (f *pieceFile) Write(p []byte) (int, error) {
	if len(p) > f.max {
		return 0, fmt.Errorf("a write of %d bytes, more than the %d a streamed file may take at once", len(p), f.max)
	}
	f.writes++
	return f.Buffer.Write(p)
}

func (f *pieceFile) Close() error { f.closed = true; return nil }

// TestDownloadsStreamed writes the API of 300 generated cases with the
// downloads streamed: none of them may come whole to write, each must come
// to its file in pieces of at most 64 kB (far less than each file), and
// the bytes must be those Write gives whole.
func TestDownloadsStreamed(t *testing.T) {
	const max = 64 << 10
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: 300, Seed: 3}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	s, err := site.New(library.Derive(lib), site.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		t.Fatal(err)
	}
	downloads := []string{urls.APICasesJSONL, urls.APICasesCSV, urls.APICasesZip}
	whole := map[string][]byte{}
	if err := Write(s.Library(), s.Strings(), s.BaseURL(), func(path string, data []byte) error {
		if slices.Contains(downloads, path) {
			whole[path] = bytes.Clone(data)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	streamed := map[string]*pieceFile{}
	write := func(path string, _ []byte) error {
		if slices.Contains(downloads, path) {
			return fmt.Errorf("%s given whole to write", path)
		}
		return nil
	}
	create := func(path string) (io.WriteCloser, error) {
		if streamed[path] != nil {
			return nil, fmt.Errorf("%s created twice", path)
		}
		streamed[path] = &pieceFile{max: max}
		return streamed[path], nil
	}
	if err := WriteStreamed(s.Library(), s.Strings(), s.BaseURL(), write, create); err != nil {
		t.Fatal(err)
	}
	for _, p := range downloads {
		f := streamed[p]
		switch {
		case f == nil:
			t.Errorf("%s not streamed", p)
		case !f.closed:
			t.Errorf("%s not closed", p)
		case f.Len() < 4*max:
			t.Errorf("%s is %d bytes: too small to show that it is streamed", p, f.Len())
		case !bytes.Equal(f.Bytes(), whole[p]):
			t.Errorf("%s streamed (%d bytes) differs from %s written whole (%d bytes)", p, f.Len(), p, len(whole[p]))
		default:
			t.Logf("%s: %d bytes in %d writes", p, f.Len(), f.writes)
		}
	}
}

// TestSpilled writes the API of 300 generated cases once with every file
// made whole (a spill threshold larger than any file) and once with a
// threshold of 16 kB: cases.json and the largest topics' files must then
// come to create in pieces, no piece much larger than the threshold, and
// every file must hold the same bytes both ways.
func TestSpilled(t *testing.T) {
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: 300, Seed: 5}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	s, err := site.New(library.Derive(lib), site.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		t.Fatal(err)
	}
	files := func(at int) (whole map[string][]byte, streamed map[string]*pieceFile) {
		defer func(old int) { spillAt = old }(spillAt)
		spillAt = at
		whole, streamed = map[string][]byte{}, map[string]*pieceFile{}
		write := func(path string, data []byte) error {
			if whole[path] != nil || streamed[path] != nil {
				return fmt.Errorf("%s written twice", path)
			}
			whole[path] = bytes.Clone(data)
			return nil
		}
		create := func(path string) (io.WriteCloser, error) {
			if whole[path] != nil || streamed[path] != nil {
				return nil, fmt.Errorf("%s created twice", path)
			}
			// A piece is what passed the threshold: at most one case's
			// entry or one checklist item's more.
			streamed[path] = &pieceFile{max: 2 * at}
			return streamed[path], nil
		}
		if err := WriteStreamed(s.Library(), s.Strings(), s.BaseURL(), write, create); err != nil {
			t.Fatal(err)
		}
		return whole, streamed
	}
	all, downloads := files(1 << 40)
	for p, f := range downloads {
		all[p] = f.Bytes()
	}
	whole, streamed := files(16 << 10)
	if streamed[urls.APICases] == nil {
		t.Errorf("%s (%d bytes) was not spilled", urls.APICases, len(all[urls.APICases]))
	}
	topics := 0
	for p, f := range streamed {
		if !f.closed {
			t.Errorf("%s not closed", p)
		}
		if strings.HasPrefix(p, urls.APIDir+"topics/") {
			topics++
		}
		whole[p] = f.Bytes()
	}
	if topics == 0 {
		t.Error("no topic's file was spilled")
	}
	if len(whole) != len(all) {
		t.Errorf("%d files with spilling, %d without", len(whole), len(all))
	}
	for p, data := range all {
		if !bytes.Equal(whole[p], data) {
			t.Errorf("%s: %d bytes with spilling, %d without", p, len(whole[p]), len(data))
		}
	}
	t.Logf("%d files, %d streamed without spilling, %d with (%d topics)", len(all), len(downloads), len(streamed), topics)
}
