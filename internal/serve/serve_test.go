package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
)

// syncBuf is a log the server and the test share.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type running struct {
	srv  *Server
	url  string
	log  *syncBuf
	stop func() error // cancels and waits for Serve
}

// start serves opt on a free port of 127.0.0.1 until the test ends.
func start(t testing.TB, opt Options) *running {
	t.Helper()
	log := &syncBuf{}
	opt.Log = log
	if opt.Extras == nil {
		opt.Extras = build.StandardExtras() // as the command passes them
	}
	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	var once sync.Once
	var serveErr error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case serveErr = <-done:
			case <-time.After(2 * time.Minute):
				serveErr = errors.New("Serve did not return 2 minutes after cancel")
			}
		})
		return serveErr
	}
	t.Cleanup(func() { stop() })
	r := &running{srv: srv, url: "http://" + ln.Addr().String(), log: log, stop: stop}
	// Serve answers only once the folders are watched: after this request,
	// no edit can be missed.
	get(t, r.url+"/")
	return r
}

// get returns the status and the body with HTML escapes undone, so that
// text can be compared with what the content says.
func get(t testing.TB, url string) (int, string) {
	t.Helper()
	status, body := raw(t, url)
	return status, text(body)
}

// raw returns the status and the body as sent.
func raw(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

// text is a page's text: tags removed, escapes undone, so that it can be
// compared with what the content and the terminal say.
func text(page string) string {
	return html.UnescapeString(tagRe.ReplaceAllString(page, ""))
}

// waitFor polls url until ok accepts the response, and returns how long
// that took; it fails the test after limit, or after two minutes when limit
// is shorter: a limit says what a quiet machine needs, and the test waits
// for what happens, not for a time, however busy the machine.
func waitFor(t *testing.T, url string, limit time.Duration, what string, ok func(status int, body string) bool) time.Duration {
	t.Helper()
	limit = max(limit, 2*time.Minute)
	t0 := time.Now()
	for {
		status, body := get(t, url)
		if ok(status, body) {
			return time.Since(t0)
		}
		if time.Since(t0) > limit {
			t.Fatalf("%s: not seen after %v; last status %d, body:\n%.2000s", what, limit, status, body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// editCase rewrites a case file through a decoded map.
func editCase(t *testing.T, file string, change func(c map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	change(c)
	if b, err = json.MarshalIndent(c, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantProblems returns what a full load of dir reports, as the terminal
// shows it: the error page must list each of these lines.
func wantProblems(t *testing.T, dir string) []string {
	t.Helper()
	_, list := cases.Load(os.DirFS(dir))
	if list.Errors() == 0 {
		t.Fatal("the broken content has no errors")
	}
	var out []string
	for _, d := range list.Items {
		if !d.Warning {
			out = append(out, d.String())
		}
	}
	return out
}

var posRe = regexp.MustCompile(`cases/IL-0495\.json:\d+:\d+: `)

// TestEditBreakFix walks through what a person editing a case sees: the
// page, an edit shown within a second, the error page for two kinds of
// broken file, and the page again after the fix.
func TestEditBreakFix(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	file := filepath.Join(dir, "cases", "IL-0495.json")
	page := r.url + "/en/cases/IL-0495/"
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	var c struct{ Title cases.Bilingual }
	if err := json.Unmarshal(orig, &c); err != nil {
		t.Fatal(err)
	}
	status, body := get(t, page)
	if status != 200 || !strings.Contains(body, c.Title.En) {
		t.Fatalf("the case page (status %d) does not show the title %q", status, c.Title.En)
	}

	const newTitle = "Load balancers marked unhealthy, edited in the preview"
	editCase(t, file, func(c map[string]any) { c["title"].(map[string]any)["en"] = newTitle })
	took := waitFor(t, page, 5*time.Second, "the new title", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, newTitle)
	})
	// How fast is for make bench-serve to say; here the edit must show
	// within waitFor's bound, however busy the machine.
	t.Logf("edit visible after %v\n%s", took, r.log.String())

	broken := []struct {
		name  string
		write func()
	}{
		{"invalid JSON", func() {
			bad := strings.Replace(string(orig), `"org"`, `"org" oops`, 1)
			if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"unknown term", func() {
			if err := os.WriteFile(file, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			editCase(t, file, func(c map[string]any) { c["components"] = []any{"ingres", "health-probe"} })
		}},
	}
	for _, b := range broken {
		b.write()
		want := wantProblems(t, dir)
		waitFor(t, page, 5*time.Second, b.name+": error page", func(status int, body string) bool {
			if status != http.StatusInternalServerError || !posRe.MatchString(body) {
				return false
			}
			for _, w := range want {
				if !strings.Contains(body, w) {
					return false
				}
			}
			return true
		})
		// Every page shows the problem, not only the broken case's.
		if status, body := raw(t, r.url+"/ko/"); status != 500 || !strings.Contains(text(body), want[0]) || !strings.Contains(body, reloadPath) {
			t.Errorf("%s: the home page (status %d) does not show %q with the reload script", b.name, status, want[0])
		}
		if log := r.log.String(); !strings.Contains(log, want[0]) {
			t.Errorf("%s: the terminal does not show %q:\n%s", b.name, want[0], log)
		}
	}
	_, body = get(t, page)
	if !strings.Contains(body, `unknown term "ingres" (did you mean "ingress"?)`) {
		t.Errorf("the error page does not suggest the right term:\n%.2000s", body)
	}
	// Under each problem, the excerpt and caret the command line prints.
	_, list := cases.Load(os.DirFS(dir))
	for _, d := range list.Items {
		src, _ := os.ReadFile(filepath.Join(dir, d.File))
		if ex := d.Excerpt(string(src)); ex != "" && !strings.Contains(body, ex) {
			t.Errorf("the error page does not show the excerpt\n%s\nunder %s:\n%.3000s", ex, d, body)
		}
	}

	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 5*time.Second, "the fixed page", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, c.Title.En)
	})
	if n := strings.Count(r.log.String(), "cases ready in"); n < 3 {
		t.Errorf("the terminal shows %d successful rebuilds, want at least 3:\n%s", n, r.log.String())
	}
	if err := r.stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// TestTemplateEdit edits a template in a folder given with Templates: the
// page shows the change, a broken template shows its file and line, and
// the fix brings the page back.
func TestTemplateEdit(t *testing.T) {
	content := repotest.ContentDir(t)
	tmpl := repotest.CopyDir(t, "templates")
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: content, Templates: tmpl})
	page := r.url + "/en/cases/IL-0495/"
	file := filepath.Join(tmpl, "case.html")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(orig), `{{define "main"}}`)
	if i < 0 {
		t.Fatal(`case.html has no {{define "main"}}`)
	}
	i += len(`{{define "main"}}`)
	withMark := string(orig[:i]) + `<p id="tmark">template edited</p>` + string(orig[i:])
	if err := os.WriteFile(file, []byte(withMark), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 5*time.Second, "the edited template", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, "template edited")
	})

	line := strings.Count(string(orig[:i]), "\n") + 1
	broken := string(orig[:i]) + `{{.NoSuchField` + string(orig[i:])
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s/case.html:%d:", tmpl, line)
	waitFor(t, page, 5*time.Second, "the template error", func(status int, body string) bool {
		return status == 500 && strings.Contains(body, want)
	})

	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 5*time.Second, "the restored template", func(status int, body string) bool {
		return status == 200 && !strings.Contains(body, "template edited")
	})
}

