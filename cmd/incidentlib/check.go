package main

import (
	"flag"
	"fmt"
	"io"
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
	fs := newFlags("check", "[flags]", "Reads and checks the content folder like a build does, and the templates and static folders when given, and writes nothing.", stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to check")
	fs.BoolVar(&o.Strict, "strict", false, "fail (exit status 1) on warnings too, such as a missing translation")
	fs.StringVar(&o.TemplatesDir, "templates", "", "check the templates in this `DIR` too, as a build with -templates reads them")
	fs.StringVar(&o.StaticDir, "static", "", "check the static files in this `DIR` too, as a build with -static reads them")
	return fs
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	var o checkOptions
	fs := checkFlags(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return 2
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
	printDiags(stderr, list, content)
	if list.Errors() > 0 || strict && list.Warnings() > 0 {
		fmt.Fprintf(stderr, "incidentlib check: %s, %s\n", plural(list.Errors(), "error"), plural(list.Warnings(), "warning"))
		return 1
	}
	fmt.Fprintf(stdout, "%s, %s: no errors, %s\n", plural(len(lib.Cases), "case"), plural(len(lib.Prose), "prose page"), plural(list.Warnings(), "warning"))
	return 0
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
