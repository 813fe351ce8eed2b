package library

import (
	"fmt"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/related"
)

// Reason writes why cases are related: "same root cause · both involve
// Ingress controller" / "같은 원인 · 둘 다 인그레스 컨트롤러 관련". A component
// is named as one both cases involve, not as a component they share: two
// companies' Ingress controllers are two controllers. It is written in one
// builder: every related case of every case page has one, and the API's
// similar cases too.
func (l *Library) Reason(str l10n.Strings, lang string, kind related.Kind, g related.Reason) string {
	var b strings.Builder
	b.Grow(192) // most reasons fit: one allocation
	parts := 0
	part := func(text string) {
		if parts > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(text)
		parts++
	}
	switch kind {
	case related.Explicit:
		part(str.Get(lang, "related.explicit"))
	case related.RecurrenceOf:
		part(str.Get(lang, "related.recurrence_of"))
	case related.Recurred:
		part(str.Get(lang, "related.recurred"))
	}
	if g.SameRootCause {
		part(str.Get(lang, "related.same_root_cause"))
	}
	// labels writes the terms' labels as l10n.List joins them: a reason
	// names terms; it links none.
	labels := func(b *strings.Builder, f *cases.Facet, ids []string) {
		for i, id := range ids {
			writeListSep(b, lang, i, len(ids))
			b.WriteString(label(l.Lib, lang, f, id))
		}
	}
	if len(g.Components) > 0 {
		format := str.Get(lang, "related.shared")
		if before, after, ok := strings.Cut(format, "%s"); ok && !strings.Contains(before, "%") && !strings.Contains(after, "%") {
			part(before)
			labels(&b, cases.Components, g.Components)
			b.WriteString(after)
		} else { // a format of another shape: as fmt writes it
			var list strings.Builder
			labels(&list, cases.Components, g.Components)
			part(fmt.Sprintf(format, list.String()))
		}
	}
	if len(g.Contributing) > 0 {
		part(str.Get(lang, "related.contributing"))
		b.WriteByte(' ')
		labels(&b, cases.Contributing, g.Contributing)
	}
	if len(g.Symptoms) > 0 {
		part(str.Get(lang, "related.symptoms"))
		b.WriteByte(' ')
		labels(&b, cases.Symptoms, g.Symptoms)
	}
	if words, n := sharedWords(lang, g.Words); n > 0 {
		part(str.Get(lang, "related.words"))
		b.WriteByte(' ')
		for i, w := range words[:n] {
			writeListSep(&b, lang, i, n)
			b.WriteString("“")
			b.WriteString(w)
			b.WriteString("”")
		}
	}
	return b.String()
}

// writeListSep writes what l10n.List puts before item i of n: nothing
// before the first, " and " before the last of two or more in English, and
// ", " otherwise.
func writeListSep(b *strings.Builder, lang string, i, n int) {
	switch {
	case i == 0:
	case lang != "ko" && i == n-1:
		b.WriteString(" and ")
	default:
		b.WriteString(", ")
	}
}

// maxReasonWords is how many shared narrative words a reason names.
const maxReasonWords = 3

// sharedWords returns the phrases of lang among words ("lang:phrase", the
// first n of the array), in their order, leaving out a word already inside
// a phrase shown and a phrase around a word shown.
func sharedWords(lang string, words []string) (out [maxReasonWords]string, n int) {
	for _, w := range words {
		if n == maxReasonWords {
			break
		}
		if len(w) <= len(lang) || w[len(lang)] != ':' || w[:len(lang)] != lang {
			continue
		}
		form := w[len(lang)+1:]
		inside := false
		for _, sh := range out[:n] {
			if hasField(sh, form) || hasField(form, sh) {
				inside = true
				break
			}
		}
		if !inside {
			out[n] = form
			n++
		}
	}
	return out, n
}

// hasField reports whether w is one of the space-separated words of s
// (slices.Contains(strings.Fields(s), w), without the slice).
func hasField(s, w string) bool {
	for f := range strings.FieldsSeq(s) {
		if f == w {
			return true
		}
	}
	return false
}

// label is a term's label in lang, or its id outside the vocabulary.
func label(lib *cases.Library, lang string, f *cases.Facet, id string) string {
	t, _ := lib.Vocab.Term(f.Field, id)
	if label := t.Label.Get(lang); label != "" {
		return label
	}
	return id
}
