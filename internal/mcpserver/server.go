// Package mcpserver owns "incidentlib mcp": the library as a Model Context
// Protocol server, so that an AI coding tool (Claude Code, Codex, an
// editor's agent) can ask "has anyone had this outage before?" and get
// cases back.
//
// # Tools
//
// search_incidents, get_incident, list_incidents, get_topic and vocab (one
// file each: search.go, incident.go, list.go, topic.go, vocab.go; tools.go
// declares them and runs a call; filters.go makes the facet filters that
// search and list share from the facet table) answer from the same model
// the site is rendered from: the loaded library, the derived site (topics,
// statistics, related cases, page URLs) and a search engine over the documents the site's search index is
// built from, so that a query finds what the search page finds. Every
// answer is compact Markdown for the model to read and structured content
// that carries the data (never a copy of the text) and matches the tool's
// declared output schema. Cases, topics and the vocabulary are also
// resources (resources.go), three prompts start the usual questions
// (prompts.go) and completion/complete completes their arguments
// (complete.go).
//
// # Arguments and languages
//
// Arguments are decoded by the server itself (args.go), not by the SDK's
// schema validation: the schemas show one plain JSON type per argument,
// as every client accepts, while the decoding takes what models send (a
// year as a number, one term without its list, a misspelled argument name
// with one clear candidate, a term by its label: names.go, values.go),
// says so in a note, and refuses what it cannot place. An answer is in
// the language of lang, or without it in the query's (Hangul answers in
// Korean); every sentence, note and error comes from the one string
// catalogue (the "mcp." keys of templates/strings.json), in both languages.
//
// # Transports and watching
//
// The server speaks over stdio, as AI tools start local servers, or
// Streamable HTTP at /mcp (http.go). Both read every message through a
// check of its own (frames.go) that answers a malformed one with the
// JSON-RPC error it deserves and reads on, where the SDK would end the
// connection. Over HTTP it refuses Hosts and browser Origins other than
// its public address's and loopback ones, and can run stateless, so that
// replicas need no session affinity. In both modes it watches the content
// folder as the preview does (library.Live), makes the next library from
// what a save changed (package library, which reads only those files
// again) and swaps the new model in atomically, so that an
// answer never mixes two versions of the library. Content with errors gives tool
// errors that list them until the files are fixed.
package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/httpsafe"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/search"
	"incidentlib/internal/watch"
)

// mcpPath is where the Streamable HTTP endpoint is served.
const mcpPath = "/mcp"

// Options say what to serve.
type Options struct {
	Content  string        // the content folder
	Log      io.Writer     // where loads, reloads, content problems and HTTP calls are reported; nil means nowhere
	Debounce time.Duration // quiet time that ends a burst of file events; 0 means 50 ms
	// CallTimeout bounds a tool call, over either transport, and over
	// HTTP the reading of a request too. 0 means 30 seconds.
	CallTimeout time.Duration
	HTTP        HTTPOptions
	// Icon is the server's icon, an SVG image (the site's), or nil.
	Icon []byte
}

// HTTPOptions say how the server is served over HTTP. The zero value is a
// server for this machine: stateful sessions, Origin checked against the
// request's own host and loopback.
type HTTPOptions struct {
	// PublicURL is the address clients use, such as
	// https://mcp.example.org/ behind a reverse proxy. When set, requests
	// must name its host (or a loopback one) in Host, and browsers may call
	// only from its origin (or a loopback one).
	PublicURL *url.URL
	// Stateless answers every call on its own, without sessions: any
	// replica behind a load balancer can answer any call of any client.
	Stateless bool
	// MaxSessions caps the open sessions (stateful mode), and a quarter of
	// it the sessions of one client address (see sessionBook): an
	// initialize beyond either is refused (429, 503) unless a session idle
	// for a tenth of SessionIdle makes room. 0 means 1000.
	MaxSessions int
	// SessionIdle closes a session that has had no request for this long.
	// 0 means 10 minutes.
	SessionIdle time.Duration
	// MaxBody is the largest request body in bytes. 0 means 1 MiB.
	MaxBody int64
	// ShutdownGrace is how long calls in flight may take to finish when
	// the server stops. 0 means 10 seconds.
	ShutdownGrace time.Duration
	// Drain is how long /healthz fails ("draining") after SIGTERM while
	// the server still answers, so that a load balancer stops sending it
	// calls before it stops. 0 means none.
	Drain time.Duration
	// TrustProxy are the reverse proxies whose X-Forwarded-For names the
	// client, for the access log and the per-address session cap; their
	// own connections are not capped per address.
	TrustProxy httpsafe.Proxies
	// MaxConnsPerAddr is the most connections one client address may
	// hold; 0 means a quarter of the cap (httpsafe.Limits.PerAddr).
	// Loopback and the trusted proxies are not capped.
	MaxConnsPerAddr int
	// KeepAlive is the quiet time after which an event stream gets a
	// comment line; 0 means 25 seconds, negative none.
	KeepAlive time.Duration
}

