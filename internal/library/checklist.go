package library

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/cases"
)

// A checklist turns what cases planned and learned into what a reader can
// check in their own systems: every action item and lesson of the library,
// near-identical ones from several cases merged into one item that names
// each case it came from. Topic pages, the prepare page, the API and the
// MCP server show the part of it that concerns some cases (Checklist.For).
//
// Two texts are near-identical when their words overlap enough in both
// languages: the words are lower-cased, stripped of English endings and
// Korean particles and endings, and common words are left out (checkWords);
// the overlap is the share of words the two texts have in common (Jaccard).
// Merging is greedy in the library's order (cases newest first, items in
// their case's order), against the first item of each merged group, so
// that the same content always merges the same way.

// Group names of a checklist beyond the action kinds: items whose case
// gives no kind, and lessons.
const (
	GroupOther   = "other"
	GroupLessons = "lessons"
)

// CheckGroups are the groups of a checklist in the order pages show them.
var CheckGroups = append(slices.Clone(cases.ActionKinds), GroupOther, GroupLessons)

// CheckItem is one line of the library's checklist: a text and the cases
// it came from.
type CheckItem struct {
	Index int             // its place in Checklist.Items
	Group string          // one of CheckGroups
	Text  cases.Bilingual // the first case's text
	From  []CheckSource   // in the library's order, one per case
}

// CheckSource is a case a checklist item came from, and how far that case
// got with it (an action status, "unknown" when not given; "" for a lesson).
type CheckSource struct {
	Case   *cases.Case
	Status string
	at     int32 // the case's number in its checklist (Checklist.caseAt)
}

// Checklist is the library's action items and lessons, merged.
type Checklist struct {
	Items []*CheckItem // in the order of their first case and item
	// caseAt numbers the cases with items (indexCases), and byCase holds
	// the items each is a source of, by that number.
	caseAt map[*cases.Case]int32
	byCase [][]*CheckItem
}

// CheckGroup is one group of a checklist for some cases.
type CheckGroup struct {
	Name  string // one of CheckGroups
	Items []CheckLine
}

// CheckLine is an item of a checklist for some cases, with only those of
// its cases.
type CheckLine struct {
	Item *CheckItem
	From []CheckSource
}

// lazyChecklist holds a library's checklist once it is made.
type lazyChecklist struct {
	once sync.Once
	cl   *Checklist
}

// Checklist returns the library's checklist, made on first use.
func (l *Library) Checklist() *Checklist {
	if l.checklist == nil {
		return NewChecklist(l.Lib.Cases)
	}
	l.checklist.once.Do(func() { l.checklist.cl = NewChecklist(l.Lib.Cases) })
	return l.checklist.cl
}

// For returns the checklist of cs: the items that came from at least one
// of them, with only those cases, by group in CheckGroups' order, the items
// most cases share first, then in the library's order. Empty groups are
// left out.
func (cl *Checklist) For(cs []*cases.Case) []CheckGroup {
	// Only the items of cs are looked at (a topic has a few of the
	// library's tens of thousands), in the checklist's order; a case is
	// looked up once, and then its sources by number: at 10,000 cases a
	// map of cs, looked up for every source of every item, was most of
	// this.
	var items []*CheckItem
	in := make([]bool, len(cl.byCase))
	if cl.caseAt == nil {
		items = cl.Items
		in = nil
	} else {
		for _, c := range cs {
			if n, ok := cl.caseAt[c]; ok && !in[n] {
				in[n] = true
				items = append(items, cl.byCase[n]...)
			}
		}
		// An item of several of cs comes once.
		slices.SortFunc(items, func(a, b *CheckItem) int { return a.Index - b.Index })
		items = slices.Compact(items)
	}
	var all map[*cases.Case]bool // cs, for a checklist without the numbers
	if in == nil {
		all = make(map[*cases.Case]bool, len(cs))
		for _, c := range cs {
			all[c] = true
		}
	}
	byGroup := map[string][]CheckLine{}
	for _, it := range items {
		n := 0
		for _, s := range it.From {
			if all != nil && all[s.Case] || all == nil && in[s.at] {
				n++
			}
		}
		if n == 0 {
			continue
		}
		// The sources all among cs (most items) are the item's own,
		// clipped so that an append copies them.
		from := slices.Clip(it.From)
		if n < len(it.From) {
			from = make([]CheckSource, 0, n)
			for _, s := range it.From {
				if all != nil && all[s.Case] || all == nil && in[s.at] {
					from = append(from, s)
				}
			}
		}
		byGroup[it.Group] = append(byGroup[it.Group], CheckLine{it, from})
	}
	var out []CheckGroup
	for _, g := range CheckGroups {
		lines := byGroup[g]
		if len(lines) == 0 {
			continue
		}
		slices.SortStableFunc(lines, func(a, b CheckLine) int { return len(b.From) - len(a.From) })
		out = append(out, CheckGroup{g, lines})
	}
	return out
}

