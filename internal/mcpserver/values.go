package mcpserver

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"incidentlib/internal/cases"
)

// Filter values and get_topic's term take what a model has read on the
// pages, not only term ids: a label in either language ("Ingress
// controller", "인그레스 컨트롤러"), an organisation's name as written
// ("UK Ministry of Justice", "HubSpot", 허브스팟), the glossary's Korean
// form of a term ("인그레스") or a label's first words, in any case and
// with any spacing. A value that is not the id is named in a note with the
// id it was taken as; a value that fits two terms is refused with both.

// termNames maps, for each facet, a folded name (termKey) to the term ids
// it names, sorted.
type termNames map[string]map[string][]string

// namesOnce builds a model's termNames on first use.
type namesOnce struct {
	once  sync.Once
	names termNames
}

// termKey folds a value for look-up: letters and digits only, lower case.
func termKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (m *model) termNames() termNames {
	m.names.once.Do(func() { m.names.names = m.buildTermNames() })
	return m.names.names
}

func (m *model) buildTermNames() termNames {
	out := termNames{}
	for _, f := range cases.Facets {
		byKey := map[string][]string{}
		add := func(name, id string) {
			if k := termKey(name); k != "" && !slices.Contains(byKey[k], id) {
				byKey[k] = append(byKey[k], id)
				slices.Sort(byKey[k])
			}
		}
		for _, id := range m.terms(f.Name) {
			add(id, id)
			if l, ok := m.labels[f.Name][id]; ok {
				add(l[0], id)
				add(l[1], id)
			}
			if t, ok := m.vocabTerm(f.Name, id); ok {
				add(t.Label.En, id)
				add(t.Label.Ko, id)
			}
		}
		out[f.Name] = byKey
	}
	for _, o := range m.lib.Vocab.Orgs {
		for _, name := range []string{o.Label.En, o.Label.Ko, o.NameKo} {
			if k := termKey(name); k != "" && !slices.Contains(out[cases.Orgs.Name][k], o.ID) {
				out[cases.Orgs.Name][k] = append(out[cases.Orgs.Name][k], o.ID)
			}
		}
	}
	m.addGlossary(out)
	return out
}

// addGlossary lets the glossary's Korean forms of a term (인그레스 for
// Ingress) name the term whose id or English label is the glossary's
// English term.
func (m *model) addGlossary(out termNames) {
	g := m.lib.Vocab.Glossary
	if g == nil {
		return
	}
	for _, gt := range g.Terms {
		en, _, _ := strings.Cut(gt.En, " (")
		for _, byKey := range out {
			ids := byKey[termKey(en)]
			if len(ids) != 1 {
				continue
			}
			for _, form := range append([]string{gt.Ko}, gt.Avoid...) {
				if k := termKey(form); k != "" && len(byKey[k]) == 0 {
					byKey[k] = ids
				}
			}
		}
	}
}

// byFirstWords returns the terms of facet whose label in either language
// starts with the words of v ("인그레스" for 인그레스 컨트롤러).
func (m *model) byFirstWords(facet, v string) []string {
	v = strings.ToLower(strings.Join(strings.Fields(v), " "))
	if v == "" {
		return nil
	}
	var ids []string
	for _, id := range m.terms(facet) {
		l := m.labels[facet][id]
		if t, ok := m.vocabTerm(facet, id); ok {
			l = [2]string{t.Label.En, t.Label.Ko}
		}
		for _, label := range l {
			if strings.HasPrefix(strings.ToLower(label)+" ", v+" ") && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// resolveTerm returns the term id of facet that v names, with a note when
// v is not the id itself; a value that names no term is returned as it
// is, for checkTerm to judge.
func (m *model) resolveTerm(c *call, facet, v, arg string) (string, error) {
	if slices.Contains(m.terms(facet), v) {
		return v, nil
	}
	ids := m.termNames()[facet][termKey(v)]
	if len(ids) == 0 {
		ids = m.byFirstWords(facet, v)
	}
	switch len(ids) {
	case 0:
		return v, nil
	case 1:
		if !strings.EqualFold(ids[0], v) {
			c.note("note.term_as", arg, strconv.Quote(v), strconv.Quote(ids[0]))
		}
		return ids[0], nil
	}
	return "", c.fail("err.term_ambiguous", arg, echo(v), strings.Join(ids, ", "))
}
