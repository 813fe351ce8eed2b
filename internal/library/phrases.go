package library

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/related"
)

// Shared phrases: the narrative words a reason shows.
//
// A narrative key is what the tokenizer makes of a word or a pair of words
// ("en:cordon", "ko:노드 롤오버"): a stem, lower-cased, without its
// particle. It is what two stories share, but not what a reader should see:
// "영향받 노드" or "oom kill" is written nowhere. So a reason shows, for
// each key the two cases share, a phrase that both their texts in that
// language write verbatim: the words of the key as written, in their own
// spelling and case ("OOM killed", "external-dns", "노드 롤오버"), cut at
// word boundaries. In Korean the phrase ends on a noun: in each text it is
// followed by a particle that only follows nouns ("노드 롤오버가"), or by a
// space or punctuation after a word that is no predicate form ("뜻하지
// 않은", "대한" are not). A key with no such phrase in both texts is left
// out of the reason, and with none left the reason names no words. The
// related cases themselves do not change: they are computed from the keys.

// phraseKeys says which keys of each case a reason of one of its links
// shows: those its links share with another case.
func phraseKeys(links [][]related.Link) []map[string]bool {
	out := make([]map[string]bool, len(links))
	for i, ls := range links {
		for _, l := range ls {
			for _, k := range l.Words {
				if out[i] == nil {
					out[i] = map[string]bool{}
				}
				out[i][k] = true
			}
		}
	}
	return out
}

// showPhrases replaces the narrative keys of every link's reason by the
// phrases to show ("lang:phrase", see above), in the same order, leaving
// out the keys with none. The phrase of a key is the first of the
// earlier case's (in the library's order) that the other case writes too,
// so that a link and its way back show the same.
func showPhrases(lib *cases.Library, links [][]related.Link, words EachWordFunc) {
	keys := phraseKeys(links)
	phrases := make([]map[string][]string, len(lib.Cases))
	var wg sync.WaitGroup
	workers := max(1, min(runtime.GOMAXPROCS(0), len(lib.Cases)/64))
	for w := range workers {
		wg.Go(func() {
			r := phraseReader{words: words, pieces: map[string][]pieceWord{}}
			for i := w; i < len(lib.Cases); i += workers {
				if keys[i] != nil {
					phrases[i] = r.phrases(lib.Cases[i], keys[i])
				}
			}
		})
	}
	wg.Wait()
	at := make(map[string]int, len(lib.Cases))
	for i, c := range lib.Cases {
		at[c.ID] = i
	}
	// Each case's links on the workers too: a link is written by the case
	// that lists it, and reads the other's phrases only.
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(links); i += workers {
				for j := range links[i] {
					l := &links[i][j]
					if len(l.Words) > 0 {
						l.Words = shownWords(lib, phrases, l.Words, i, at[l.ID])
					}
				}
			}
		})
	}
	wg.Wait()
}

// shownWords returns the phrases to show for the shared keys of the cases
// at a and b, from each case's phrases.
func shownWords(lib *cases.Library, phrases []map[string][]string, keys []string, a, b int) []string {
	if b < a {
		a, b = b, a
	}
	var shown []string
	for _, k := range keys {
		lang, _, _ := strings.Cut(k, ":")
		for _, p := range phrases[a][k] {
			if slices.Contains(phrases[b][k], p) {
				if s := lang + ":" + p; !slices.Contains(shown, s) {
					shown = append(shown, s)
				}
				break
			}
		}
	}
	return mergePhrases(shown, lib.Cases[a], lib.Cases[b])
}

// phraseReader finds the phrases of cases, one goroutine's worth. Like
// the story reader, it reads each piece of text between two spaces once:
// the words of a piece met again cost one look-up.
type phraseReader struct {
	words  EachWordFunc
	pieces map[string][]pieceWord
	ws     []textWord
	key    []byte
}

// A pieceWord is a word of a piece as the tokenizer reads it, with where
// it is in the piece: piece[off:show] is what a phrase ending on it shows
// (a Korean word without its particle, an English word whole). A word the
// tokenizer wrote otherwise than the piece ("don't" read "dont") has off -1.
type pieceWord struct {
	term      string
	off, show int
	hangul    bool
}

// A textWord is a pieceWord placed in its text: text[start:show].
type textWord struct {
	term        string
	start, show int
	hangul      bool
}

// phrases returns the phrases of c that the keys stand for, each key's in
// the order the texts write them, each once.
func (r *phraseReader) phrases(c *cases.Case, keys map[string]bool) map[string][]string {
	out := map[string][]string{}
	add := func(key, p string) {
		if !slices.Contains(out[key], p) {
			out[key] = append(out[key], p)
		}
	}
	for _, lang := range cases.Languages {
		for _, text := range storyTexts(c, lang) {
			for off := 0; off < len(text); {
				end, size := clauseBreak(text[off:])
				r.clause(text, off, off+end)
				for i, w := range r.ws {
					if w.start < 0 || w.term == "" {
						continue
					}
					r.key = append(append(append(r.key[:0], lang...), ':'), w.term...)
					if keys[string(r.key)] && showable(text, lang, w.start, w.show) {
						add(string(r.key), text[w.start:w.show])
					}
					if i+1 == len(r.ws) {
						continue
					}
					if n := r.ws[i+1]; n.start >= 0 && n.term != "" {
						r.key = append(append(r.key, ' '), n.term...)
						if keys[string(r.key)] && joinsNext(text, lang, w) && showable(text, lang, w.start, n.show) {
							add(string(r.key), text[w.start:n.show])
						}
					}
				}
				off += end + size
			}
		}
	}
	return out
}

