package gencases

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The generator is held to the library it stands in for: its words per case
// and the growth of its vocabulary follow a fit of Heaps' law, V = K·N^β
// (distinct words V after N words written), made per language on the cases
// of content/. As the library grows the fit moves, and the test with it.

// heaps is the vocabulary growth of one language over a run of cases.
type heaps struct {
	words    []int // words written after each case
	distinct []int // distinct words after each case
}

// caseWords returns the words of every bilingual text of a case file (any
// object with "en" and "ko" strings), per language. A word is what the
// search box would be typed with: a run between spaces and brackets,
// trimmed of punctuation, lower-cased; in Korean an eojeol, particles and
// endings included.
func caseWords(data []byte) (en, ko []string, err error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, nil, err
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			e, okE := x["en"].(string)
			k, okK := x["ko"].(string)
			if okE && okK {
				en = appendWords(en, e)
				ko = appendWords(ko, k)
				return
			}
			keys := make([]string, 0, len(x))
			for key := range x {
				keys = append(keys, key)
			}
			slices.Sort(keys)
			for _, key := range keys {
				walk(x[key])
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return en, ko, nil
}

func appendWords(dst []string, s string) []string {
	for _, f := range strings.FieldsFunc(s, isBreak) {
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if f != "" {
			dst = append(dst, strings.ToLower(f))
		}
	}
	return dst
}

// isBreak reports whether r separates words: space, brackets, quotes and
// the punctuation that does not join the parts of a name ("10.0.0.1",
// "us-east-1" and "16:06" stay one word).
func isBreak(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("()[]{}<>`\"'“”‘’,;!?|*", r)
}

// growth reads the cases in order and records each language's growth.
func growth(t *testing.T, files [][]byte) (en, ko heaps) {
	t.Helper()
	seenEn, seenKo := map[string]bool{}, map[string]bool{}
	var nEn, nKo int
	for _, data := range files {
		e, k, err := caseWords(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range e {
			seenEn[x] = true
		}
		for _, x := range k {
			seenKo[x] = true
		}
		nEn += len(e)
		nKo += len(k)
		en.words, en.distinct = append(en.words, nEn), append(en.distinct, len(seenEn))
		ko.words, ko.distinct = append(ko.words, nKo), append(ko.distinct, len(seenKo))
	}
	return en, ko
}

// fit returns K and β of Heaps' law by least squares on log V against
// log N, one point per case.
func (h heaps) fit() (k, beta float64) {
	var sx, sy, sxx, sxy float64
	n := float64(len(h.words))
	for i := range h.words {
		x, y := math.Log(float64(h.words[i])), math.Log(float64(h.distinct[i]))
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	beta = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return math.Exp((sy - beta*sx) / n), beta
}

func (h heaps) perCase() float64 { return float64(h.words[len(h.words)-1]) / float64(len(h.words)) }

// at returns the distinct words the fit predicts after cases cases of the
// mean length.
func (h heaps) at(cases int) float64 {
	k, beta := h.fit()
	return k * math.Pow(h.perCase()*float64(cases), beta)
}

func contentCases(t *testing.T) [][]byte {
	t.Helper()
	dir := filepath.Join("..", "..", "content", "cases")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files [][]byte
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	if len(files) < 20 {
		t.Fatalf("only %d cases in %s: too few to fit", len(files), dir)
	}
	return files
}

func generatedCases(n int) [][]byte {
	fsys := MapFS(Options{N: n, Seed: 1})
	var files [][]byte
	for i := range n {
		files = append(files, fsys["cases/"+CaseID(i, n)+".json"].Data)
	}
	return files
}

// TestCalibration holds the generator within 30% of the library's own fit,
// per language: words per case, and distinct words at 57 and 1,000 cases.
func TestCalibration(t *testing.T) {
	libEn, libKo := growth(t, contentCases(t))
	n := 1000
	if testing.Short() {
		n = 57
	}
	genEn, genKo := growth(t, generatedCases(n))
	for _, l := range []struct {
		name     string
		lib, gen heaps
	}{{"English", libEn, genEn}, {"Korean", libKo, genKo}} {
		k, beta := l.lib.fit()
		t.Logf("%s: content/ (%d cases) K=%.1f β=%.3f; words per case %.0f, distinct at 57 %.0f, at 1,000 %.0f",
			l.name, len(l.lib.words), k, beta, l.lib.perCase(), l.lib.at(57), l.lib.at(1000))
		t.Logf("%s: gencases words per case %.0f, distinct at 57 %d, at %d %d",
			l.name, l.gen.perCase(), l.gen.distinct[56], n, l.gen.distinct[n-1])
		check := func(what string, got, want float64) {
			t.Helper()
			if r := got / want; r < 0.7 || r > 1.3 {
				t.Errorf("%s %s: gencases %.0f, content/ fit %.0f (%.2f×), want within ±30%%", l.name, what, got, want, r)
			}
		}
		check("words per case", l.gen.perCase(), l.lib.perCase())
		check("distinct words at 57 cases", float64(l.gen.distinct[56]), l.lib.at(57))
		if n >= 1000 {
			check("distinct words at 1,000 cases", float64(l.gen.distinct[999]), l.lib.at(1000))
		}
	}
}