// checkEntry is an item being merged: its words in each language.
type checkEntry struct {
	item   *CheckItem
	en, ko wordSet
}

// A wordSet is the words of a text as numbers, rarest word first (see
// NewChecklist), each once.
type wordSet []int32

// A posting is an entry whose prefix has a word, and the word's place in
// that entry's words of its language.
type posting struct {
	entry, at int32
}

// NewChecklist merges the action items and lessons of cs, in their order.
//
// Comparing each item with every earlier one is quadratic (at 1,000 cases
// it took half the build), so only candidates that can pass nearIdentical
// are compared, found by prefix filtering: with the words of each language
// in one fixed order, rarest first, two sets whose overlap is at least t
// share a word among the first |s| - ceil(t·|s|) + 1 words of each. Every
// pair that merges has an English overlap of at least mergeEn, or, when
// one of them has no English, a Korean overlap of at least mergeAlone
// (which is above mergeKo); so an index of each item's English prefix for
// mergeEn and of its Korean prefix for mergeKo finds every pair that can
// merge (a pair with both languages on both sides must be found by both),
// and the merge itself is decided as before.
//
// The first word two sets share is the first of each prefix that finds the
// pair, so the words after it in each set bound their overlap (positional
// filtering): at 10,000 generated cases most candidates the prefixes find
// fail that bound, and are left without reading their entry.
func NewChecklist(cs []*cases.Case) *Checklist {
	items, rank := pendingItems(cs)
	set := func(words []int32, rank []int32) wordSet {
		s := make(wordSet, len(words))
		for i, w := range words {
			s[i] = rank[w]
		}
		slices.Sort(s)
		return s
	}
	cl := &Checklist{}
	m := &merger{index: make([][]posting, len(rank.en)+len(rank.ko))}
	groupOf := groupNumbers{GroupOther: groupOther, GroupLessons: groupLessons}.of
	for n, p := range items {
		c := candidate{en: set(p.en, rank.en), ko: set(p.ko, rank.ko), group: groupOf(p.group), mark: int32(n + 1)}
		c.enPrefix, c.koPrefix = c.en.prefix(mergeEn), c.ko.prefix(mergeKo)
		if best := m.best(c); best >= 0 {
			m.entries[best].item.absorb(p)
			m.meta[best].group = groupOf(m.entries[best].item.Group)
			continue
		}
		it := &CheckItem{Index: len(cl.Items), Group: p.group, Text: p.text, From: []CheckSource{{Case: p.c, Status: p.status}}}
		cl.Items = append(cl.Items, it)
		m.add(it, c)
	}
	cl.indexCases()
	return cl
}

// merger holds the entries of a checklist being merged, and the index of
// their prefixes.
type merger struct {
	entries []*checkEntry
	index   [][]posting // a word of an entry's prefix → entries whose prefix has it
	// Per entry, what every candidate reads, apart from the entry: one
	// slot for the cache rather than several behind pointers.
	meta []entryMeta
}