// clause reads text[from:to] into r.ws, piece by piece between spaces as
// the story reader does.
func (r *phraseReader) clause(text string, from, to int) {
	r.ws = r.ws[:0]
	for at := from; at < to; {
		end := to
		if i := strings.IndexByte(text[at:to], ' '); i >= 0 {
			end = at + i
		}
		for _, w := range r.piece(text[at:end]) {
			tw := textWord{term: w.term, start: -1, hangul: w.hangul}
			if w.off >= 0 {
				tw.start, tw.show = at+w.off, at+w.show
			}
			r.ws = append(r.ws, tw)
		}
		at = end + 1
	}
}

// piece returns the words of a piece of text, reading it the first time.
func (r *phraseReader) piece(p string) []pieceWord {
	if ws, ok := r.pieces[p]; ok {
		return ws
	}
	var ws []pieceWord
	cur := 0
	r.words(p, func(term, raw []byte, hangul bool) {
		w := pieceWord{term: string(term), off: -1, hangul: hangul}
		if i := indexFold(p[cur:], raw); i >= 0 {
			start := cur + i
			cur = start + len(raw)
			w.off, w.show = start, cur
			if hangul {
				// The term is the word without its particle.
				w.show = start + len(term)
				if !strings.HasPrefix(p[start:], w.term) {
					w.off = -1
				}
			}
		}
		ws = append(ws, w)
	})
	r.pieces[strings.Clone(p)] = ws
	return ws
}

// storyTexts are the texts of c in lang that its narrative words are read
// from.
func storyTexts(c *cases.Case, lang string) []string {
	out := []string{c.Title.Get(lang), c.Summary.Get(lang), c.Trigger.Get(lang)}
	for _, t := range c.Remediation {
		out = append(out, t.Get(lang))
	}
	return out
}

// writes says whether one of the story texts of c in lang writes phrase
// where it may be shown.
func writes(c *cases.Case, lang, phrase string) bool {
	for _, t := range storyTexts(c, lang) {
		for off := 0; ; {
			i := strings.Index(t[off:], phrase)
			if i < 0 {
				break
			}
			if showable(t, lang, off+i, off+i+len(phrase)) {
				return true
			}
			off += i + 1
		}
	}
	return false
}

// mergePhrases joins two shown phrases of which one ends on the word the
// other starts with ("AWS 자격" and "자격 증명", "Network Load" and "Load
// Balancer") into one where both cases write it so, in the place of the
// first.
func mergePhrases(shown []string, a, b *cases.Case) []string {
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(shown) && !merged; i++ {
			for j := range shown {
				p, q := shown[i], shown[j]
				last := p[strings.LastIndexAny(p, ": ")+1:]
				first, rest, ok := strings.Cut(q, " ")
				lang, _, _ := strings.Cut(p, ":")
				if i == j || !ok || !strings.HasPrefix(q, lang+":") || first[len(lang)+1:] != last {
					continue
				}
				m := p + " " + rest
				if writes(a, lang, m[len(lang)+1:]) && writes(b, lang, m[len(lang)+1:]) {
					shown[i] = m
					shown = slices.Delete(shown, j, j+1)
					merged = true
					break
				}
			}
		}
	}
	return shown
}

// indexFold returns where s holds w, a word the tokenizer lower-cased,
// or -1.
func indexFold(s string, w []byte) int {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i] == w[0] || s[i] < utf8.RuneSelf && s[i]|0x20 == w[0] || s[i] >= utf8.RuneSelf {
			if strings.EqualFold(s[i:i+len(w)], string(w)) {
				return i
			}
		}
	}
	return -1
}

// showable says whether text[start:end], a phrase, may be shown: it
// starts and ends at word boundaries, and in Korean it ends on a noun.
func showable(text, lang string, start, end int) bool {
	if r, _ := utf8.DecodeLastRuneInString(text[:start]); start > 0 && joins(r) {
		return false
	}
	rest := text[end:]
	if lang != "ko" {
		return wordEnds(rest)
	}
	// Korean: what follows the word up to the next character that is no
	// Hangul syllable is nothing or a particle of nouns only.
	tail := hangulRun(rest)
	if !wordEnds(rest[len(tail):]) {
		return false
	}
	last := text[start:end]
	if i := strings.LastIndexByte(last, ' '); i >= 0 {
		last = last[i+1:]
	}
	if r, _ := utf8.DecodeLastRuneInString(last); r < 0xAC00 || r > 0xD7A3 {
		return tail == "" || nounParticles[tail]
	}
	if notShown[last] {
		return false
	}
	if tail != "" {
		return nounParticles[tail] && !hasSuffix(last, verbStems)
	}
	return !predicate(last, strings.TrimLeft(rest, " "))
}

