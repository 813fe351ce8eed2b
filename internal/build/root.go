package build

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// RootDir is the folder of the content whose files a build copies as they
// are to the root of its output: the files a host wants there and the
// site does not make, such as CNAME (GitHub Pages' domain), a
// .well-known/ folder, favicon.ico or a search engine's verification file.
// They are read through the content's jail (regular files only, none from
// outside the content folder) and listed in the output's marker like every
// file the build writes.
const RootDir = cases.RootDir

// rootFile is one file of RootDir, by its path in the output.
type rootFile struct {
	path string
	data []byte
}

// mergedRoot are the host files a build writes itself and a publisher may
// add rules to: a copy in RootDir comes first in the written file, so that
// on a host that takes the first matching rule, the publisher's win.
var mergedRoot = map[string]bool{urls.Headers: true, urls.Redirects: true}

// readRoot reads the files of RootDir in the content folder fsys, sorted by
// path; none when it is missing. Errors name the file under content, the
// content folder as given.
func readRoot(fsys fs.FS, content string) ([]rootFile, error) {
	var out []rootFile
	err := fs.WalkDir(fsys, RootDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == RootDir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return fmt.Errorf("%s: %w", path.Join(content, p), unwrap(err))
		}
		if d.IsDir() {
			return nil
		}
		data, err := cases.ReadContent(fsys, p)
		if err != nil {
			return fmt.Errorf("%s: %w", path.Join(content, p), unwrap(err))
		}
		out = append(out, rootFile{strings.TrimPrefix(p, RootDir+"/"), data})
		return nil
	})
	return out, err
}

// splitRoot takes the merged host files out of root, by their path.
func splitRoot(root []rootFile) (rest []rootFile, merged map[string][]byte) {
	merged = map[string][]byte{}
	for _, f := range root {
		if mergedRoot[f.path] {
			merged[f.path] = f.data
		} else {
			rest = append(rest, f)
		}
	}
	return rest, merged
}

// writeRoot writes the files of root that are not merged, once every other
// file is written, after making sure that none takes the place of one; and
// a merged one as it is when no extra wrote the file it goes before.
func writeRoot(w *writer, root []rootFile, merged map[string][]byte, st *Result) error {
	if len(root) == 0 && len(merged) == 0 {
		return nil
	}
	w.pathsMu.Lock()
	written := slices.Clone(w.paths)
	w.pathsMu.Unlock()
	slices.Sort(written)
	if err := rootCollision(root, written); err != nil {
		return err
	}
	for p, data := range merged {
		if !isWritten(written, p) {
			root = append(root, rootFile{p, data})
		}
	}
	for _, f := range root {
		if err := w.write(f.path, f.data); err != nil {
			return err
		}
		st.Kinds["root file"]++
	}
	return nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// rootCollision returns an error for the first file of root that has the
// name of a file the build wrote (written, sorted), or of one of its
// folders, or that needs a folder where the build wrote a file; nil when
// there is none. The merged host files are not in root by then.
func rootCollision(root []rootFile, written []string) error {
	for _, f := range root {
		if f.path == Marker {
			return fmt.Errorf("%s/%s has the name of the build's own list of its files: rename or remove it", RootDir, f.path)
		}
		if isWritten(written, f.path) {
			return fmt.Errorf("%s/%s collides with %s, which the build writes: rename or remove it", RootDir, f.path, f.path)
		}
		if j := sort.SearchStrings(written, f.path+"/"); j < len(written) && strings.HasPrefix(written[j], f.path+"/") {
			return fmt.Errorf("%s/%s collides with the folder %s/ (which holds %s), which the build writes: rename or remove it", RootDir, f.path, f.path, written[j])
		}
		for d := path.Dir(f.path); d != "."; d = path.Dir(d) {
			if isWritten(written, d) {
				return fmt.Errorf("%s/%s needs a folder %s/ where the build writes the file %s: rename or remove it", RootDir, f.path, d, d)
			}
		}
	}
	return nil
}

func isWritten(written []string, p string) bool {
	i := sort.SearchStrings(written, p)
	return i < len(written) && written[i] == p
}
