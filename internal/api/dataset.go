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
