package api

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// written runs Write on the library in fsys and returns every file.
func written(t testing.TB, fsys fs.FS) map[string][]byte {
	t.Helper()
	lib, list := cases.Load(fsys)
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	s, err := site.New(library.Derive(lib), site.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	err = Write(s.Library(), s.Strings(), s.BaseURL(), func(path string, data []byte) error {
		if files[path] != nil {
			t.Errorf("%s written twice", path)
		}
		files[path] = bytes.Clone(data) // Write reuses its buffers
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// llms.txt is written beside the API from the theme (build.StandardExtras).
	var b bytes.Buffer
	if err := s.LLMs(&b); err != nil {
		t.Fatal(err)
	}
	files[urls.LLMs] = b.Bytes()
	return files
}

// TestGolden compares files written for the real content with testdata,
// among them Markdown twins with a missing translation and every kind of
// JSON file.
func TestGolden(t *testing.T) {
	files := written(t, repotest.MapFS(t, "content"))
	root := filepath.Join("testdata", "golden")
	if repotest.Update() {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			data := files[filepath.ToSlash(rel)]
			if data == nil {
				t.Errorf("%s is no longer written", rel)
				return nil
			}
			return os.WriteFile(p, data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if got := files[filepath.ToSlash(rel)]; !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (run go test -update after checking the change)\ngot:\n%s", rel, p, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("only %d golden files", n)
	}
}

// The shapes of the JSON files, in the order of their members, for
// TestFilesAreCanonical.
type (
	pair struct {
		En string `json:"en"`
		Ko string `json:"ko"`
	}
	similarDoc struct {
		ID      string `json:"id"`
		Similar []struct {
			ID     string  `json:"id"`
			Kind   string  `json:"kind"`
			Score  float64 `json:"score"`
			Reason pair    `json:"reason"`
			Shared struct {
				SameRootCause bool     `json:"same_root_cause"`
				Components    []string `json:"components"`
				Contributing  []string `json:"contributing"`
				Symptoms      []string `json:"symptoms"`
			} `json:"shared"`
			Title pair `json:"title"`
			Pages pair `json:"pages"`
		} `json:"similar"`
	}
	listDoc struct {
		Version        string `json:"version"`
		LibraryVersion string `json:"library_version"`
		License        string `json:"license"`
		Count          int    `json:"count"`
		Withdrawn      int    `json:"withdrawn"`
		Cases          []struct {
			ID           string   `json:"id"`
			Org          string   `json:"org"`
			OrgSlug      string   `json:"org_slug"`
			OrgKo        string   `json:"org_ko,omitempty"`
			Date         *string  `json:"date"`
			DateKind     string   `json:"date_kind"`
			Title        pair     `json:"title"`
			ImpactLevel  string   `json:"impact_level"`
			Severity     string   `json:"severity"`
			RootCause    string   `json:"root_cause"`
			Components   []string `json:"components"`
			Symptoms     []string `json:"symptoms"`
			Contributing []string `json:"contributing"`
			Domain       []string `json:"domain"`
			Affected     []struct {
				Product      string   `json:"product"`
				Introduced   string   `json:"introduced,omitempty"`
				Fixed        string   `json:"fixed,omitempty"`
				LastAffected string   `json:"last_affected,omitempty"`
				Versions     []string `json:"versions,omitempty"`
			} `json:"affected,omitempty"`
			UpdatedAt string `json:"updated_at"`
			Pages     pair   `json:"pages"`
			JSON      string `json:"json"`
			Citation  pair   `json:"citation"`
			BibTeX    string `json:"bibtex"`
			Withdrawn *struct {
				Date       string   `json:"date"`
				Reason     pair     `json:"reason"`
				ReplacedBy []string `json:"replaced_by"`
			} `json:"withdrawn,omitempty"`
		} `json:"cases"`
	}
	vocabDoc map[string][]struct {
		ID          string `json:"id"`
		En          string `json:"en"`
		Ko          string `json:"ko"`
		Description *pair  `json:"description,omitempty"`
		Cases       int    `json:"cases"`
		Topic       pair   `json:"topic"`
		JSON        string `json:"json"`
	}
	topicDoc struct {
		Facet       string `json:"facet"`
		ID          string `json:"id"`
		Label       pair   `json:"label"`
		Description *pair  `json:"description,omitempty"`
		Count       int    `json:"count"`
		Pages       pair   `json:"pages"`
		Stats       struct {
			Components    []termCount `json:"components"`
			Contributing  []termCount `json:"contributing"`
			KnownDetect   int         `json:"known_detect"`
			KnownResolve  int         `json:"known_resolve"`
			MedianDetect  *int        `json:"median_minutes_to_detect"`
			MedianResolve *int        `json:"median_minutes_to_resolve"`
			RootCauses    []termCount `json:"root_causes"`
			Years         []termCount `json:"years"`
		} `json:"stats"`
		Checklist []struct {
			Group string `json:"group"`
			Items []struct {
				Text  pair `json:"text"`
				Cases []struct {
					ID     string `json:"id"`
					Status string `json:"status,omitempty"`
					JSON   string `json:"json"`
				} `json:"cases"`
			} `json:"items"`
		} `json:"checklist,omitempty"`
		Cases     []string `json:"cases"`
		CasesJSON string   `json:"cases_json"`
	}
	termCount struct {
		ID    string `json:"id"`
		Cases int    `json:"cases"`
	}
)

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// TestFilesAreCanonical decodes every JSON file the API writes, other than
// the cases as they are in the input, and encodes it again with
// encoding/json: the bytes must be the same, so the hand-written encoder
// orders members, writes numbers and escapes strings as encoding/json does.
func TestFilesAreCanonical(t *testing.T) {
	for name, fsys := range map[string]fs.FS{
		"content":   repotest.MapFS(t, "content"),
		"generated": gencases.MapFS(gencases.Options{N: generated(300), Seed: 7}),
	} {
		files := written(t, fsys)
		kinds := map[string]int{}
		for p, data := range files {
			var doc any
			switch {
			case p == "api/v1/cases.json":
				doc, kinds["list"] = new(listDoc), kinds["list"]+1
			case p == "api/v1/vocab.json":
				doc, kinds["vocab"] = new(vocabDoc), kinds["vocab"]+1
			case strings.HasSuffix(p, "/similar.json"):
				doc, kinds["similar"] = new(similarDoc), kinds["similar"]+1
			case strings.HasPrefix(p, "api/v1/topics/"):
				doc, kinds["topic"] = new(topicDoc), kinds["topic"]+1
			case strings.HasPrefix(p, "api/v1/cases/") && strings.HasSuffix(p, ".json"):
				src, err := fs.ReadFile(fsys, strings.TrimPrefix(p, "api/v1/"))
				if err != nil || !bytes.Equal(src, data) {
					t.Errorf("%s: %s is not the input file as it is", name, p)
				}
				kinds["case"]++
				continue
			default:
				continue
			}
			if err := json.Unmarshal(data, doc); err != nil {
				t.Errorf("%s: %s: %v", name, p, err)
				continue
			}
			again, err := marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Errorf("%s: %s is not as encoding/json writes it:\nwrote: %s\njson:  %s", name, p, data, again)
			}
		}
		for _, k := range []string{"case", "list", "vocab", "similar", "topic"} {
			if kinds[k] == 0 {
				t.Errorf("%s: no %s file checked (%v)", name, k, kinds)
			}
		}
	}
}

// TestAppendString compares appendString with encoding/json on every
// character class it treats apart.
func TestAppendString(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 0x80; c++ {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{
		"", "plain", all.String(), `quote " backslash \ slash /`, "<a href=\"x\">&amp;</a>",
		"한국어 텍스트 · – “quotes”", "line\u2028separator\u2029paragraph", "emoji 😀",
		"bad \xff byte", "cut \xe2\x82 rune", "\xc0\xaf overlong", "\xed\xa0\x80 surrogate", "tail \xe2",
		"\x00\x01\x1f\x7f", "\u0085 next line", "\ufeff bom", "\uffff max",
	} {
		checkString(t, s)
	}
}

// TestAppendStringPieces holds appendString, which passes over plain
// ASCII eight bytes at a time and Hangul a character at a time, to
// encoding/json on random strings of the pieces that matter to it, at every
// alignment: each piece needing an escape, the characters of three bytes
// around U+2028, cut and invalid UTF-8.
func TestAppendStringPieces(t *testing.T) {
	pieces := []string{"a", "plain ", "12345678", "한", "국어 ", "\"", "\\", "\n", "\x00", "\x1f", "\x7f", "<&>",
		"\u2028", "\u2029", "\u2027", "\u202a", "–", "“", "\u0800", "\u1100", "\ud7a3", "\ue000", "\uffff", "😀",
		"·", "é", "\xc2", "\xc1\xbf", "\xdf\xbf", "\xe2", "\xe2\x80", "\xe2\x80\xa8", "\xe2\x80\xaa", "\xe2\x81\xa8", "\xed\xa0\x80", "\xed\x9f\xbf", "\xe0\x80\x80", "\xef\xbf", "\xea\xb0", "\xff", "\x80"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		checkString(t, repotest.Pieces(r, pieces, r.IntN(16)))
	}
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.TrimSuffix(want, []byte("\n"))
	if got := appendString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
		t.Errorf("appendString(%q) = %s, encoding/json writes %s", s, got[1:], want)
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"b\\c\n\u2028\xff한")
	f.Fuzz(checkString)
}

// TestAppendCompact compares appendCompact with json.Compact on every case
// file of the library and of a generated one, and on JSON texts of the
// pieces that matter to it: white space in and out of strings, escaped
// quotes and backslashes before a closing quote.
func TestAppendCompact(t *testing.T) {
	var texts [][]byte
	for _, fsys := range []fs.FS{repotest.ContentMapFS(t), gencases.MapFS(gencases.Options{N: 50, Seed: 5})} {
		files, err := fs.Glob(fsys, "cases/*.json")
		if err != nil || len(files) == 0 {
			t.Fatalf("no case files: %v", err)
		}
		for _, f := range files {
			b, err := fs.ReadFile(fsys, f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, b)
		}
	}
	pieces := []string{" ", "\t", "\n", "\r\n", `"a b"`, `"\""`, `"\\"`, `"\\\" x"`, `" \n "`, `"한 국"`, "{", "}", "[", "]", ",", ":", "1", "true", `"\u0022 "`}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		// Pieces of JSON need not make valid JSON to test the copy: it
		// only has to agree with json.Compact where that one accepts them.
		texts = append(texts, []byte(repotest.Pieces(r, pieces, r.IntN(12))))
	}
	checked := 0
	for _, src := range texts {
		var want bytes.Buffer
		if json.Compact(&want, src) != nil {
			continue
		}
		checked++
		if got := appendCompact([]byte("prefix"), src); string(got) != "prefix"+want.String() {
			t.Fatalf("appendCompact(%q) = %q, want %q", src, got[6:], want.String())
		}
	}
	if checked < 1000 {
		t.Errorf("only %d texts were valid JSON", checked)
	}
}
