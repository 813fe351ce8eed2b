package cases

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// # The glossary
//
// content/glossary.json holds the library's Korean terms: for an English
// term, the Korean form every Korean text uses (시크릿, 축출, 장애 기록) and
// the forms it must not use (Secret, 내쫓, 로그 for an incident's log).
// The check warns about every avoided form in a Korean text of the content
// (case fields in "ko", vocabulary labels, settings, Korean pages and topic
// introductions), with its position and the form to write, and check
// -strict fails on it. Inline code (`kind: Secret`) and the phrases a term
// allows (GKE Ingress, a product's name) are left alone.

// GlossaryFile is the glossary's name in the content folder; it may be
// absent.
const GlossaryFile = "glossary.json"

// Glossary is the library's Korean terms.
type Glossary struct {
	Terms []GlossaryTerm
	// first holds the first character of every avoided form, so that the
	// check passes over most characters of a text with one look-up.
	first map[rune][]avoided
	// hangulFirst holds, by first character, the forms in Hangul of every
	// term, preferred and avoided, for Synonyms.
	hangulFirst map[rune][]hangulForm
	// starts marks the first characters of hangulFirst below U+10000, so
	// that Synonyms passes over most characters without a map look-up.
	starts [1 << 10]uint64
}

// hangulForm is a form in Hangul of a term: the preferred form or one to
// avoid.
type hangulForm struct {
	form string
	term int // in Terms
}

// GlossaryTerm is one term: the English term, the Korean form to write, the
// forms to avoid and the phrases in which an avoided form is right.
type GlossaryTerm struct {
	En, Ko string
	Avoid  []string
	Allow  []string
	Note   string
}

// avoided is one avoided form and the term it belongs to.
type avoided struct {
	form  string
	latin bool // matched at word boundaries
	term  *GlossaryTerm
}

// GlossarySchema is the format of content/glossary.json.
var GlossarySchema = object("The library's Korean terms, which check holds every Korean text to.",
	Prop{"terms", array("One entry per English term.", object("A term.",
		Prop{"en", minLen(str("The English term."))},
		Prop{"ko", minLen(str("The Korean form every Korean text writes."))},
		Prop{"avoid", array("Forms a Korean text must not use, matched in Korean text outside inline code; a form in Latin letters only at word boundaries.", minLen(str("A form to avoid.")))},
		Prop{"allow", optional(array("Phrases in which an avoided form is right, such as a product's name (GKE Ingress).", minLen(str("A phrase."))))},
		Prop{"note", optional(str("Why, or where the form comes from (the Korean Kubernetes documentation)."))},
	))},
)

