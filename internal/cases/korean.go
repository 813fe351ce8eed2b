package cases

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// Korean spelling attaches a particle (조사) to the word before it, and so
// the copula 이다 and its forms: "HubSpot의", "kubeconfig가", "03:30 UTC였다",
// "API와 MCP" (한글 맞춤법 제41항). Latin words and numbers are no exception,
// though text translated in a hurry often sets the particle off by a space
// there, because the word before it "looks foreign". The check below finds
// those places and the fixer (cmd/fixparticles) closes them.
//
// A gap is reported only where the word before the space ends in a Latin
// letter, a digit or a closing mark (a bracket, a quote, a backtick, %),
// and the whole Hangul run after it is one of the forms in particleForms,
// followed by something that is not Hangul (a space, punctuation, the end).
// Between two Korean words a space is far more often right than wrong ("수
// 있다", "이 버그", "할 때"), and a Korean word cannot be told from a
// particle by its spelling, so those are never reported.

// particleForms are the Hangul runs read as a particle or a copula ending
// when they follow a Latin word, a number or a closing mark. A run is
// matched whole, so "가" is listed but "가운데" (a noun) is not reported.
// Left out on purpose: words that are also nouns, determiners or verbs
// after a Latin word ("등", "한", "세", "밖에", "이하", "면", "일"). The
// forms of 하다 and 되다 that make a verb of the word before them are in
// verbForms.
var particleForms = setOf(
	// Case particles and the ones that combine with them.
	"의", "가", "이", "은", "는", "을", "를", "와", "과", "도", "만",
	"에", "에서", "에게", "께", "한테", "로", "으로", "로서", "으로서", "로써", "으로써",
	"처럼", "까지", "부터", "보다", "마다", "만큼", "나", "이나", "랑", "이랑",
	"에는", "에도", "에만", "에의", "에야", "에서는", "에서도", "에서만", "에서의", "에서부터",
	"에게는", "에게도", "로는", "로도", "로만", "로의", "로부터", "으로는", "으로도",
	"으로만", "으로의", "으로부터", "와의", "과의", "와는", "과는", "와도", "과도",
	"까지는", "까지도", "까지의", "부터는", "부터도", "보다는", "보다도",
	"만이", "만은", "만을", "만의", "만으로", "이라도", "라도", "이든", "든",
	// The plural suffix and what follows it.
	"들", "들이", "들은", "들을", "들의", "들에", "들에서", "들도", "들과", "들로", "들만",
	// The suffix -용 ("GCP용", "x86용").
	"용",
	// The copula 이다 and its forms.
	"이다", "였다", "이었다", "였고", "이었고", "이고", "였으며", "이었으며", "이며",
	"인", "임", "임을", "임에도", "이라", "라", "이라고", "라고", "이라는", "라는",
	"이라서", "라서", "여서", "이어서", "였던", "이던", "였다면", "이었다면", "이면",
	"이면서", "이지만", "였지만", "이었지만", "여야", "이어야", "인데", "였는데",
	"이었는데", "이므로", "였을", "이었을", "이야", "이요", "인지", "이라면", "라면",
	// The same in the 합니다 style of the interface.
	"입니다", "입니까", "였습니다", "이었습니다", "이며", "이고요",
)

// verbForms are the forms of 하다 and 되다 that make a verb of the Latin word
// or number before them, and so are written attached to it, as after a
// Korean noun: "cordon했다", "OOM으로 종료됐다", "restart하지", "v2로
// upgrade된". "한" is left out: after a word or number it is as often the
// determiner "one" ("Pod 한 개"); so is "하나".
var verbForms = setOf(
	"하다", "했다", "한다", "하고", "했고", "하며", "했으며", "하면", "했으면", "하면서",
	"하지", "하지만", "했지만", "하는", "하던", "했던", "할", "함", "함을", "하기", "하기로",
	"하게", "하도록", "하려고", "하려면", "해", "해서", "해야", "해도", "했을", "했는데",
	"하는데", "합니다", "했습니다", "하세요", "하십시오", "해야", "하여",
	"되다", "됐다", "되었다", "된다", "되고", "됐고", "되었고", "되며", "됐으며", "되면",
	"되지", "됐지만", "되었지만", "되는", "되던", "됐던", "된", "될", "됨", "되기",
	"되게", "되도록", "돼", "되어", "돼서", "되어서", "돼야", "되어야", "됐을", "됐는데",
	"되는데", "됩니다", "됐습니다", "되었습니다",
)

