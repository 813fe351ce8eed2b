package serve

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/httpsafe"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// The preview's own files, beside the site's: the event stream that open
// pages listen to for new versions, the script that listens, and the style
// of the error page. They are files, not inline code, so that the preview
// runs under the site's Content-Security-Policy.
const (
	eventsPath   = "/_incidentlib/events"
	reloadPath   = "/_incidentlib/reload.js"
	errorCSSPath = "/_incidentlib/error.css"
)

// handler serves the current model: pages rendered on request, the files
// of Options.Extras, and the event stream that makes pages reload. It answers
// only requests for this machine (see local) and sends the site's security
// headers with every answer.
func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(eventsPath, s.events)
	mux.HandleFunc(healthPath, s.health)
	mux.HandleFunc(reloadPath, file("application/javascript; charset=utf-8", reloadJS))
	mux.HandleFunc(errorCSSPath, file("text/css; charset=utf-8", errorCSS))
	mux.HandleFunc("/", s.page)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, h := range site.SecurityHeaders {
			w.Header().Set(h.Name, h.Value)
		}
		if !s.local(r.Host) {
			http.Error(w, "incidentlib serve answers only requests for "+s.hostNames()+
				", not for "+strconv.Quote(r.Host)+": a page of another site must not read the preview", http.StatusMisdirectedRequest)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// local reports whether a request's Host names this machine: a loopback
// name or the address the server listens on. A page on another site can
// make a browser send requests here under its own name (DNS rebinding) and
// read the answers as its own; such requests name the other site and are
// refused, the event stream included.
func (s *Server) local(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(host, "]"), "["), "."))
	return httpsafe.LoopbackHost(host) || (s.listenHost() != "" && host == s.listenHost())
}

// listenHost is the host of the address the server listens on, when it is
// a name a request can carry (not 0.0.0.0 or ::).
func (s *Server) listenHost() string {
	host, _, err := net.SplitHostPort(s.opt.Addr)
	if ip := net.ParseIP(host); err != nil || (ip != nil && ip.IsUnspecified()) {
		return ""
	}
	return strings.ToLower(host)
}

// hostNames lists the names local accepts, for the refusal.
func (s *Server) hostNames() string {
	names := httpsafe.LoopbackNames
	if h := s.listenHost(); h != "" && !httpsafe.LoopbackHost(h) {
		names = h + ", " + names
	}
	return names
}

// file serves a fixed file of the preview.
func file(typ, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", typ)
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, body)
	}
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	// A preview must never be cached: the next save changes everything.
	w.Header().Set("Cache-Control", "no-store")
	m := s.live.Current()
	if m.site == nil {
		s.errorPage(w, m, m.problems, http.StatusInternalServerError)
		return
	}
	file := urls.File(strings.TrimPrefix(r.URL.Path, "/"))
	if j, ok := m.job(file); ok {
		s.render(w, r, start, m, j, http.StatusOK)
		return
	}
	var extras map[string][]byte
	var err error
	if !s.bounded(w, r, start, func() { extras, err = m.extraFiles() }) {
		return
	}
	if data, ok := extras[file]; ok {
		s.write(w, m, typeOf(file, ""), data, http.StatusOK)
		return
	}
	// A folder asked for without its slash, as a static host redirects it.
	if _, ok := m.job(urls.File(file + "/")); ok {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusFound)
		return
	}
	if _, ok := extras[urls.File(file+"/")]; ok {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusFound)
		return
	}
	if err != nil {
		// The file may be missing because an extra failed: say so.
		var l diag.List
		l.Errorf("", 0, 0, "", "%v", err)
		s.errorPage(w, m, l, http.StatusInternalServerError)
		return
	}
	// The files of content/root are at the root of the site, as a build
	// copies them (a build refuses one that takes a generated file's name).
	if file != "" && !strings.HasSuffix(file, "/") {
		if data, err := cases.ReadContent(s.content, cases.RootDir+"/"+file); err == nil {
			s.write(w, m, typeOf(file, ""), data, http.StatusOK)
			return
		}
	}
	// A draft with errors has no page: its address shows its problems,
	// and only its address.
	if d := m.draftAt(file); d != nil {
		s.problemPage(w, m, d.Problems, http.StatusInternalServerError, d.ID)
		return
	}
	for _, nf := range urls.NotFoundFor(file) {
		if j, ok := m.job(nf); ok {
			s.render(w, r, start, m, j, http.StatusNotFound)
			return
		}
	}
	http.NotFound(w, r)
}

// render renders one job as a build writes it, for the request's
// deadline at most.
func (s *Server) render(w http.ResponseWriter, r *http.Request, start time.Time, m *model, j site.Job, status int) {
	var p *renderedPage
	if !s.bounded(w, r, start, func() { p = m.rendered(j) }) {
		return
	}
	typ, err := p.typ, p.err
	if err != nil {
		// Templates can fail when they run, on one kind of page only.
		s.errorPage(w, m, templateProblems(s.templatesName(), fmt.Errorf("%s: %w", j.File(), err)), http.StatusInternalServerError)
		return
	}
	s.write(w, m, typeOf(j.File(), typ), p.data, status)
}

