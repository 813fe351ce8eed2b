package build

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Marker is the file every build leaves at the top of its output, with the
// list of the files it wrote there. A build replaces a folder that is empty
// or missing, or one whose marker lists everything it holds; it refuses any
// other, listing what it did not write: the output folder is replaced as a
// whole, so a folder of someone's own files given as -out by mistake, or
// files of one's own put into the output, must never be taken. A marker
// alone (empty, or copied with an output into another folder) does not make
// a folder disposable. Options.ForceOut takes such a folder all the same.
const Marker = ".incidentlib-output"

// OutError is a refused output folder. Its message names the folder, says
// why it is refused and how to proceed.
type OutError struct {
	Out string // the folder as given
	Why string
}

func (e *OutError) Error() string { return fmt.Sprintf("refusing to write to %s: %s", e.Out, e.Why) }

// target is where a build writes, as outTarget judged it.
type target struct {
	out string // the folder to replace, every link in its path resolved
	// inPlace is set when out is a mount point: it cannot be renamed, so
	// its entries are replaced one by one (see writer.commitInPlace).
	inPlace bool
	// old is what the marker of the current output lists, nil when there is
	// no output yet or (with ForceOut) no marker that lists its files.
	old *fileList
	// exists is set when out holds an earlier output (or, with ForceOut,
	// anything) that the build compares with and removes.
	exists bool
}

// outTarget decides where a build may write for -out and returns the folder
// to replace: -out itself or, when -out is a symbolic link, the folder it
// points to (the build writes there and the link stays, even one that
// points to nothing yet). It refuses, before any work, a folder whose loss
// would lose something: see Marker, and protected. What lies deeper than
// the top of the output is judged by checkOld, alongside the loading.
func outTarget(opt Options) (target, error) {
	given := opt.Out
	if strings.TrimSpace(given) == "" {
		return target{}, &OutError{given, "name an output folder, such as public"}
	}
	out, err := resolve(given)
	if err != nil {
		return target{}, &OutError{given, err.Error()}
	}
	if why := protected(out, opt); why != "" {
		return target{}, &OutError{given, why + "; choose a folder of its own for the output, such as public"}
	}
	t := target{out: out}
	info, err := os.Lstat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return t, nil
	case err != nil:
		return target{}, &OutError{given, err.Error()}
	case !info.IsDir():
		return target{}, &OutError{given, "it is a file, not a folder"}
	}
	mounts, err := mountsAt(out)
	if err != nil {
		return target{}, &OutError{given, err.Error()}
	}
	if len(mounts.inside) > 0 {
		return target{}, mountedError(given, mounts.inside)
	}
	t.inPlace = mounts.self
	entries, err := os.ReadDir(out)
	if err != nil {
		return target{}, &OutError{given, err.Error()}
	}
	entries = withoutTemps(entries, out)
	if len(entries) == 0 {
		return t, nil
	}
	t.exists = true
	old, why := readMarker(out)
	if opt.ForceOut {
		t.old = old
		return t, nil
	}
	if old == nil {
		return target{}, &OutError{given, fmt.Sprintf("it holds %s and was not written by incidentlib (%s); "+
			"a build replaces its output folder as a whole. Name a new or empty folder, move those files away first, "+
			"or give -force-out to replace it all the same",
			listEntries(entries), why)}
	}
	var unexpected []string
	for _, e := range entries {
		if e.Name() != Marker && !old.expects(e.Name(), e.Type()) {
			unexpected = append(unexpected, entryName(e))
		}
	}
	if len(unexpected) > 0 {
		return target{}, foreignError(given, unexpected)
	}
	t.old = old
	return t, nil
}

// foreignError refuses an output that holds files the last build did not
// write.
func foreignError(given string, unexpected []string) error {
	return &OutError{given, fmt.Sprintf("it holds %s, which the last build did not write (see %s); "+
		"a build replaces its output folder as a whole. Move those files away first, "+
		"or give -force-out to replace them all the same", listNames(unexpected), Marker)}
}

// mountedError refuses an output with other filesystems mounted inside.
func mountedError(given string, mounted []string) error {
	return &OutError{given, fmt.Sprintf("another filesystem is mounted inside it (%s); "+
		"a build never removes files across filesystems. Unmount it, or name another folder", listNames(mounted))}
}

