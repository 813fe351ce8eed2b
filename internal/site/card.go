package site

import (
	"bytes"
	"fmt"
	"html/template"
	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
	"strings"
	"sync/atomic"
)

// caseLink is a related case as listed under a reason.
type caseLink struct {
	// Head is the line without its reason, rendered once per case and
	// language (template "caselinkhead"): a case is listed on the pages of
	// all the cases it is related to.
	Head  template.HTML
	Why   string
	ID    string
	Title localizedLine
	Org   string
	Year  string // the year, or "date unknown"
	// YearNote says what the year is the year of when it is not the
	// incident's: see ifPublished.
	YearNote string
	Href     string
	Impact   string // the impact level, and the severity where known
}

// ifPublished returns the UI string key in the page's language when c is
// dated by the talk or post that told it rather than by the incident, and
// "" when the date is the incident's: lists mark only the dates that are not
// what a reader assumes. A case whose source gives no date gets "" too:
// "date published" says nothing next to "date unknown".
func ifPublished(p *pageView, c *cases.Case, key string) string {
	if c.DateKind == "published" && c.Date.Known() {
		return p.T(key)
	}
	return ""
}

// caseLink is c as a line in a short list of cases: the related cases of a
// case page (why says what the two share) and the home page's newest cases.
// All but why depends on the case and the language alone: it is made once
// per case and language and kept, since a case is listed as related on
// several pages.
func (p *pageView) caseLink(c *cases.Case, why string) (caseLink, error) {
	i, ok := langSlot(p.Lang)
	ci, known := p.s.caseIndex[c]
	if !ok || !known {
		l, err := newCaseLink(p.s, p, c)
		l.Why = why
		return l, err
	}
	slot := &p.s.links[i][ci]
	l := slot.Load()
	if l == nil {
		made, err := newCaseLink(p.s, p, c)
		if err != nil {
			return caseLink{}, err
		}
		l = &made
		slot.Store(l) // two workers may both make it: the same link
	}
	out := *l
	out.Why = why
	return out, nil
}

func newCaseLink(s *Site, p *pageView, c *cases.Case) (caseLink, error) {
	l := caseLink{
		ID: c.ID, Title: localizeLine(c.Title, p.Lang), Org: c.OrgName().Get(p.Lang), Year: yearText(p, c.Date), YearNote: ifPublished(p, c, "datekind.published.note"),
		Href: p.Link(urls.Case(p.Lang, c.ID)), Impact: impactLabel(s, p, c),
	}
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	if err := s.theme.execute(b, "list", "caselinkhead", l); err != nil {
		return caseLink{}, fmt.Errorf("the line of %s: %w", c.ID, err)
	}
	l.Head = template.HTML(b.String())
	return l, nil
}

// impactLabel is how a case in a list says how bad it was: its impact
// level, then the organisation's own severity where the source gives one
// ("Partial outage · SEV1"); "" when neither is known.
func impactLabel(s *Site, p *pageView, c *cases.Case) string {
	var parts []string
	if cases.ImpactLevels.HasTopic(c.ImpactLevel) {
		parts = append(parts, p.term(cases.ImpactLevels, c.ImpactLevel).Label)
	}
	if cases.Severities.HasTopic(c.Severity) {
		parts = append(parts, p.term(cases.Severities, c.Severity).Label)
	}
	return strings.Join(parts, " · ")
}

// card is a case in a list: a compact item that a reader scans (title,
// organisation, date, impact level or else who was affected, a few terms and
// one line of summary) and that opens in place, with no script (a
// details element), to the digest of the case as seed 002 shows it: every
// section, long texts cut to their first paragraph, and a link to the
// whole case ("이 사례 더 보기").
type card struct {
	P            *pageView
	ID           string
	Href         string
	Title        localizedLine
	Org          string
	OrgLink      string
	Date         string
	DateISO      string
	Published    string // "Published" in the page's language when the date is the source's, else ""
	YearLink     string
	Impact       string        // impactLabel
	Users        localizedLine // who was affected, shown when Impact is unknown; "" when unknown too
	Summary      localizedLine // the summary's first paragraph as plain text, shown on one line
	Few          []termLink
	Symptoms     localized
	Trigger      localized
	RootCause    termLink
	Components   []termLink
	Contributing []termLink
	Detection    localized
	Remediation  []localized
	ActionItems  []actionView
	Unknown      string // unknownStatus of ActionItems
	Lessons      *localized
}

// cardTerms is how many terms a compact item shows: the root cause first,
// then the components.
const cardTerms = 3

// cardHTML returns a case's card in lang, rendered once and kept: a case
// appears on many list and topic pages, and with marked links its card is the
// same on all of them.
func (s cards) cardHTML(lang string, c *cases.Case) (template.HTML, error) {
	return s.keepCard(lang, c, nil)
}

