package mcpserver

import (
	"fmt"
	"strings"

	"incidentlib/internal/cases"
)

type bothLangs struct {
	En string `json:"en" jsonschema:"in English"`
	Ko string `json:"ko" jsonschema:"in Korean"`
}

type vocabTerm struct {
	ID          string    `json:"id" jsonschema:"the term id, as the filters take it"`
	Label       bothLangs `json:"label" jsonschema:"the term's label in both languages"`
	Description string    `json:"description,omitempty" jsonschema:"what the term means, in the answer's language"`
	Cases       int       `json:"cases" jsonschema:"number of cases with this term"`
}

type vocabFacet struct {
	Facet    string      `json:"facet" jsonschema:"the facet, as get_topic takes it"`
	Argument string      `json:"argument" jsonschema:"the filter argument of this facet in search_incidents and list_incidents"`
	Name     bothLangs   `json:"name" jsonschema:"the facet's name in both languages"`
	Terms    []vocabTerm `json:"terms" jsonschema:"the facet's terms in display order"`
}

type vocabOutput struct {
	Lang   string       `json:"lang" jsonschema:"the language of the answer's text"`
	Facets []vocabFacet `json:"facets" jsonschema:"every facet asked for"`
	Notes  []string     `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

func vocab(m *model, c *call) (string, any, error) {
	// Every facet but the products, which are listed when asked for
	// (facet: products): they grow with what the cases name, and the
	// answer with every facet stays under 20 KB (TestAnswerSizes).
	var facets []string
	for _, f := range cases.Facets {
		if f != cases.Products {
			facets = append(facets, f.Name)
		}
	}
	// Descriptions come with one facet only: with every facet they would
	// make the answer grow past what a tool answer should hold as the
	// vocabulary grows.
	describe := false
	if arg := c.str("facet"); arg != "" {
		describe = true
		f, err := facetOf(c, arg)
		if err != nil {
			return "", nil, err
		}
		facets = []string{f}
	}
	out := vocabOutput{Lang: c.lang, Facets: []vocabFacet{}}
	var b strings.Builder
	for _, facet := range facets {
		label := cases.FacetByName(facet).Label
		vf := vocabFacet{Facet: facet, Argument: argName(facet), Terms: []vocabTerm{},
			Name: bothLangs{En: label.En, Ko: label.Ko}}
		fc := m.model.Topics()[facet]
		for _, id := range m.terms(facet) {
			vt := vocabTerm{ID: id}
			if t := fc.Topic(id); t != nil {
				vt.Label, vt.Cases = bothLangs{En: t.Label.En, Ko: t.Label.Ko}, len(t.Cases)
				if describe {
					vt.Description, _ = t.Description.In(c.lang)
				}
			} else if t, ok := m.vocabTerm(facet, id); ok {
				vt.Label = bothLangs{En: t.Label.En, Ko: t.Label.Ko}
				if describe {
					vt.Description, _ = t.Description.In(c.lang)
				}
			}
			if l, ok := m.labels[facet][id]; ok {
				vt.Label = bothLangs{En: l[0], Ko: l[1]}
			}
			vf.Terms = append(vf.Terms, vt)
		}
		out.Facets = append(out.Facets, vf)

		b.WriteString(c.t("vocab.head", label.Get(c.lang), facet, vf.Argument) + "\n\n")
		for _, t := range vf.Terms {
			label := t.Label.En
			if c.lang == "ko" {
				label = t.Label.Ko
			}
			fmt.Fprintf(&b, "- %s: %s (%d)\n", t.ID, label, t.Cases)
		}
		b.WriteByte('\n')
	}
	b.WriteString(c.t("vocab.counts") + "\n")
	out.Notes = c.notes
	return b.String(), out, nil
}
