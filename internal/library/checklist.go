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
}

// Checklist is the library's action items and lessons, merged.
type Checklist struct {
	Items  []*CheckItem // in the order of their first case and item
	byCase map[*cases.Case][]*CheckItem
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
	in := make(map[*cases.Case]bool, len(cs))
	for _, c := range cs {
		in[c] = true
	}
	// Only the items of cs are looked at (a topic has a few of the
	// library's tens of thousands), in the checklist's order.
	var items []*CheckItem
	if cl.byCase == nil {
		items = cl.Items
	} else {
		seen := map[*CheckItem]bool{}
		for _, c := range cs {
			for _, it := range cl.byCase[c] {
				if !seen[it] {
					seen[it] = true
					items = append(items, it)
				}
			}
		}
		slices.SortFunc(items, func(a, b *CheckItem) int { return a.Index - b.Index })
	}
	byGroup := map[string][]CheckLine{}
	for _, it := range items {
		var from []CheckSource
		for _, s := range it.From {
			if in[s.Case] {
				from = append(from, s)
			}
		}
		if len(from) > 0 {
			byGroup[it.Group] = append(byGroup[it.Group], CheckLine{it, from})
		}
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
func NewChecklist(cs []*cases.Case) *Checklist {
	items, df := pendingItems(cs)
	rank := rankWords(df)
	set := func(lang string, words map[string]bool) wordSet {
		s := make(wordSet, 0, len(words))
		for w := range words {
			s = append(s, rank[lang+w])
		}
		slices.Sort(s)
		return s
	}

	cl := &Checklist{}
	var entries []*checkEntry
	index := make([][]int32, len(rank)) // a word of an entry's prefix → entries whose prefix has it
	// Per entry, the last item (plus one) whose Korean prefix found it, and
	// the last that compared it.
	var koFound, tried []int
	// Per entry, whether it has English and Korean words: read for every
	// candidate, kept beside the counters rather than behind the entry.
	var hasEn, hasKo []bool
	for n, p := range items {
		en, ko := set("en:", p.en), set("ko:", p.ko)
		enPrefix, koPrefix := en.prefix(mergeEn), ko.prefix(mergeKo)
		best, bestScore := -1, 0.0
		try := func(i int32) {
			tried[i] = n + 1
			e := entries[i]
			if !mergeable(e.item.Group, p.group) {
				return
			}
			if s, ok := nearIdentical(e.en, e.ko, en, ko); ok && (s > bestScore || s == bestScore && int(i) < best) {
				best, bestScore = int(i), s
			}
		}
		for _, w := range koPrefix {
			for _, i := range index[w] {
				koFound[i] = n + 1
			}
		}
		// A pair with both languages on both sides needs both overlaps, so
		// both prefixes must find it; a pair that shares English only, its
		// English overlap.
		for _, w := range enPrefix {
			for _, i := range index[w] {
				if tried[i] == n+1 || len(ko) > 0 && hasKo[i] && koFound[i] != n+1 {
					continue
				}
				try(i)
			}
		}
		// A pair that shares Korean only needs its Korean overlap.
		for _, w := range koPrefix {
			for _, i := range index[w] {
				if tried[i] == n+1 || len(en) > 0 && hasEn[i] {
					continue
				}
				try(i)
			}
		}
		if best >= 0 {
			entries[best].item.absorb(p)
			continue
		}
		it := &CheckItem{Index: len(cl.Items), Group: p.group, Text: p.text, From: []CheckSource{{p.c, p.status}}}
		cl.Items = append(cl.Items, it)
		entries = append(entries, &checkEntry{it, en, ko})
		koFound, tried = append(koFound, 0), append(tried, 0)
		hasEn, hasKo = append(hasEn, len(en) > 0), append(hasKo, len(ko) > 0)
		for _, w := range slices.Concat(enPrefix, koPrefix) {
			index[w] = append(index[w], int32(len(entries)-1))
		}
	}
	cl.indexCases()
	return cl
}

// absorb merges p into the item: its case becomes one more source, and
// the first case that says the kind of an item without one names it.
func (it *CheckItem) absorb(p pendingItem) {
	if it.Group == GroupOther && p.group != GroupOther && p.group != GroupLessons {
		it.Group = p.group
	}
	if !slices.ContainsFunc(it.From, func(s CheckSource) bool { return s.Case == p.c }) {
		it.From = append(it.From, CheckSource{p.c, p.status})
	}
}

// indexCases lists, for each case, the items it is a source of.
func (cl *Checklist) indexCases() {
	cl.byCase = map[*cases.Case][]*CheckItem{}
	for _, it := range cl.Items {
		for _, s := range it.From {
			cl.byCase[s.Case] = append(cl.byCase[s.Case], it)
		}
	}
}

// pendingItem is an action item or lessons of a case on its way into a
// checklist, with the words of each language.
type pendingItem struct {
	c             *cases.Case
	group, status string
	text          cases.Bilingual
	en, ko        map[string]bool
}

// pendingItems returns the action items and lessons of cs in order, and
// how many of them have each word ("en:" or "ko:" and the word).
func pendingItems(cs []*cases.Case) ([]pendingItem, map[string]int) {
	var items []pendingItem
	df := map[string]int{}
	for _, c := range cs {
		each := func(group, status string, text cases.Bilingual) {
			p := pendingItem{c, group, status, text, checkWords(text.En), checkWords(text.Ko)}
			for w := range p.en {
				df["en:"+w]++
			}
			for w := range p.ko {
				df["ko:"+w]++
			}
			items = append(items, p)
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
	return items, df
}

// rankWords numbers the words of df rarest first, then by the word.
func rankWords(df map[string]int) map[string]int32 {
	keys := make([]string, 0, len(df))
	for k := range df {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := df[a] - df[b]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	rank := make(map[string]int32, len(keys))
	for i, k := range keys {
		rank[k] = int32(i)
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
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if isHangulWord(w) {
			w = trimKorean(w)
		} else {
			if commonWords[w] {
				continue
			}
			w = trimEnglish(w)
		}
		if w != "" {
			out[w] = true
		}
	}
	return out
}

func isHangulWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.Is(unicode.Hangul, r)
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

// trimKorean strips one particle or ending from a Korean word, keeping at
// least one syllable; a word of one syllable is left out.
func trimKorean(w string) string {
	for _, end := range koreanEndings {
		if rest, ok := strings.CutSuffix(w, end); ok && utf8.RuneCountInString(rest) >= 1 {
			w = rest
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
