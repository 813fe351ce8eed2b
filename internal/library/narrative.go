package library

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/cases"
)

// Narrative words: what related cases weigh besides the controlled terms.
//
// A case's story (title, summary, trigger and remediation, in both
// languages) is read with the search index's tokenizer, so that "cordoned"
// and "cordon", "파드가" and "파드를" meet. Its words and pairs of adjacent
// words become keys ("en:cordon", "en:ingress controller", "ko:노드 풀"),
// and each case keeps the wordsPerLang keys of each language that the
// fewest other cases share, among those at least one other case has: the
// words that make its story its own. internal/related weighs them by rarity
// like terms, and names the shared ones in a link's reason.
//
// Left out: stop words, words with digits (times, dates and versions say
// when, not how), one-letter and one-syllable words, and the words of the
// case's own organisation, which would link a company's cases to each other
// for its name alone.

// wordsPerLang is how many narrative keys per language a case brings.
const wordsPerLang = 12

// narrative is every case's narrative keys, aligned with the library's
// cases, and the words to show for each key.
type narrative struct {
	words [][]string
	forms map[string]string
}

// A keyForm is one narrative key of a case and the form its text first
// writes it in ("en:cordon", "cordoned"), as numbers of a strTable: at
// 10,000 cases there are two million of them but only some 90,000 distinct
// keys, so a case holds its keys as numbers rather than as a map of strings
// (which made this the peak of the build's memory).
//
// The form of a pair of words is written out only for the keys a case
// picks (a few thousand of some 70,000 pairs): until then it is pairForm
// and the number of the pair in its reader's pairForms.
type keyForm struct{ key, form uint32 }

// pairForm marks the form of a keyForm that is a pair's.
const pairForm = 1 << 31

// strTable numbers strings, each once.
type strTable struct {
	ids  map[string]uint32
	strs []string
}

func newStrTable() *strTable { return &strTable{ids: map[string]uint32{}} }

// idString returns the number of s.
func (t *strTable) idString(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.strs))
	t.ids[s] = id
	t.strs = append(t.strs, s)
	return id
}

// form returns the string of the form f of a keyForm, with pairForms the
// forms of the pairs it numbers (see keyForm).
func (t *strTable) form(f uint32, pairForms [][2]uint32) string {
	if f&pairForm == 0 {
		return t.strs[f]
	}
	pf := pairForms[f&^pairForm]
	return t.strs[pf[0]] + " " + t.strs[pf[1]]
}

// id returns the number of the string b holds, copying b only the first
// time it is seen.
func (t *strTable) id(b []byte) uint32 {
	if id, ok := t.ids[string(b)]; ok {
		return id
	}
	s := string(b)
	id := uint32(len(t.strs))
	t.ids[s] = id
	t.strs = append(t.strs, s)
	return id
}

// EachWordFunc reads a text into words as the search index does: it calls
// each with every word's term (empty for a stop word), the word as written
// (lower-cased), both in UTF-8 and valid only until each returns, and
// whether it is written in Hangul. tokenize.EachWord, the search index's
// reading, is the one New uses; tests pass others.
type EachWordFunc func(text string, each func(term, raw []byte, hangul bool))

func deriveNarrative(lib *cases.Library, words EachWordFunc) narrative {
	n := len(lib.Cases)
	workers := max(1, min(runtime.GOMAXPROCS(0), n/64))
	all, tables, readers := readStories(lib, words, workers)
	tab, pairForms := mergeTables(all, tables, readers, workers)
	weight, lang := weighKeys(all, tab, n)
	pickKeys(all, tab, weight, lang, workers)
	return namedKeys(all, tab, pairForms)
}

// readStories reads every case's story on workers goroutines, case i on
// worker i%workers, into its keys numbered by that worker's table.
func readStories(lib *cases.Library, words EachWordFunc, workers int) ([][]keyForm, []*strTable, []*storyReader) {
	n := len(lib.Cases)
	all := make([][]keyForm, n)
	var wg sync.WaitGroup
	tables := make([]*strTable, workers)
	readers := make([]*storyReader, workers)
	for w := range workers {
		// The maps start at about the size they reach on generated cases
		// (per case: 20 strings, 4 words, 4 pieces per language and 7
		// pairs), so that they seldom grow: growing them was 5 to 8% of
		// the reading at 10,000 cases.
		per := n / workers
		tables[w] = &strTable{ids: make(map[string]uint32, 16*per)}
		wg.Go(func() {
			r := newStoryReader(tables[w], words)
			readers[w] = r
			r.known = make(map[string]int32, 4*per)
			r.pieces = [2]map[string]span{make(map[string]span, 4*per), make(map[string]span, 4*per)}
			r.pairs = make(map[uint64]keyForm, 6*per)
			for i := w; i < n; i += workers {
				all[i] = r.keys(lib.Cases[i])
			}
		})
	}
	wg.Wait()
	return all, tables, readers
}

