package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/serve"
)

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