// write sends a file, with the reload script in HTML.
func (s *Server) write(w http.ResponseWriter, m *model, typ string, data []byte, status int) {
	if strings.HasPrefix(typ, "text/html") {
		data = inject(data, m.version)
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// typeOf is the Content-Type of a file, from the renderer when it said.
func typeOf(file, rendered string) string {
	typ := rendered
	if typ == "" {
		switch path.Ext(file) {
		case ".json":
			typ = "application/json"
		case ".md":
			typ = "text/markdown"
		case ".txt", "":
			typ = "text/plain"
		default:
			typ = mime.TypeByExtension(path.Ext(file))
		}
	}
	if typ == "" {
		return "application/octet-stream"
	}
	if !strings.Contains(typ, "charset") && (strings.HasPrefix(typ, "text/") || strings.HasSuffix(typ, "json") || strings.HasSuffix(typ, "xml") || strings.HasSuffix(typ, "javascript")) {
		typ += "; charset=utf-8"
	}
	return typ
}

// extraFiles runs every extra of the server's Options once for this model, on first
// need: the search index and the API cost far more than one page, and an
// edit should show on the page being read without waiting for them.
func (m *model) extraFiles() (map[string][]byte, error) {
	m.extrasOnce.Do(func() {
		files := map[string][]byte{}
		var mu sync.Mutex
		store := func(p string, data []byte) error {
			mu.Lock()
			defer mu.Unlock()
			files[p] = bytes.Clone(data) // writers may reuse their buffers
			return nil
		}
		for _, e := range m.extraList {
			if err := e.Run(m.site, store); err != nil {
				m.extrasErr = fmt.Errorf("%s: %w", e.Name, err)
				break
			}
		}
		m.extras = files
	})
	return m.extras, m.extrasErr
}

// reloadScript loads reloadJS with the version the page was rendered
// from.
const reloadScript = `<script src="` + reloadPath + `" data-version="%d"></script>`

// reloadJS opens the event stream and reloads the page when the server has
// a version other than the one the page was rendered from. The stream sends
// the current version as soon as it opens, so a save made while the page
// was loading is not missed; after a restart the browser reconnects on its
// own and the new server's version differs.
const reloadJS = `(function(){var s=document.currentScript,v=s&&s.getAttribute("data-version");` +
	`if(!v||!window.EventSource)return;var es=new EventSource("` + eventsPath + `");` +
	`es.onmessage=function(e){if(e.data!==v){es.close();location.reload();}};})();
`

// inject puts the reload script before the last </body>, or at the end.
func inject(page []byte, version uint64) []byte {
	script := fmt.Sprintf(reloadScript, version)
	i := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 {
		return append(page[:len(page):len(page)], script...)
	}
	out := make([]byte, 0, len(page)+len(script))
	out = append(out, page[:i]...)
	out = append(out, script...)
	return append(out, page[i:]...)
}

// events streams the model's version to a page: once on connect, then after
// every rebuild, until the page goes away or the server stops.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	httpsafe.MarkStream(r) // the connection cap may end it for a new connection
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	// Reconnect quickly after a restart, so the page reloads soon after.
	fmt.Fprint(w, "retry: 1000\n\n")
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	m := s.live.Current()
	for {
		fmt.Fprintf(w, "data: %d\n\n", m.version)
		flusher.Flush()
	wait:
		select {
		case <-m.next:
			m = s.live.Current()
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n") // keeps idle connections from being dropped
			flusher.Flush()
			goto wait
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		}
	}
}

// errorPage lists problems instead of the page, with the reload script, so
// that saving the fix brings the page back by itself.
func (s *Server) errorPage(w http.ResponseWriter, m *model, problems diag.List, status int) {
	s.problemPage(w, m, problems, status, "")
}

// draftAt returns the draft with errors whose case page is file, or nil.
func (m *model) draftAt(file string) *cases.Draft {
	for i, d := range m.lib.Lib.Drafts {
		if d.Case != nil {
			continue
		}
		for _, lang := range cases.Languages {
			if p := urls.Case(lang, d.ID); file == urls.File(p) || file == urls.Markdown(lang, d.ID) {
				return &m.lib.Lib.Drafts[i]
			}
		}
	}
	return nil
}

// problemPage lists problems: the site's, or those of the draft named
// draft alone, while the rest of the site is served.
func (s *Server) problemPage(w http.ResponseWriter, m *model, problems diag.List, status int, draft string) {
	type item struct{ At, Field, Msg, Excerpt string }
	var errs, warns []item
	// Every error, and the first warnings with the others counted by
	// kind: 50,000 warnings make a page of 20 and one line.
	count := problems.Errors()
	problems, more := problems.Brief(diag.ShownWarnings)
	problems.Report(diag.ShownPerFile, func(d diag.Diag) {
		it := item{At: d.File, Field: d.Field, Msg: d.Msg}
		if d.Line > 0 {
			it.At += fmt.Sprintf(":%d:%d", d.Line, d.Col)
			if src := s.source(d.File); src != "" {
				it.Excerpt = d.Excerpt(src)
			}
		}
		if d.Warning {
			warns = append(warns, it)
		} else {
			errs = append(errs, it)
		}
	}, func(file string, left int) {
		errs = append(errs, item{Msg: diag.More(file, left)})
	})
	if n := problems.Dropped(); n > 0 {
		errs = append(errs, item{Msg: diag.NotKept(n)}) // the page stays the size of diag.MaxKept problems
	}
	var b bytes.Buffer
	err := errorTmpl.Execute(&b, map[string]any{"Errors": errs, "Warnings": warns, "More": more, "Count": count, "CSS": errorCSSPath, "Draft": draft})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.write(w, m, "text/html; charset=utf-8", b.Bytes(), status)
}

// errorCSS is the style of the error page.
const errorCSS = `body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem;color:#a00}h2{font-size:1.1rem;color:#7a5a00}
ol{padding-left:1.5rem}li{margin:.4rem 0}
code{font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;word-break:break-word}
pre{font:14px/1.4 ui-monospace,monospace;margin:.3rem 0 0;padding:.4rem .6rem;background:#f4f4f4;overflow-x:auto}
.at{font-weight:bold}.field{color:#005a9c}
`

// source returns the text of a file a problem names: a content file, or a
// template in a templates folder on disk; "" when there is none.
func (s *Server) source(file string) string {
	if b, err := cases.ReadContent(s.content, file); err == nil {
		return string(b)
	}
	for _, r := range s.roots {
		if rest, ok := strings.CutPrefix(file, r.Name+"/"); ok && r.Kind == "templates" {
			if b, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(rest))); err == nil {
				return string(b)
			}
		}
	}
	return ""
}

