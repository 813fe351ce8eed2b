package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"incidentlib/internal/build"
	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/site"
)

// checkOptions are the check command's flags.
type checkOptions struct {
	Content, TemplatesDir, StaticDir string
	Strict                           bool
}

func checkFlags(o *checkOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("check", "[flags] [FILE...]", `Reads and checks the content folder like a build does, and the templates and
static folders when given, and writes nothing.
With FILE arguments (paths of content files, such as
content/cases/IL-0601.json), it checks the whole library as ever, since a
case is checked against the others, but reports the problems of those files
only, a draft's too. Drafts ("draft": true) are listed, not counted.
Flags may come before or after the files.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to check")
	fs.BoolVar(&o.Strict, "strict", false, "fail (exit status 1) on warnings too, such as a missing translation")
	fs.StringVar(&o.TemplatesDir, "templates", "", "check the templates in this `DIR` too, as a build with -templates reads them")
	fs.StringVar(&o.StaticDir, "static", "", "check the static files in this `DIR` too, as a build with -static reads them")
	return fs
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	var o checkOptions
	fs := checkFlags(&o, stderr)
	files, err := parseAnywhere(fs, args)
	if err != nil {
		return flagExit(err)
	}
	content, strict := o.Content, o.Strict
	if o.TemplatesDir != "" || o.StaticDir != "" {
		// The theme is read as a build reads it: through the jail, every
		// file, with the same errors.
		if _, err := site.LoadTheme(theme(o.TemplatesDir, o.StaticDir)); err != nil {
			fmt.Fprintf(stderr, "incidentlib check: %s\n", diag.Printable(err.Error()))
			return 1
		}
	}
	lib, list, err := build.Load(content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib check: %v\n", err)
		return 1
	}
	if len(files) > 0 {
		only, err := contentPaths(content, files)
		if err != nil {
			fmt.Fprintf(stderr, "incidentlib check: %v\n", err)
			return 2
		}
		list = filesOnly(list, lib.Drafts, only)
	}
	printDiags(stderr, list, content)
	if list.Errors() > 0 || strict && list.Warnings() > 0 {
		fmt.Fprintf(stderr, "incidentlib check: %s, %s\n", plural(list.Errors(), "error"), plural(list.Warnings(), "warning"))
		return 1
	}
	if len(files) > 0 {
		fmt.Fprintf(stdout, "%s: no errors, %s\n", plural(len(files), "file"), plural(list.Warnings(), "warning"))
		return 0
	}
	fmt.Fprintf(stdout, "%s, %s: no errors, %s\n", plural(len(lib.Cases), "case"), plural(len(lib.Prose), "prose page"), plural(list.Warnings(), "warning"))
	printDrafts(stdout, lib.Drafts)
	return 0
}

// contentPaths turns the files given to check into paths in the content
// folder, as problems name them: content/cases/IL-0495.json, an absolute
// path, or cases/IL-0495.json (relative to the content folder) alike.
func contentPaths(content string, files []string) (map[string]bool, error) {
	root, err := filepath.Abs(content)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			// Relative to the content folder, as problems name files.
			if alt := filepath.Join(root, f); !filepath.IsAbs(f) {
				if _, err2 := os.Stat(alt); err2 == nil {
					abs = alt
				} else {
					return nil, fmt.Errorf("%s: no such file, in the working folder or in %s", f, content)
				}
			} else {
				return nil, err
			}
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s is not in the content folder %s (choose another with -content)", f, content)
		}
		out[filepath.ToSlash(rel)] = true
	}
	return out, nil
}

// filesOnly keeps the problems of the files in only, and adds those of the
// drafts among them.
func filesOnly(list diag.List, drafts []cases.Draft, only map[string]bool) diag.List {
	var out diag.List
	for _, d := range list.Items {
		if only[d.File] {
			out.Add(d)
		}
	}
	for _, d := range drafts {
		if only[d.File] {
			out.Merge(d.Problems)
		}
	}
	out.Sort()
	return out
}

// printDrafts lists the drafts, which neither a check nor a build counts:
// each with how far it is from done.
func printDrafts(w io.Writer, drafts []cases.Draft) {
	if len(drafts) == 0 {
		return
	}
	fmt.Fprintf(w, "%s, not published (\"draft\": true; incidentlib serve shows them):\n", plural(len(drafts), "draft"))
	for _, d := range drafts {
		state := "ready to publish: remove \"draft\": true"
		if n := d.Problems.Errors(); n > 0 {
			state = plural(n, "problem") + " left (incidentlib check " + d.File + " lists them)"
		}
		fmt.Fprintf(w, "  %s  %s: %s\n", d.ID, d.File, state)
	}
}

// printDiags prints the problems, each followed by the part of its line it
// points at and a caret (see diag.Diag.Excerpt): the first problems of each
// file in full, then how many more.
func printDiags(w io.Writer, list diag.List, content string) {
	files := map[string]string{}
	fsys := cases.ContentFS(content)
	show := func(d diag.Diag) {
		fmt.Fprintln(w, d.String())
		if d.Line <= 0 {
			return
		}
		src, ok := files[d.File]
		if !ok {
			// Through the jail, as the loader reads: an excerpt never shows
			// a file from outside the content folder.
			b, _ := cases.ReadContent(fsys, d.File)
			src = string(b)
			files[d.File] = src
		}
		if ex := d.Excerpt(src); ex != "" && src != "" {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(ex, "\n", "\n    "))
		}
	}
	list.Report(diag.ShownPerFile, show, func(file string, left int) {
		fmt.Fprintln(w, diag.More(file, left))
	})
	if n := list.Dropped(); n > 0 {
		fmt.Fprintln(w, diag.NotKept(n))
	}
}
