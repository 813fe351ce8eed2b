// Command incidentlib builds the incidentlib site from a content folder.
// Run "incidentlib help" for its commands and flags; the README's synopsis
// is the same text (a test keeps them in step).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"incidentlib"
	"incidentlib/internal/api"
	"incidentlib/internal/build"
	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/mcpserver"
	"incidentlib/internal/serve"
	"incidentlib/internal/site"
)

const usage = `incidentlib builds a bilingual (English and Korean) library of incident
post-mortems from JSON and Markdown into a static site.

Usage:
%s
Commands:
  build   read content/, check it, write public/
  check   read and check content/ only; write nothing
  serve   preview the site locally, rebuilding on every save
  new     write content/cases/ID.json with every field, ready to fill in
  mcp     serve the library to AI coding tools (MCP, over stdio or HTTP)
  help    show help for a command

A build reports every problem in the content at once, as
  file:line:column: field: message
and exits with status 1 without touching the previous output. Warnings (such
as a missing translation) are printed but do not fail the build; "check
-strict" fails on them too, which is how CI keeps the shipped content clean.
Ctrl-C stops a build, keeps the previous output and exits with status 130.

Run "incidentlib help build" for a command's flags.
`

func main() {
	tuneGC(len(os.Args) > 1 && os.Args[1] == "build")
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// tuneGC sets how the collector paces itself.
//
// A build keeps the text of the cases off the heap (about 1.2 GB at 100,000
// cases, see cases.LoadOffHeap), so what is live on the heap is small next to
// what the pages allocate, and collecting less often saves CPU: the heap may
// grow to two and a half times what is live (GOGC=150) up to a soft ceiling
// of 2.25 GiB. Measured with make bench: 10,000 cases 4.2 s/370 MB → 4.1
// s/455 MB at GOGC=200, 100,000 cases 48.9 s/3.40 GB → 46.5 s/3.38 GB (at
// that size the ceiling, not GOGC, sets the pace). On the generated library
// with real-text vocabulary, 10,000 cases, GOGC=200 peaked at 648 MB, 150
// at 549 MB and 120 at 540 MB, with no CPU time between them that the
// noise of a shared machine let show (24–25.4 s, medians of 2 runs, load
// average 3): 150 keeps the build under 600 MB.
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
			debug.SetGCPercent(150)
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, usage, synopsis("  "))
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
	case "new":
		return cmdNew(rest, stdout, stderr, time.Now())
	case "mcp":
		return cmdMCP(rest, os.Stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			for _, fs := range commandFlags() {
				if fs.Name() == rest[0] {
					fs.SetOutput(stdout)
					fs.Usage()
					return 0
				}
			}
			fmt.Fprintf(stderr, "incidentlib: no command %q\n", rest[0])
			return 2
		}
		fmt.Fprintf(stdout, usage, synopsis("  "))
		return 0
	default:
		fmt.Fprintf(stderr, "incidentlib: unknown command %q\n\n", cmd)
		fmt.Fprintf(stderr, usage, synopsis("  "))
		return 2
	}
}

// commandFlags returns the flags of every command, in the order help lists
// them.
func commandFlags() []*flag.FlagSet {
	return []*flag.FlagSet{buildFlags(new(buildOptions), nil), checkFlags(new(string), new(bool), nil), serveFlags(new(serveOptions), nil), newCaseFlags(new(string), nil), mcpFlags(new(mcpOptions), nil)}
}

// commandArgs are the arguments a command takes after its flags.
var commandArgs = map[string]string{"new": "ID"}

