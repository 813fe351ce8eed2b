package search

import (
	"incidentlib/internal/tokenize"

	"strings"
)

// queryGroup is one word of a query. A document matches it when it has any term
// of Any, or every term of All (when All is not empty), or, when Prefix is
// set, any term that starts with Prefix.
type queryGroup struct {
	Any    []string `json:"any"`
	All    []string `json:"all"`
	Prefix string   `json:"prefix"`
}

// parseQuery turns a query into groups, all of which a document should match. When
// prefix is true the last word also matches as a prefix, for search as you
// type; that needs at least two characters, or one Korean syllable, and the
// text must not end in a space (the user has finished that word).
func parseQuery(text string, prefix bool) []queryGroup {
	groups, _, _ := query(text, prefix)
	return groups
}

// MaxQueryWords is how many words of a query are used; a longer query is
// cut, and the page says so, instead of fetching the index files of dozens
// of words.
const MaxQueryWords = 20

// query is parseQuery that also returns each group's word as typed (lower-cased),
// which a suggestion replaces. It keeps MaxQueryWords groups at most.
func query(text string, prefix bool) (groups []queryGroup, raws []string, truncated bool) {
	ws := tokenize.Analyze(text)
	if prefix && len(ws) > 0 {
		rs := []rune(text)
		if len(rs) > 0 && !tokenize.IsWordRune(rs[len(rs)-1]) {
			prefix = false
		}
	}
	out := []queryGroup{}
	seen := map[string]bool{}
	for k, w := range ws {
		g := queryGroup{Any: []string{}, All: []string{}}
		if w.Term() != nil {
			g.Any = append(g.Any, string(w.Term()))
			if w.Hangul() {
				for _, t := range w.Alt() {
					g.Any = append(g.Any, string(t))
				}
				// A compound of two words has three or more syllables; a
				// two-syllable one ("웹 훅") is too rare to cost every
				// two-syllable query word a look-up.
				if len(w.Term()) >= 3 {
					g.Any = append(g.Any, string(tokenize.CompoundMark)+string(w.Term()))
				}
				for _, t := range w.Chain() {
					g.All = append(g.All, string(t))
				}
			}
		}
		// A lone Korean particle or ending ("UTC에" while typing) would match
		// most of the index as a prefix, so only other words get one.
		// Nor does a word finished by its particle ("밸런서가").
		if prefix && k == len(ws)-1 && !(w.Hangul() && (w.Term() == nil || w.Ended())) {
			if n := len(w.Raw()); n >= 2 || (n == 1 && w.Hangul()) {
				g.Prefix = string(w.Raw())
			}
		}
		key := strings.Join(g.Any, " ") + "|" + strings.Join(g.All, " ") + "|" + g.Prefix
		if (len(g.Any) == 0 && g.Prefix == "") || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, g)
		raws = append(raws, string(w.Raw()))
	}
	if len(out) > MaxQueryWords {
		return out[:MaxQueryWords], raws[:MaxQueryWords], true
	}
	return out, raws, false
}
