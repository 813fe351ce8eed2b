package site

import (
	"encoding/json"

	"html/template"
	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// sourceView is one source of a case.
type sourceView struct {
	URL      string
	Host     string
	Kind     string
	Archived string
}

// relGroupView is related cases that share one reason.
type relGroupView struct {
	Reason string
	Cases  []caseLink
}

// CaseView is the case page.
type CaseView struct {
	*pageView
	C            *cases.Case
	WrittenBy    string
	TitleT       localizedLine
	Date         string // ISO, for the datetime attribute
	DateShort    string // the kicker's date: ISO when whole, else in words ("2019년 4월")
	DateLong     string
	DateKind     string
	Published    bool   // the date is when the source was published, not when the incident happened
	Org          string // the organisation as this language's pages name it
	EditLink     string // opens the case file for editing (site.json's repository.edit_url), or ""
	OrgLink      string
	YearLink     string
	Domains      []termLink
	Summary      localized
	Facts        []fact
	Symptoms     []termLink
	SymptomsText localized
	RootCause    termLink
	Trigger      localized
	Components   []termLink
	Contributing []termLink
	Other        []facetTerms // facets without a place of their own (casemd.OtherFacets), after Contributing
	Detection    localized
	Remediation  []localized
	ActionItems  []actionView
	Unknown      string // unknownStatus of ActionItems
	Affected     []affectedView
	Lessons      *localized
	Sources      []sourceView
	Docs         []string
	Related      []relGroupView
	ReviewedAt   string
	Updated      string
	Callout      calloutView
	JSON         string
	Similar      string
	Markdown     string
	MCP          cases.MCP
	MCPNote      localized
	MCPTools     []string
	APIDoc       string           // the page that explains the API and the MCP server
	Withdrawn    *withdrawnView   // the notice of a withdrawn case, nil for a listed one
	Cite         library.Citation // how to cite the case, in the page's language
}

// facetTerms are a case's terms in one facet, under the facet's name.
type facetTerms struct {
	ID    string // the section's id: "facet-" and the facet's name
	Title string
	Terms []termLink
}

// otherFacets are the case's terms in the facets the page does not place
// itself (casemd.OtherFacets), facet by facet in the table's order.
func (p *pageView) otherFacets(c *cases.Case) []facetTerms {
	var out []facetTerms
	for _, o := range casemd.OtherFacets(c) {
		out = append(out, facetTerms{ID: "facet-" + o.Facet.Name, Title: o.Facet.Label.Get(p.Lang), Terms: p.terms(o.Facet, o.IDs)})
	}
	return out
}

// calloutView is the configurable box.
type calloutView struct {
	Title localizedLine
	Text  localized
	Link  string
	Label string
}

func (s views) caseView(j Job, html bool) (*CaseView, error) {
	c, lang := j.Case, j.Lang
	// The Markdown twin shows the texts' source: it needs no HTML.
	txt := localize
	if !html {
		txt = localizeSource
	}
	title := localizeLine(c.Title, lang)
	p := s.page(j, title.Text)
	if title.Missing {
		p.TitleLang = title.Lang
	}
	p.Section = "cases"
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(lang))}, {p.T("nav.cases"), p.Link(urls.Cases(lang, 1))}, {c.ID, ""}}
	p.Description = firstSentence(c.Summary, lang)
	v := &CaseView{
		pageView:     p,
		C:            c,
		TitleT:       title,
		Date:         c.Date.String(),
		DateShort:    shortDate(p, c.Date),
		DateLong:     casemd.DateLong(s.strings, lang, c.Date),
		DateKind:     p.T("datekind." + c.DateKind),
		Published:    c.DateKind == "published",
		Org:          c.OrgName().Get(lang),
		EditLink:     casemd.EditLink(s.lib.Settings, c.File),
		OrgLink:      orgLink(p, c),
		YearLink:     yearLink(p, c.Date),
		Domains:      p.terms(cases.Domains, c.Domain),
		Summary:      txt(c.Summary, lang),
		Symptoms:     p.terms(cases.Symptoms, c.Symptoms),
		SymptomsText: txt(c.SymptomsText, lang),
		RootCause:    p.term(cases.RootCauses, c.RootCause),
		Trigger:      txt(c.Trigger, lang),
		Components:   p.terms(cases.Components, c.Components),
		Contributing: p.terms(cases.Contributing, c.Contributing),
		Detection:    txt(c.Detection, lang),
		Docs:         c.Docs,
		Updated:      l10n.Date(lang, c.UpdatedAt.Year(), c.UpdatedAt.Month(), c.UpdatedAt.Day()),
		JSON:         p.Link(urls.APICase(c.ID)),
		Similar:      p.Link(urls.APISimilar(c.ID)),
		Markdown:     p.Link(urls.Markdown(lang, c.ID)),
		MCP:          s.lib.Settings.MCP,
		MCPNote:      s.mcpNote(lang, html),
		MCPTools:     MCPTools,
		APIDoc:       p.Link(urls.APIDoc(lang)) + "#mcp",
	}
	if c.Review.ReviewedAt != nil {
		d := c.Review.ReviewedAt
		v.ReviewedAt = l10n.Date(lang, d.Year, d.Month, d.Day)
	}
	v.Facts = p.facts(c)
	v.Other = p.otherFacets(c)
	for _, t := range c.Remediation {
		v.Remediation = append(v.Remediation, txt(t, lang))
	}
	v.ActionItems = p.actionItems(c.ActionItems, txt)
	v.Unknown = p.unknownStatus(v.ActionItems)
	v.Affected = p.affected(c)
	if c.Lessons != nil {
		l := txt(*c.Lessons, lang)
		v.Lessons = &l
	}
	v.Sources = sources(p, c)
	var err error
	if v.Related, err = p.relatedGroups(c); err != nil {
		return nil, err
	}
	if v.Withdrawn, err = p.withdrawnView(c, txt); err != nil {
		return nil, err
	}
	v.Cite = p.cite(c)
	if html {
		s.addHTMLParts(v)
	}
	v.WrittenBy = casemd.WrittenBy(s.strings, lang, c)
	return v, nil
}