// mergeTables gives all keys one numbering, the first worker's: each other
// worker's numbers are mapped to it, and its pairs' forms put after the
// first's. It returns the table and the pairs' forms.
func mergeTables(all [][]keyForm, tables []*strTable, readers []*storyReader, workers int) (*strTable, [][2]uint32) {
	n := len(all)
	tab, pairForms := tables[0], readers[0].pairForms
	for w, t := range tables[1:] {
		w++
		to := make([]uint32, len(t.strs))
		for i, s := range t.strs {
			to[i] = tab.idString(s)
		}
		base := uint32(len(pairForms))
		for _, pf := range readers[w].pairForms {
			pairForms = append(pairForms, [2]uint32{to[pf[0]], to[pf[1]]})
		}
		for i := w; i < n; i += workers {
			for k := range all[i] {
				kf := &all[i][k]
				kf.key = to[kf.key]
				if kf.form&pairForm != 0 {
					kf.form += base
				} else {
					kf.form = to[kf.form]
				}
			}
		}
	}
	return tab, pairForms
}

// weighKeys works out each key's weight and language once per key rather
// than once per case that has it: a language of -1 leaves the key out.
func weighKeys(all [][]keyForm, tab *strTable, n int) ([]float64, []int8) {
	df := make([]int32, len(tab.strs))
	for _, kfs := range all {
		for _, kf := range kfs {
			df[kf.key]++
		}
	}
	maxDF := max(3, n/8)
	weight := make([]float64, len(tab.strs))
	lang := make([]int8, len(tab.strs))
	for k, s := range tab.strs {
		lang[k] = -1
		d := int(df[k])
		if d < 2 || d > maxDF {
			continue
		}
		for l, name := range cases.Languages {
			if len(s) > len(name) && s[len(name)] == ':' && s[:len(name)] == name {
				lang[k] = int8(l)
			}
		}
		if lang[k] < 0 {
			continue
		}
		w := math.Log(float64(n) / float64(d))
		if strings.Contains(s, " ") {
			w *= 1.5 // a phrase says more than either of its words
		}
		weight[k] = w
	}
	return weight, lang
}

// pickKeys keeps each case's best keys of each language, picked on every
// worker; all[i] is reused for them.
func pickKeys(all [][]keyForm, tab *strTable, weight []float64, lang []int8, workers int) {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var pick []scoredKey
			for i := w; i < len(all); i += workers {
				kfs := all[i]
				var best []keyForm
				for l := range cases.Languages {
					pick = pick[:0]
					for _, kf := range kfs {
						if int(lang[kf.key]) != l {
							continue
						}
						pick = topKeys(pick, scoredKey{tab.strs[kf.key], weight[kf.key], kf}, wordsPerLang)
					}
					for _, p := range pick {
						best = append(best, p.kf)
					}
				}
				all[i] = best
			}
		})
	}
	wg.Wait()
}

// namedKeys writes out each case's picked keys; a key's words to show are
// those of the first case that picked it.
func namedKeys(all [][]keyForm, tab *strTable, pairForms [][2]uint32) narrative {
	out := narrative{words: make([][]string, len(all)), forms: map[string]string{}}
	const none = math.MaxUint32
	formOf := make([]uint32, len(tab.strs))
	for k := range formOf {
		formOf[k] = none
	}
	for i, best := range all {
		var keys []string
		if len(best) > 0 {
			keys = make([]string, len(best))
		}
		for j, kf := range best {
			keys[j] = tab.strs[kf.key]
			if formOf[kf.key] == none {
				formOf[kf.key] = kf.form
				out.forms[keys[j]] = tab.form(kf.form, pairForms)
			}
		}
		out.words[i] = keys
	}
	return out
}

// A scoredKey is a narrative key of a case with its weight and form.
type scoredKey struct {
	key string
	w   float64
	kf  keyForm
}

