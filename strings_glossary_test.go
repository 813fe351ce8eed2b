package incidentlib_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
)

// TestInterfaceGlossary holds every Korean interface string to the
// glossary (content/glossary.json), as check holds the content: the string
// catalogue (templates/strings.json: pages, and MCP answers and the search
// page's words as it takes them in), the Korean text written in the
// templates themselves, any internal/*/strings.json (the MCP server's, until
// the catalogue holds them) and the string literals of the scripts. An avoided form fails, with the form to write.
func TestInterfaceGlossary(t *testing.T) {
	if _, err := os.Stat(filepath.Join("content", cases.GlossaryFile)); errors.Is(err, fs.ErrNotExist) {
		t.Skip("no content/glossary.json yet")
	}
	lib, _ := cases.Load(os.DirFS("content"))
	g := lib.Vocab.Glossary
	if g == nil || len(g.Terms) == 0 {
		t.Fatal("content/glossary.json did not load; run go run ./cmd/incidentlib check -content content")
	}
	n := 0
	for _, s := range interfaceStrings(t) {
		n++
		for _, h := range g.Find(s.text) {
			t.Errorf("%s: %q: %s", s.where, s.text, h.Message())
		}
	}
	if n < 100 {
		t.Errorf("only %d Korean interface strings found; the test no longer reads them all", n)
	}
}

// uiString is a Korean interface string and where it is.
type uiString struct{ where, text string }

var (
	hangul     = regexp.MustCompile(`\p{Hangul}`)
	jsString   = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)
	markupOrGo = regexp.MustCompile(`\{\{.*?\}\}|<[^>]*>`)
)

// interfaceStrings returns the Korean interface strings of the theme, the
// MCP server and the search script.
func interfaceStrings(t *testing.T) []uiString {
	var out []uiString
	catalogue := func(where string, data []byte) {
		var m map[string]map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		for key, v := range m {
			if ko := v["ko"]; ko != "" {
				out = append(out, uiString{where + ": " + key, ko})
			}
		}
	}
	templates := incidentlib.Templates()
	err := fs.WalkDir(templates, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(templates, path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".json") {
			catalogue("templates/"+path, data)
			return nil
		}
		// The text of a template between its actions and tags.
		for i, line := range strings.Split(string(data), "\n") {
			for _, part := range markupOrGo.Split(line, -1) {
				if hangul.MatchString(part) {
					out = append(out, uiString{"templates/" + path + ":" + strconv.Itoa(i+1), strings.TrimSpace(part)})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A package's strings of its own, where the catalogue does not hold
	// them yet (the MCP server's).
	files, err := filepath.Glob(filepath.Join("internal", "*", "strings.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		catalogue(filepath.ToSlash(f), data)
	}
	static := incidentlib.Static()
	scripts, err := fs.Glob(static, "js/*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts under static/js: %v", err)
	}
	for _, f := range scripts {
		data, err := fs.ReadFile(static, f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, lit := range jsString.FindAllString(line, -1) {
				var s string
				if err := json.Unmarshal([]byte(lit), &s); err != nil {
					s = lit
				}
				if hangul.MatchString(s) {
					out = append(out, uiString{"static/" + f + ":" + strconv.Itoa(i+1), s})
				}
			}
		}
	}
	return out
}