// addHTMLParts adds to v what only the HTML page has: its JSON-LD and the
// callout to the prepare page with the case's components chosen.
func (s views) addHTMLParts(v *CaseView) {
	p := v.pageView
	p.JSONLD = p.caseJSONLD(v)
	var parts []string
	if f := prepareFacet(); f != nil {
		parts = f.Terms(v.C)
	}
	v.Callout = prepares{s.Site}.prepareCallout(p, parts, "prepare.callout_link")
}

// facts are the facts box of a case page (casemd.Facts), a term's value
// linked to its topic.
func (p *pageView) facts(c *cases.Case) []fact {
	facts := casemd.Facts(p.s.lib, p.s.strings, p.Lang, c)
	out := make([]fact, len(facts))
	for i, f := range facts {
		out[i] = fact{Label: f.Label, Value: f.Value, Lang: f.Lang}
		if f.Facet != nil {
			out[i].Link = p.term(f.Facet, f.Term).Href
		}
	}
	return out
}

// sources lists a case's sources with their hosts.
func sources(p *pageView, c *cases.Case) []sourceView {
	var out []sourceView
	for _, src := range c.Sources {
		host := src.URL
		if u, err := url.Parse(src.URL); err == nil {
			host = u.Host
		}
		out = append(out, sourceView{URL: src.URL, Host: host, Kind: p.T("source." + src.Kind), Archived: src.Archived})
	}
	return out
}

// relatedGroups lists a case's related cases under their headings, each
// with its own reason.
func (p *pageView) relatedGroups(c *cases.Case) ([]relGroupView, error) {
	groups := p.s.model.Related(c.ID)
	if len(groups) == 0 {
		return nil, nil
	}
	out := make([]relGroupView, len(groups))
	for i, g := range groups {
		gv := relGroupView{Reason: p.s.model.Reason(p.s.strings, p.Lang, g.Kind, g.Reason), Cases: make([]caseLink, len(g.Links))}
		for k, l := range g.Links {
			var err error
			if gv.Cases[k], err = p.caseLink(p.s.lib.ByID[l.ID], p.s.model.Reason(p.s.strings, p.Lang, l.Kind, l.Reason)); err != nil {
				return nil, err
			}
		}
		out[i] = gv
	}
	return out, nil
}

// callout is the site's callout box (site.json) in lang, shown on case
// pages and under every list of cases.
func (s *Site) callout(lang string) calloutView {
	if i, ok := langSlot(lang); ok && s.callouts[i] != nil {
		return *s.callouts[i]
	}
	return furniture{s}.makeCallout(lang)
}

// makeCallout renders the callout box in lang; New keeps one per language.
func (s furniture) makeCallout(lang string) calloutView {
	co := s.lib.Settings.Callout
	return calloutView{Title: localizeLine(co.Title, lang), Text: localize(co.Text, lang), Link: co.Link.URL, Label: co.Link.Label.Get(lang)}
}

// mcpNote is site.json's note on the hosted MCP server in lang, with its
// HTML when html is set; New renders it once per language.
func (s *Site) mcpNote(lang string, html bool) localized {
	note := s.lib.Settings.MCP.Note
	if !html {
		return localizeSource(note, lang)
	}
	if i, ok := langSlot(lang); ok && s.mcpNotes[i] != nil {
		return *s.mcpNotes[i]
	}
	return localize(note, lang)
}

