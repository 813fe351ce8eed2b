package search

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer below has a twin in static/js/search.js. Both must give the
// same terms for the same text, or a query typed in the browser will not find
// what the build indexed; testdata/tokenize/vectors.json holds the cases that
// both test suites run. Change one side only together with the other.

// Character classes. A "chunk" is a run of word characters; inside it the
// script runs (Hangul, other letters, digits) become separate words, so that
// "UTC에" and "2024년" split where the script changes.
const (
	clSep    = iota // anything that ends a chunk
	clSpace         // whitespace: ends a chunk, but Hangul words on both sides may form a compound
	clApos          // apostrophe: joins two letters ("hubspot's" → "hubspots"), otherwise a separator
	clLetter        // letters and marks of any script but Hangul
	clDigit         // decimal digits of any script
	clHangul        // Hangul syllables and jamo
)

// classOf returns the class of r. ASCII and Hangul syllables, most of the
// text, take a short path that the compiler inlines; the Unicode tables
// are slow.
func classOf(r rune) int {
	if r < utf8.RuneSelf {
		return int(asciiClass[r])
	}
	if r >= 0xAC00 && r <= 0xD7A3 {
		return clHangul
	}
	return classOfOther(r)
}

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for r := range rune(utf8.RuneSelf) {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
			t[r] = clLetter
		case '0' <= r && r <= '9':
			t[r] = clDigit
		case r == '\'':
			t[r] = clApos
		case r == ' ', '\t' <= r && r <= '\r':
			t[r] = clSpace
		default:
			t[r] = clSep
		}
	}
	return t
}()

func classOfOther(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x11FF, r >= 0x3130 && r <= 0x318F,
		r >= 0xA960 && r <= 0xA97F, r >= 0xD7B0 && r <= 0xD7FF:
		return clHangul
	case unicode.Is(unicode.Nd, r):
		return clDigit
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return clLetter
	case r == '\u2019':
		return clApos
	case unicode.IsSpace(r):
		return clSpace
	}
	return clSep
}

// englishStop are words too common to be worth an index entry. They are
// checked before stemming.
var englishStop = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"been": true, "but": true, "by": true, "for": true, "from": true, "has": true,
	"had": true, "have": true, "in": true, "into": true, "is": true, "it": true,
	"its": true, "of": true, "on": true, "or": true, "that": true, "the": true,
	"their": true, "this": true, "to": true, "was": true, "were": true, "which": true,
	"with": true,
}

// englishStopKeys holds the stop words as stopKey packs them.
var englishStopKeys = func() map[uint64]bool {
	m := map[uint64]bool{}
	for w := range englishStop {
		k := stopKey([]rune(w))
		if k == 0 {
			panic("search: stop word " + w + " is not short ASCII")
		}
		m[k] = true
	}
	return m
}()

// stopKey packs a word of up to eight ASCII characters into an integer, so
// that the stop list is checked without making a string. Any other word
// gets 0, which is no stop word's key.
func stopKey(rs []rune) uint64 { return packRunes(rs, 8, 7) }

// packRunes packs up to n runes of fewer than bits bits each into an
// integer (n×bits must stay under 64), or gives 0 for any other word.
func packRunes(rs []rune, n int, bits uint) uint64 {
	if len(rs) > n {
		return 0
	}
	k := uint64(0)
	for _, r := range rs {
		if r >= 1<<bits {
			return 0
		}
		k = k<<bits | uint64(r)
	}
	return k
}

// koreanSuffixes are particles and verb endings stripped from the end of a
// Korean word, longest match first. A word made only of one of them is a
// stop word: in "HubSpot 은" or "UTC에" the particle carries no meaning of its
// own and, kept as a term, would make such queries require it.
var koreanSuffixes = func() []string {
	list := strings.Fields(`
		은 는 이 가 을 를 의 에 에서 으로 로 와 과 도 만 들 께서 부터 까지 처럼 보다 에게 한테
		에는 에도 에서는 에서도 에서의 으로는 로는 으로도 로도 으로의 로의 과의 와의 과는 와는
		까지는 부터는 보다는 이나 이다 였다 이었다 이며 이고 이라는 라는
		들이 들을 들은 들의 들에 들도 들과 들로 들에게 들에서
		했다 했고 했으며 했던 했지만 하는 하고 하며 하기 하게 하면 하여 해서 한다 하다
		된다 됐다 됐고 됐으며 되는 되고 되어 되면 된 돼`)
	sort.SliceStable(list, func(i, j int) bool {
		return utf8.RuneCountInString(list[i]) > utf8.RuneCountInString(list[j])
	})
	return list
}()

