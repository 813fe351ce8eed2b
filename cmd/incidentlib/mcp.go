package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"incidentlib"
	"incidentlib/internal/httpsafe"
	"incidentlib/internal/mcpserver"
)

type mcpOptions struct {
	Content     string
	HTTP        string
	PublicURL   string
	CallTimeout time.Duration
	TrustProxy  string
	MaxMemory   string
	mcpserver.HTTPOptions
}

func mcpFlags(o *mcpOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("mcp", "[flags]", `Serves the library to AI coding tools as a Model Context Protocol server with
the tools search_incidents, get_incident, list_incidents, get_topic and vocab.
Without -addr it speaks over standard input and output, as AI tools start
local servers; with -addr it serves Streamable HTTP at /mcp and a health
check at /healthz. It watches the content folder and answers from the new
library after every save.

To serve the public behind a reverse proxy or a load balancer, give the
address clients use with -public-url: requests must name its host, and
browsers may call only from its origin. With -stateless no call needs the
replica that answered the one before, so any number of replicas can share
the load. SIGTERM stops the server after the calls in flight.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to read")
	fs.StringVar(&o.HTTP, "addr", "", "serve Streamable HTTP on this `ADDR` instead of stdio; a bare port or :PORT listens on 127.0.0.1, 0.0.0.0:PORT on every interface")
	fs.StringVar(&o.HTTP, "http", "", "the same as -addr `ADDR` (its first name)")
	fs.StringVar(&o.PublicURL, "public-url", "", "the `URL` clients reach the server at, such as https://mcp.example.org/; the Host and Origin it accepts come from it")
	fs.BoolVar(&o.Stateless, "stateless", false, "answer every call on its own, without sessions, so that replicas need no session affinity")
	fs.IntVar(&o.MaxSessions, "max-sessions", 1000, "most open sessions, `N`, a quarter of them per client address; at the cap the session idle longest (a tenth of -session-idle at least) makes room, or an initialize gets 503")
	fs.DurationVar(&o.SessionIdle, "session-idle", 10*time.Minute, "close a session after this `DURATION` without a request")
	fs.Int64Var(&o.MaxBody, "max-body", 1<<20, "largest request body in `BYTES`")
	fs.DurationVar(&o.CallTimeout, "call-timeout", 30*time.Second, "longest `DURATION` to read a request and answer a call")
	fs.DurationVar(&o.ShutdownGrace, "shutdown-grace", 10*time.Second, "the `DURATION` calls in flight may take to finish after SIGTERM")
	fs.DurationVar(&o.Drain, "drain", 0, "after SIGTERM, answer for this `DURATION` more while /healthz says 503 draining, so that a load balancer stops sending calls first")
	fs.StringVar(&o.TrustProxy, "trust-proxy", "", "reverse proxies whose X-Forwarded-For names the client, as `ADDRS` and CIDR ranges separated by commas (127.0.0.1,10.0.0.0/8); the access log and the per-address session cap count that client")
	fs.IntVar(&o.MaxConnsPerAddr, "max-conns-per-addr", 0, maxConnsPerAddrHelp("This machine's addresses and the -trust-proxy proxies (whose clients count by their sessions) are"))
	fs.DurationVar(&o.KeepAlive, "keep-alive", 25*time.Second, "send a comment on an event stream after this `DURATION` of quiet, so that proxies keep it open")
	fs.StringVar(&o.MaxMemory, "max-memory", "", "a soft memory limit such as 512MiB or 1GiB (`SIZE`): the garbage collector works harder as the heap nears it; the same as GOMEMLIMIT")
	return fs
}

func cmdMCP(args []string, stdin io.ReadCloser, stdout, stderr io.Writer) int {
	var o mcpOptions
	fs := mcpFlags(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
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
	proxies, err := httpsafe.ParseProxies(o.TrustProxy)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib mcp: -trust-proxy: %v\n", err)
		return 2
	}
	o.HTTPOptions.TrustProxy = proxies
	if o.MaxMemory != "" {
		n, err := parseSize(o.MaxMemory)
		if err != nil {
			fmt.Fprintf(stderr, "incidentlib mcp: -max-memory: %v\n", err)
			return 2
		}
		debug.SetMemoryLimit(n)
	}
	var ln net.Listener
	if o.HTTP != "" {
		var err error
		addr := mcpserver.ListenAddr(o.HTTP, o.HTTPOptions.PublicURL != nil)
		if ln, err = net.Listen("tcp", addr); err != nil {
			fmt.Fprintf(stderr, "incidentlib mcp: %v\n", listenError(addr, err, "mcp MCP_ADDR"))
			return 1
		}
	}
	srv, err := mcpserver.New(mcpserver.Options{Content: o.Content, Log: stderr, CallTimeout: o.CallTimeout, HTTP: o.HTTPOptions, Icon: siteIcon()})
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

// siteIcon is the site's icon, which the server shows as its own; a theme
// without one gives none.
func siteIcon() []byte {
	b, _ := fs.ReadFile(incidentlib.Static(), "img/icon.svg")
	return b
}

// nopCloser lets the MCP session close standard output's writer without
// closing the file, which the process still owns.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// parseSize reads a size in bytes with an optional unit: B, KiB, MiB,
// GiB (or KB, MB, GB, taken as the same powers of two), as GOMEMLIMIT
// writes them.
func parseSize(s string) (int64, error) {
	num := strings.TrimRightFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	shift, ok := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30}[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is not a size such as 512MiB or 2GiB", s)
	}
	return n << shift, nil
}
