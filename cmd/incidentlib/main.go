// Command incidentlib builds the incidentlib site from a content folder.
// Run "incidentlib help" for its commands and flags; the README's synopsis
// is the same text (a test keeps them in step).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"incidentlib"
	"incidentlib/internal/cases"
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
  version print the version of incidentlib and of Go it was built with
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
	case "version", "-version", "--version":
		if len(rest) > 0 && rest[0] != "-h" && rest[0] != "-help" && rest[0] != "--help" {
			fmt.Fprintf(stderr, "incidentlib version: unexpected argument %q\n", rest[0])
			return 2
		}
		fmt.Fprintln(stdout, version())
		return 0
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			switch rest[0] {
			case "help":
				fmt.Fprint(stdout, "Usage: incidentlib help [command]\n\nShows the commands and what they do, or with a command its flags.\n")
				return 0
			case "version":
				fmt.Fprint(stdout, "Usage: incidentlib version\n\nPrints the version of incidentlib (its module version, or the commit it was\nbuilt from) and of Go. -version says the same.\n")
				return 0
			}
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
	return []*flag.FlagSet{buildFlags(new(buildOptions), nil), checkFlags(new(checkOptions), nil), serveFlags(new(serveOptions), nil), newCaseFlags(new(string), nil), mcpFlags(new(mcpOptions), nil)}
}

// commandArgs are the arguments a command takes after its flags.
var commandArgs = map[string]string{"new": "ID", "check": "[FILE...]"}

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
	b.WriteString(indent + "incidentlib version\n")
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

// flagExit is the exit status after a command's flags failed to parse:
// 0 for -h, which asked for the help the flag package printed, 2 for a
// mistake.
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// version describes this binary: the module's version when it was built
// from a tagged module, else the commit it was built from (and whether the
// tree had changes), and Go's version.
func version() string {
	v := "(devel)"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "incidentlib " + v + " " + runtime.Version()
	}
	if info.Main.Version != "" {
		v = info.Main.Version
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" && v == "(devel)" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v = rev
		if t := settings["vcs.time"]; t != "" {
			v += " " + t
		}
		if settings["vcs.modified"] == "true" {
			v += " (with uncommitted changes)"
		}
	}
	return "incidentlib " + v + " " + info.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
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
		// Cancel before saying so: whoever reads "stopping" (a person, or
		// TestInterrupt releasing a held build) may rely on the build
		// already being stopped.
		cancel()
		fmt.Fprintln(stderr, "\nincidentlib build: stopping (press Ctrl-C again to quit at once)")
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

// theme returns the templates and static files a build uses: the folders
// given with -templates and -static, or the copies embedded in the binary.
// The folders are read through the content's jail (cases.ContentFS): a
// theme comes from a pull request as the content does, and must no more
// publish a file linked from elsewhere, read a device or wait on a pipe.
func theme(templatesDir, staticDir string) (templates, static fs.FS) {
	templates, static = incidentlib.Templates(), incidentlib.Static()
	if templatesDir != "" {
		templates = cases.ContentFS(templatesDir)
	}
	if staticDir != "" {
		static = cases.ContentFS(staticDir)
	}
	return templates, static
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