// nounParticles are the suffixes of koreanSuffixes that follow nouns only:
// not 은, 는 and 도, which end verb forms too ("바닥나는", "바닥나도"), nor
// the verb endings.
var nounParticles = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`
		이 가 을 를 의 에 에서 으로 로 와 과 만 께서 부터 까지 처럼 보다 에게 한테
		에는 에도 에서는 에서도 에서의 으로는 로는 으로도 로도 으로의 로의 과의 와의 과는 와는
		까지는 부터는 보다는 이나
		들이 들을 들은 들의 들에 들도 들과 들로 들에게 들에서`) {
		m[s] = true
	}
	return m
}()

// koreanSuffixesByLast lists the suffixes by their last syllable, longest
// first, so that a word is compared only with those that could match. They
// are held as runes because words are.
var koreanSuffixesByLast = func() map[rune][][]rune {
	m := map[rune][][]rune{}
	for _, s := range koreanSuffixes {
		r, _ := utf8.DecodeLastRuneInString(s)
		m[r] = append(m[r], []rune(s))
	}
	return m
}()

// word is one analysed word of a text. Its slices point into the buffers of
// the tokenizer that made it and are valid only until its callback returns.
type word struct {
	hangul bool
	// term is the word's main index term: the stem of an English or Korean
	// word, a number, or the joined form of a letter-digit mix ("k8s"). It is
	// empty for a stop word.
	term []rune
	// parts are further index terms of a Korean stem of three or more
	// syllables: its character bigrams, so that a two-syllable word finds it
	// inside a compound ("로드" in "로드밸런서"), and, from four syllables, its
	// trigrams, so that a three-syllable word does ("밸런서").
	parts [][]rune
	// chain is what a query word of four or more syllables must match all
	// of when its stem itself is not a term: its trigrams, which overlap, so
	// that only text holding the word's syllables in a row matches
	// ("레지스터" does not find "레지스트리" next to "클러스터").
	chain [][]rune
	// alt is a term that a query accepts instead of term: the whole Korean
	// word when stripping left a single syllable ("팀이" → "팀", "팀이"), or
	// the parts of a letter-digit mix ("502s" → "502").
	alt [][]rune
	// raw is the lower-cased word as written, for prefix matching.
	raw []rune
	// ended says that a Korean word ends in a particle or ending that was
	// stripped: the word is finished, so a query does not complete it.
	ended bool
	// noun says that what was stripped is a particle that follows nouns
	// only (nounParticles), so the stem is a word of its own ("메모리가" →
	// "메모리"), unlike a verb's stem ("바닥나는" → "바닥나").
	noun bool
	// compound joins the previous Korean word, across a space, to this one's
	// stem, after compoundMark ("로드 밸런서를" → "+로드밸런서"), so that the
	// compound typed without the space finds it. Only whole words join:
	// "인증 서비스" gives "+인증서비스", never "인증서", and the mark keeps
	// such terms out of prefix matches (typing "인증서" must not find it).
	// Index only; a query word looks its stem up with the mark too.
	compound []rune
}

// A tokenizer splits texts into words, keeping its buffers from one text to
// the next so that the index build makes no garbage per word: words are
// slices of the lower-cased text wherever they can be, and of a small scratch
// space otherwise. The zero value is ready to use; one tokenizer serves one
// goroutine.
type tokenizer struct {
	rs    []rune   // the lower-cased text
	runs  []run    // the script runs of the current chunk
	w     word     // the word being handed out
	extra []rune   // the current word's terms that are not slices of rs: "y" stems, compounds
	lists [][]rune // backing store of the current word's parts, chain and alt
	// phrase holds, per entry of phrases, how many of its words the last
	// words of the text matched.
	phrase []int
}

// run is a script run inside a chunk: tokenizer.rs[start:end]. It holds no
// pointers, so that filling the reused list of runs costs no write barriers.
type run struct {
	class      int
	start, end int
}