// withoutTemps leaves out the temporary folders of builds, which lie inside
// an output that is a mount point (see isTemp).
func withoutTemps(entries []fs.DirEntry, out string) []fs.DirEntry {
	var kept []fs.DirEntry
	for _, e := range entries {
		if !isTemp(out, e.Name(), e.Type()) {
			kept = append(kept, e)
		}
	}
	return kept
}

// isTemp reports whether the entry name of the output out is a build's own
// temporary: a folder ".<out>.build-<pid>-…" that holds a marker a build
// wrote (or nothing: a build killed the moment it made it), or the file
// ".<out>.build-marker" that a build writes while it replaces the entries
// of a mount point, itself a marker. A name alone proves nothing: a file
// of one's own named so is a stranger like any other, which the build
// refuses to remove.
func isTemp(out, name string, typ fs.FileMode) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix(out))
	if !ok {
		return false
	}
	p := filepath.Join(out, name)
	if rest == "marker" && typ.IsRegular() {
		return isMarkerFile(p)
	}
	pid, _, ok := strings.Cut(rest, "-")
	if n, err := strconv.Atoi(pid); !ok || err != nil || n <= 0 || !typ.IsDir() {
		return false
	}
	inside, err := os.ReadDir(p)
	return err == nil && (len(inside) == 0 || isMarkerFile(filepath.Join(p, Marker)))
}

// isMarkerFile reports whether the file p begins as a build's marker.
func isMarkerFile(p string) bool {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(markerHead))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == markerHead
}

func entryName(e fs.DirEntry) string {
	if e.IsDir() {
		return e.Name() + "/"
	}
	return e.Name()
}

// listEntries names a few entries of a folder for a message.
func listEntries(entries []fs.DirEntry) string {
	var names []string
	for _, e := range entries {
		names = append(names, entryName(e))
	}
	return listNames(names)
}

// listNames names a few of names, sorted, for a message.
func listNames(names []string) string {
	const few = 5
	names = append([]string(nil), names...)
	sort.Strings(names)
	s := strings.Join(names[:min(few, len(names))], ", ")
	if len(names) > few {
		s += fmt.Sprintf(" and %d more", len(names)-few)
	}
	return s
}

// resolve returns the absolute path the kernel reaches for p: each symbolic
// link is followed where it stands, before a ".." after it applies, so
// "lnk/../x" is x beside the folder lnk points to, not beside lnk (cleaning
// the path first, as filepath.Abs does, would judge another folder than the
// one written to). The part that does not exist yet is kept as written, and
// a link that points to nothing leads to where it points.
func resolve(p string) (string, error) {
	if p == "" {
		p = "."
	}
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p = wd + string(filepath.Separator) + p
	}
	root := filepath.VolumeName(p) + string(filepath.Separator)
	todo := strings.Split(p[len(filepath.VolumeName(p)):], string(filepath.Separator))
	cur, links, missing := root, 0, false
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			if missing {
				_, err := os.Lstat(cur)
				missing = err != nil
			}
			continue
		}
		next := filepath.Join(cur, c)
		if missing {
			cur = next
			continue
		}
		info, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			cur, missing = next, true
			continue
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > 40 {
			return "", fmt.Errorf("%s: too many levels of symbolic links", p)
		}
		dest, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(dest) {
			cur = filepath.VolumeName(dest) + string(filepath.Separator)
			dest = dest[len(filepath.VolumeName(dest)):]
		}
		todo = append(strings.Split(dest, string(filepath.Separator)), todo...)
	}
	return cur, nil
}

