package api

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// appendCitation appends how to cite a case: the plain reference in both
// languages and the BibTeX entry in English (library.Cite).
func (w *writer) appendCitation(b []byte, c *cases.Case) []byte {
	en := w.l.Cite(w.str, "en", c, w.base+urls.Case("en", c.ID))
	ko := w.l.Cite(w.str, "ko", c, w.base+urls.Case("ko", c.ID))
	b = appendPair(appendKey(b, "citation"), en.Text, ko.Text)
	return appendString(appendKey(b, "bibtex"), en.BibTeX)
}

// appendWithdrawal appends a withdrawn case's withdrawn member, as the
// case file writes it; nothing for a listed case.
func appendWithdrawal(b []byte, wd *cases.Withdrawal) []byte {
	if wd == nil {
		return b
	}
	b = appendString(append(appendKey(b, "withdrawn"), `{"date":`...), wd.Date.String())
	b = appendPair(appendKey(b, "reason"), wd.Reason.En, wd.Reason.Ko)
	b = appendStrings(appendKey(b, "replaced_by"), wd.ReplacedBy)
	return append(b, '}')
}

// sources writes sources.json: every source address, normalised
// (library.NormalizeSource), with the ids of the cases that cite it, so
// that a script can tell whether a post-mortem is in the library.
func (w *writer) sources() error {
	addrs, ids := library.SourceCases(w.lib)
	b := append(w.buf[:0], `{"library_version":`...)
	b = appendString(b, w.l.Version)
	b = appendInt(appendKey(b, "count"), len(addrs))
	b = append(b, `,"sources":{`...)
	for i, a := range addrs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, a), ':')
		b = appendStrings(b, ids[a])
	}
	b = append(b, "}}\n"...)
	w.buf = b
	return w.write(urls.APISources, b)
}

// changes writes changes.json: the library's log of changes
// (library.Changes), newest first, and where it comes from: "source" is
// "git" with the commit it was read at, each change with its commit and
// the fields it changed, or "updated_at".
func (w *writer) changes() error {
	list := w.l.Changes()
	b := append(w.buf[:0], `{"library_version":`...)
	b = appendString(b, w.l.Version)
	source, commit := w.l.ChangesSource()
	b = appendString(appendKey(b, "source"), source)
	if commit != "" {
		b = appendString(appendKey(b, "commit"), commit)
	}
	b = appendInt(appendKey(b, "count"), len(list))
	b = appendPair(appendKey(b, "feeds"), w.base+urls.Changes("en"), w.base+urls.Changes("ko"))
	b = append(b, `,"changes":[`...)
	for i, ch := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"id":`...), ch.Case.ID)
		b = appendString(appendKey(b, "change"), ch.Kind)
		b = append(appendKey(b, "at"), '"')
		b = ch.At.AppendFormat(b, "2006-01-02T15:04:05Z07:00")
		b = append(b, '"')
		if ch.Commit != "" {
			b = appendString(appendKey(b, "commit"), ch.Commit)
			b = appendStrings(appendKey(b, "fields"), ch.Fields)
		}
		b = appendString(appendKey(b, "json"), w.base+urls.APICase(ch.Case.ID))
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	w.buf = b
	return w.write(urls.APIChanges, b)
}
