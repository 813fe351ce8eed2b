package library

import (
	"fmt"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
)

// Citation is how to cite a case: a BibTeX entry and a plain reference,
// both naming its stable id, title, organisation, date, the library's
// version and the case's address. The case page shows it in its
// language, and the API gives it in both.
type Citation struct {
	BibTeX string
	Text   string
}

// Cite returns the citation of c in lang, with addr the public address of
// its page in lang. The words around the fields are the catalogue's
// (cite.text, cite.published, cite.nodate).
func (l *Library) Cite(str l10n.Strings, lang string, c *cases.Case, addr string) Citation {
	title, _ := c.Title.In(lang)
	org := c.OrgName().Get(lang)
	date := str.Get(lang, "cite.nodate")
	if c.Date.Known() {
		date = c.Date.String()
	}
	text := fmt.Sprintf(str.Get(lang, "cite.text"), org, title, date, c.ID, l.Version, addr)
	var b strings.Builder
	b.WriteString("@misc{incidentlib-")
	b.WriteString(c.ID)
	field := func(name, value string) {
		b.WriteString(",\n  ")
		b.WriteString(name)
		b.WriteString(" = {")
		b.WriteString(value)
		b.WriteString("}")
	}
	field("author", "{incidentlib}")
	field("title", "{"+c.ID+"}: "+bibEscape(title))
	if c.Date.Known() {
		field("year", fmt.Sprintf("%04d", c.Date.Year))
	}
	field("organization", bibEscape(org))
	field("howpublished", bibEscape(fmt.Sprintf(str.Get(lang, "cite.published"), l.Version)))
	field("note", bibEscape(fmt.Sprintf(str.Get(lang, "cite.note"), org, date)))
	field("url", addr)
	b.WriteString("\n}\n")
	return Citation{BibTeX: b.String(), Text: text}
}

// bibEscape keeps text from closing a BibTeX value or starting a command:
// braces and backslashes become words BibTeX prints as such, and the
// characters TeX treats specially are escaped.
var bibEscape = strings.NewReplacer(
	`\`, `\textbackslash{}`, "{", `\{`, "}", `\}`,
	"%", `\%`, "&", `\&`, "#", `\#`, "_", `\_`, "$", `\$`, "^", `\^{}`, "~", `\~{}`,
).Replace