// analyze splits text into words, copied out of the tokenizer. It is the
// single place where the rules live; IndexTerms and Query only arrange its
// output.
func analyze(text string) []word {
	var tk tokenizer
	var out []word
	tk.eachWord(text, func(w *word) {
		out = append(out, word{
			hangul: w.hangul,
			term:   slices.Clone(w.term), raw: slices.Clone(w.raw), compound: slices.Clone(w.compound), ended: w.ended,
			parts: cloneAll(w.parts), chain: cloneAll(w.chain), alt: cloneAll(w.alt),
		})
	})
	return out
}

func cloneAll(list [][]rune) [][]rune {
	if list == nil {
		return nil
	}
	out := make([][]rune, len(list))
	for i, rs := range list {
		out[i] = slices.Clone(rs)
	}
	return out
}

// eachWord calls f with each word of text. The word is the tokenizer's own,
// handed over without a copy.
func (tk *tokenizer) eachWord(text string, f func(*word)) {
	rs := tk.lower(text)
	w := &tk.w
	// prevKo is the stem of the previous word when it was a Korean word at the
	// end of its chunk with nothing stripped; spaceOnly says whether only
	// whitespace has been seen since then. It is a slice of rs before the
	// current chunk, which the chunk's rewriting below never reaches.
	prevKo, spaceOnly := []rune(nil), false
	i := 0
	for i < len(rs) {
		c := classOf(rs[i])
		if c == clSep || c == clSpace || c == clApos {
			if c != clSpace {
				spaceOnly = false
			}
			i++
			continue
		}
		// Collect the chunk as script runs.
		// Apostrophes inside words are dropped by moving the chunk's runes
		// down in place, so that every run is a subslice of rs.
		runs := tk.runs[:0]
		wpos := i
		for i < len(rs) {
			r := rs[i]
			c := classOf(r)
			if c == clApos {
				// Swallow an apostrophe between two letters.
				if len(runs) > 0 && runs[len(runs)-1].class == clLetter && i+1 < len(rs) && classOf(rs[i+1]) == clLetter {
					i++
					continue
				}
				break
			}
			if c == clSep || c == clSpace {
				break
			}
			// A combining mark stays with what it marks. Marks start at U+0300.
			if c == clLetter && r >= 0x300 && len(runs) > 0 && unicode.IsMark(r) {
				c = runs[len(runs)-1].class
			}
			if len(runs) == 0 || runs[len(runs)-1].class != c {
				if len(runs) > 0 {
					runs[len(runs)-1].end = wpos
				}
				runs = append(runs, run{class: c, start: wpos})
			}
			rs[wpos] = r
			wpos++
			i++
		}
		runs[len(runs)-1].end = wpos
		tk.runs = runs
		for k := 0; k < len(runs); k++ {
			r := runs[k]
			tk.extra, tk.lists = tk.extra[:0], tk.lists[:0]
			if r.class == clHangul {
				stripped := tk.koreanWord(rs[r.start:r.end])
				if k == 0 && spaceOnly && prevKo != nil && w.term != nil {
					start := len(tk.extra)
					tk.extra = append(append(append(tk.extra, compoundMark), prevKo...), w.term...)
					w.compound = tk.extra[start:]
				}
				f(w)
				prevKo = nil
				if k == len(runs)-1 && !stripped && w.term != nil {
					prevKo = w.term
				}
				continue
			}
			// A run of letters and digits: join consecutive ones.
			j := k
			for j+1 < len(runs) && runs[j+1].class != clHangul {
				j++
			}
			if j == k && r.class == clDigit && k+1 < len(runs) && tk.counter(rs, r, runs[k+1]) {
				// A number with its counter is one unit ("3월에" → "3월"),
				// found by the number alone too.
				f(w)
				k++
				prevKo = nil
				continue
			}
			if j == k {
				raw := rs[r.start:r.end]
				*w = word{term: tk.alnumTerm(r.class, raw), raw: raw}
			} else {
				for _, p := range runs[k : j+1] {
					if t := tk.alnumTerm(p.class, rs[p.start:p.end]); t != nil {
						tk.lists = append(tk.lists, t)
					}
				}
				var parts [][]rune
				if len(tk.lists) > 0 {
					parts = tk.lists
				}
				joined := rs[r.start:runs[j].end]
				*w = word{term: joined, alt: parts, raw: joined}
			}
			f(w)
			k = j
			prevKo = nil
		}
		spaceOnly = true
	}
}