// loadGlossary reads content/glossary.json when there is one; nil when
// there is none or it is broken (the report says why).
func loadGlossary(fsys fs.FS, list *diag.List) *Glossary {
	src, err := ReadContent(fsys, GlossaryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		list.Errorf(GlossaryFile, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return nil
	}
	p := parseChecked(new(jsonpos.Parser), string(src), GlossaryFile, GlossarySchema, list)
	if p == nil || !p.ok {
		return nil
	}
	g := &Glossary{}
	for _, t := range getList(p.v, "terms") {
		g.Terms = append(g.Terms, GlossaryTerm{
			En: getStr(t, "en"), Ko: getStr(t, "ko"), Avoid: getStrings(t, "avoid"), Allow: getStrings(t, "allow"), Note: getStr(t, "note"),
		})
	}
	g.index()
	checkParticlesJSON(p, list)
	return g
}

// NewGlossary makes a glossary of terms, for tests and tools that hold
// texts of their own to it.
func NewGlossary(terms []GlossaryTerm) *Glossary {
	g := &Glossary{Terms: terms}
	g.index()
	return g
}

func (g *Glossary) index() {
	g.first = map[rune][]avoided{}
	g.hangulFirst = map[rune][]hangulForm{}
	for i := range g.Terms {
		t := &g.Terms[i]
		for _, f := range t.Avoid {
			r, _ := utf8.DecodeRuneInString(f)
			g.first[r] = append(g.first[r], avoided{form: f, latin: isLatinWord(f), term: t})
		}
		for _, f := range t.hangulForms() {
			r, _ := utf8.DecodeRuneInString(f)
			g.hangulFirst[r] = append(g.hangulFirst[r], hangulForm{f, i})
			if r < 1<<16 {
				g.starts[r>>6] |= 1 << (r & 63)
			}
		}
	}
}

// hangulForms are the term's preferred form and the forms it avoids that
// hold Hangul: two ways of writing one thing in Korean (축출 and 내쫓,
// 로드 밸런서 and 부하 분산기). A form in Latin letters ("Ingress",
// "healthy") is left out: the English text of every case has it already.
func (t *GlossaryTerm) hangulForms() []string {
	var out []string
	for _, f := range append([]string{t.Ko}, t.Avoid...) {
		for _, r := range f {
			if r >= 0xAC00 && r <= 0xD7A3 {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// Synonyms returns the other Hangul forms of every term that the texts
// write in one of its Hangul forms, each once, in the glossary's order:
// for a case that writes 축출 it gives 내쫓 and 퇴거, and for one that
// still writes 내쫓았다 it gives 축출, so that a search finds the case by
// either form. A term with one Hangul form has none.
func (g *Glossary) Synonyms(texts ...string) []string {
	if g == nil || len(g.hangulFirst) == 0 {
		return nil
	}
	var written []string // the forms the texts write
	var terms []int      // the terms they write, by their place in Terms
	for _, s := range texts {
		for i, r := range s {
			if r < 1<<16 && g.starts[r>>6]&(1<<(r&63)) == 0 {
				continue
			}
			for _, f := range g.hangulFirst[r] {
				if strings.HasPrefix(s[i:], f.form) && !slices.Contains(written, f.form) {
					written = append(written, f.form)
					if !slices.Contains(terms, f.term) {
						terms = append(terms, f.term)
					}
				}
			}
		}
	}
	slices.Sort(terms)
	var out []string
	for _, i := range terms {
		for _, f := range g.Terms[i].hangulForms() {
			if !slices.Contains(written, f) && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// GlossaryHit is an avoided form found in a text: s[Off:Off+len(Form)].
type GlossaryHit struct {
	Off  int
	Form string
	Term *GlossaryTerm
}

// Message is the warning's text, without its position.
func (h GlossaryHit) Message() string {
	msg := "glossary: write \"" + h.Term.Ko + "\", not \"" + h.Form + "\" (" + h.Term.En
	if h.Term.Note != "" {
		msg += "; " + h.Term.Note
	}
	return msg + ")"
}

// Find returns every avoided form in s, a Korean text, in order: outside
// inline code (between backticks) and outside the phrases its term allows.
func (g *Glossary) Find(s string) []GlossaryHit {
	if g == nil || len(g.first) == 0 {
		return nil
	}
	var out []GlossaryHit
	code := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '`' {
			code = !code
		} else if !code {
			for _, a := range g.first[r] {
				if strings.HasPrefix(s[i:], a.form) && (!a.latin || wordBounded(s, i, i+len(a.form))) && !allowed(s, i, a) {
					out = append(out, GlossaryHit{Off: i, Form: a.form, Term: a.term})
					break
				}
			}
		}
		i += n
	}
	return out
}

// allowed reports whether the form found at s[i:] stands inside one of the
// phrases its term allows, or glosses the preferred form on its first use:
// "네트워크폴리시(NetworkPolicy)".
func allowed(s string, i int, a avoided) bool {
	if j := i + len(a.form); strings.HasSuffix(s[:i], a.term.Ko+"(") && j < len(s) && s[j] == ')' {
		return true
	}
	for _, p := range a.term.Allow {
		k := strings.Index(p, a.form)
		for k >= 0 {
			if start := i - k; start >= 0 && strings.HasPrefix(s[start:], p) {
				return true
			}
			next := strings.Index(p[k+1:], a.form)
			if next < 0 {
				break
			}
			k += 1 + next
		}
	}
	return false
}

// isLatinWord reports whether a form is written in ASCII letters, digits,
// spaces and hyphens: such a form is matched as a whole word, so that
// "Secret" is not found in "Secrets Manager" or "TopSecret".
func isLatinWord(f string) bool {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// wordBounded reports whether s[i:j] is a whole word: no ASCII letter or
// digit touches it on either side. A Hangul particle may follow it
// ("Secret을").
func wordBounded(s string, i, j int) bool {
	alnum := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return (i == 0 || !alnum(s[i-1])) && (j >= len(s) || !alnum(s[j]))
}

// checkGlossaryJSON warns about every avoided form in the Korean strings of
// a parsed JSON file: the members named "ko" or "name_ko".
func checkGlossaryJSON(g *Glossary, p *parsed, list *diag.List) {
	if g == nil || p == nil {
		return
	}
	src := p.doc.Source()
	var walk func(v *jsonpos.Value, at fieldPath, korean bool)
	walk = func(v *jsonpos.Value, at fieldPath, korean bool) {
		switch v.Kind {
		case jsonpos.Object:
			for _, m := range v.Members {
				walk(m.Value, at.key(m.Key), m.Key == "ko" || m.Key == "name_ko")
			}
		case jsonpos.Array:
			for i, it := range v.Items {
				walk(it, at.index(i), false)
			}
		case jsonpos.String:
			if !korean {
				return
			}
			raw := v.Str
			if !literalBody(src, v) {
				raw = rawString(src, v.Off)
			}
			for _, h := range g.Find(raw) {
				line, col := p.doc.Pos(v.Off + 1 + h.Off)
				list.Warnf(p.file, line, col, at.String(), "%s", h.Message())
			}
		}
	}
	walk(p.v, make(fieldPath, 0, 8), false)
}

// checkGlossaryText warns about every avoided form in text, a Korean page
// or topic introduction.
func checkGlossaryText(g *Glossary, file, text string, list *diag.List) {
	for _, h := range g.Find(text) {
		line := 1 + strings.Count(text[:h.Off], "\n")
		col := 1 + utf8.RuneCountInString(text[strings.LastIndexByte(text[:h.Off], '\n')+1:h.Off])
		list.Warnf(file, line, col, "", "%s", h.Message())
	}
}
