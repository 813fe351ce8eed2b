package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/serve"
)

// defaultServeAddr is where serve listens unless told otherwise.
const defaultServeAddr = "127.0.0.1:1313"

type serveOptions struct {
	build.Options
	Addr            string
	RequestTimeout  time.Duration
	MaxConnsPerAddr int
}

// maxConnsPerAddrHelp is the help of the servers' -max-conns-per-addr;
// exempt says which addresses are not capped.
func maxConnsPerAddrHelp(exempt string) string {
	return "most connections one client address (an IPv6 one by its /64) may hold, `N`; 0 means a quarter of the connection cap (256 of 1,024): more than a NAT of an office needs (a browser opens 6 connections to a host, an MCP session 2), while three quarters stay for everyone else. " + exempt + " not capped"
}

func serveFlags(o *serveOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("serve", "[flags]", `Serves a preview of the site on 127.0.0.1 and rebuilds what changed when a
file in the content folder (or the -templates and -static folders) is saved;
open pages reload themselves. It shows what "build" with the same flags
writes: the built-in templates and static files unless -templates or -static
name folders. Content errors are shown in the browser with file and line.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to read")
	fs.StringVar(&o.Addr, "addr", defaultServeAddr, "`ADDR` (host:port) to listen on; a port in use is named with the fix")
	fs.StringVar(&o.TemplatesDir, "templates", "", "use templates from this `DIR` instead of the built-in ones, and reload when one changes")
	fs.StringVar(&o.StaticDir, "static", "", "use static files from this `DIR` instead of the built-in ones, and reload when one changes")
	fs.DurationVar(&o.RequestTimeout, "request-timeout", serve.DefaultRequestTimeout, "longest `DURATION` a request may take; a page not made by then is answered 503 and goes on being made for the next request")
	fs.IntVar(&o.MaxConnsPerAddr, "max-conns-per-addr", 0, maxConnsPerAddrHelp("This machine's addresses are"))
	return fs
}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	var o serveOptions
	fs := serveFlags(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "incidentlib serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	// Listen before loading, so that a port in use is reported at once
	// and not after reading a large library.
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib serve: %v\n", listenError(o.Addr, err, "serve ADDR"))
		return 1
	}
	srv, err := serve.New(serve.Options{
		Content: o.Content, Templates: o.TemplatesDir, Static: o.StaticDir,
		BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(),
		Extras:  build.StandardExtras(),
		BaseURL: o.BaseURL, Addr: o.Addr, Log: stderr,
		RequestTimeout: o.RequestTimeout, MaxConnsPerAddr: o.MaxConnsPerAddr,
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

// listenError says what to do when addr cannot be listened on: for a port
// in use, that another program holds it and which flag, or which variable
// of the Makefile (makeVar: its target and variable), chooses another.
func listenError(addr string, err error, makeVar string) error {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return err
	}
	next := "127.0.0.1:8080"
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if n, err := strconv.Atoi(port); err == nil && n > 0 && n < 65535 {
			next = net.JoinHostPort(host, strconv.Itoa(n+1))
		}
	}
	return fmt.Errorf("%s is in use by another program (an incidentlib started earlier?): stop it, or choose another port with -addr %s (make %s=%s)",
		addr, next, makeVar, next)
}