// compoundMark starts the index terms of Korean compounds written with a
// space. No query word can start with it, as it is a separator.
const compoundMark = '+'

// counters are the Korean counters and units that make one term with the
// number before them.
var counters = func() map[uint64]bool {
	m := map[uint64]bool{}
	for _, c := range strings.Fields(`년 월 일 시 분 초 시간 개월 주 주일 건 개 명 회 번 번째 차 배 대 곳 층 달 분기 가지 종 퍼센트 프로`) {
		m[counterKey([]rune(c))] = true
	}
	return m
}()

// counterKey packs a word of up to three characters into an integer, or
// gives 0.
func counterKey(rs []rune) uint64 { return packRunes(rs, 3, 21) }

// counter makes tk.w the number of the digit run d with the counter that
// the Hangul run h after it starts with, and reports whether h is one.
func (tk *tokenizer) counter(rs []rune, d, h run) bool {
	if h.class != clHangul {
		return false
	}
	tk.koreanWord(rs[h.start:h.end])
	stem := tk.w.term
	if stem == nil || !counters[counterKey(stem)] {
		tk.extra, tk.lists = tk.extra[:0], tk.lists[:0]
		return false
	}
	tk.extra, tk.lists = tk.extra[:0], tk.lists[:0]
	tk.lists = append(tk.lists, rs[d.start:d.end])
	tk.w = word{term: rs[d.start : h.start+len(stem)], alt: tk.lists[:1], raw: rs[d.start:h.end]}
	return true
}

// alnumTerm returns the term of a run of letters or of digits, or nil for a
// stop word.
func (tk *tokenizer) alnumTerm(class int, rs []rune) []rune {
	if class == clDigit {
		return rs
	}
	if len(rs) < 2 || englishStopKeys[stopKey(rs)] {
		return nil
	}
	return tk.stemEnglish(rs)
}

// koreanWord makes tk.w the Korean word rs, stripped of one particle or
// ending (longest first), and reports whether anything was stripped. A word
// that is only a particle or ending has a nil term.
func (tk *tokenizer) koreanWord(rs []rune) bool {
	w := &tk.w
	*w = word{hangul: true, raw: rs}
	suffixes := koreanSuffixesByLast[rs[len(rs)-1]]
	for _, suf := range suffixes {
		if slices.Equal(rs, suf) {
			return false
		}
	}
	stem, stripped, noun := rs, false, false
	for _, suf := range suffixes {
		if n := len(suf); len(rs)-n >= 1 && slices.Equal(rs[len(rs)-n:], suf) {
			stem, stripped, noun = rs[:len(rs)-n], true, nounParticles[string(suf)]
			break
		}
	}
	w.term, w.ended, w.noun = stem, stripped, noun
	switch {
	case stripped && len(stem) == 1:
		// A one-syllable stem is too ambiguous alone ("평가" → "평"), so the
		// whole word stays a term too.
		tk.lists = append(tk.lists, rs)
		w.alt = tk.lists[len(tk.lists)-1:]
	case len(stem) >= 3:
		start := len(tk.lists)
		for k := 0; k+1 < len(stem); k++ {
			tk.lists = append(tk.lists, stem[k:k+2])
		}
		for k := 0; len(stem) >= 4 && k+2 < len(stem); k++ {
			tk.lists = append(tk.lists, stem[k:k+3])
		}
		w.parts = tk.lists[start:]
		if len(stem) >= 4 {
			w.chain = tk.lists[start+len(stem)-1:]
		}
	}
	return stripped
}