// candidate is an item looking for its entry: its words, their prefixes,
// its group, and its mark (its place in the items, plus one).
type candidate struct {
	en, ko             wordSet
	enPrefix, koPrefix wordSet
	group              checkGroup
	mark               int32
}

// best returns the entry c merges into (the highest overlap, the first of
// equal ones), or -1.
func (m *merger) best(c candidate) int {
	best, bestScore := -1, 0.0
	try := func(i int32) {
		m.meta[i].tried = c.mark
		if !c.group.mergeable(m.meta[i].group) {
			return
		}
		e := m.entries[i]
		if s, ok := nearIdentical(e.en, e.ko, c.en, c.ko); ok && (s > bestScore || s == bestScore && int(i) < best) {
			best, bestScore = int(i), s
		}
	}
	for at, w := range c.koPrefix {
		for _, q := range m.index[w] {
			if e := &m.meta[q.entry]; possible(len(c.ko), at, e.koLen, q.at, mergeKo) {
				e.koFound = c.mark
			}
		}
	}
	// A pair with both languages on both sides needs both overlaps, so
	// both prefixes must find it; a pair that shares English only, its
	// English overlap.
	for at, w := range c.enPrefix {
		for _, q := range m.index[w] {
			e := &m.meta[q.entry]
			if e.tried == c.mark || len(c.ko) > 0 && e.koLen > 0 && e.koFound != c.mark {
				continue
			}
			if !possible(len(c.en), at, e.enLen, q.at, mergeEn) {
				// Found here first, so ruled out for good.
				e.tried = c.mark
				continue
			}
			try(q.entry)
		}
	}
	// A pair that shares Korean only needs its Korean overlap.
	for at, w := range c.koPrefix {
		for _, q := range m.index[w] {
			e := &m.meta[q.entry]
			if e.tried == c.mark || len(c.en) > 0 && e.enLen > 0 {
				continue
			}
			if !possible(len(c.ko), at, e.koLen, q.at, mergeKo) {
				e.tried = c.mark
				continue
			}
			try(q.entry)
		}
	}
	return best
}

// add makes c the entry of item it, and indexes its prefixes.
func (m *merger) add(it *CheckItem, c candidate) {
	e := int32(len(m.entries))
	m.entries = append(m.entries, &checkEntry{it, c.en, c.ko})
	m.meta = append(m.meta, entryMeta{enLen: int32(len(c.en)), koLen: int32(len(c.ko)), group: c.group})
	for at, w := range c.enPrefix {
		m.index[w] = append(m.index[w], posting{e, int32(at)})
	}
	for at, w := range c.koPrefix {
		m.index[w] = append(m.index[w], posting{e, int32(at)})
	}
}

// entryMeta is what the merge reads of an entry for every candidate: the
// last item (plus one) whose Korean prefix found it, and the last that
// compared it or ruled it out; its number of words in each language; its
// group.
type entryMeta struct {
	koFound, tried int32
	enLen, koLen   int32
	group          checkGroup
}

// possible reports whether two sets of a and b words, whose first common
// word is the one at i of the first and at j of the second, can have an
// overlap of t: that word and those after it in the smaller rest are the
// most they can share.
func possible(a, i int, b, j int32, t float64) bool {
	// As overlapAtLeast's needFor: the overlap grows with the words in
	// common, so the most that can be in common decides.
	most := 1 + min(a-i-1, int(b-j-1))
	return float64(most)/float64(a+int(b)-most) >= t
}

// A checkGroup is a group as a number, for the merge's inner loop: other,
// lessons, or an action kind (numbered as NewChecklist meets them).
type checkGroup uint32

const (
	groupOther checkGroup = iota
	groupLessons
)

