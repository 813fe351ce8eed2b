package tokenize

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

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

// suffix is a particle or ending of koreanSuffixes, as runes, and whether
// it follows nouns only (nounParticles).
type suffix struct {
	runes []rune
	noun  bool
}

// suffixesByLast lists the suffixes by their last syllable, longest
// first, so that a word is compared only with those that could match:
// suffixLists[suffixesByLast[r-0xAC00]] for a Hangul syllable r (the last
// character of a Hangul run is a syllable or a jamo, which ends no suffix).
// A table over the syllables, not a map, as every Korean word looks here,
// and of small numbers into the few lists, not of the lists themselves, so
// that it stays in the processor's cache (11 KB, not 268).
var suffixesByLast, suffixLists = func() (by []uint8, lists [][]suffix) {
	by = make([]uint8, 0xD7A3-0xAC00+1)
	lists = [][]suffix{nil} // list 0: no suffix ends in the syllable
	for _, s := range koreanSuffixes {
		r, _ := utf8.DecodeLastRuneInString(s)
		if by[r-0xAC00] == 0 {
			if len(lists) > 255 {
				panic("tokenize: too many last syllables of Korean suffixes")
			}
			by[r-0xAC00] = uint8(len(lists))
			lists = append(lists, nil)
		}
		k := by[r-0xAC00]
		lists[k] = append(lists[k], suffix{[]rune(s), nounParticles[s]})
	}
	return by, lists
}()

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
func (tk *Tokenizer) counter(rs []rune, d, h run) bool {
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
	tk.w.set(false, rs[d.start:h.start+len(stem)], rs[d.start:h.end], tk.lists[:1])
	return true
}

// koreanWord makes tk.w the Korean word rs, stripped of one particle or
// ending (longest first), and reports whether anything was stripped. A word
// that is only a particle or ending has a nil term.
func (tk *Tokenizer) koreanWord(rs []rune) bool {
	w := &tk.w
	var suffixes []suffix
	if last := rs[len(rs)-1]; last >= 0xAC00 && last <= 0xD7A3 {
		suffixes = suffixLists[suffixesByLast[last-0xAC00]]
	}
	for _, suf := range suffixes {
		if slices.Equal(rs, suf.runes) {
			w.set(true, nil, rs, nil)
			return false
		}
	}
	stem, stripped, noun := rs, false, false
	for _, suf := range suffixes {
		if n := len(suf.runes); len(rs)-n >= 1 && slices.Equal(rs[len(rs)-n:], suf.runes) {
			stem, stripped, noun = rs[:len(rs)-n], true, suf.noun
			break
		}
	}
	w.set(true, stem, rs, nil)
	w.ended, w.noun = stripped, noun
	switch {
	case stripped && len(stem) == 1:
		// A one-syllable stem is too ambiguous alone ("평가" → "평"), so the
		// whole word stays a term too.
		lists := append(tk.lists, rs)
		keep(&tk.lists, lists)
		w.alt = lists[len(lists)-1:]
	case len(stem) >= 3:
		lists := tk.lists
		start := len(lists)
		for k := 0; k+1 < len(stem); k++ {
			lists = append(lists, stem[k:k+2])
		}
		for k := 0; len(stem) >= 4 && k+2 < len(stem); k++ {
			lists = append(lists, stem[k:k+3])
		}
		keep(&tk.lists, lists)
		w.parts = lists[start:]
		if len(stem) >= 4 {
			w.chain = lists[start+len(stem)-1:]
		}
	}
	return stripped
}