// stemEnglish is a deliberately light stemmer: plural endings, -ing, -ed and a
// final e, so that "caches", "cache", "cached" and "caching" meet at "cach".
// It only ever removes ASCII endings; the stem is a prefix of w, or a copy
// when it gains a "y".
func (tk *tokenizer) stemEnglish(w []rune) []rune {
	if len(w) <= 3 {
		return w
	}
	has := func(suf string) bool {
		if len(suf) > len(w) {
			return false
		}
		for i := range len(suf) {
			if w[len(w)-len(suf)+i] != rune(suf[i]) {
				return false
			}
		}
		return true
	}
	undouble := func() {
		if k := len(w); k >= 2 && w[k-1] == w[k-2] && w[k-1] < utf8.RuneSelf && isASCIILetter(byte(w[k-1])) && !strings.ContainsRune("lsz", w[k-1]) {
			w = w[:k-1]
		}
	}
	n := len(w)
	switch {
	case n > 4 && (has("ies") || has("ied")):
		start := len(tk.extra)
		tk.extra = append(append(tk.extra, w[:n-3]...), 'y')
		w = tk.extra[start:]
	case has("sses"):
		w = w[:n-2]
	case has("s") && !has("ss") && !has("us") && !has("is"):
		w = w[:n-1]
	case has("ing") && n-3 >= 3:
		w = w[:n-3]
		undouble()
	case has("ed") && n-2 >= 3:
		w = w[:n-2]
		undouble()
	}
	if len(w) > 3 && has("e") {
		w = w[:len(w)-1]
	}
	return w
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// IndexTerms returns the terms the index records for text, in text order and
// with repeats, so that counting them gives term frequencies.
func IndexTerms(text string) []string {
	var tk tokenizer
	var out []string
	tk.eachIndexTerm(text, func(t []rune, _ bool) { out = append(out, string(t)) })
	return out
}

// eachIndexTerm calls f with each term IndexTerms would return, in the
// tokenizer's buffers, and whether the term may be offered as a word: an
// English word's stem, or a Korean word as written or without a particle
// that follows nouns only (not a verb's stem, nor parts or compounds).
// Suggestions offer only such terms:
// "바닥나" (a verb stem, never written alone) is a term but no word to
// offer for "바나나". English keeps its stems ("certificat"), which a
// suggestion for a typo needs and which read as the word.
func (tk *tokenizer) eachIndexTerm(text string, f func(t []rune, word bool)) {
	if len(tk.phrase) != len(phrases) {
		tk.phrase = make([]int, len(phrases))
	}
	clear(tk.phrase)
	tk.eachWord(text, func(w *word) {
		if w.compound != nil {
			f(w.compound, false)
		}
		tk.phrases(w, func(t []rune) { f(t, false) })
		if w.term == nil {
			return
		}
		f(w.term, !w.hangul || !w.ended || w.noun)
		for _, t := range w.parts {
			f(t, false)
		}
		for _, t := range w.alt {
			f(t, false)
		}
	})
}

// phrases are words that English writes joined, split or hyphenated,
// abbreviations of phrases, and synonyms: the text "crash-looping" or
// "crash loop" is indexed under "crashloop" too, "out-of-memory" under
// "oom", "Kubernetes" under "k8s" (so that the query "k8s" finds it). Words match
// by their stems (stop words as written). A word that starts with a
// phrase's term ("CrashLoopBackOff", "OOMKilled") is indexed under it too.
var phrases = func() []phrase {
	var out []phrase
	for _, l := range []string{
		"crashloop: crash loop", "oom: out of memory", "failover: fail over", "backoff: back off",
		"healthcheck: health check", "timeout: time out", "rollout: roll out", "rollback: roll back",
		"deadlock: dead lock", "hotfix: hot fix",
		"k8s: kubernetes",
	} {
		term, words, _ := strings.Cut(l, ": ")
		p := phrase{term: []rune(term)}
		for _, w := range strings.Fields(words) {
			rs := []rune(w)
			if !englishStop[w] {
				var tk tokenizer
				rs = slices.Clone(tk.stemEnglish(rs))
			}
			p.words = append(p.words, rs)
		}
		out = append(out, p)
	}
	return out
}()

type phrase struct {
	term  []rune
	words [][]rune
}

// phrases hands f the term of every phrase that word w completes or
// starts with.
func (tk *tokenizer) phrases(w *word, f func([]rune)) {
	key := w.term
	if key == nil {
		key = w.raw
	}
	for i := range phrases {
		p := &phrases[i]
		if w.hangul {
			tk.phrase[i] = 0
			continue
		}
		if w.term != nil && len(w.term) > len(p.term) && slices.Equal(w.term[:len(p.term)], p.term) {
			f(p.term)
		}
		switch {
		case slices.Equal(key, p.words[tk.phrase[i]]):
			tk.phrase[i]++
			if tk.phrase[i] == len(p.words) {
				f(p.term)
				tk.phrase[i] = 0
			}
		case slices.Equal(key, p.words[0]):
			tk.phrase[i] = 1
		default:
			tk.phrase[i] = 0
		}
	}
}

// Group is one word of a query. A document matches it when it has any term
// of Any, or every term of All (when All is not empty), or, when Prefix is
// set, any term that starts with Prefix.
type Group struct {
	Any    []string `json:"any"`
	All    []string `json:"all"`
	Prefix string   `json:"prefix"`
}

// Query turns a query into groups, all of which a document should match. When
// prefix is true the last word also matches as a prefix, for search as you
// type; that needs at least two characters, or one Korean syllable, and the
// text must not end in a space (the user has finished that word).
func Query(text string, prefix bool) []Group {
	groups, _, _ := query(text, prefix)
	return groups
}

// MaxQueryWords is how many words of a query are used; a longer query is
// cut, and the page says so, instead of fetching the index files of dozens
// of words.
const MaxQueryWords = 20

// query is Query that also returns each group's word as typed (lower-cased),
// which a suggestion replaces. It keeps MaxQueryWords groups at most.
func query(text string, prefix bool) (groups []Group, raws []string, truncated bool) {
	ws := analyze(text)
	if prefix && len(ws) > 0 {
		rs := []rune(text)
		if len(rs) > 0 && classOf(rs[len(rs)-1]) < clLetter {
			prefix = false
		}
	}
	out := []Group{}
	seen := map[string]bool{}
	for k, w := range ws {
		g := Group{Any: []string{}, All: []string{}}
		if w.term != nil {
			g.Any = append(g.Any, string(w.term))
			if w.hangul {
				for _, t := range w.alt {
					g.Any = append(g.Any, string(t))
				}
				// A compound of two words has three or more syllables; a
				// two-syllable one ("웹 훅") is too rare to cost every
				// two-syllable query word a look-up.
				if len(w.term) >= 3 {
					g.Any = append(g.Any, string(compoundMark)+string(w.term))
				}
				for _, t := range w.chain {
					g.All = append(g.All, string(t))
				}
			}
		}
		// A lone Korean particle or ending ("UTC에" while typing) would match
		// most of the index as a prefix, so only other words get one.
		// Nor does a word finished by its particle ("밸런서가").
		if prefix && k == len(ws)-1 && !(w.hangul && (w.term == nil || w.ended)) {
			if n := len(w.raw); n >= 2 || (n == 1 && w.hangul) {
				g.Prefix = string(w.raw)
			}
		}
		key := strings.Join(g.Any, " ") + "|" + strings.Join(g.All, " ") + "|" + g.Prefix
		if (len(g.Any) == 0 && g.Prefix == "") || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, g)
		raws = append(raws, string(w.raw))
	}
	if len(out) > MaxQueryWords {
		return out[:MaxQueryWords], raws[:MaxQueryWords], true
	}
	return out, raws, false
}

