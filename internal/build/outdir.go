package build

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Marker is the file every build leaves at the top of its output. A build
// replaces a folder that holds it, or one that is empty or missing, and
// refuses any other: the output folder is replaced as a whole, so a folder of
// someone's own files given as -out by mistake must never be taken.
const Marker = ".incidentlib-output"

const markerText = "This folder was written by incidentlib build, which replaces it as a whole on\n" +
	"the next build. Keep no files of your own in it.\n"

// tempMark starts the name of a build's temporary folder, beside the output:
// ".public.build-<pid>-<random>". The process id tells a later build whether
// the folder belongs to a build still running or was left by one that was
// killed.
const tempMark = ".build-"

// OutError is a refused output folder. Its message names the folder, says
// why it is refused and how to proceed.
type OutError struct {
	Out string // the folder as given
	Why string
}

func (e *OutError) Error() string { return fmt.Sprintf("refusing to write to %s: %s", e.Out, e.Why) }

// outTarget decides where a build may write for -out and returns the folder
// to replace: -out itself or, when -out is a symbolic link, the folder it
// points to (the build writes there and the link stays). It refuses, before
// any work, a folder whose loss would lose something: see Marker, and
// protected.
func outTarget(opt Options) (string, error) {
	given := opt.Out
	if strings.TrimSpace(given) == "" {
		return "", &OutError{given, "name an output folder, such as public"}
	}
	out, err := resolve(given)
	if err != nil {
		return "", &OutError{given, err.Error()}
	}
	if why := protected(out, opt); why != "" {
		return "", &OutError{given, why + "; choose a folder of its own for the output, such as public"}
	}
	info, err := os.Stat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return out, nil
	case err != nil:
		return "", &OutError{given, err.Error()}
	case !info.IsDir():
		return "", &OutError{given, "it is a file, not a folder"}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return "", &OutError{given, err.Error()}
	}
	if len(entries) == 0 {
		return out, nil
	}
	for _, e := range entries {
		if e.Name() == Marker && e.Type().IsRegular() {
			return out, nil
		}
	}
	return "", &OutError{given, fmt.Sprintf("it holds %s and was not written by incidentlib (it has no %s file); "+
		"a build replaces its output folder as a whole. Name a new or empty folder, or move those files away first",
		listEntries(entries), Marker)}
}

// listEntries names a few entries of a folder for a message.
func listEntries(entries []fs.DirEntry) string {
	const few = 5
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	s := strings.Join(names[:min(few, len(names))], ", ")
	if len(names) > few {
		s += fmt.Sprintf(" and %d more", len(names)-few)
	}
	return s
}

// resolve returns the absolute path of p with every symbolic link in it
// resolved, as far as it exists: the part that does not exist yet is kept as
// written.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for dir := abs; ; dir = filepath.Dir(dir) {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return "", err
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// protected says why out must never be replaced whatever it holds, or "":
// a filesystem root, the working folder, the home folder or a folder above
// them, and the content, templates and static folders, any folder inside
// them and any folder that holds one of them.
func protected(out string, opt Options) string {
	if out == filepath.Dir(out) {
		return "it is the root of a filesystem"
	}
	type place struct {
		what, dir string
		source    bool // nothing inside it may be the output either
	}
	var places []place
	if wd, err := os.Getwd(); err == nil {
		places = append(places, place{"the working folder", wd, false})
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		places = append(places, place{"the home folder", home, false})
	}
	for _, p := range []place{{"the content folder", opt.Content, true}, {"the templates folder", opt.TemplatesDir, true}, {"the static folder", opt.StaticDir, true}} {
		if p.dir != "" {
			places = append(places, p)
		}
	}
	// A checkout's own templates and static folders count even when the
	// build uses the built-in copies: serve reads them.
	for _, name := range []string{"templates", "static"} {
		if info, err := os.Stat(name); err == nil && info.IsDir() {
			places = append(places, place{"the " + name + " folder", name, true})
		}
	}
	for i := range places {
		places[i].dir, _ = resolve(places[i].dir)
	}
	for _, p := range places {
		if p.dir == out {
			return "it is " + p.what
		}
	}
	for _, p := range places {
		if p.source && p.dir != "" && within(out, p.dir) {
			return fmt.Sprintf("it is inside %s (%s)", p.what, p.dir)
		}
	}
	for _, p := range places {
		if p.dir != "" && within(p.dir, out) {
			return fmt.Sprintf("it holds %s (%s)", p.what, p.dir)
		}
	}
	return ""
}

// within reports whether path is dir or lies inside it; both are clean and
// absolute.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// tempPrefix is how the temporary folders of builds of out begin.
func tempPrefix(out string) string { return "." + filepath.Base(out) + tempMark }

// removeStale removes the temporary folders that builds of out left when
// they were killed before they could clean up (SIGKILL, a power cut): those
// whose build process is gone, and which hold the marker or nothing. A
// folder of a build still running is left alone.
func removeStale(out string) {
	parent, prefix := filepath.Dir(out), tempPrefix(out)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		inside, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		if len(inside) > 0 {
			if _, err := os.Lstat(filepath.Join(dir, Marker)); err != nil {
				continue
			}
		}
		_ = os.RemoveAll(dir)
	}
}
