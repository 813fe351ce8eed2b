package cases

import (
	"errors"
	"io/fs"
	"path"
	"runtime"
	"strings"
	"sync"

	"incidentlib/internal/cases/internal/offheap"
	"incidentlib/internal/diag"
)

// Reload returns the library as Load would return it after the content files
// named in changed were edited, added or removed, while reading again only
// the case files it must. It is what the preview server calls after a save.
//
// lib and prev are the library and the problems of the previous Load or
// Reload of the same folder. changed holds slash-separated paths relative to
// the content folder ("cases/IL-0495.json"); names the loader does not read
// are ignored, and a change to site.json or vocab.json means a full Load,
// because every case is checked against them.
//
// The new library shares the *Case values of the files it did not read
// again; neither library is modified. A case file is read again when it
// changed, when prev reported a problem in it (its own problems are not
// kept anywhere else), or when the previous library holds no case from it
// (a file that did not parse, or a duplicate id that was left out). The
// cases folder is listed again every time, so added and removed files are
// found even when a watcher missed them. The checks between files (links,
// duplicate ids, organisation names), the prose pages and the topic
// introductions, which are all cheap, are done again in full.
func Reload(lib *Library, prev diag.List, fsys fs.FS, changed []string) (*Library, diag.List) {
	if lib == nil {
		return Load(fsys)
	}
	reread := map[string]bool{}
	for _, p := range changed {
		p = path.Clean(strings.TrimPrefix(p, "/"))
		switch {
		case p == SiteFile || p == VocabFile || p == GlossaryFile || p == ".":
			return Load(fsys)
		case InCases(p):
			reread[p] = true
		}
	}
	var list diag.List
	for _, d := range prev.Items {
		switch d.File {
		case SiteFile, VocabFile, GlossaryFile:
			// Neither changed, or this would be a full Load.
			list.Add(d)
		default:
			if InCases(d.File) {
				reread[d.File] = true
			}
		}
	}
	nl := &Library{ByID: map[string]*Case{}, Topics: map[string]map[string]Bilingual{}, Vocab: lib.Vocab, Settings: lib.Settings}

	byFile := make(map[string]*Case, len(lib.Cases))
	for _, c := range lib.Cases {
		// A draft the preview showed (WithDrafts) is read again: it is
		// few, and must come back as a draft.
		if !c.Draft {
			byFile[c.File] = c
		}
	}
	names := listCases(fsys, &list)
	var todo []string
	for _, name := range names {
		if reread[name] || byFile[name] == nil {
			todo = append(todo, name)
		}
	}
	fresh := loadCaseFiles(fsys, todo, &nl.Vocab, nil) // a server reloads: its text must be collectable

	// Unchanged files keep their case; whichever of two files with the
	// same id was re-read, the first in file-name order keeps it.
	nl.Cases, nl.Drafts = gatherCases(names, func(name string) caseResult {
		if r, ok := fresh[name]; ok {
			return r
		}
		return caseResult{c: byFile[name]}
	}, &list)
	finish(nl, fsys, &list)
	return nl, list
}

// listCases lists the case files in name order, warning about anything in
// the folder that is not one.
func listCases(fsys fs.FS, list *diag.List) []string {
	entries, err := fs.ReadDir(fsys, CasesDir)
	if err != nil {
		list.Errorf(CasesDir, 0, 0, "", "cannot read the cases folder: %v", unwrapPathError(err))
		return nil
	}
	var names []string
	for _, e := range entries {
		name := CasesDir + "/" + e.Name()
		if strings.HasPrefix(e.Name(), ".") {
			hidden(name, list) // .DS_Store, an editor's swap file, or a case hidden by mistake
			continue
		}
		dir, err := isDir(fsys, name, e)
		switch {
		case err != nil:
			list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		case dir:
			list.Errorf(name, 0, 0, "", "a folder in cases/ is not read: case files go directly in cases/")
		case strings.HasSuffix(e.Name(), ".json"):
			names = append(names, name)
		default:
			list.Warnf(name, 0, 0, "", "ignored: a case file must end in .json")
		}
	}
	return names
}

// isDir reports whether the entry name of a content folder is a folder,
// following a symbolic link: a link to a folder is a folder, and a link
// that leads nowhere or round in a loop is an error, never skipped.
func isDir(fsys fs.FS, name string, e fs.DirEntry) (bool, error) {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir(), nil
	}
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return false, err
	}
	return info.IsDir(), nil
}

// readDir lists an optional folder of the content: a folder that is not
// there is empty, one that cannot be read is an error.
func readDir(fsys fs.FS, name string, list *diag.List) []fs.DirEntry {
	entries, err := fs.ReadDir(fsys, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		list.Errorf(name, 0, 0, "", "cannot read the folder: %v", unwrapPathError(err))
	}
	return entries
}

// loadCaseFiles reads case files with one worker per CPU; a single file, the
// usual save, is read on the calling goroutine.
func loadCaseFiles(fsys fs.FS, names []string, voc *Vocab, text *offheap.Arena) map[string]caseResult {
	results := make([]caseResult, len(names))
	dir := openFolder(fsys, CasesDir)
	defer dir.close()
	workers := min(runtime.GOMAXPROCS(0), len(names))
	if workers <= 1 {
		var cr caseReader
		for i, name := range names {
			results[i] = loadCase(fsys, name, dir, voc, text, &cr)
		}
	} else {
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var cr caseReader // one per worker: its memory is reused for every file
				for i := range next {
					results[i] = loadCase(fsys, names[i], dir, voc, text, &cr)
				}
			}()
		}
		for i := range names {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	out := make(map[string]caseResult, len(names))
	for i, name := range names {
		out[name] = results[i]
	}
	return out
}