// keepCard returns a case's card in lang, rendering and keeping it when it
// is not kept yet. v, when set, is the case's page view in lang: the card
// then takes from it the texts both show, instead of rendering their
// Markdown a second time (see card).
func (s cards) keepCard(lang string, c *cases.Case, v *CaseView) (template.HTML, error) {
	ci, listed := s.caseIndex[c]
	if !listed {
		return "", nil // a withdrawn case is on no list: it has no card
	}
	slot := &s.cards[langIndex(lang)][ci]
	if h := slot.Load(); h != nil {
		return *h, nil
	}
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	p := &pageView{Lang: lang, s: s.Site}
	if err := s.theme.execute(b, "list", "card", p.card(c, v)); err != nil {
		return "", err
	}
	h := template.HTML(s.lib.Keep(b.Bytes()))
	slot.Store(&h) // two workers may both render it: the same bytes
	return h, nil
}

// ReleaseCards drops the rendered cards, and the feeds' entries, to free
// their memory once the pages that list cases are written (cards the
// library keeps off the heap stay there; only the slots go). Cards and
// entries are made again if needed.
func (s *Site) ReleaseCards() {
	for i := range s.cards {
		s.cards[i] = make([]atomic.Pointer[template.HTML], len(s.lib.Cases))
		s.feedEntries[i] = make([]atomic.Pointer[[]byte], len(s.lib.Cases))
	}
}

func langIndex(lang string) int {
	if lang == cases.Languages[0] {
		return 0
	}
	return 1
}

func (s cards) cardsHTML(lang string, cs []*cases.Case) ([]template.HTML, error) {
	out := make([]template.HTML, len(cs))
	for i, c := range cs {
		h, err := s.cardHTML(lang, c)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// card is c's card in the page's language. v, when set, is c's page view
// in that language (see keepCard), whose texts are rendered from the same
// Markdown: a card shows the remediation and action items whole, and of a
// long text the first paragraph, which is the whole text when it has one.
func (p *pageView) card(c *cases.Case, v *CaseView) card {
	lang := p.Lang
	first := func(t cases.Bilingual, whole *localized) localized {
		short, more := firstParagraph(t, lang)
		if !more && whole != nil {
			return *whole
		}
		return localize(short, lang)
	}
	items := func(ts []cases.Bilingual, whole []localized) []localized {
		if whole != nil && len(whole) == len(ts) {
			return whole
		}
		var out []localized
		for _, t := range ts {
			out = append(out, localize(t, lang))
		}
		return out
	}
	var page CaseView // the zero view: every text rendered here
	if v != nil {
		page = *v
	}
	cd := card{
		P: p, ID: c.ID, Href: p.Link(urls.Case(lang, c.ID)), Title: localizeLine(c.Title, lang),
		Org: c.OrgName().Get(lang), OrgLink: p.Link(urls.Topic(lang, cases.Orgs.Name, c.OrgSlug, 1)),
		Date: casemd.DateWords(p.s.strings, p.Lang, c.Date), DateISO: c.Date.String(), Published: ifPublished(p, c, "datekind.published"),
		YearLink:     yearLink(p, c.Date),
		Impact:       impactLabel(p.s, p, c),
		Symptoms:     first(c.SymptomsText, textOf(v, &page.SymptomsText)),
		Trigger:      first(c.Trigger, textOf(v, &page.Trigger)),
		RootCause:    p.term(cases.RootCauses, c.RootCause),
		Components:   p.terms(cases.Components, c.Components),
		Contributing: p.terms(cases.Contributing, c.Contributing),
		Detection:    first(c.Detection, textOf(v, &page.Detection)),
		Remediation:  items(c.Remediation, page.Remediation),
		ActionItems:  page.ActionItems,
	}
	if len(cd.ActionItems) != len(c.ActionItems) {
		cd.ActionItems = p.actionItems(c.ActionItems, localize)
	}
	cd.Unknown = p.unknownStatus(cd.ActionItems)
	if cd.Impact == "" {
		if u := localizeLine(c.Impact.Users, lang); casemd.Known(u.Text) != "" {
			cd.Users = u
		}
	}
	sum, _ := firstParagraph(c.Summary, lang)
	cd.Summary = localizeLine(sum, lang)
	cd.Summary.Text = markup.Plain(cd.Summary.Text)
	if cd.RootCause.Label != "" {
		cd.Few = append(cd.Few, cd.RootCause)
	}
	cd.Few = append(cd.Few, cd.Components[:min(cardTerms-len(cd.Few), len(cd.Components))]...)
	if c.Lessons != nil {
		l := first(*c.Lessons, page.Lessons)
		cd.Lessons = &l
	}
	return cd
}

// textOf is t, a text of the case page view v, or nil without a view.
func textOf(v *CaseView, t *localized) *localized {
	if v == nil {
		return nil
	}
	return t
}

// firstParagraph returns the first paragraph of t in lang (or in the other
// language when lang's is missing, as Text.In does), and whether more
// followed it.
func firstParagraph(t cases.Bilingual, lang string) (cases.Bilingual, bool) {
	src, written := t.In(lang)
	i := strings.Index(src, "\n\n")
	if i < 0 {
		return t, false
	}
	var short cases.Bilingual
	if written == "ko" {
		short.Ko = src[:i]
	} else {
		short.En = src[:i]
	}
	return short, true
}

// cards renders the cards of cases that lists show, and keeps those made
// with the case pages for the lists to take.
type cards struct{ *Site }