// topKeys adds k to the list of a case's best keys, heaviest first and
// in the order of their keys at equal weight, which it keeps at most n
// long: a case has hundreds of keys and keeps a dozen, so that sorting
// them all was most of the time spent picking.
func topKeys(top []scoredKey, k scoredKey, n int) []scoredKey {
	// Weights are never NaN: this is cmp.Compare's order.
	before := func(a, b scoredKey) bool {
		return a.w > b.w || a.w == b.w && a.key < b.key
	}
	if len(top) == n && !before(k, top[n-1]) {
		return top
	}
	i := len(top)
	for i > 0 && before(k, top[i-1]) {
		i--
	}
	if len(top) < n {
		top = append(top, scoredKey{})
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = k
	return top
}

// storyReader reads the narrative keys of cases, one goroutine's worth:
// its table numbers the keys and forms it meets, and it remembers what it
// found out about each piece of text between two spaces, so that a piece
// met again costs one look-up and no tokenizing. The buffers are reused
// from case to case.
type storyReader struct {
	words EachWordFunc
	tab   *strTable
	// pieces holds, per language, what each piece of a clause read so far
	// between two spaces is: its words, a span of words, each a number in
	// info or -1 for a word that is no story word and breaks a phrase. The
	// tokenizer reads a piece alone as it reads it within its clause (no
	// character joins or normalizes across an ASCII space:
	// TestEachWordBySpaces), and most pieces are met many times.
	pieces [2]map[string]span
	words1 []int32
	// known numbers the words read so far, by language, term and form as
	// written ("en:cordon\x00cordoned", and a further 0 for Hangul), into
	// info: two pieces may hold one word ("Cordoned" and "cordoned").
	known map[string]int32
	info  []storyWord
	// pairs holds the key and form of each pair of adjacent story words
	// met so far, by the words' numbers in info (a word's number says its
	// key and its form): a pair's key is made and looked up the first
	// time only. The table holds those strings anyway, and the pieces and
	// pairs cost about what the per-word look-up keys saved: a reader of
	// 5,000 of the 10,000 generated cases holds 1 MB more than before them.
	pairs map[uint64]keyForm
	// pairForms holds the forms of the words of each pair that pairs
	// holds, in the order they were met (see keyForm).
	pairForms [][2]uint32
	// seen holds, per key number, the number of the last case read that
	// has the key (counting from 1 in gen), so that starting a case
	// clears nothing.
	seen []uint32
	gen  uint32
	own  []string
	buf  []byte
	key  []byte
	out  []keyForm
	prev int32 // the number in info of the previous story word of the clause, or -1
	lang string
	li   int // the index of lang in cases.Languages
}

// A span is where a piece's words are in storyReader.words1.
type span struct{ start, end uint32 }

// A storyWord is a word as a reader knows it: its term and its key and
// form, and whether it is one of the words of the case read last's
// organisation (own, valid when ownGen is that case's gen).
type storyWord struct {
	term   string
	kf     keyForm
	ownGen uint32
	own    bool
}

func newStoryReader(tab *strTable, words EachWordFunc) *storyReader {
	return &storyReader{words: words, tab: tab, known: map[string]int32{},
		pieces: [2]map[string]span{{}, {}},
		pairs:  map[uint64]keyForm{}}
}

// keys reads the narrative keys of one case, each once, with the form its
// text first writes, in the order the text first has them.
func (r *storyReader) keys(c *cases.Case) []keyForm {
	r.out = r.out[:0]
	r.gen++
	r.own = r.own[:0]
	r.words(c.Org+" "+strings.ReplaceAll(c.OrgSlug, "-", " ")+" "+c.OrgKo, func(term, _ []byte, _ bool) {
		if !slices.Contains(r.own, string(term)) {
			r.own = append(r.own, string(term))
		}
	})
	for li, lang := range cases.Languages {
		r.lang, r.li = lang, li
		r.text(c.Title.Get(lang))
		r.text(c.Summary.Get(lang))
		r.text(c.Trigger.Get(lang))
		for _, t := range c.Remediation {
			r.text(t.Get(lang))
		}
	}
	// A copy of the reader's buffer holds them without room to spare: the
	// keys of every case are kept until all are read.
	return slices.Clone(r.out)
}

// text reads one text, clause by clause: a phrase never spans a clause
// break.
func (r *storyReader) text(t string) {
	if strings.Contains(t, "'s ") || strings.Contains(t, "’s ") {
		t = possessive.Replace(t)
	}
	for len(t) > 0 {
		end, size := clauseBreak(t)
		if end > 0 {
			r.prev = -1
			r.clause(t[:end])
		}
		t = t[min(len(t), end+size):]
	}
}

// clause reads one clause, piece by piece.
func (r *storyReader) clause(t string) {
	for len(t) > 0 {
		p := t
		if i := strings.IndexByte(t, ' '); i >= 0 {
			p, t = t[:i], t[i+1:]
		} else {
			t = ""
		}
		if p == "" {
			continue
		}
		sp, ok := r.pieces[r.li][p]
		if !ok {
			sp = r.learnPiece(p)
		}
		for _, n := range r.words1[sp.start:sp.end] {
			r.word(n)
		}
	}
}

// learnPiece reads a piece that the reader has not met in this language.
func (r *storyReader) learnPiece(p string) span {
	start := uint32(len(r.words1))
	r.words(p, func(term, raw []byte, hangul bool) {
		r.words1 = append(r.words1, r.storyWord(term, raw, hangul))
	})
	sp := span{start, uint32(len(r.words1))}
	r.pieces[r.li][strings.Clone(p)] = sp
	return sp
}

// storyWord returns the number in info of a word as the tokenizer gives
// it, or -1 when it is no story word.
func (r *storyReader) storyWord(term, raw []byte, hangul bool) int32 {
	// Words with digits, most of the words met once (versions, hosts,
	// times), are left out before they cost a look-up.
	if len(term) == 0 || hasDigit(term) || !storyTerm(term, raw, hangul) {
		return -1
	}
	r.buf = append(append(append(append(append(r.buf[:0], r.lang...), ':'), term...), 0), raw...)
	if hangul {
		r.buf = append(r.buf, 0)
	}
	if n, ok := r.known[string(r.buf)]; ok {
		return n
	}
	form := raw
	if hangul {
		form = term // the word without its particle
	}
	n := int32(len(r.info))
	r.known[string(r.buf)] = n
	key := r.tab.id(append(append(append(r.key[:0], r.lang...), ':'), term...))
	r.info = append(r.info, storyWord{
		term: r.tab.strs[key][len(r.lang)+1:],
		kf:   keyForm{key, r.tab.id(form)},
	})
	return n
}

// word takes one word of a clause, a number in info or -1: a story word
// is a key, and so is the pair it makes with the story word before it.
func (r *storyReader) word(n int32) {
	if n < 0 {
		r.prev = -1
		return
	}
	w := &r.info[n]
	if w.ownGen != r.gen {
		w.ownGen, w.own = r.gen, ownWord(w.term, r.own)
	}
	if w.own {
		r.prev = -1
		return
	}
	r.add(w.kf)
	if r.prev >= 0 {
		r.addPair(r.prev, n)
	}
	r.prev = n
}

// addPair records the key of story word b after story word a, numbers in
// info, with its form, unless the case has the key already.
func (r *storyReader) addPair(a, b int32) {
	ab := uint64(a)<<32 | uint64(b)
	kf, ok := r.pairs[ab]
	if !ok {
		wa, wb := &r.info[a], &r.info[b]
		r.buf = append(append(append(r.buf[:0], r.tab.strs[wa.kf.key]...), ' '), wb.term...)
		kf.key = r.tab.id(r.buf)
		kf.form = pairForm | uint32(len(r.pairForms))
		r.pairForms = append(r.pairForms, [2]uint32{wa.kf.form, wb.kf.form})
		r.pairs[ab] = kf
	}
	r.add(kf)
}

// seenKey says whether the case has key already, and marks it seen.
func (r *storyReader) seenKey(key uint32) bool {
	if int(key) >= len(r.seen) {
		r.seen = append(r.seen, make([]uint32, len(r.tab.strs)-len(r.seen))...)
	}
	if r.seen[key] == r.gen {
		return true
	}
	r.seen[key] = r.gen
	return false
}

// add records a key with its form, unless the case has the key already.
func (r *storyReader) add(kf keyForm) {
	if !r.seenKey(kf.key) {
		r.out = append(r.out, kf)
	}
}

// possessive drops the English possessive, which the tokenizer would join
// to its word ("Platform's live" would read "platforms live").
var possessive = strings.NewReplacer("'s ", " ", "’s ", " ")

// clauseBreak returns where in t the first character that ends a run of
// words that may form a phrase is, and its size in bytes; or len(t) and 0.
// They are ASCII but for the curly double quotes.
func clauseBreak(t string) (int, int) {
	for i := 0; i < len(t); i++ {
		switch b := t[i]; {
		case b < utf8.RuneSelf:
			if clauseBreaks[b] {
				return i, 1
			}
		case b == 0xE2 && i+2 < len(t) && t[i+1] == 0x80 && (t[i+2] == 0x9C || t[i+2] == 0x9D):
			return i, 3 // “ or ”
		}
	}
	return len(t), 0
}

var clauseBreaks = func() (t [utf8.RuneSelf]bool) {
	for _, b := range []byte(".,;:()[]!?\"\n") {
		t[b] = true
	}
	return t
}()

// storyTerm says whether a word may be a narrative key, unless it is one
// of the case's organisation: its term, without digits, the word as
// written and whether it is Hangul.
func storyTerm(term, raw []byte, hangul bool) bool {
	if hangul {
		return utf8.RuneCount(term) >= 2 && !koreanStop[string(term)] && !koreanPredicate(term)
	}
	return utf8.RuneCount(term) >= 3 && !narrativeStop[string(raw)]
}

// ownWord says whether a term is one of the words of the case's own
// organisation.
func ownWord(term string, own []string) bool {
	for _, o := range own {
		// "DFDS's" is read as "dfdss": the organisation's word starts it.
		if strings.HasPrefix(term, o) && (len(term) == len(o) || utf8.RuneCountInString(o) >= 3) {
			return true
		}
	}
	return false
}

// hasDigit says whether a word holds a decimal digit of any script.
func hasDigit(w []byte) bool {
	for i := 0; i < len(w); {
		if w[i] < utf8.RuneSelf {
			if '0' <= w[i] && w[i] <= '9' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(w[i:])
		if (r < 0xAC00 || r > 0xD7A3) && unicode.IsDigit(r) { // Hangul syllables, most of these, are letters
			return true
		}
		i += size
	}
	return false
}

// narrativeStop are English words common in any story, beyond the search
// index's stop words: they would only add noise to what two stories share.
var narrativeStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about after again all also any because before being both
		can cannot could did does done down during each even every few first got how however
		its just last later less more most much new next not now off once one only other our out
		over same should since some still such than then there these they those through too two
		under until upon very was what when where while who why will would yet you your
		team service services cluster clusters case which were been this that with from into
		already early soon back again twice half three four five six seven eight nine ten
		went showed made make took came lead led set put ran saw kept gave give get
		started start ended end began stopped happened caused called used using became
		report reported reports noticed found said wrote write written says like well
		root cause postmortem post blog date gives performed moment step together third confirmed here
		anything something nothing though become becomes event level near nowhere access attempt complete
		normal return returned returning levels peak peaked usual
		summary title binder message messages resumed`) {
		narrativeStop[w] = true
	}
	for _, w := range strings.Fields(`다시 모두 계속 이미 동안 마침 함께 모든 전체 일부 가장 아무도 하나 두 세 것
		그리고 그러나 하지만 그래서 이후 이전 당시 처음 결국 결과 경우 정도 때문 뒤에 대신 다른 같은
		여러 이번 그날 다음 바로 모두가 사이 보고서 팀원 팀은 사례 장애 문제 서비스 클러스터
		포스트모템 날짜 밝히지 시각 절차 원인 근본 시작할 끝날 보여 걸린 뜨지 됐지 멈춘 아무것 번째
		평소 수준 늘리 최대 가장 요약 제목 알아채지 지우자`) {
		koreanStop[w] = true
	}
}

// koreanStop are Korean words common in any story.
var koreanStop = map[string]bool{}

// koreanPredicate says whether a Korean word, its particle stripped, is a
// verb or adverb form rather than a noun: stories share "멈췄다" and
// "완전히" by chance, while the nouns name the mechanism.
func koreanPredicate(term []byte) bool {
	for _, end := range predicateEndings {
		if len(term) >= len(end) && string(term[len(term)-len(end):]) == end {
			return true
		}
	}
	return false
}

var predicateEndings = []string{"다", "고", "며", "게", "히", "면", "서", "했", "됐", "였", "지만", "려"}