// groupNumbers numbers groups: other and lessons as the constants say,
// any other name in the order they come.
type groupNumbers map[string]checkGroup

func (g groupNumbers) of(name string) checkGroup {
	if n, ok := g[name]; ok {
		return n
	}
	n := checkGroup(len(g))
	g[name] = n
	return n
}

// mergeable is the package's mergeable on numbered groups.
func (a checkGroup) mergeable(b checkGroup) bool {
	if a == groupLessons || b == groupLessons {
		return a == b
	}
	return a == b || a == groupOther || b == groupOther
}

// absorb merges p into the item: its case becomes one more source, and
// the first case that says the kind of an item without one names it.
func (it *CheckItem) absorb(p pendingItem) {
	if it.Group == GroupOther && p.group != GroupOther && p.group != GroupLessons {
		it.Group = p.group
	}
	if !slices.ContainsFunc(it.From, func(s CheckSource) bool { return s.Case == p.c }) {
		it.From = append(it.From, CheckSource{Case: p.c, Status: p.status})
	}
}

// indexCases numbers the cases the items came from, sets each source's
// number, and lists, for each case, the items it is a source of.
func (cl *Checklist) indexCases() {
	cl.caseAt = map[*cases.Case]int32{}
	for _, it := range cl.Items {
		for i, s := range it.From {
			n, ok := cl.caseAt[s.Case]
			if !ok {
				n = int32(len(cl.byCase))
				cl.caseAt[s.Case] = n
				cl.byCase = append(cl.byCase, nil)
			}
			it.From[i].at = n
			cl.byCase[n] = append(cl.byCase[n], it)
		}
	}
}

// pendingItem is an action item or lessons of a case on its way into a
// checklist, with the words of each language.
type pendingItem struct {
	c             *cases.Case
	group, status string
	text          cases.Bilingual
	en, ko        []int32 // its words' numbers in checkVocab, each once
}

// checkVocab numbers the words of the items as they come, each language
// apart, and counts the items that have each.
type checkVocab struct {
	ids map[string]int32
	df  []int
}

// add returns the numbers of the words of text, each once.
func (v *checkVocab) add(text string) []int32 {
	var out []int32
	eachCheckWord(text, func(w string) {
		id, ok := v.ids[w]
		if !ok {
			id = int32(len(v.df))
			v.ids[w] = id
			v.df = append(v.df, 0)
		}
		out = append(out, id)
	})
	slices.Sort(out)
	out = slices.Compact(out)
	for _, id := range out {
		v.df[id]++
	}
	return out
}

// pendingItems returns the action items and lessons of cs in order, and
// the ranks of their words: English and Korean words' numbers, rarest
// first, then by the word, the Korean after the English.
func pendingItems(cs []*cases.Case) ([]pendingItem, wordRanks) {
	var items []pendingItem
	en, ko := &checkVocab{ids: map[string]int32{}}, &checkVocab{ids: map[string]int32{}}
	for _, c := range cs {
		each := func(group, status string, text cases.Bilingual) {
			items = append(items, pendingItem{c, group, status, text, en.add(text.En), ko.add(text.Ko)})
		}
		for _, a := range c.ActionItems {
			g, st := a.Kind, a.Status
			if g == "" {
				g = GroupOther
			}
			if st == "" {
				st = "unknown"
			}
			each(g, st, a.Text)
		}
		if c.Lessons != nil && !c.Lessons.IsZero() {
			each(GroupLessons, "", *c.Lessons)
		}
	}
	enRank := rankWords(en, 0)
	return items, wordRanks{enRank, rankWords(ko, int32(len(enRank)))}
}

// wordRanks are the ranks of the words of each language by their numbers
// in its checkVocab.
type wordRanks struct {
	en, ko []int32
}

