package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"incidentlib/internal/api"
	"incidentlib/internal/build"
	"incidentlib/internal/cases"
)

func newCaseFlags(content *string, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("new", "[flags] ID", `Writes cases/ID.json in the content folder: every field of a case, texts in
both languages, and "$schema": "../schema/case.json", the case format's JSON
Schema, which new writes (or brings up to date) in the content folder so that
editors check the file as it is typed, offline. Then run "incidentlib check":
it lists what is left to fill in. An existing file is never replaced. Flags
may come before or after the id.`, stderr)
	fs.StringVar(content, "content", "content", "content `DIR` to write the case into")
	return fs
}

func cmdNew(args []string, stdout, stderr io.Writer, now time.Time) int {
	var content string
	fs := newCaseFlags(&content, stderr)
	ids, err := parseAnywhere(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(ids) > 1 {
		fmt.Fprintf(stderr, "incidentlib new: want one case id, not %d (%s)\n", len(ids), strings.Join(ids, " "))
		return 2
	}
	lib, _, err := build.Load(content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib new: %v\n", err)
		return 1
	}
	id, code := newCaseID(lib, ids, stderr)
	if code != 0 {
		return code
	}
	data, err := cases.Skeleton(id, cases.LocalSchemaRef, now)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib new: %v\n", err)
		return 2
	}
	// The case names its schema by a relative path, so that an editor
	// checks it offline: ../schema/case.json is the copy beside the cases
	// in the content folder, which new keeps current, and in the published
	// API the schema beside api/v1/cases/.
	schema := cases.JSONSchema(cases.CaseSchema, lib.Settings.BaseURL+api.SchemaPath, "incidentlib case")
	schemaFile := filepath.Join(content, filepath.FromSlash(cases.LocalSchemaFile))
	name := filepath.Join(content, filepath.FromSlash(cases.CaseFile(id)))
	// Both files are written through the content folder's root, as it is
	// read: a cases or schema folder that links outside the content is
	// refused, not written into. A folder that is missing (a new content
	// folder) is made.
	root, err := os.OpenRoot(content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib new: %v\n", err)
		return 1
	}
	defer root.Close()
	if old, err := root.ReadFile(cases.LocalSchemaFile); err != nil || !bytes.Equal(old, schema) {
		if err := writeInRoot(root, cases.LocalSchemaFile, schema); err != nil {
			fmt.Fprintf(stderr, "incidentlib new: cannot write %s: %v\n", schemaFile, err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s: the case format's JSON Schema, for editors\n", schemaFile)
	}
	err = createInRoot(root, cases.CaseFile(id), data)
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(stderr, "incidentlib new: %s exists already: choose another id, or edit that case\n", name)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib new: cannot write %s: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s, a draft: fill it in while incidentlib serve shows it (and what is left) at /en/cases/%s/; remove \"draft\": true to publish it\n", name, id)
	return 0
}

// newCaseID returns the one id of ids, or the exit code after saying why
// there is none to write: no id (it names the next free one), one that is
// not a case id (with a guess at what was meant), or one already taken.
func newCaseID(lib *cases.Library, ids []string, stderr io.Writer) (string, int) {
	if len(ids) == 0 {
		next := cases.NextFreeID(lib)
		fmt.Fprintf(stderr, "incidentlib new: want the id of the new case; the next free one is %s:\n  incidentlib new %s\n", next, next)
		return "", 2
	}
	id := ids[0]
	if !cases.ValidID(id) {
		if fixed := cases.FixID(id); fixed != "" {
			fmt.Fprintf(stderr, "incidentlib new: %q is not a case id: did you mean %s?\n  incidentlib new %s\n", id, fixed, fixed)
		} else {
			fmt.Fprintf(stderr, "incidentlib new: %q is not a case id, such as %s (two capital letters, a hyphen and 4 to 6 digits)\n", id, cases.NextFreeID(lib))
		}
		return "", 2
	}
	if _, ok := lib.ByID[id]; ok {
		fmt.Fprintf(stderr, "incidentlib new: there is a case %s already; the next free id is %s\n", id, cases.NextFreeID(lib))
		return "", 1
	}
	return id, 0
}

// createInRoot writes data to a new file name inside root, making its
// folder if need be; a file there already is an error (os.ErrExist), never
// replaced.
func createInRoot(root *os.Root, name string, data []byte) error {
	if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeInRoot writes data to name inside root through a temporary file
// beside it, renamed over name at the end, so that an editor reading the
// file never sees half of it.
func writeInRoot(root *os.Root, name string, data []byte) error {
	if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
		return err
	}
	tmp := path.Join(path.Dir(name), fmt.Sprintf(".%s.%d.tmp", path.Base(name), os.Getpid()))
	err := root.WriteFile(tmp, data, 0o644)
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		root.Remove(tmp)
	}
	return err
}