func (o *HTTPOptions) defaults() {
	if o.MaxSessions <= 0 {
		o.MaxSessions = 1000
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = 10 * time.Minute
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 1 << 20
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 10 * time.Second
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = defaultKeepAlive
	}
}

// Pages is what the answers show of the site's pages: a case's Markdown
// and the UI strings, written without a template (casePages).
type Pages interface {
	// CaseMarkdown appends the Markdown twin of a case page in lang to b;
	// with absolute, links to related cases are the URLs of their twins.
	CaseMarkdown(b *bytes.Buffer, c *cases.Case, lang string, absolute bool) error
	Strings() l10n.Strings  // the UI strings
	URL(path string) string // the public URL of a site path
}

// Server is the library as an MCP server. Create it with New, then call
// ServeStdio or ServeHTTP once; MCP gives the protocol server itself, for
// tests that connect to it in memory.
type Server struct {
	opt  Options
	fsys fs.FS
	mcp  *mcp.Server

	live   library.Live[model] // the current model, and the next after each save
	listed map[string]string   // case resources registered with the SDK: URI → title and updated_at; guarded by live's lock
	logMu  sync.Mutex

	inFlight atomic.Int64 // HTTP POSTs being answered, for a graceful shutdown
	public   overHTTP     // set by ServeHTTP: answers name no file of the server
	draining atomic.Bool  // set on SIGTERM: /healthz fails for the drain window

	sess sessionBook // the HTTP sessions' owners and last requests, for the caps
	// reclaimAfter is how long a session must have been idle for an
	// initialize at the session cap to close it (HTTPOptions.SessionIdle
	// over ten).
	reclaimAfter time.Duration
}

// model is one immutable state of the server: the library, the pages made
// from it, and the search engine over its documents.
type model struct {
	model  *library.Library
	lib    *cases.Library // nil only when the content folder could not be read
	diags  diag.List      // the content's problems, warnings included
	site   Pages          // nil when there are errors
	engine *search.Engine
	labels search.Labels       // the terms' labels as search knows them (organisations' Korean names too)
	index  map[*cases.Case]int // place of each case in lib.Cases
	took   time.Duration       // how long making the model took
	names  namesOnce           // the names filter values may use for terms
	words  libraryWords        // the words of the library, for suggestions
	// good is the last model that loaded, answered from while this one
	// has errors (degraded.go); nil while none has.
	good *model
}

// New loads the library. Problems in the content are not an error here:
// the tools report them until they are fixed. The error is for a content
// folder that is missing or not a folder.
func New(opt Options) (*Server, error) {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	opt.HTTP.defaults()
	if opt.CallTimeout <= 0 {
		opt.CallTimeout = 30 * time.Second
	}
	fsys, err := library.Content(opt.Content)
	if err != nil {
		return nil, err
	}
	s := &Server{opt: opt, fsys: fsys, listed: map[string]string{}, reclaimAfter: opt.HTTP.SessionIdle / 10}
	info := &mcp.Implementation{
		Name:        "incidentlib",
		Title:       "incidentlib: incident post-mortems",
		Description: "A library of public incident post-mortems in English and Korean: search, cases, topics and vocabularies.",
		Version:     "0",
	}
	s.mcp = mcp.NewServer(info, &mcp.ServerOptions{Instructions: instructions, Capabilities: capabilities(), CompletionHandler: s.complete})
	s.addTools()
	s.addResources()
	s.addPrompts()
	s.live.Next = s.build
	s.live.Library = func(m *model) *library.Library { return m.model }
	s.live.Swapped = func(prev, next *model, what string) {
		s.syncResources(next)
		s.report(prev, next, what)
	}
	describeServer(info, s.live.Start("loaded"), opt.Icon)
	return s, nil
}

// instructions tell the model what the server is for.
const instructions = `incidentlib is a library of public incident post-mortems (Kubernetes, cloud and networking outages), each written up as a structured case in English and Korean. Use search_incidents when a user describes an outage, a symptom or a component and wants to know whether it has happened elsewhere; get_incident for one case in full; list_incidents to browse by facet; get_topic for a topic's statistics and cases; vocab for the term ids the filters take (labels in either language and organisations' names work too). Cases, topics and the vocabulary are also resources (incidentlib://cases/IL-0495?lang=ko), and the prompts review_cluster, similar_incidents and summarise_topic start the usual questions.`