// rankWords ranks the words of v rarest first, then by the word, from
// first on.
func rankWords(v *checkVocab, first int32) []int32 {
	words := make([]string, len(v.df))
	for w, id := range v.ids {
		words[id] = w
	}
	order := make([]int32, len(words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if d := v.df[a] - v.df[b]; d != 0 {
			return d
		}
		return strings.Compare(words[a], words[b])
	})
	rank := make([]int32, len(order))
	for i, id := range order {
		rank[id] = first + int32(i)
	}
	return rank
}

// prefix returns the first words of s that any set with an overlap of at
// least t with it must share: |s| - ceil(t·|s|) + 1 of them.
func (s wordSet) prefix(t float64) wordSet {
	if len(s) == 0 {
		return nil
	}
	// A hair below t·|s|, so that rounding can only make the prefix longer.
	need := int(math.Ceil(t*float64(len(s)) - 1e-9))
	return s[:len(s)-need+1]
}

// mergeable reports whether items of two groups may merge: lessons only
// with lessons, an action item with one of the same kind or of none.
func mergeable(a, b string) bool {
	if a == GroupLessons || b == GroupLessons {
		return a == b
	}
	return a == b || a == GroupOther || b == GroupOther
}

// Thresholds of nearIdentical: the overlap each language needs, and the
// one a text needs when only one language can be compared.
const (
	mergeEn    = 0.6
	mergeKo    = 0.45
	mergeAlone = 0.7
)

// nearIdentical reports whether two texts say the same, with their
// overlap: in both languages where both texts have both, else in the one
// they share.
func nearIdentical(aEn, aKo, bEn, bKo wordSet) (float64, bool) {
	bothEn := len(aEn) > 0 && len(bEn) > 0
	bothKo := len(aKo) > 0 && len(bKo) > 0
	switch {
	case bothEn && bothKo:
		// Sizes alone can rule a pair out (an overlap is at most the
		// smaller set over the larger); the score of a pair that does not
		// merge is never used.
		if !within(aEn, bEn, mergeEn) || !within(aKo, bKo, mergeKo) {
			return 0, false
		}
		en, ok := aEn.overlapAtLeast(bEn, mergeEn)
		if !ok {
			return 0, false
		}
		ko, ok := aKo.overlapAtLeast(bKo, mergeKo)
		return en + ko, ok
	case bothEn:
		if !within(aEn, bEn, mergeAlone) {
			return 0, false
		}
		return aEn.overlapAtLeast(bEn, mergeAlone)
	case bothKo:
		if !within(aKo, bKo, mergeAlone) {
			return 0, false
		}
		return aKo.overlapAtLeast(bKo, mergeAlone)
	}
	return 0, false
}

// within reports whether two sets' sizes allow an overlap of t: the
// smaller at least t times the larger (with the same rounding as overlap).
func within(a, b wordSet, t float64) bool {
	lo, hi := min(len(a), len(b)), max(len(a), len(b))
	return float64(lo)/float64(hi) >= t
}