// lower returns text in NFC and lower-cased, in a buffer that the next call
// reuses.
func (tk *tokenizer) lower(text string) []rune {
	// A text has no more characters than bytes.
	rs := slices.Grow(tk.rs[:0], len(text))
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		case r >= 0xac00 && r <= 0xd7a3:
			// Hangul syllables have no case.
		case !nfcStable(r):
			tk.rs = rs
			return tk.lowerAll(norm.NFC.String(text))
		default:
			r = fold(r)
		}
		rs = append(rs, r)
	}
	tk.rs = rs
	return rs
}

// lowerAll is lower for text known to be in NFC.
func (tk *tokenizer) lowerAll(text string) []rune {
	rs := tk.rs[:0]
	for _, r := range text {
		rs = append(rs, fold(r))
	}
	tk.rs = rs
	return rs
}

// fold lower-cases r and turns the full-width forms of ASCII, which Korean
// input methods type ("ＨＡＰｒｏｘｙ"), into ASCII.
func fold(r rune) rune {
	if r >= 0xff01 && r <= 0xff5e {
		r -= 0xfee0
	}
	return unicode.ToLower(r)
}

// nfcStable reports, cheaply, that a character certainly stays as it is
// under NFC, whatever surrounds it: it is below the combining marks (U+0300)
// or a precomposed Hangul syllable. Almost all English and Korean text is
// made of such characters and so skips the normalizer's own slower check.
func nfcStable(r rune) bool {
	return r < 0x300 || r >= 0xac00 && r <= 0xd7a3
}
