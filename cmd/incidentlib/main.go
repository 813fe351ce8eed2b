// Command incidentlib builds the incidentlib site from a content folder.
//
//	incidentlib build [-content DIR] [-out DIR] [-offline] [-base-url URL]
//	incidentlib check [-content DIR]
//	incidentlib serve [-content DIR] [-addr HOST:PORT]
//	incidentlib mcp [-content DIR] [-http ADDR]
//
// Run "incidentlib help" for the details.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"unicode/utf8"

	"incidentlib/internal/build"
	"incidentlib/internal/diag"
	"incidentlib/internal/mcpserver"
	"incidentlib/internal/offheap"
	"incidentlib/internal/serve"
)

const usage = `incidentlib builds a bilingual (English and Korean) library of incident
post-mortems from JSON and Markdown into a static site.

Usage:
  incidentlib build [flags]   read content/, check it, write public/
  incidentlib check [flags]   read and check content/ only; write nothing
  incidentlib serve [flags]   preview the site locally, rebuilding on every save
  incidentlib mcp [flags]     serve the library to AI coding tools (MCP, stdio or HTTP)
  incidentlib help [command]  show help for a command

A build reports every problem in the content at once, as
  file:line:column: field: message
and exits with status 1 without touching the previous output. Warnings (such
as a missing translation) are printed but do not fail the build.

Run "incidentlib help build" for a command's flags.
`