// predicate says whether a Korean word written alone, with next the text
// after it, is a verb or adjective form rather than a noun: "뜻하지 (않은)",
// "(자원에) 대한", "(적혀) 있지", "늘린", "(처리)할 수". The story reader
// leaves out the forms it knows already (koreanPredicate).
func predicate(w, next string) bool {
	switch {
	case hasSuffix(w, predicateForms):
		return true
	case strings.HasSuffix(w, "한"):
		return !hasSuffix(w, []string{"제한", "권한", "기한", "상한", "하한"})
	case strings.HasSuffix(w, "자"):
		// "(다시) 켜자", "되돌리자", but 사용자, 관리자.
		return !hasSuffix(w, nounsInJa)
	case strings.HasSuffix(w, "지"):
		return hasPrefix(next, "않", "못", "말")
	case strings.HasSuffix(w, "할"), strings.HasSuffix(w, "될"), strings.HasSuffix(w, "을"):
		return hasPrefix(next, "수 ", "때", "것", "뿐", "예정", "만큼")
	}
	return false
}

func hasPrefix(s string, starts ...string) bool {
	for _, p := range starts {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// wordEnds says whether a word ends where rest begins: at the end of the
// text, a space or punctuation; not within a name such as "external-dns",
// "node.js" or "don't".
func wordEnds(rest string) bool {
	r, size := utf8.DecodeRuneInString(rest)
	if size == 0 {
		return true
	}
	if r == '.' || r == '\'' || r == '’' {
		next, _ := utf8.DecodeRuneInString(rest[size:])
		return !unicode.IsLetter(next) && !unicode.IsDigit(next)
	}
	return !joins(r)
}

// joins says whether r joins the characters either side of it into one
// word or name.
func joins(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || strings.ContainsRune("-_/.'’@+#", r)
}

func hasSuffix(s string, ends []string) bool {
	for _, e := range ends {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}

// nounParticles are the Korean particles that follow nouns only: not 은,
// 는, 도 and 을 after a verb stem, which end verb forms too ("바닥나는",
// "영향받은"), and so do "이" and "을" after some (verbStems).
var nounParticles = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(`이 가 을 를 의 에 에서 으로 로 와 과 만 께서 부터 까지 처럼 보다 에게 한테
		에는 에도 에서는 에서도 에서의 으로는 로는 으로도 로도 으로의 로의 과의 와의 과는 와는
		까지는 부터는 보다는 이나 이라는 라는
		들 들이 들을 들은 들의 들에 들도 들과 들로 들에게 들에서`) {
		m[p] = true
	}
	return m
}()

// verbStems are the ends of Korean verb and adjective stems that take "이"
// or "을" as an ending ("영향받을", "깊이"): a word that ends in one is no
// noun before them.
var verbStems = strings.Fields(`받 있 없 않 같 많 깊 잃 읽 찾 맞 넘 좋 싶 했 됐 였 하 되 겠 남 짧 낮 작 넓 좁`)

// predicateForms are the ends of Korean words written alone that are
// verb or adjective forms whatever follows: adnominal forms ("늘린",
// "새로운", "중인") and connective ones ("적혀", "가리키(는)").
var predicateForms = strings.Fields(`는 은 던 된 른 룬 운 린 낸 킨 친 쓴 뜬 든 준 둔 켠 닌 중인 져 혀 워 쳐 줘 봐 돼 겠 키 않아 받아 있어 없어`)

// notShown are Korean words that say nothing alone ("노드를 한꺼번(에)")
// or are adverbs ("거듭").
var notShown = map[string]bool{"한꺼번": true, "그만큼": true, "거듭": true}

// nounsInJa are nouns that end in 자, which ends a verb form too.
var nounsInJa = strings.Fields(`사용자 관리자 운영자 개발자 작성자 기술자 담당자 참가자 소유자 요청자 공격자 게시자 기여자 투자 숫자 문자`)

// joinsNext says whether the word w of a Korean text makes one phrase with
// the word after it: written alone ("쿠버네티스 노드"), as a genitive or
// "and" ("파드의 메모리", "요청과 제한"), or as a verb's adnominal form
// ("영향받은 노드"); not as a subject, object or place ("노드가 NotReady",
// "노드에서 메모리"), where the two words belong to two parts of a clause.
func joinsNext(text, lang string, w textWord) bool {
	if lang != "ko" {
		return true
	}
	switch hangulRun(text[w.show:]) {
	case "", "의", "과", "와":
		return true
	case "은", "는", "된", "한", "던", "하는", "되는":
		return w.hangul && hasSuffix(text[w.start:w.show], verbStems)
	}
	return false
}

// hangulRun returns the Hangul syllables s starts with.
func hangulRun(s string) string {
	for i, r := range s {
		if r < 0xAC00 || r > 0xD7A3 {
			return s[:i]
		}
	}
	return s
}