// sentenceEnds are copula forms that end a sentence, and so count only when
// what follows them is not a space: "DNS다." is the copula, while "다" before
// a space is as likely the adverb "all".
var sentenceEnds = setOf("다")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// ParticleGap is a particle written apart from the word before it: s[Off:End]
// is the space (or spaces) to take out.
type ParticleGap struct {
	Off, End int
	Word     string // the end of the word before the space, for messages
	Particle string
}

// FindParticleGaps returns every particle written apart in s, in order.
func FindParticleGaps(s string) []ParticleGap {
	var out []ParticleGap
	// Only a run of spaces followed by a Hangul syllable (U+AC00 to U+D7A3,
	// whose UTF-8 starts with a byte from 0xEA to 0xED) can be a gap: the
	// loop looks for that pair of bytes, and most spaces, those of English
	// text and those before a digit or a Latin word, cost one comparison.
	for i := 1; i < len(s); i++ {
		if s[i]-0xEA > 0xED-0xEA || s[i-1] != ' ' {
			continue
		}
		off := i - 1
		for off > 0 && s[off-1] == ' ' {
			off--
		}
		// Most such spaces, those of Korean text, follow a Hangul
		// syllable, which takes no particle written apart: they are
		// passed over without a call.
		if hangulBefore(s, off) {
			continue
		}
		if g, ok := gapAt(s, off, i); ok {
			out = append(out, g)
		}
	}
	return out
}

// hangulBefore says whether the last character of s[:off] is a Hangul
// syllable, as utf8.DecodeLastRuneInString would say, from its three bytes:
// such a character is three bytes long, and the last character starts
// three bytes before off exactly when the two bytes after that one are
// continuation bytes.
func hangulBefore(s string, off int) bool {
	if off < 3 {
		return false
	}
	c0, c1, c2 := s[off-3], s[off-2], s[off-1]
	if c0-0xEA > 0xED-0xEA || c1&0xC0 != 0x80 || c2&0xC0 != 0x80 {
		return false
	}
	return isHangulSyllable(rune(c0&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F))
}

// gapAt judges the run of spaces s[off:end].
func gapAt(s string, off, end int) (ParticleGap, bool) {
	if off == 0 {
		return ParticleGap{}, false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:off])
	if !attachesParticle(prev) {
		return ParticleGap{}, false
	}
	tok := end
	for tok < len(s) {
		r, n := utf8.DecodeRuneInString(s[tok:])
		if !isHangulSyllable(r) {
			break
		}
		tok += n
	}
	particle := s[end:tok]
	if !particleForms[particle] && !sentenceEnds[particle] && !verbForms[particle] {
		return ParticleGap{}, false
	}
	if !particleForms[particle] && verbForms[particle] && !makesVerb(prev) {
		return ParticleGap{}, false // a quoted phrase is not a word that "하다" makes a verb of
	}
	if sentenceEnds[particle] && tok < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[tok:]); unicode.IsSpace(r) || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return ParticleGap{}, false
		}
	}
	if tok < len(s) {
		// A particle ends at a word boundary: "API 가" but not "API 가a".
		if r, _ := utf8.DecodeRuneInString(s[tok:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return ParticleGap{}, false
		}
	}
	word := lastWord(s[:off])
	if isEnumerator(s[:off], word) {
		return ParticleGap{}, false
	}
	return ParticleGap{Off: off, End: end, Word: word, Particle: particle}, true
}