// synopsis writes one line per command with all its flags, from the flags
// themselves, so that help and the README (which copies it) cannot leave
// one out.
func synopsis(indent string) string {
	var b strings.Builder
	for _, fs := range commandFlags() {
		b.WriteString(indent + "incidentlib " + fs.Name())
		fs.VisitAll(func(f *flag.Flag) {
			if name, _ := flag.UnquoteUsage(f); name != "" {
				fmt.Fprintf(&b, " [-%s %s]", f.Name, name)
			} else {
				fmt.Fprintf(&b, " [-%s]", f.Name)
			}
		})
		if a := commandArgs[fs.Name()]; a != "" {
			b.WriteString(" " + a)
		}
		b.WriteString("\n")
	}
	b.WriteString(indent + "incidentlib help [command]\n")
	return b.String()
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

// buildOptions are the build's options and the command's own.
type buildOptions struct {
	build.Options
	Verbose                bool
	CPUProfile, MemProfile string
}

func buildFlags(o *buildOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("build", "[flags]", `Reads the content folder, checks every file, and writes the whole site (pages
in both languages, search index, JSON API, feeds, sitemap) into a new folder
that replaces -out only when everything succeeded.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to read")
	fs.StringVar(&o.Out, "out", "public", "output `DIR`, replaced as a whole: a new or empty one, or one an earlier build wrote")
	fs.BoolVar(&o.Offline, "offline", false, "write links that name index.html, so the site works when opened from disk")
	fs.StringVar(&o.BaseURL, "base-url", "", "public `URL` of the site, such as https://example.org/incidentlib/ (default: base_url in site.json)")
	fs.StringVar(&o.TemplatesDir, "templates", "", "use templates from this `DIR` instead of the built-in ones")
	fs.StringVar(&o.StaticDir, "static", "", "use static files from this `DIR` instead of the built-in ones")
	fs.IntVar(&o.Workers, "workers", 0, "render `N` pages at once (default: number of CPUs)")
	fs.BoolVar(&o.ForceOut, "force-out", false, "replace -out even when it holds files the last build did not write, or has no "+build.Marker+" (never across filesystems)")
	fs.BoolVar(&o.Verbose, "v", false, "print the time of each stage, the files per kind and how many files were written, kept and removed")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the build to `FILE` (for go tool pprof)")
	fs.StringVar(&o.MemProfile, "memprofile", "", "write a heap profile to `FILE` when the pages are written, before the old output is replaced")
	return fs
}

func cmdBuild(args []string, stdout, stderr io.Writer) int {
	var bo buildOptions
	fs := buildFlags(&bo, stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o, verbose, cpuprofile, memprofile := bo.Options, bo.Verbose, bo.CPUProfile, bo.MemProfile
	if err := checkProfiles(o, cpuprofile, memprofile); err != nil {
		fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
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
	o.Templates, o.Static = theme(o.TemplatesDir, o.StaticDir)
	o.Extras = build.StandardExtras()
	// This process ends after the build, so the text of the cases can live
	// outside the collected heap for good.
	o.OffHeap = true
	ctx, stop := interruptible(stderr)
	defer stop()
	st, list, err := build.Run(ctx, o)
	if o.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K") // clear the progress line
	}
	printDiags(stderr, list, o.Content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
		if errors.Is(err, context.Canceled) {
			return exitInterrupted
		}
		return 1
	}
	for _, l := range st.KindLines() {
		fmt.Fprintln(stdout, "  "+l)
	}
	if verbose {
		for _, s := range st.Stages {
			fmt.Fprintf(stdout, "  %-28s %s\n", s.Name, s.Took.Round(10e3))
		}
		fmt.Fprintf(stdout, "  files: %d written, %d kept as they were, %d removed\n", st.Written, st.Kept, st.Removed)
		fmt.Fprintf(stdout, "  %s\n", engineLine(st.Engines))
	}
	for _, w := range st.Warnings {
		fmt.Fprintf(stderr, "incidentlib build: warning: %s\n", w)
	}
	fmt.Fprintf(stdout, "%s → %s\n", st.Summary(), o.Out)
	return 0
}

// engineLine is the gauge of the template engines in the -v summary: a
// template htmlexec refused, or a page it handed back to the standard
// library, shows nowhere else but as a slower build.
func engineLine(e site.Engines) string {
	line := fmt.Sprintf("htmlexec: %d templates compiled", e.Compiled)
	if len(e.Uncompiled) > 0 {
		line += fmt.Sprintf(", %d left to the standard library (%s)", len(e.Uncompiled), strings.Join(e.Uncompiled, ", "))
	}
	return line + fmt.Sprintf(", %d fallbacks to the standard library at run time", e.Fallbacks)
}

// checkProfiles refuses profile files that would land in the content,
// templates, static or output folders or overwrite a file that is not a
// profile, before any work; and one file for both profiles.
func checkProfiles(o build.Options, cpu, mem string) error {
	for _, f := range []string{cpu, mem} {
		if f == "" {
			continue
		}
		if err := build.CheckProfile(f, o); err != nil {
			return err
		}
	}
	if cpu != "" && mem != "" {
		a, errA := filepath.Abs(cpu)
		b, errB := filepath.Abs(mem)
		if errA == nil && errB == nil && a == b {
			return fmt.Errorf("-cpuprofile and -memprofile name the same file, %s", cpu)
		}
		if ia, err := os.Stat(cpu); err == nil {
			if ib, err := os.Stat(mem); err == nil && os.SameFile(ia, ib) {
				return fmt.Errorf("-cpuprofile and -memprofile name the same file, %s", cpu)
			}
		}
	}
	return nil
}

// exitInterrupted is the status of a build stopped by Ctrl-C or SIGTERM,
// as shells report a process that SIGINT ended (128 + 2).
const exitInterrupted = 130

// interruptible returns a context that ends at the first Ctrl-C, SIGTERM
// or SIGHUP (the terminal closed), so that the build stops its workers and
// removes its temporary folder. A second signal ends the process at once;
// the next build of the same output removes what it left.
func interruptible(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "\nincidentlib build: stopping (press Ctrl-C again to quit at once)")
		cancel()
		select {
		case <-sig:
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}

func checkFlags(content *string, strict *bool, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("check", "[flags]", "Reads and checks the content folder like a build does, and writes nothing.", stderr)
	fs.StringVar(content, "content", "content", "content `DIR` to check")
	fs.BoolVar(strict, "strict", false, "fail (exit status 1) on warnings too, such as a missing translation")
	return fs
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	var content string
	var strict bool
	fs := checkFlags(&content, &strict, stderr)
	if err := fs.Parse(args); err != nil {
		return 2
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
}

// theme returns the templates and static files a build uses: the folders
// given with -templates and -static, or the copies embedded in the binary.
func theme(templatesDir, staticDir string) (templates, static fs.FS) {
	templates, static = incidentlib.Templates(), incidentlib.Static()
	if templatesDir != "" {
		templates = os.DirFS(templatesDir)
	}
	if staticDir != "" {
		static = os.DirFS(staticDir)
	}
	return templates, static
}

type serveOptions struct {
	build.Options
	Addr string
}

func serveFlags(o *serveOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("serve", "[flags]", `Serves a preview of the site on 127.0.0.1 and rebuilds what changed when a
file in the content, templates or static folder is saved; open pages reload
themselves. Content errors are shown in the browser with file and line.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to read")
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:1313", "`HOST:PORT` to listen on")
	fs.StringVar(&o.TemplatesDir, "templates", "", "templates `DIR` to watch (default: ./templates when it exists)")
	fs.StringVar(&o.StaticDir, "static", "", "static `DIR` to watch (default: ./static when it exists)")
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
		Content: o.Content, Templates: o.TemplatesDir, Static: o.StaticDir,
		BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(),
		Extras:  build.StandardExtras(),
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
		return 2
	}
	if len(ids) != 1 {
		fmt.Fprintf(stderr, "incidentlib new: want one case id, such as IL-0500, not %d (%s)\n", len(ids), strings.Join(ids, " "))
		return 2
	}
	id := ids[0]
	lib, _, err := build.Load(content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib new: %v\n", err)
		return 1
	}
	if _, ok := lib.ByID[id]; ok {
		fmt.Fprintf(stderr, "incidentlib new: there is a case %s already\n", id)
		return 1
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
	err = root.MkdirAll(cases.CasesDir, 0o755)
	var f *os.File
	if err == nil {
		f, err = root.OpenFile(cases.CaseFile(id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(stderr, "incidentlib new: %s exists already: choose another id, or edit that case\n", name)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib new: cannot write %s: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: fill it in, then run incidentlib check\n", name)
	return 0
}

// parseAnywhere parses flags given before, between or after the positional
// arguments ("new IL-0999 -content DIR" as well as "new -content DIR
// IL-0999"), which the flag package alone stops reading at the first
// positional one, and returns the positional arguments. After "--" every
// argument is positional.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
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

type mcpOptions struct {
	Content     string
	HTTP        string
	PublicURL   string
	CallTimeout time.Duration
	mcpserver.HTTPOptions
}

func mcpFlags(o *mcpOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("mcp", "[flags]", `Serves the library to AI coding tools as a Model Context Protocol server with
the tools search_incidents, get_incident, list_incidents, get_topic and vocab.
Without -http it speaks over standard input and output, as AI tools start
local servers; with -http it serves Streamable HTTP at /mcp and a health
check at /healthz. It watches the content folder and answers from the new
library after every save.

To serve the public behind a reverse proxy or a load balancer, give the
address clients use with -public-url: requests must name its host, and
browsers may call only from its origin. With -stateless no call needs the
replica that answered the one before, so any number of replicas can share
the load. SIGTERM stops the server after the calls in flight.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to read")
	fs.StringVar(&o.HTTP, "http", "", "serve Streamable HTTP on this `ADDR` instead of stdio; a bare port or :PORT listens on 127.0.0.1, 0.0.0.0:PORT on every interface")
	fs.StringVar(&o.PublicURL, "public-url", "", "the `URL` clients reach the server at, such as https://mcp.example.org/; the Host and Origin it accepts come from it")
	fs.BoolVar(&o.Stateless, "stateless", false, "answer every call on its own, without sessions, so that replicas need no session affinity")
	fs.IntVar(&o.MaxSessions, "max-sessions", 1000, "most open sessions; an initialize beyond them gets 503")
	fs.DurationVar(&o.SessionIdle, "session-idle", 10*time.Minute, "close a session after this long without a request")
	fs.Int64Var(&o.MaxBody, "max-body", 1<<20, "largest request body in `bytes`")
	fs.DurationVar(&o.CallTimeout, "call-timeout", 30*time.Second, "longest time to read a request and answer a call")
	fs.DurationVar(&o.ShutdownGrace, "shutdown-grace", 10*time.Second, "how long calls in flight may finish after SIGTERM")
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
	if o.PublicURL != "" {
		u, err := url.Parse(o.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fmt.Fprintf(stderr, "incidentlib mcp: -public-url %q is not an http or https address such as https://mcp.example.org/\n", o.PublicURL)
			return 2
		}
		o.HTTPOptions.PublicURL = u
	}
	var ln net.Listener
	if o.HTTP != "" {
		var err error
		if ln, err = net.Listen("tcp", mcpserver.ListenAddr(o.HTTP, o.HTTPOptions.PublicURL != nil)); err != nil {
			fmt.Fprintf(stderr, "incidentlib mcp: %v\n", err)
			return 1
		}
	}
	srv, err := mcpserver.New(mcpserver.Options{Content: o.Content, Templates: incidentlib.Templates(), Static: incidentlib.Static(), Log: stderr, CallTimeout: o.CallTimeout, HTTP: o.HTTPOptions})
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