// overlap is the share of their words two sets have in common (Jaccard).
func (s wordSet) overlap(o wordSet) float64 {
	common := 0
	for i, j := 0, 0; i < len(s) && j < len(o); {
		switch {
		case s[i] < o[j]:
			i++
		case s[i] > o[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	union := len(s) + len(o) - common
	if union == 0 {
		return 0
	}
	return float64(common) / float64(union)
}

// checkWords returns the words of a text that say what it is about.
func checkWords(s string) map[string]bool {
	out := map[string]bool{}
	eachCheckWord(s, func(w string) { out[w] = true })
	return out
}

// eachCheckWord calls f with each word of s that says what it is about,
// as often as s has it: the letters and digits of s, lower-cased, Korean
// words without their particle or ending, English ones without their
// ending, common English words left out.
func eachCheckWord(s string, f func(string)) {
	word := func(w string) {
		if isHangulWord(w) {
			w = trimKorean(w)
		} else {
			if commonWords[w] {
				return
			}
			w = trimEnglish(w)
		}
		if w != "" {
			f(w)
		}
	}
	piece := func(p string) {
		ascii, upper := true, false
		for i := 0; i < len(p); i++ {
			ascii = ascii && p[i] < utf8.RuneSelf
			upper = upper || 'A' <= p[i] && p[i] <= 'Z'
		}
		switch {
		case ascii && !upper:
			word(p)
		case ascii:
			word(strings.ToLower(p))
		default:
			// Lower-casing can make a letter two runes of which one is no
			// letter: the lower-cased piece is split again. A piece that
			// lower-casing leaves as it is (all Korean) is one word as it
			// is; strings.ToLower then returns it without a copy, which
			// the comparison finds equal at once.
			lower := strings.ToLower(p)
			if lower == p {
				word(p)
				return
			}
			for _, w := range strings.FieldsFunc(lower, notWordRune) {
				word(w)
			}
		}
	}
	start := -1
	for i, r := range s {
		switch {
		case !notWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			piece(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		piece(s[start:])
	}
}

// notWordRune reports whether r separates words.
func notWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}
	if isSyllable(r) {
		return false // most of the Korean text: no table to search
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// isSyllable reports whether r is a precomposed Hangul syllable (가 to 힣),
// a letter of unicode.Hangul.
func isSyllable(r rune) bool { return 0xAC00 <= r && r <= 0xD7A3 }

func isHangulWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isSyllable(r) || unicode.Is(unicode.Hangul, r)
}

// trimEnglish strips the common endings of an English word, so that
// "alerts", "alerting" and "alerted" are one word.
func trimEnglish(w string) string {
	for _, end := range []string{"ing", "ed", "es", "s"} {
		if strings.HasSuffix(w, end) && len(w)-len(end) >= 4 {
			return strings.TrimSuffix(w, end)
		}
	}
	return w
}

// koreanEndings are particles and verb endings written after a Korean
// word, longest first.
var koreanEndings = []string{
	"하도록", "되도록", "으로", "에서", "에게", "까지", "부터", "한다", "된다", "하고", "하는", "도록", "했다", "됐다",
	"은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "다",
}

// koreanEndingsByLength holds koreanEndings by their length in bytes
// (three a syllable), as trimKorean looks them up.
var koreanEndingsByLength = func() map[int]map[string]bool {
	by := map[int]map[string]bool{}
	for _, end := range koreanEndings {
		if by[len(end)] == nil {
			by[len(end)] = map[string]bool{}
		}
		by[len(end)][end] = true
	}
	return by
}()

// koreanEndingLengths are the lengths of koreanEndingsByLength, longest
// first, as koreanEndings lists them.
var koreanEndingLengths = func() []int {
	var out []int
	for _, end := range koreanEndings {
		if !slices.Contains(out, len(end)) {
			out = append(out, len(end))
		}
	}
	return out
}()

// trimKorean strips one particle or ending from a Korean word, keeping at
// least one syllable; a word of one syllable is left out. It strips the
// first of koreanEndings that ends the word, as a loop over them would, by
// looking up the word's last bytes for each length of ending: the list is
// longest first, and two endings of one length cannot both end a word.
func trimKorean(w string) string {
	for _, n := range koreanEndingLengths {
		if len(w) > n && koreanEndingsByLength[n][w[len(w)-n:]] {
			w = w[:len(w)-n]
			break
		}
	}
	if utf8.RuneCountInString(w) < 2 {
		return ""
	}
	return w
}

// commonWords are English words that say nothing of what an item is about.
var commonWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true, "on": true,
	"for": true, "with": true, "by": true, "at": true, "from": true, "as": true, "is": true, "are": true, "be": true,
	"so": true, "that": true, "this": true, "it": true, "its": true, "their": true, "they": true, "we": true, "our": true,
	"more": true, "all": true, "any": true, "into": true, "before": true, "after": true, "when": true, "not": true,
}
