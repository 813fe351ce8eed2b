// Package casemd writes a case as Markdown: the Markdown twin of a case
// page (index.md beside index.html) and the case as MCP answers show it.
// It is Go, not a template, so that the MCP server answers without parsing
// one, and it stands on the case and the string catalogue alone (not on
// the model), so that the HTML presenter and the MCP server both stand on
// it: site takes its facts from here too.
package casemd

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// Writer writes the cases of one library as Markdown.
type Writer struct {
	lib  *cases.Library
	str  l10n.Strings
	base string
}

// New returns a Writer of the cases of lib with the words of str; links
// are base and a site path, base ending in a slash ("" means site.json's
// base_url).
func New(lib *cases.Library, str l10n.Strings, base string) *Writer {
	if base == "" {
		base = lib.Settings.BaseURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return &Writer{lib: lib, str: str, base: base}
}

// URL is the public URL of a site path.
func (w *Writer) URL(path string) string { return w.base + path }

// Strings are the words it writes with.
func (w *Writer) Strings() l10n.Strings { return w.str }

// Related is a related case as the Markdown lists it.
type Related struct {
	Case *cases.Case
	Why  string // what the two share, in the language written
}

// Case appends the Markdown of c in lang to b, with its related cases in
// the order given. With absolute, links to related cases are the URLs of
// their Markdown, for a reader that has no page to start a relative link
// from (MCP answers); otherwise they lead to the twin beside.
func (w *Writer) Case(b *bytes.Buffer, c *cases.Case, lang string, related []Related, absolute bool) {
	m := mdWriter{b: b, w: w, lang: lang}
	m.head(c)
	m.terms(c)
	m.story(c)
	m.sources(c)
	m.related(related, absolute)
	m.review(c)
}

// mdWriter writes one case in one language.
type mdWriter struct {
	b    *bytes.Buffer
	w    *Writer
	lang string
}

func (m *mdWriter) t(key string) string { return m.w.str.Get(m.lang, key) }

// s writes strings one after another.
func (m *mdWriter) s(parts ...string) {
	for _, p := range parts {
		m.b.WriteString(p)
	}
}

// section writes a heading of the second level, after a blank line.
func (m *mdWriter) section(title string) { m.s("\n\n## ", title, "\n\n") }

// mark is the prefix of a text shown in the other language.
func (m *mdWriter) mark(missing bool) string {
	if !missing {
		return ""
	}
	return "(" + m.t("notranslation") + ") "
}

// text is case text in the language written, or the other one marked. It
// keeps its inline Markdown; nothing in it is live beyond what the HTML
// page shows (see markup.MarkdownText).
func (m *mdWriter) text(t cases.Bilingual) string {
	src, written := t.In(m.lang)
	return m.mark(written != m.lang && src != "") + markup.MarkdownText(src)
}

// labels are the labels of a facet's terms, joined by commas, or a dash.
func (m *mdWriter) labels(f *cases.Facet, ids []string) string {
	if len(ids) == 0 {
		return "–"
	}
	l := make([]string, len(ids))
	for i, id := range ids {
		l[i] = markup.MarkdownLine(Label(m.w.lib, m.lang, f, id))
	}
	return strings.Join(l, ", ")
}

// head writes the title, the kicker, the summary and the facts.
func (m *mdWriter) head(c *cases.Case) {
	title, written := c.Title.In(m.lang)
	m.s("# ", c.ID, ": ", m.mark(written != m.lang && title != ""), markup.MarkdownLine(title), "\n\n")
	m.s(markup.MarkdownLine(c.OrgName().Get(m.lang)), " · ", m.t("datekind."+c.DateKind), ": ", DateLong(m.w.str, m.lang, c.Date), " · ", m.labels(cases.Domains, c.Domain), "\n\n")
	m.s(m.text(c.Summary), "\n\n")
	for _, f := range Facts(m.w.lib, m.w.str, m.lang, c) {
		val := f.Value
		switch {
		case val == "":
			val = m.t("unknown")
		case f.Lang != "":
			val = m.mark(true) + val
		}
		m.s("- ", f.Label, ": ", markup.MarkdownLine(val), "\n")
	}
}

// terms writes the sections of the facets, with the symptoms' and the
// trigger's text.
func (m *mdWriter) terms(c *cases.Case) {
	m.s("\n## ", m.t("facet.symptoms.label"), "\n\n", m.labels(cases.Symptoms, c.Symptoms), "\n\n", m.text(c.SymptomsText))
	m.section(m.t("facet.root-causes.one"))
	m.s(markup.MarkdownLine(Label(m.w.lib, m.lang, cases.RootCauses, c.RootCause)))
	m.section(m.t("case.trigger"))
	m.s(m.text(c.Trigger))
	m.section(m.t("facet.components.label"))
	m.s(m.labels(cases.Components, c.Components))
	if len(c.Affected) > 0 {
		m.section(m.t("case.affected"))
		for i, a := range c.Affected {
			if i > 0 {
				m.s("\n")
			}
			m.s("- ", markup.MarkdownLine(m.product(a.Product)), ": ", markup.MarkdownLine(VersionWords(a, m.t)))
		}
	}
	m.section(m.t("facet.contributing.label"))
	m.s(m.labels(cases.Contributing, c.Contributing))
	for _, o := range OtherFacets(c) {
		m.section(o.Facet.Label.Get(m.lang))
		m.s(m.labels(o.Facet, o.IDs))
	}
}

// story writes detection, remediation, action items and lessons.
func (m *mdWriter) story(c *cases.Case) {
	m.section(m.t("case.detection"))
	m.s(m.text(c.Detection))
	m.section(m.t("case.remediation"))
	for i, t := range c.Remediation {
		m.s(strconv.Itoa(i+1), ". ", m.text(t), "\n")
	}
	m.section(m.t("case.action_items"))
	for _, t := range c.ActionItems {
		m.s("- ", m.text(t.Text), " (", m.actionNote(t), ")\n")
	}
	m.section(m.t("case.lessons"))
	if c.Lessons != nil {
		m.s(m.text(*c.Lessons))
	} else {
		m.s(m.t("case.no_lessons"))
	}
}

// sources writes the sources, their archived copies and the documents.
func (m *mdWriter) sources(c *cases.Case) {
	m.section(m.t("case.sources"))
	for _, src := range c.Sources {
		m.s("- <", markup.MarkdownURL(src.URL), "> (", markup.MarkdownLine(m.t("source."+src.Kind)), ")")
		if a := markup.MarkdownURL(src.Archived); a != "" {
			m.s(", ", m.t("case.archived"), ": <", a, ">")
		}
		m.s("\n")
	}
	for _, d := range c.Docs {
		m.s("- <", markup.MarkdownURL(d), ">\n")
	}
}

// related writes the related cases, each with its reason.
func (m *mdWriter) related(related []Related, absolute bool) {
	m.section(m.t("case.related"))
	if len(related) == 0 {
		m.s(m.t("case.no_related"))
	}
	for _, r := range related {
		href := urls.SiblingMarkdown(r.Case.ID)
		if absolute {
			href = m.w.URL(urls.Markdown(m.lang, r.Case.ID))
		}
		title, written := r.Case.Title.In(m.lang)
		m.s("- [", r.Case.ID, ": ", m.mark(written != m.lang && title != ""), markup.MarkdownLine(title), "](", href, "): ", markup.MarkdownLine(r.Why), "\n")
	}
}

// review writes who wrote and reviewed the case, where it is and where
// its data is.
func (m *mdWriter) review(c *cases.Case) {
	m.section(m.t("case.review"))
	m.s("- ", m.t("case.written_by"), ": ", markup.MarkdownLine(WrittenBy(m.w.str, m.lang, c)), "\n")
	m.s("- ", m.t("case.reviewed"), ": ")
	if d := c.Review.ReviewedAt; d != nil {
		m.s(d.String())
		if by := markup.MarkdownLine(c.Review.ReviewedBy); by != "" {
			m.s(" · ", by)
		}
	} else {
		m.s(m.t("case.not_reviewed"))
	}
	m.s("\n- ", m.t("case.updated"), ": ", c.UpdatedAt.Format("2006-01-02"), "\n")
	if u := markup.MarkdownURL(c.URL); u != "" {
		m.s("- ", m.t("case.canonical"), ": <", u, ">\n")
	}
	if e := EditLink(m.w.lib.Settings, c.File); e != "" {
		m.s("- ", m.t("edit.suggest"), ": <", e, ">\n")
	}
	m.section(m.t("case.ai"))
	m.s("- ", m.t("case.ai_json"), ": ", m.w.URL(urls.APICase(c.ID)), "\n")
	m.s("- ", m.t("case.ai_similar"), ": ", m.w.URL(urls.APISimilar(c.ID)), "\n\n")
}

// actionNote is an action item's kind and status: "Prevent · Done", or the
// status alone ("Status unknown" when the case does not say).
func (m *mdWriter) actionNote(a cases.ActionItem) string {
	st := a.Status
	if st == "" {
		st = "unknown"
	}
	if a.Kind == "" {
		return m.t("action.status." + st)
	}
	return m.t("action.kind."+a.Kind) + " · " + m.t("action.status."+st)
}

// product is a product's name in the twin's language.
func (m *mdWriter) product(id string) string {
	if p, ok := m.w.lib.Vocab.Product(id); ok {
		return p.Label.Get(m.lang)
	}
	return id
}

// VersionWords says which versions an affected product names, in the
// words t gives for the catalogue's affected.* keys: "from 1.9.0, fixed in
// 1.11.2", "1.2.3, 1.2.4". The case page and its Markdown both say it so.
func VersionWords(a cases.Affected, t func(key string) string) string {
	var parts []string
	if a.Introduced != "" && a.Introduced != "0" {
		parts = append(parts, fmt.Sprintf(t("affected.introduced"), a.Introduced))
	}
	switch {
	case a.Fixed != "" && a.Introduced == "0":
		// A range from the first version says so: "fixed in 1.11.5"
		// alone reads as if only that release mattered.
		parts = append(parts, fmt.Sprintf(t("affected.before"), a.Fixed))
	case a.Fixed != "":
		parts = append(parts, fmt.Sprintf(t("affected.fixed"), a.Fixed))
	}
	if a.LastAffected != "" {
		parts = append(parts, fmt.Sprintf(t("affected.last"), a.LastAffected))
	}
	if a.Introduced != "" && len(parts) == 0 {
		parts = append(parts, t("affected.all"))
	}
	if len(a.Versions) > 0 {
		parts = append(parts, fmt.Sprintf(t("affected.versions"), strings.Join(a.Versions, ", ")))
	}
	return strings.Join(parts, t("affected.sep"))
}