// attachesParticle reports whether a word ending in r takes a particle that
// follows it: a Latin (or Greek, Cyrillic) letter, a digit, or a mark that
// closes a word. Asterisks and underscores are left out: in Markdown,
// "**“장애”**의" no longer closes the emphasis.
func attachesParticle(r rune) bool {
	switch {
	case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
		return true
	case isHangulSyllable(r):
		return false // the common case in Korean text, decided before the list below
	case strings.ContainsRune(")]}\"'`’”%»›°", r):
		return true
	case r >= utf8.RuneSelf && r < 0x0530 && unicode.IsLetter(r): // Latin-1 to Cyrillic
		return true
	}
	return false
}

// makesVerb reports whether a word ending in r is one that 하다 or 되다 make
// a verb of: a Latin word, a number, inline code or a bracketed word, but
// not a quotation ("…있게" 됐다), which ends in a quote mark.
func makesVerb(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '`' || r == ')') ||
		r >= utf8.RuneSelf && r < 0x0530 && unicode.IsLetter(r)
}

func isHangulSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// lastWord returns the text after the last space or line break of s.
func lastWord(s string) string {
	i := strings.LastIndexAny(s, " \n\t")
	return s[i+1:]
}

// isEnumerator reports whether word, the last word of before, numbers an
// item at the start of a line ("1) 이 설정은", "(a) 이 값은"): there 이 is the
// determiner "this", not a particle.
func isEnumerator(before, word string) bool {
	start := len(before) - len(word)
	if start > 0 && before[start-1] != '\n' {
		return false
	}
	w := strings.TrimPrefix(word, "(")
	if !strings.HasSuffix(w, ")") {
		return false
	}
	w = strings.TrimSuffix(w, ")")
	if w == "" || len(w) > 2 {
		return false
	}
	for _, r := range w {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// AttachParticles returns s with every particle written apart attached to
// the word before it, and nothing else changed. It is idempotent.
func AttachParticles(s string) string {
	return closeGaps(s, FindParticleGaps(s))
}

// closeGaps takes the spaces of gaps, sorted and not overlapping, out of s.
func closeGaps(s string, gaps []ParticleGap) string {
	if len(gaps) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, g := range gaps {
		b.WriteString(s[last:g.Off])
		last = g.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// fieldGap is a particle gap inside a string of a JSON file: Off and End are
// offsets in the file, Field the string's field path.
type fieldGap struct {
	ParticleGap
	Field string
}

// jsonParticleGaps returns the gaps inside the string values of a parsed
// JSON file, in file order, with offsets in src. Strings are judged as they
// are written in the file (escapes and all), so that closing a gap is taking
// bytes out of the file and nothing else.
func jsonParticleGaps(src string, root *jsonpos.Value) []fieldGap {
	var out []fieldGap
	var walk func(v *jsonpos.Value, at fieldPath)
	walk = func(v *jsonpos.Value, at fieldPath) {
		switch v.Kind {
		case jsonpos.Object:
			for _, m := range v.Members {
				walk(m.Value, at.key(m.Key))
			}
		case jsonpos.Array:
			for i, it := range v.Items {
				walk(it, at.index(i))
			}
		case jsonpos.String:
			if !strings.Contains(v.Str, " ") {
				return
			}
			raw := v.Str
			if !literalBody(src, v) {
				raw = rawString(src, v.Off) // the string had escapes
			}
			var field string
			for _, g := range FindParticleGaps(raw) {
				if field == "" {
					field = at.String()
				}
				g.Off += v.Off + 1
				g.End += v.Off + 1
				out = append(out, fieldGap{ParticleGap: g, Field: field})
			}
		}
	}
	walk(root, make(fieldPath, 0, 8))
	return out
}

// literalBody says whether the string v of src is the body of its literal
// as written: jsonpos gives a string without escapes as that part of the
// source, so that it is where the literal's body starts, and as long.
func literalBody(src string, v *jsonpos.Value) bool {
	start := v.Off + 1
	return len(v.Str) > 0 && start+len(v.Str) < len(src) && src[start+len(v.Str)] == '"' &&
		unsafe.StringData(v.Str) == unsafe.StringData(src[start:])
}

// rawString returns the body of the JSON string literal that starts at
// src[off] (a quote), without its quotes and with its escapes as written.
func rawString(src string, off int) string {
	if off >= len(src) || src[off] != '"' {
		return ""
	}
	for i := off + 1; i < len(src); {
		j := strings.IndexByte(src[i:], '"')
		if j < 0 {
			return ""
		}
		i += j
		// The quote is escaped when an odd number of backslashes stand
		// before it.
		bs := 0
		for k := i - 1; k > off && src[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return src[off+1 : i]
		}
		i++
	}
	return ""
}

// checkParticlesJSON warns about every particle written apart in the strings
// of a parsed JSON file.
func checkParticlesJSON(p *parsed, list *diag.List) {
	src := p.doc.Source()
	for _, g := range jsonParticleGaps(src, p.v) {
		line, col := p.doc.Pos(g.Off)
		list.Warnf(p.file, line, col, g.Field, "%s", gapMessage(g.ParticleGap))
	}
}

// checkParticlesText warns about every particle written apart in text, the
// contents of file (a Markdown page or topic introduction).
func checkParticlesText(file, text string, list *diag.List) {
	gaps := FindParticleGaps(text)
	if len(gaps) == 0 {
		return
	}
	line, col, at := 1, 1, 0
	for _, g := range gaps {
		for _, r := range text[at:g.Off] {
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		at = g.Off
		list.Warnf(file, line, col, "", "%s", gapMessage(g))
	}
}

// FixParticlesJSON returns src, a JSON file, with every particle written
// apart inside its strings attached, and how many it attached. A file with
// a syntax error is returned as it is, with n = -1; one with lesser problems
// (a duplicate key, a bad byte in a string) is fixed all the same, since
// its strings are still where they are.
func FixParticlesJSON(src string) (out string, n int) {
	doc := jsonpos.Parse(src)
	if doc.Fatal {
		return src, -1
	}
	fg := jsonParticleGaps(src, doc.Root)
	gaps := make([]ParticleGap, len(fg))
	for i, g := range fg {
		gaps[i] = g.ParticleGap
	}
	return closeGaps(src, gaps), len(gaps)
}

// gapMessage is the text of the warning about a particle written apart,
// without its position.
func gapMessage(g ParticleGap) string {
	word := g.Word
	if utf8.RuneCountInString(word) > 24 {
		r := []rune(word)
		word = "…" + string(r[len(r)-20:])
	}
	if verbForms[g.Particle] {
		return "하다/되다 written apart from the word before it: write \"" + word + g.Particle + "\", not \"" + word + " " + g.Particle +
			"\" (the verbs \"하다\" and \"되다\" make a verb of the word before them and are attached to it, Latin words and numbers included; go run ./cmd/fixparticles attaches them all)"
	}
	return "particle written apart from the word before it: write \"" + word + g.Particle + "\", not \"" + word + " " + g.Particle +
		"\" (a particle is attached to the word before it, Latin words and numbers included; go run ./cmd/fixparticles attaches them all)"
}

// checkImpactText warns about impact.scope and impact.users written as one
// plain string other than "unknown": that string is English only, so the
// Korean page shows it marked as not translated, as a missing translation
// of any other text is shown.
func checkImpactText(p *parsed, list *diag.List) {
	imp := p.v.Get("impact")
	if imp == nil || imp.Kind != jsonpos.Object {
		return
	}
	for _, key := range []string{"scope", "users"} {
		v := imp.Get(key)
		if v == nil || v.Kind != jsonpos.String || v.Str == "unknown" || strings.TrimSpace(v.Str) == "" {
			continue
		}
		line, col := p.pos(v)
		list.Warnf(p.file, line, col, "impact."+key, `a plain string is English only, and the Korean page shows it marked as not translated: write {"en": %q, "ko": "…"} (only "unknown" may stay a plain string)`, v.Str)
	}
}