// sourceDirs are the folders a build reads, resolved: the content, the
// templates and static folders given, and a checkout's own templates and
// static folders even when the build uses the built-in copies (serve reads
// them). what names each for a message.
func sourceDirs(opt Options) (what, dirs []string) {
	add := func(w, d string) {
		if d == "" {
			return
		}
		if r, err := resolve(d); err == nil {
			what, dirs = append(what, w), append(dirs, r)
		}
	}
	add("the content folder", opt.Content)
	add("the templates folder", opt.TemplatesDir)
	add("the static folder", opt.StaticDir)
	for _, name := range []string{"templates", "static"} {
		if info, err := os.Stat(name); err == nil && info.IsDir() {
			add("the "+name+" folder", name)
		}
	}
	return what, dirs
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
		if r, err := resolve(wd); err == nil {
			places = append(places, place{"the working folder", r, false})
		}
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if r, err := resolve(home); err == nil {
			places = append(places, place{"the home folder", r, false})
		}
	}
	what, dirs := sourceDirs(opt)
	for i := range what {
		places = append(places, place{what[i], dirs[i], true})
	}
	for _, p := range places {
		if p.dir == out {
			return "it is " + p.what
		}
	}
	for _, p := range places {
		if p.source && within(out, p.dir) {
			return fmt.Sprintf("it is inside %s (%s)", p.what, p.dir)
		}
	}
	for _, p := range places {
		if within(p.dir, out) {
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

// CheckProfile says why a profile may not be written to file, or returns
// nil: not into the content, templates, static or output folders (a profile
// there would be read, published or removed with them), and not over any
// file that exists: a gzip backup looks like a profile, and an earlier
// profile is someone's measurement. Paths are judged as the kernel
// resolves them. A named pipe or a character device (such as /dev/null)
// loses nothing. The command creates the file with CreateProfile, which
// holds to the same rule when the file appears after this check.
func CheckProfile(file string, opt Options) error {
	p, err := resolve(file)
	if err != nil {
		return err
	}
	what, dirs := sourceDirs(opt)
	if opt.Out != "" {
		if out, err := resolve(opt.Out); err == nil {
			what, dirs = append(what, "the output folder"), append(dirs, out)
		}
	}
	for i, d := range dirs {
		if within(p, d) {
			return fmt.Errorf("%s is inside %s (%s); write profiles elsewhere", file, what[i], d)
		}
	}
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&(fs.ModeNamedPipe|fs.ModeCharDevice) != 0:
		return nil
	case info.IsDir():
		return fmt.Errorf("%s is not a file", file)
	}
	return fmt.Errorf("%s exists; a profile never overwrites a file: name a new one", file)
}

// CreateProfile creates file for a profile that CheckProfile allowed: a new
// file, never one that appeared since (O_EXCL), or a named pipe or a
// character device.
func CreateProfile(file string) (*os.File, error) {
	if info, err := os.Stat(file); err == nil && info.Mode()&(fs.ModeNamedPipe|fs.ModeCharDevice) != 0 {
		return os.OpenFile(file, os.O_WRONLY, 0)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s exists; a profile never overwrites a file: name a new one", file)
	}
	return f, err
}

// tempMark starts the name of a build's temporary folder, beside the output
// (inside it when the output is a mount point):
// ".public.build-<pid>-<random>". A running build holds a lock on its
// folder (see lockTemp), so that a later build tells the folder of a build
// that was killed from one still running, even when the killed build's
// process id has been given to another process since.
const tempMark = ".build-"

// tempPrefix is how the temporary folders of builds of out begin.
func tempPrefix(out string) string { return "." + filepath.Base(out) + tempMark }

// removeStale removes the temporary folders that builds of out left when
// they were killed before they could clean up (SIGKILL, a power cut): those
// no running build holds, and which hold the marker or nothing. They lie
// beside out, or inside it when it is a mount point.
func removeStale(out string) {
	prefix := tempPrefix(out)
	for _, parent := range []string{filepath.Dir(out), out} {
		entries, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		for _, e := range entries {
			rest, ok := strings.CutPrefix(e.Name(), prefix)
			if !ok || !e.IsDir() {
				continue
			}
			pidText, _, _ := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(pidText)
			if err != nil || pid <= 0 {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			unlock, free := tryLockTemp(dir, pid)
			if !free {
				continue
			}
			inside, err := os.ReadDir(dir)
			if err == nil && len(inside) > 0 {
				if _, err := os.Lstat(filepath.Join(dir, Marker)); err != nil {
					unlock()
					continue
				}
			}
			if err == nil {
				_, _ = removeTree(dir)
			}
			unlock()
		}
	}
}
