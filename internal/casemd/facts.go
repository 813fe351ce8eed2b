package casemd

import (
	"slices"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
)

// Label is a term's label in lang, or its id when it has none.
func Label(lib *cases.Library, lang string, f *cases.Facet, id string) string {
	t, _ := lib.Vocab.Term(f.Field, id)
	if label := t.Label.Get(lang); label != "" {
		return label
	}
	return id
}

// Fact is one row of a case's facts: the impact level, the organisation's
// severity where its report gives one, scope, users, region, when the
// impact started and the times to detect, mitigate and resolve.
type Fact struct {
	Label string
	Value string // "" when unknown
	Lang  string // set when the value is in another language than asked
	// Facet and Term are the term a fact names, when it has a topic page.
	Facet *cases.Facet
	Term  string
}

// Facts are the facts of c in lang, each with the moment it ended where
// the source gives it.
func Facts(lib *cases.Library, str l10n.Strings, lang string, c *cases.Case) []Fact {
	t := func(key string) string { return str.Get(lang, key) }
	termFact := func(label string, f *cases.Facet, id string) Fact {
		out := Fact{Label: t(label)}
		if f.HasTopic(id) {
			out.Value, out.Facet, out.Term = Label(lib, lang, f, id), f, id
		}
		return out
	}
	out := []Fact{termFact("fact.impact", cases.ImpactLevels, c.ImpactLevel)}
	if cases.Severities.HasTopic(c.Severity) {
		out = append(out, termFact("fact.severity", cases.Severities, c.Severity))
	}
	out = append(out,
		textFact(t("fact.scope"), c.Impact.Scope, lang),
		textFact(t("fact.users"), c.Impact.Users, lang),
		Fact{Label: t("fact.region"), Value: Known(c.Impact.Region)})
	tl := &c.Timeline
	if tl.StartedAt != nil {
		out = append(out, Fact{Label: t("fact.started"), Value: Moment(str, lang, tl.StartedAt, true)})
	}
	for _, d := range []struct {
		label string
		after *cases.Duration
		at    *cases.Moment
	}{
		{"fact.detect", tl.DetectedAfter, tl.DetectedAt},
		{"fact.mitigate", tl.MitigatedAfter, tl.MitigatedAt},
		{"fact.resolve", tl.ResolvedAfter, tl.ResolvedAt},
	} {
		v := ""
		if d.after != nil {
			v = l10n.Duration(lang, int(*d.after))
		}
		if d.at != nil {
			at := Moment(str, lang, d.at, tl.StartedAt == nil || !sameDay(d.at, tl.StartedAt))
			if v == "" {
				v = at
			} else {
				v += " (" + at + ")"
			}
		}
		out = append(out, Fact{Label: t(d.label), Value: v})
	}
	return out
}

// textFact is a fact written in words; when lang is missing it is the
// other language's, marked.
func textFact(label string, t cases.Bilingual, lang string) Fact {
	v, written := t.In(lang)
	f := Fact{Label: label, Value: Known(v)}
	if written != lang && v != "" && f.Value != "" {
		f.Lang = written
	}
	return f
}

// Known is v, or "" when it is "unknown".
func Known(v string) string {
	if v == "unknown" {
		return ""
	}
	return v
}

// Moment writes a moment of a timeline as lang does: "27 August 2024,
// 14:20 UTC", "2024년 8월 27일 14:20 UTC", the time alone when withDate
// is false, and "(time zone not given)" when the source names none.
func Moment(str l10n.Strings, lang string, m *cases.Moment, withDate bool) string {
	t := m.Time
	out := t.Format("15:04")
	if m.Zoned {
		if _, off := t.Zone(); off == 0 {
			out += " UTC"
		} else {
			out += " UTC" + t.Format("-07:00")
		}
	} else {
		out += " (" + str.Get(lang, "fact.nozone") + ")"
	}
	if withDate {
		d := l10n.Date(lang, t.Year(), t.Month(), t.Day())
		if lang == "ko" {
			return d + " " + out
		}
		return d + ", " + out
	}
	return out
}

// sameDay reports whether two moments fall on the same day where they were
// written.
func sameDay(a, b *cases.Moment) bool {
	y1, m1, d1 := a.Time.Date()
	y2, m2, d2 := b.Time.Date()
	return y1 == y2 && m1 == m2 && d1 == d2
}

// DateWords writes a date in lang (2024년 8월 27일, 2019), or "date
// unknown" when the source gives none.
func DateWords(str l10n.Strings, lang string, d cases.Date) string {
	if !d.Known() {
		return str.Get(lang, "date.unknown")
	}
	return l10n.Date(lang, d.Year, d.Month, d.Day)
}

// DateLong is the date as the facts show it, where a value the source
// does not give reads "unknown" like every other fact.
func DateLong(str l10n.Strings, lang string, d cases.Date) string {
	if !d.Known() {
		return str.Get(lang, "unknown")
	}
	return DateWords(str, lang, d)
}

// placedFacets are the facets a case page and its Markdown show in places
// of their own: the header (domains, organisation, year), the facts
// (severity, impact level) and the sections of their own. Any other facet
// of the table gets a section after the contributing factors
// (OtherFacets), so that a facet added to the table is shown without a
// change here.
var placedFacets = []*cases.Facet{cases.Components, cases.Symptoms, cases.RootCauses, cases.Contributing, cases.Domains, cases.Orgs, cases.Years, cases.Severities}

// FacetTerms are a case's terms in one facet.
type FacetTerms struct {
	Facet *cases.Facet
	IDs   []string
}

// OtherFacets returns the case's terms that have a topic in the facets
// not placed (placedFacets), facet by facet in the table's order; facets
// in which the case has no such term are left out.
func OtherFacets(c *cases.Case) []FacetTerms {
	var out []FacetTerms
	for _, f := range cases.Facets {
		if slices.Contains(placedFacets, f) {
			continue
		}
		var ids []string
		for _, id := range f.Terms(c) {
			if f.HasTopic(id) {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			out = append(out, FacetTerms{f, ids})
		}
	}
	return out
}

// writers are the values of review.written_by that name no person but a
// way of writing, shown through a UI string rather than as written.
var writers = map[string]string{"session": "writer.session"}

// WrittenBy says who wrote c in lang: a person's name as written, or the
// label of a known machine value such as "session".
func WrittenBy(str l10n.Strings, lang string, c *cases.Case) string {
	if key, ok := writers[c.Review.WrittenBy]; ok {
		return str.Get(lang, key)
	}
	return c.Review.WrittenBy
}

// EditLink returns the address that opens file, a path in the content
// folder, for editing, or "" when site.json names no edit_url.
func EditLink(settings cases.Settings, file string) string {
	if settings.Repository.EditURL == "" || file == "" {
		return ""
	}
	return settings.Repository.EditURL + file
}
