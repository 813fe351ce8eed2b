package build

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// markerHead is what the marker says to a person who opens it; the list of
// files follows it.
const markerHead = "This folder was written by incidentlib build, which replaces it as a whole on\n" +
	"the next build. Keep no files of your own in it: a build refuses a folder that\n" +
	"holds anything the list below does not name (unless given -force-out).\n\n"

// markerTag starts the line that gives the format and the number of files;
// the lines after it are the list, sorted, each path as the number of bytes
// it shares with the one before, a space and the rest, gzip-compressed and
// in base64 (about 3 bytes a file: at 10,000 cases a plain list would be
// 2.8 MB, published with the site).
const markerTag = "incidentlib-output 1 files "

// fileList is the files of an output, as slash-separated paths, sorted.
type fileList struct {
	files []string
	dirs  map[string]bool // every folder above a file, made when needed
	set   map[string]bool
}

// newFileList sorts paths and returns them as a list.
func newFileList(paths []string) *fileList {
	sort.Strings(paths)
	return &fileList{files: paths}
}

// expects reports whether the list accounts for an entry of the top of the
// output: a file it lists, or a folder above one.
func (l *fileList) expects(name string, typ fs.FileMode) bool {
	l.index()
	if typ.IsDir() {
		return l.dirs[name]
	}
	return typ.IsRegular() && l.set[name]
}

func (l *fileList) index() {
	if l.set != nil {
		return
	}
	l.set, l.dirs = make(map[string]bool, len(l.files)), map[string]bool{}
	for _, f := range l.files {
		l.set[f] = true
		for d := path.Dir(f); d != "." && !l.dirs[d]; d = path.Dir(d) {
			l.dirs[d] = true
		}
	}
}

// markerBytes is the marker of an output that holds list.
func markerBytes(list *fileList) []byte {
	var plain bytes.Buffer
	prev := ""
	for _, f := range list.files {
		n := 0
		for n < len(f) && n < len(prev) && f[n] == prev[n] {
			n++
		}
		plain.WriteString(strconv.Itoa(n))
		plain.WriteByte(' ')
		plain.WriteString(f[n:])
		plain.WriteByte('\n')
		prev = f
	}
	var packed bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&packed, gzip.BestCompression) // no name, no time: the same list gives the same bytes
	zw.Write(plain.Bytes())
	zw.Close()
	text := base64.StdEncoding.EncodeToString(packed.Bytes())
	var b bytes.Buffer
	b.WriteString(markerHead)
	b.WriteString(markerTag + strconv.Itoa(len(list.files)) + "\n")
	for len(text) > 76 {
		b.WriteString(text[:76] + "\n")
		text = text[76:]
	}
	b.WriteString(text + "\n")
	return b.Bytes()
}

// markerLimit caps what is read of a marker: a planted one may be anything.
const markerLimit = 64 << 20

// readMarker reads the list from the marker in out, or says why there is
// none.
func readMarker(out string) (*fileList, string) {
	name := filepath.Join(out, Marker)
	info, err := os.Lstat(name)
	if err != nil {
		return nil, "it has no " + Marker + " file"
	}
	if !info.Mode().IsRegular() || info.Size() > markerLimit {
		return nil, "its " + Marker + " is not a marker a build wrote"
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err.Error()
	}
	list, err := parseMarker(b)
	if err != nil {
		return nil, "its " + Marker + " does not list what a build wrote there (" + err.Error() +
			"); a marker alone, such as one copied with an output, does not make a folder disposable"
	}
	return list, ""
}

// parseMarker reads the list of a marker.
func parseMarker(b []byte) (*fileList, error) {
	_, rest, ok := bytes.Cut(b, []byte("\n"+markerTag))
	if !ok {
		if len(bytes.TrimSpace(b)) == 0 {
			return nil, errors.New("it is empty")
		}
		return nil, errors.New("it holds no list of files")
	}
	countText, packed, _ := bytes.Cut(rest, []byte("\n"))
	count, err := strconv.Atoi(string(countText))
	if err != nil || count < 0 {
		return nil, errors.New("bad count of files")
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.ReplaceAll(bytes.TrimSpace(packed), []byte("\n"), nil)))
	if err != nil {
		return nil, errors.New("bad list")
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, errors.New("bad list")
	}
	plain, err := io.ReadAll(io.LimitReader(zr, 256<<20)) // a million files take about 12 MB
	if err != nil {
		return nil, errors.New("bad list")
	}
	// A line of the list takes at least 3 bytes ("0 x\n"): a count beyond
	// that is a lie, and must not size an allocation.
	if count > len(plain)/3 {
		return nil, errors.New("the count of files does not match the list")
	}
	files := make([]string, 0, count)
	prev := ""
	sc := bufio.NewScanner(bytes.NewReader(plain))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		nText, suffix, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.Atoi(nText)
		if !ok || err != nil || n < 0 || n > len(prev) {
			return nil, errors.New("bad list")
		}
		f := prev[:n] + suffix
		if f <= prev || !validPath(f) {
			return nil, fmt.Errorf("bad path %q in the list", f)
		}
		files = append(files, f)
		prev = f
	}
	if len(files) != count {
		return nil, errors.New("the list is cut short")
	}
	return &fileList{files: files}, nil
}

// validPath reports whether p is a path a build may write: relative,
// slash-separated, without empty, "." or ".." parts.
func validPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}