// caseJSONLD describes a case page for search engines and link previews as
// a schema.org Article.
func (p *pageView) caseJSONLD(v *CaseView) template.HTML {
	c := v.C
	d := articleLD{
		Context: "https://schema.org", Type: "Article",
		DateModified: c.UpdatedAt.Format(time.RFC3339),
		Description:  p.Description,
		Headline:     v.TitleT.Text,
		Identifier:   c.ID,
		InLanguage:   p.Lang,
		IsPartOf:     siteLD{Type: "WebSite", Name: p.SiteTitle()},
		Publisher:    orgLD{Type: "Organization", Name: p.SiteTitle()},
	}
	if !p.s.opt.Offline {
		d.URL = p.Canonical
		d.IsPartOf.URL = p.s.base + urls.Home(p.Lang)
	}
	if c.DateKind == "incident" {
		d.TemporalCoverage = v.Date
	}
	keywords := make([]string, 0, 1+len(v.Components)+len(v.Symptoms))
	for _, t := range append(append([]termLink{v.RootCause}, v.Components...), v.Symptoms...) {
		keywords = append(keywords, t.Label)
	}
	d.Keywords = strings.Join(keywords, ", ")
	for _, src := range c.Sources {
		d.IsBasedOn = append(d.IsBasedOn, src.URL)
	}
	return jsonLD(&d)
}

// articleLD is the schema.org data of a case page. Its fields are in the
// order of their names, as encoding/json writes the keys of a map: the
// data was a map before it was a struct, which is faster to encode.
type articleLD struct {
	Context          string   `json:"@context"`
	Type             string   `json:"@type"`
	DateModified     string   `json:"dateModified"`
	Description      string   `json:"description"`
	Headline         string   `json:"headline"`
	Identifier       string   `json:"identifier"`
	InLanguage       string   `json:"inLanguage"`
	IsBasedOn        []string `json:"isBasedOn,omitempty"`
	IsPartOf         siteLD   `json:"isPartOf"`
	Keywords         string   `json:"keywords"`
	Publisher        orgLD    `json:"publisher"`
	TemporalCoverage string   `json:"temporalCoverage,omitempty"`
	URL              string   `json:"url,omitempty"`
}

type siteLD struct {
	Type string `json:"@type"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type orgLD struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// jsonLD returns a case page's data as a script element of type
// application/ld+json. Its JSON is what encoding/json writes for it, with
// <, > and & as \u escapes, so no text in the data can close the element or
// open a comment inside it; it is written by hand (appendJSON), since every
// case page has one.
func jsonLD(d *articleLD) template.HTML {
	b := make([]byte, 0, 1024)
	b = append(b, `<script type="application/ld+json">`...)
	b = d.appendJSON(b)
	b = append(b, `</script>`...)
	return template.HTML(b)
}

// appendJSON appends d as json.Marshal writes it: fields in order,
// omitempty ones left out when empty.
func (d *articleLD) appendJSON(b []byte) []byte {
	field := func(b []byte, first bool, key, value string) []byte {
		if !first {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, key...)
		b = append(b, `":`...)
		return appendJSONString(b, value)
	}
	b = append(b, '{')
	b = field(b, true, "@context", d.Context)
	b = field(b, false, "@type", d.Type)
	b = field(b, false, "dateModified", d.DateModified)
	b = field(b, false, "description", d.Description)
	b = field(b, false, "headline", d.Headline)
	b = field(b, false, "identifier", d.Identifier)
	b = field(b, false, "inLanguage", d.InLanguage)
	if len(d.IsBasedOn) > 0 {
		b = append(b, `,"isBasedOn":[`...)
		for i, u := range d.IsBasedOn {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, u)
		}
		b = append(b, ']')
	}
	b = append(b, `,"isPartOf":{`...)
	b = field(b, true, "@type", d.IsPartOf.Type)
	b = field(b, false, "name", d.IsPartOf.Name)
	if d.IsPartOf.URL != "" {
		b = field(b, false, "url", d.IsPartOf.URL)
	}
	b = append(b, '}')
	b = field(b, false, "keywords", d.Keywords)
	b = append(b, `,"publisher":{`...)
	b = field(b, true, "@type", d.Publisher.Type)
	b = field(b, false, "name", d.Publisher.Name)
	b = append(b, '}')
	if d.TemporalCoverage != "" {
		b = field(b, false, "temporalCoverage", d.TemporalCoverage)
	}
	if d.URL != "" {
		b = field(b, false, "url", d.URL)
	}
	return append(b, '}')
}

// appendJSONString appends s as a JSON string, as json.Marshal writes it.
// Text of printable ASCII other than ", \, <, > and &, and valid UTF-8
// beyond ASCII other than U+2028 and U+2029, is written as it is; any other
// string is left to encoding/json.
func appendJSONString(b []byte, s string) []byte {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			continue
		}
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendMarshaled(b, s)
		}
	}
	if !ascii && (!utf8.ValidString(s) || strings.ContainsRune(s, '\u2028') || strings.ContainsRune(s, '\u2029')) {
		return appendMarshaled(b, s)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendMarshaled(b []byte, s string) []byte {
	j, err := json.Marshal(s)
	if err != nil {
		return append(b, `""`...) // a string: cannot fail
	}
	return append(b, j...)
}

// orgLink is the link to c's organisation's topic page, "" when it has none
// (only withdrawn cases name the organisation).
func orgLink(p *pageView, c *cases.Case) string {
	if !p.s.hasTopic(cases.Orgs, c.OrgSlug) {
		return ""
	}
	return p.Link(urls.Topic(p.Lang, cases.Orgs.Name, c.OrgSlug, 1))
}