// The text of each line is the problem as the terminal shows it
// (file:line:col: field: message), so that it can be searched for.
var errorTmpl = template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Count}} problem{{if ne .Count 1}}s{{end}} · incidentlib serve</title>
<link rel="stylesheet" href="{{.CSS}}">
</head>
<body>
{{if .Draft}}<h1>The draft {{.Draft}} cannot be shown yet: {{.Count}} problem{{if ne .Count 1}}s{{end}}</h1>
<p>Fill in the fields below and save: this page reloads by itself. The rest of the site is up: <a href="/">home</a>. A draft is never published; remove <code>"draft": true</code> when it is done.</p>{{else}}<h1>The site cannot be shown: {{.Count}} problem{{if ne .Count 1}}s{{end}}</h1>
<p>Fix the files below and save: this page reloads by itself.</p>{{end}}
<ol>{{range .Errors}}
<li><code>{{with .At}}<span class="at">{{.}}</span>: {{end}}{{with .Field}}<span class="field">{{.}}</span>: {{end}}{{.Msg}}</code>{{with .Excerpt}}<pre>{{.}}</pre>{{end}}</li>{{end}}
</ol>
{{with .Warnings}}<h2>Warnings</h2>
<ol>{{range .}}
<li><code>{{with .At}}<span class="at">{{.}}</span>: {{end}}warning: {{with .Field}}<span class="field">{{.}}</span>: {{end}}{{.Msg}}</code>{{with .Excerpt}}<pre>{{.}}</pre>{{end}}</li>{{end}}
</ol>{{end}}
{{with .More}}<p class="more">{{.}}</p>{{end}}
</body>
</html>
`))

// templateErrRe finds the template file and line in an html/template or
// text/template error, such as `template: case.html:12: unexpected "}"` or
// `html/template:case.html:3:10: no such template "x"`.
var templateErrRe = regexp.MustCompile(`(?:html/)?template: ?([\w.-]+\.html):(\d+)(?::(\d+))?: (.*)`)

// templateProblems turns a template error into a problem with the
// template's file and line when the message names them.
func templateProblems(dir string, err error) diag.List {
	var l diag.List
	msg := err.Error()
	if sm := templateErrRe.FindStringSubmatch(msg); sm != nil {
		line, _ := strconv.Atoi(sm[2])
		col, _ := strconv.Atoi(sm[3])
		if col == 0 {
			col = 1
		}
		l.Errorf(dir+"/"+sm[1], line, col, "", "%s", strings.TrimSpace(sm[4]))
		return l
	}
	l.Errorf(dir, 0, 0, "", "%s", msg)
	return l
}

// templatesName names the templates for messages.
func (s *Server) templatesName() string {
	for _, r := range s.roots {
		if r.Kind == "templates" {
			return r.Name
		}
	}
	return "built-in templates"
}

func (s *Server) templateProblems(err error) diag.List {
	return templateProblems(s.templatesName(), err)
}