func main() {
	tuneGC(len(os.Args) > 1 && os.Args[1] == "build")
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// tuneGC sets how the collector paces itself.
//
// A build keeps the text of the cases off the heap (about 1.2 GB at 100,000
// cases, see package offheap), so what is live on the heap is small next to
// what the pages allocate, and collecting less often saves CPU: the heap may
// grow to three times what is live (GOGC=200) up to a soft ceiling of 2.25
// GiB. Measured with make bench: 10,000 cases 4.2 s/370 MB → 4.1 s/455 MB,
// 100,000 cases 48.9 s/3.40 GB → 46.5 s/3.38 GB (at that size the ceiling,
// not GOGC, sets the pace).
//
// The other commands, serve above all, keep their text on the heap, so they
// keep the default pace under a ceiling of 3 GiB.
//
// GOGC and GOMEMLIMIT in the environment win.
func tuneGC(build bool) {
	limit := int64(3 << 30)
	if build {
		limit = 2304 << 20
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(200)
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "build":
		return cmdBuild(rest, stdout, stderr)
	case "check":
		return cmdCheck(rest, stdout, stderr)
	case "serve":
		return cmdServe(rest, stdout, stderr)
	case "mcp":
		return cmdMCP(rest, os.Stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			for _, fs := range []*flag.FlagSet{buildFlags(new(build.Options), nil), checkFlags(new(string), nil), serveFlags(new(serveOptions), nil), mcpFlags(new(mcpOptions), nil)} {
				if fs.Name() == rest[0] {
					fs.SetOutput(stdout)
					fs.Usage()
					return 0
				}
			}
			fmt.Fprintf(stderr, "incidentlib: no command %q\n", rest[0])
			return 2
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "incidentlib: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

func newFlags(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if stderr != nil {
		fs.SetOutput(stderr)
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: incidentlib %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fs.PrintDefaults()
	}
	return fs
}

func buildFlags(o *build.Options, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("build", "[flags]", `Reads the content folder, checks every file, and writes the whole site (pages
in both languages, search index, JSON API, feeds, sitemap) into a new folder
that replaces -out only when everything succeeded.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `folder` to read")
	fs.StringVar(&o.Out, "out", "public", "output `folder`, replaced as a whole")
	fs.BoolVar(&o.Offline, "offline", false, "write links that name index.html, so the site works when opened from disk")
	fs.StringVar(&o.BaseURL, "base-url", "", "public `URL` of the site, such as https://example.org/incidentlib/ (default: base_url in site.json)")
	fs.StringVar(&o.Templates, "templates", "", "use templates from this `folder` instead of the built-in ones")
	fs.StringVar(&o.Static, "static", "", "use static files from this `folder` instead of the built-in ones")
	fs.IntVar(&o.Workers, "workers", 0, "render `n` pages at once (default: number of CPUs)")
	return fs
}

func cmdBuild(args []string, stdout, stderr io.Writer) int {
	var o build.Options
	verbose := false
	cpuprofile := ""
	fs := buildFlags(&o, stderr)
	fs.BoolVar(&verbose, "v", false, "print the time of each stage and the files per kind")
	fs.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the build to `file` (for go tool pprof)")
	memprofile := ""
	fs.StringVar(&memprofile, "memprofile", "", "write a heap profile to `file` when the pages are written, before the old output is replaced")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if memprofile != "" {
		o.Written = func() {
			f, err := os.Create(memprofile)
			if err != nil {
				fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
				return
			}
			defer f.Close()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
			}
		}
	}
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "incidentlib build: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if o.BaseURL != "" && !strings.HasSuffix(o.BaseURL, "/") {
		o.BaseURL += "/"
	}
	if isTerminal(stderr) {
		o.Progress = func(done, total int) {
			fmt.Fprintf(stderr, "\rrendering: %d of %d files", done, total)
		}
	}
	// This process ends after the build, so the text of the cases can live
	// outside the collected heap for good.
	o.Text = new(offheap.Arena)
	st, list, err := build.Run(o)
	if o.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K") // clear the progress line
	}
	printDiags(stderr, list, o.Content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
		return 1
	}
	for _, l := range st.KindLines() {
		fmt.Fprintln(stdout, "  "+l)
	}
	if verbose {
		for _, s := range st.Stages {
			fmt.Fprintf(stdout, "  %-28s %s\n", s.Name, s.Took.Round(10e3))
		}
	}
	fmt.Fprintf(stdout, "%s → %s\n", st.Summary(), o.Out)
	return 0
}

func checkFlags(content *string, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("check", "[flags]", "Reads and checks the content folder like a build does, and writes nothing.", stderr)
	fs.StringVar(content, "content", "content", "content `folder` to check")
	return fs
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	var content string
	fs := checkFlags(&content, stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lib, list, err := build.Load(content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib check: %v\n", err)
		return 1
	}
	printDiags(stderr, list, content)
	if list.Errors() > 0 {
		fmt.Fprintf(stderr, "incidentlib check: %s, %s\n", plural(list.Errors(), "error"), plural(list.Warnings(), "warning"))
		return 1
	}
	fmt.Fprintf(stdout, "%s, %s: no errors, %s\n", plural(len(lib.Cases), "case"), plural(len(lib.Pages), "prose page"), plural(list.Warnings(), "warning"))
	return 0
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// isTerminal reports whether w is a terminal, where a progress line helps;
// in logs and pipes it would only add noise.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// printDiags prints every problem, each followed by the part of its line it
// points at and a caret, as compilers do; case files are often one long line,
// so the excerpt is clipped around the column.
func printDiags(w io.Writer, list diag.List, content string) {
	files := map[string][]string{}
	for _, d := range list.Items {
		fmt.Fprintln(w, d.String())
		if d.Line <= 0 {
			continue
		}
		lines, ok := files[d.File]
		if !ok {
			if b, err := os.ReadFile(filepath.Join(content, filepath.FromSlash(d.File))); err == nil {
				lines = strings.Split(string(b), "\n")
			}
			files[d.File] = lines
		}
		if d.Line > len(lines) {
			continue
		}
		excerpt, caret := clip(lines[d.Line-1], d.Col-1, 36)
		fmt.Fprintf(w, "    %s\n    %s^\n", excerpt, strings.Repeat(" ", caret))
	}
}

// clip returns the part of line within width characters of column col
// (0-based, in characters) and where col falls in it. Tabs become spaces so
// that the caret lines up.
func clip(line string, col, width int) (string, int) {
	r := []rune(strings.ReplaceAll(line, "\t", " "))
	if !utf8.ValidString(line) {
		r = []rune(strings.ToValidUTF8(string(r), "?"))
	}
	from, to := max(0, col-width), min(len(r), col+width)
	if from > to {
		return "", 0
	}
	excerpt, caret := string(r[from:to]), col-from
	if from > 0 {
		excerpt, caret = "…"+excerpt, caret+1
	}
	if to < len(r) {
		excerpt += "…"
	}
	// Wide Hangul takes two columns in a terminal: count it twice before
	// the caret so the caret stands under the right character.
	for _, c := range r[from:min(col, to)] {
		if c >= 0x1100 && (c <= 0x115f || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xff60)) {
			caret++
		}
	}
	return excerpt, caret
}

type serveOptions struct {
	build.Options
	Addr string
}

func serveFlags(o *serveOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("serve", "[flags]", `Serves a preview of the site on 127.0.0.1 and rebuilds what changed when a
file in the content, templates or static folder is saved; open pages reload
themselves. Content errors are shown in the browser with file and line.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `folder` to read")
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:1313", "`address` to listen on")
	fs.StringVar(&o.Templates, "templates", "", "templates `folder` to watch (default: ./templates when it exists)")
	fs.StringVar(&o.Static, "static", "", "static `folder` to watch (default: ./static when it exists)")
	return fs
}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	var o serveOptions
	fs := serveFlags(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "incidentlib serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	// Listen before loading, so that a port in use is reported at once
	// and not after reading a large library.
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib serve: %v\n", err)
		return 1
	}
	srv, err := serve.New(serve.Options{
		Content: o.Content, Templates: o.Templates, Static: o.Static,
		BaseURL: o.BaseURL, Addr: o.Addr, Log: stderr,
	})
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "incidentlib serve: %v\n", err)
		return 1
	}
	// Ctrl-C and a service manager's TERM both end the preview cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "incidentlib serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, "incidentlib serve: stopped")
	return 0
}

type mcpOptions struct {
	Content string
	HTTP    string
}

func mcpFlags(o *mcpOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("mcp", "[flags]", `Serves the library to AI coding tools as a Model Context Protocol server with
the tools search_incidents, get_incident, list_incidents, get_topic and vocab.
Without -http it speaks over standard input and output, as AI tools start
local servers; with -http it serves Streamable HTTP at /mcp. It watches the
content folder and answers from the new library after every save.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `folder` to read")
	fs.StringVar(&o.HTTP, "http", "", "serve Streamable HTTP on this `address` instead of stdio; a bare port listens on 127.0.0.1")
	return fs
}

func cmdMCP(args []string, stdin io.ReadCloser, stdout, stderr io.Writer) int {
	var o mcpOptions
	fs := mcpFlags(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "incidentlib mcp: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var ln net.Listener
	if o.HTTP != "" {
		var err error
		if ln, err = net.Listen("tcp", mcpserver.ListenAddr(o.HTTP)); err != nil {
			fmt.Fprintf(stderr, "incidentlib mcp: %v\n", err)
			return 1
		}
	}
	srv, err := mcpserver.New(mcpserver.Options{Content: o.Content, Log: stderr})
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		fmt.Fprintf(stderr, "incidentlib mcp: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if ln != nil {
		err = srv.ServeHTTP(ctx, ln)
	} else {
		err = srv.ServeStdio(ctx, stdin, nopCloser{stdout})
	}
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib mcp: %v\n", err)
		return 1
	}
	return 0
}

// nopCloser lets the MCP session close standard output's writer without
// closing the file, which the process still owns.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