// TestBuiltinThemeUnlessNamed: without Templates the preview uses the
// built-in templates, as a build does, even where the working folder has a
// templates/ of its own (a checkout): the two never show different looks.
func TestBuiltinThemeUnlessNamed(t *testing.T) {
	content := repotest.ContentDir(t)
	wd := t.TempDir()
	tmpl := filepath.Join(wd, "templates")
	os.CopyFS(tmpl, os.DirFS(repotest.CopyDir(t, "templates")))
	file := filepath.Join(tmpl, "case.html")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	marked := strings.Replace(string(orig), `{{define "main"}}`, `{{define "main"}}<p>local template</p>`, 1)
	if err := os.WriteFile(file, []byte(marked), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: content})
	if status, body := raw(t, r.url+"/en/cases/IL-0495/"); status != 200 || strings.Contains(body, "local template") {
		t.Errorf("status %d; the preview read ./templates, which a build would not: %v", status, strings.Contains(body, "local template"))
	}
	r = start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: content, Templates: "templates"})
	if status, body := raw(t, r.url+"/en/cases/IL-0495/"); status != 200 || !strings.Contains(body, "local template") {
		t.Errorf("status %d; the preview did not read the templates it was given", status)
	}
}

// TestEventsAndShutdown reads the event stream: the version on connect is
// the one in the page's script, a save sends a new one, and shutting down
// ends the open stream and returns.
func TestEventsAndShutdown(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	v0 := r.srv.version()
	if _, body := raw(t, r.url+"/en/"); !strings.Contains(body, fmt.Sprintf(`data-version="%d"`, v0)) {
		t.Fatalf("the page's reload script does not carry version %d", v0)
	}

	resp, err := http.Get(r.url + eventsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- v
			}
		}
		close(lines)
	}()
	next := func(what string) (string, bool) {
		select {
		case v, ok := <-lines:
			return v, ok
		case <-time.After(2 * time.Minute): // a hang, not a busy machine
			t.Fatalf("no event %s", what)
		}
		return "", false
	}
	if v, _ := next("on connect"); v != fmt.Sprint(v0) {
		t.Errorf("first event %q, want the current version %d", v, v0)
	}
	editCase(t, filepath.Join(dir, "cases", "IL-0338.json"), func(c map[string]any) {
		c["title"].(map[string]any)["ko"] = "제목을 고쳤다"
	})
	if v, _ := next("after a save"); v == fmt.Sprint(v0) || v != fmt.Sprint(r.srv.version()) {
		t.Errorf("event after a save %q, want a new version (was %d, now %d)", v, v0, r.srv.version())
	}

	// A stream that held the shutdown would run out Serve's 5 s of grace,
	// and stop would return the deadline's error; it is not timed here.
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-lines; ok {
		t.Error("the event stream is still open after shutdown")
	}
	if _, err := http.Get(r.url + "/en/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

// TestRoutes checks how URLs map to files, with the handler alone.
func TestRoutes(t *testing.T) {
	calls := 0
	extras := append(build.StandardExtras(), site.Extra{Name: "test extra", Write: func(s *site.Site, write func(string, []byte) error) error {
		calls++
		if err := write("api/v1/test.json", []byte(`{"cases":`+fmt.Sprint(len(s.Library().Lib.Cases))+`}`)); err != nil {
			return err
		}
		return write("docs/index.html", []byte("<!DOCTYPE html><html><body><p>extra page</p></body></html>"))
	}})

	srv, err := New(Options{Extras: extras, BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: filepath.Join("..", "..", "content")})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.handler()
	caseFiles, err := filepath.Glob(filepath.Join("..", "..", "content", "cases", "*.json"))
	if err != nil || len(caseFiles) == 0 {
		t.Fatalf("no case files in content/cases: %v", err)
	}
	listed := 0 // a withdrawn case keeps its file and page but is not among the library's cases
	for _, f := range caseFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"withdrawn":`) {
			listed++
		}
	}
	tests := []struct {
		path     string
		status   int
		typ      string
		contains string
		location string
	}{
		{"/", 200, "text/html; charset=utf-8", reloadPath, ""},
		{"/index.html", 200, "text/html; charset=utf-8", "<html", ""},
		{"/en/cases/IL-0495/", 200, "text/html; charset=utf-8", "IL-0495", ""},
		{"/en/cases/IL-0495/index.html", 200, "text/html; charset=utf-8", "IL-0495", ""},
		{"/ko/cases/IL-0495", 302, "", "", "/ko/cases/IL-0495/"},
		{"/ko/cases/IL-0495/index.md", 200, "text/markdown; charset=utf-8", "# IL-0495", ""},
		{"/llms.txt", 200, "text/plain; charset=utf-8", "/en/cases/IL-0495/index.md", ""},
		{"/en/components/ingress/", 200, "text/html; charset=utf-8", "ingress", ""},
		{"/en/feed.xml", 200, "application/atom+xml; charset=utf-8", "<feed", ""},
		{"/robots.txt", 200, "text/plain; charset=utf-8", "Sitemap:", ""},
		{"/api/v1/test.json", 200, "application/json; charset=utf-8", fmt.Sprintf(`{"cases":%d}`, listed), ""},
		{"/docs/", 200, "text/html; charset=utf-8", reloadPath, ""},
		{"/docs", 302, "", "", "/docs/"},
		{"/en/cases/IL-9999/", 404, "text/html; charset=utf-8", reloadPath, ""},
		{reloadPath, 200, "application/javascript; charset=utf-8", eventsPath, ""},
		{errorCSSPath, 200, "text/css; charset=utf-8", "body{", ""},
		{"/../../etc/passwd", 307, "", "", "/etc/passwd"}, // cleaned by the mux first
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+tt.path, nil))
		body := rec.Body.String()
		if rec.Code != tt.status || (tt.typ != "" && rec.Header().Get("Content-Type") != tt.typ) || !strings.Contains(body, tt.contains) {
			t.Errorf("GET %s: %d %q, want %d %q containing %q", tt.path, rec.Code, rec.Header().Get("Content-Type"), tt.status, tt.typ, tt.contains)
		}
		if loc := rec.Header().Get("Location"); loc != tt.location {
			t.Errorf("GET %s: Location %q, want %q", tt.path, loc, tt.location)
		}
		if cc := rec.Header().Get("Cache-Control"); tt.status < 300 && cc != "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want no-store", tt.path, cc)
		}
		if strings.Count(body, reloadPath) > 1 {
			t.Errorf("GET %s: the reload script is in the page twice", tt.path)
		}
	}
	if calls != 1 {
		t.Errorf("the extras ran %d times for one model, want once", calls)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "http://localhost/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", rec.Code)
	}
}

func TestInject(t *testing.T) {
	script := fmt.Sprintf(reloadScript, 7)
	tests := []struct{ in, want string }{
		{"<html><body><p>x</p></body></html>", "<html><body><p>x</p>" + script + "</body></html>"},
		{"<p>no body end</p>", "<p>no body end</p>" + script},
		{"<body><pre></body></pre></body>", "<body><pre></body></pre>" + script + "</body>"},
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		if got := string(inject(in, 7)); got != tt.want {
			t.Errorf("inject(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if string(in) != tt.in {
			t.Errorf("inject changed its input %q", tt.in)
		}
	}
}

func TestTemplateProblems(t *testing.T) {
	tests := []struct{ err, want string }{
		{`templates: template: case.html:12: unexpected "}" in operand`, `tmpl/case.html:12:1: unexpected "}" in operand`},
		{`en/cases/IL-0495/index.html: html/template:case.html:3:10: no such template "x"`, `tmpl/case.html:3:10: no such template "x"`},
		{`templates/strings.json: missing key "nav.main"`, `tmpl: templates/strings.json: missing key "nav.main"`},
	}
	for _, tt := range tests {
		l := templateProblems("tmpl", errors.New(tt.err))
		if len(l.Items) != 1 || l.Items[0].String() != tt.want {
			t.Errorf("templateProblems(%q) = %v, want %q", tt.err, l.Items, tt.want)
		}
	}
}

// TestNewFolder checks that a folder created while serving is watched: a
// file written into it later, on its own, is picked up.
func TestNewFolder(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	sub := filepath.Join(dir, "topics", "severities")
	v0 := r.srv.version()
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// The new folder is a change of its own; wait for it, so that the file
	// below comes as a separate event that only a watch on sub can see.
	for t0 := time.Now(); r.srv.version() == v0; time.Sleep(10 * time.Millisecond) {
		if time.Since(t0) > 2*time.Minute {
			t.Fatal("creating a folder did not rebuild")
		}
	}
	time.Sleep(100 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(sub, "sev9.en.md"), []byte("Intro.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, r.url+"/en/", 5*time.Second, "the problem in the new folder", func(status int, body string) bool {
		return status == 500 && strings.Contains(body, `topics/severities/sev9.en.md: unknown severities term "sev9"`)
	})
}