// MCP returns the protocol server.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// build makes the next model from cur after the content files of c were
// saved (library.Live.Next); a nil cur means a first, full load.
func (s *Server) build(cur *model, c library.Change) *model {
	m := s.buildModel(cur, c)
	if m.site == nil && cur != nil {
		m.good = cur.lastGood()
	}
	return m
}

// buildModel is build without the last good model.
func (s *Server) buildModel(cur *model, c library.Change) (m *model) {
	start := time.Now()
	defer func() { m.took = time.Since(start) }()
	opt := library.Options{Changed: c.Content, ReadAll: c.Full}
	if cur != nil {
		opt.Previous = cur.model
	}
	l, _ := library.New(context.Background(), s.fsys, opt) // no error without a deadline
	m = &model{model: l, lib: l.Lib, diags: l.Diags}
	if m.diags.Errors() > 0 {
		return m
	}
	m.site = newPages(l)
	labels := search.Labels(l.Topics().SearchLabels())
	m.engine, m.labels = search.NewEngine(search.Docs(l.Lib), labels), labels
	m.index = make(map[*cases.Case]int, len(m.lib.Cases))
	for i, c := range m.lib.Cases {
		m.index[c] = i
	}
	// The words suggestions offer take seconds to gather at 10,000 cases:
	// gathered now, the first query that needs them need not wait as long.
	go m.libraryWords()
	return m
}

// syncResources registers every case of m as a resource and removes those
// of cases that are gone, so that resources/list shows the library as it
// is. A library with errors keeps the resources of the last good one: they
// answer with the errors until the files are fixed.
func (s *Server) syncResources(m *model) {
	if m.site == nil {
		return
	}
	want := make(map[string]*cases.Case, len(m.lib.Cases))
	for _, c := range m.lib.Cases {
		want[caseURI(c.ID)] = c
	}
	var gone []string
	for uri := range s.listed {
		if want[uri] == nil {
			gone = append(gone, uri)
			delete(s.listed, uri)
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveResources(gone...)
	}
	for _, c := range m.lib.Cases {
		uri := caseURI(c.ID)
		title, _ := c.Title.In("en")
		seen := title + "\x00" + c.UpdatedAt.String()
		if t, ok := s.listed[uri]; ok && t == seen {
			continue
		}
		s.listed[uri] = seen
		s.mcp.AddResource(caseResource(c), s.readResource)
	}
}

// report prints the outcome of a load: errors every time, warnings when
// they are new, and one line with the number of cases.
func (s *Server) report(prev, m *model, what string) {
	var before []diag.List
	if prev != nil {
		before = append(before, prev.diags)
	}
	var b strings.Builder
	for _, d := range m.diags.Unseen(before...) {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	if m.site != nil {
		fmt.Fprintf(&b, "incidentlib mcp: %s: %d cases ready in %d ms\n", what, len(m.lib.Cases), m.took.Milliseconds())
	} else {
		n := m.diags.Errors()
		errs := map[bool]string{true: "error", false: "errors"}[n == 1]
		if m.good != nil {
			fmt.Fprintf(&b, "incidentlib mcp: %s: %d %s; answering from the last library that loaded (%d cases), degraded, until they are fixed\n", what, n, errs, len(m.good.lib.Cases))
		} else {
			fmt.Fprintf(&b, "incidentlib mcp: %s: %d %s; tools report them until they are fixed\n", what, n, errs)
		}
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprint(s.opt.Log, b.String())
}

func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opt.Log, "incidentlib mcp: "+format, args...)
}

// watch starts watching the content folder; saves are applied until ctx
// is done. It returns once the watch is in place, so that no save made
// after the first answer is missed, and a function that waits for the
// watcher to stop.
func (s *Server) watch(ctx context.Context) (wait func(), err error) {
	w, err := watch.Content(s.opt.Content, cases.Reads, s.opt.Debounce, s.logf)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.live.Run(ctx, w)
	}()
	return func() {
		w.Close()
		<-done
	}, nil
}

// ServeStdio answers one client over in and out (the process's standard
// input and output, as AI tools start local servers) until the client
// closes in or ctx is done.
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wait, err := s.watch(ctx)
	if err != nil {
		return err
	}
	defer wait()
	r, w := stdioFrames(in, out)
	err = s.mcp.Run(ctx, &mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: maxFrameBytes + 1})
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// ListenAddr returns the address -http means: a bare port or ":port"
// listens on 127.0.0.1, as a local server should unless told otherwise,
// and on every interface when the server is public (it has a public URL).
func ListenAddr(addr string, public bool) string {
	host := "127.0.0.1"
	if public {
		host = ""
	}
	if !strings.Contains(addr, ":") {
		return host + ":" + addr
	}
	if strings.HasPrefix(addr, ":") {
		return host + addr
	}
	return addr
}
