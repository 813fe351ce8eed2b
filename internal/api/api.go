// Package api writes the library as data for scripts and AI tools: the static
// JSON API under api/v1/ and the JSON Schema of the case format, from the
// model (package library) alone. Everything here is plain files; nothing
// runs on a server. (llms.txt and the Markdown twin of a case page are
// written from the theme's templates: package site renders them.)
package api

import (
	"slices"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/related"
	"incidentlib/internal/urls"
)

// Write writes every API file through write. The data passed to write is
// valid only during the call: the files are built in buffers that are
// reused for the next one.
//
// str are the UI strings the reasons of related cases are written in, and
// base the site's public URL, ending in a slash. (llms.txt, written from
// the theme, is package site's: site.LLMs.)
func Write(l *library.Library, str l10n.Strings, base string, write func(path string, data []byte) error) error {
	return WriteStreamed(l, str, base, write, nil)
}

// WriteStreamed is Write with the large downloads (cases.jsonl, cases.csv,
// the zip) written through create as they are made rather than given to
// write whole; a nil create gathers them in memory for write.
func WriteStreamed(l *library.Library, str l10n.Strings, base string, write func(path string, data []byte) error, create Create) error {
	if create == nil {
		create = buffered(write)
	}
	w := &writer{l: l, str: str, lib: l.Lib, base: base, create: create, pending: map[[2]int32]pendingReasons{}}
	// The zip takes vocab.json and the schemas as they are written.
	kept := map[string][]byte{}
	w.write = func(path string, data []byte) error {
		if slices.Contains(zipExtras, path) {
			kept[path] = slices.Clone(data)
		}
		return write(path, data)
	}
	w.refs = make(map[string]caseRef, len(w.lib.Cases)+len(w.lib.Withdrawn))
	for i, c := range w.lib.Cases {
		w.refs[c.ID] = w.ref(c, i)
	}
	for i, c := range w.lib.Withdrawn {
		w.refs[c.ID] = w.ref(c, len(w.lib.Cases)+i)
	}
	defer func() { w.bulk.abort() }()
	if err := w.startBulk(); err != nil {
		return err
	}
	for _, step := range []func() error{w.caseFiles, w.list, w.vocab, w.topics, w.schema, func() error { return w.finishBulk(kept) }, w.sources, w.changes} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

type writer struct {
	l      *library.Library
	str    l10n.Strings
	lib    *cases.Library
	write  func(string, []byte) error
	create Create
	base   string

	buf  []byte             // the file being built
	refs map[string]caseRef // by case id
	// pending holds the reasons of the links from a case to one later in
	// the library, by the positions of the two, until the later one's file
	// takes them for its link back (see related).
	pending map[[2]int32]pendingReasons
	rel     []relLink
	bulk    *bulk // the downloads, gathered as the case files are written (bulk.go)
	// checkTexts are the checklist's items' texts as JSON, by their
	// index, as the topics' files came to them (appendChecklist).
	checkTexts [][]byte
}

// pendingReasons are the reasons of a link in both languages, with what
// they were written from.
type pendingReasons struct {
	kind   related.Kind
	reason related.Reason
	text   [2]string
}

// SchemaPath is where the JSON Schema of the case format is published, from
// the site root.
var SchemaPath = urls.APISchema

// caseRef is what every file that names a case says about it, encoded once
// as JSON: a case is named in cases.json and in the similar.json of each
// case it is related to.
type caseRef struct {
	title []byte // {"en":…,"ko":…}
	pages []byte // {"en":url,"ko":url}
	json  []byte // "url" of its file in the API
	pos   int32  // the case's position in the library
}

func (w *writer) ref(c *cases.Case, pos int) caseRef {
	title := appendPair(nil, c.Title.En, c.Title.Ko)
	pages := appendPair(nil, w.base+urls.Case("en", c.ID), w.base+urls.Case("ko", c.ID))
	return caseRef{title: title, pages: pages, json: appendString(nil, w.base+urls.APICase(c.ID)), pos: int32(pos)}
}

// listedFacets are the facets whose terms cases.json gives with each case,
// by their member of the case file: the impact level, those of the first
// version in their order, then any other of the table's.
func listedFacets() []*cases.Facet {
	out := []*cases.Facet{cases.ImpactLevels, cases.Severities, cases.RootCauses, cases.Components, cases.Symptoms, cases.Contributing, cases.Domains}
	for _, f := range cases.Facets {
		if f.Field != "" && f.Kind != cases.Derived && f != cases.Orgs && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// list writes cases.json: every case in a few fields, newest first.
func (w *writer) list() error {
	out := w.spill(urls.APICases)
	b := append(w.buf[:0], `{"version":`...)
	b = appendString(b, urls.APIVersion)
	b = appendString(appendKey(b, "library_version"), w.l.Version)
	b = appendString(appendKey(b, "license"), w.lib.Settings.License.Name)
	b = append(b, `,"count":`...)
	b = appendInt(b, len(w.lib.Cases))
	b = append(b, `,"withdrawn":`...)
	b = appendInt(b, len(w.lib.Withdrawn))
	b = append(b, `,"cases":[`...)
	all := w.lib.Cases
	if len(w.lib.Withdrawn) > 0 {
		// Withdrawn cases stay in the API, marked, after the listed ones.
		all = append(slices.Clip(all), w.lib.Withdrawn...)
	}
	for i, c := range all {
		if i > 0 {
			b = append(b, ',')
		}
		ref := w.refs[c.ID]
		b = appendString(append(b, `{"id":`...), c.ID)
		b = appendString(appendKey(b, "org"), c.Org)
		b = appendString(appendKey(b, "org_slug"), c.OrgSlug)
		if c.OrgKo != "" {
			// Only a description has a Korean name ("Unnamed company").
			b = appendString(appendKey(b, "org_ko"), c.OrgKo)
		}
		if b = appendKey(b, "date"); c.Date.Known() {
			b = appendString(b, c.Date.String())
		} else {
			b = append(b, "null"...)
		}
		b = appendString(appendKey(b, "date_kind"), c.DateKind)
		b = append(appendKey(b, "title"), ref.title...)
		for _, f := range listedFacets() {
			if ids := f.Terms(c); f.Kind == cases.Many {
				b = appendStrings(appendKey(b, f.Field), ids)
			} else {
				b = appendString(appendKey(b, f.Field), strings.Join(ids, ""))
			}
		}
		b = appendAffected(b, c)
		b = appendKey(b, "updated_at")
		b = append(b, '"')
		b = c.UpdatedAt.AppendFormat(b, "2006-01-02T15:04:05Z07:00") // digits, signs and colons only
		b = append(b, '"')
		b = append(appendKey(b, "pages"), ref.pages...)
		b = append(appendKey(b, "json"), ref.json...)
		b = w.appendCitation(b, c)
		b = appendWithdrawal(b, c.Withdrawn)
		b = out.flush(append(b, '}'))
	}
	return out.close(append(b, "]}\n"...))
}

// relLink is one related case as both files of a case show it.
type relLink struct {
	related.Link
	reason [2]string // in cases.Languages order
	ref    caseRef   // the linked case
}

// related returns the related cases of the case at position a with their
// reasons in both languages, as similar.json shows them.
//
// Most links are written twice, once from each of their cases, and their
// reasons are most often the same both ways: a link to a later case keeps
// its reasons until that case's file takes them for the link back, when it
// was written from the same kind and the same shared terms and words, in
// the same order (else it is written anew). Only the links that cross the
// case being written are held, by position: remembering every reason by
// what it is written from held 20 MB at 10,000 cases until the last file.
func (w *writer) related(c *cases.Case, a int32) []relLink {
	out := w.rel[:0]
	for _, g := range w.l.Related(c.ID) {
		for _, l := range g.Links {
			rl := relLink{Link: l, ref: w.refs[l.ID]}
			b := rl.ref.pos
			if b < a {
				k := [2]int32{b, a}
				if p, ok := w.pending[k]; ok {
					delete(w.pending, k)
					if p.kind == l.Kind && sameReason(p.reason, l.Reason) {
						rl.reason = p.text
						out = append(out, rl)
						continue
					}
				}
			}
			for i, lang := range cases.Languages {
				rl.reason[i] = w.l.Reason(w.str, lang, l.Kind, l.Reason)
			}
			if b > a {
				w.pending[[2]int32{a, b}] = pendingReasons{kind: l.Kind, reason: l.Reason, text: rl.reason}
			}
			out = append(out, rl)
		}
	}
	w.rel = out
	return out
}

// sameReason reports whether two reasons name the same shared terms and
// words in the same order, so that a sentence written from one says the
// other.
func sameReason(a, b related.Reason) bool {
	return a.SameRootCause == b.SameRootCause && slices.Equal(a.Components, b.Components) &&
		slices.Equal(a.Contributing, b.Contributing) && slices.Equal(a.Symptoms, b.Symptoms) && slices.Equal(a.Words, b.Words)
}

// caseFiles writes, for every case, its JSON as it is in the input and its
// similar.json.
func (w *writer) caseFiles() error {
	files := cases.OpenCaseFiles(w.lib)
	defer files.Close()
	all := w.lib.Cases
	if len(w.lib.Withdrawn) > 0 {
		all = append(slices.Clip(all), w.lib.Withdrawn...)
	}
	for i, c := range all {
		// The case as in the input, byte for byte.
		var err error
		if w.buf, err = files.AppendRaw(c, w.buf[:0]); err != nil {
			return err
		}
		if err := w.write(urls.APICase(c.ID), w.buf); err != nil {
			return err
		}
		if err := w.bulk.addCase(c, w.buf); err != nil {
			return err
		}
		w.buf = w.similar(w.buf[:0], c, w.related(c, int32(i)))
		if err := w.write(urls.APISimilar(c.ID), w.buf); err != nil {
			return err
		}
	}
	return nil
}

// similar appends similar.json, a case's related cases with the reasons.
func (w *writer) similar(b []byte, c *cases.Case, rel []relLink) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, c.ID)
	b = append(b, `,"similar":[`...)
	for i, l := range rel {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendString(b, l.ID)
		b = appendString(appendKey(b, "kind"), l.Kind.String())
		// The score is cut to three decimals, so it is zero or at least
		// 0.001 and far below 1e21: encoding/json writes such a number
		// without an exponent, in the fewest digits that read back the same.
		b = strconv.AppendFloat(appendKey(b, "score"), float64(int(l.Score*1000))/1000, 'f', -1, 64)
		b = appendPair(appendKey(b, "reason"), l.reason[0], l.reason[1])
		b = append(b, `,"shared":{"same_root_cause":`...)
		b = strconv.AppendBool(b, l.SameRootCause)
		b = appendStrings(appendKey(b, "components"), l.Components)
		b = appendStrings(appendKey(b, "contributing"), l.Contributing)
		b = appendStrings(appendKey(b, "symptoms"), l.Symptoms)
		b = append(b, `},"title":`...)
		b = append(b, l.ref.title...)
		b = append(b, `,"pages":`...)
		b = append(b, l.ref.pages...)
		b = append(b, '}')
	}
	return append(b, "]}\n"...)
}

// vocab writes vocab.json: every term of every controlled field with its
// labels, its number of cases and its pages.
func (w *writer) vocab() error {
	// Fields in alphabetical order, as in every earlier vocab.json.
	var fields []string
	for _, f := range cases.ControlledFacets() {
		fields = append(fields, f.Field)
	}
	slices.Sort(fields)
	b := append(w.buf[:0], '{')
	for i, field := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		facet := cases.FacetOfField(field).Name
		b = append(appendString(b, field), ':', '[')
		for j, t := range w.lib.Vocab.Terms(field) {
			if j > 0 {
				b = append(b, ',')
			}
			n := 0
			if tp := w.l.Topics()[facet].Topic(t.ID); tp != nil {
				n = len(tp.Cases)
			}
			b = appendString(append(b, `{"id":`...), t.ID)
			b = appendString(appendKey(b, "en"), t.Label.En)
			b = appendString(appendKey(b, "ko"), t.Label.Ko)
			if !t.Description.IsZero() {
				b = appendPair(appendKey(b, "description"), t.Description.En, t.Description.Ko)
			}
			b = appendInt(appendKey(b, "cases"), n)
			b = appendPair(appendKey(b, "topic"), w.base+urls.Topic("en", facet, t.ID, 1), w.base+urls.Topic("ko", facet, t.ID, 1))
			b = appendString(appendKey(b, "json"), w.base+urls.APITopic(facet, t.ID))
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, "}\n"...)
	w.buf = b
	return w.write(urls.APIVocab, b)
}

// topics writes a file for every topic: its label, statistics and cases.
func (w *writer) topics() error {
	statKeys := statsKeys()
	for _, facet := range cases.FacetNames() {
		for _, t := range w.l.Topics()[facet].Topics {
			st := t.Stats()
			out := w.spill(urls.APITopic(facet, t.ID))
			b := append(w.buf[:0], `{"facet":`...)
			b = appendString(b, facet)
			b = appendString(appendKey(b, "id"), t.ID)
			b = appendPair(appendKey(b, "label"), t.Label.En, t.Label.Ko)
			if !t.Description.IsZero() {
				b = appendPair(appendKey(b, "description"), t.Description.En, t.Description.Ko)
			}
			b = appendInt(appendKey(b, "count"), len(t.Cases))
			b = appendPair(appendKey(b, "pages"), w.base+urls.Topic("en", facet, t.ID, 1), w.base+urls.Topic("ko", facet, t.ID, 1))
			b = append(b, `,"stats":`...)
			b = appendStats(b, st, statKeys)
			if cases.FacetByName(facet).Shows(cases.InChecklist) {
				b = w.appendChecklist(b, t, out)
			}
			// Ids only, newest first: a large topic lists thousands of cases,
			// and cases.json already holds each case's summary once.
			b = append(b, `,"cases":[`...)
			for i, c := range t.Cases {
				if i > 0 {
					b = append(b, ',')
				}
				b = out.flush(appendString(b, c.ID))
			}
			b = appendString(append(b, `],"cases_json":`...), w.base+urls.APICases)
			if err := out.close(append(b, "}\n"...)); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendCounts appends [{"id":…,"cases":n},…].
// statsKeys are the keys of a topic's statistics in alphabetical order:
// encoding/json wrote them from a map, and published files keep that order.
// A facet's most common terms are under its argument name ("root_causes").
func statsKeys() []statsKey {
	var keys []statsKey
	for _, k := range []string{"known_detect", "known_resolve", "median_minutes_to_detect", "median_minutes_to_resolve", "years"} {
		keys = append(keys, statsKey{key: k})
	}
	for _, f := range cases.StatsFacets() {
		keys = append(keys, statsKey{f.Arg(), f.Name})
	}
	slices.SortFunc(keys, func(a, b statsKey) int { return strings.Compare(a.key, b.key) })
	return keys
}

// statsKey is a key of a topic's statistics, and the facet whose most
// common terms it holds, if any.
type statsKey struct{ key, facet string }

// appendStats appends a topic's statistics: an object with the keys.
func appendStats(b []byte, st *library.Stats, keys []statsKey) []byte {
	b = append(b, '{')
	for i, sk := range keys {
		k := sk.key
		if i == 0 {
			b = append(appendString(b, k), ':')
		} else {
			b = appendKey(b, k)
		}
		switch {
		case sk.facet != "":
			b = appendCounts(b, st.Top[sk.facet])
		case k == "known_detect":
			b = appendInt(b, st.KnownDetect)
		case k == "known_resolve":
			b = appendInt(b, st.KnownResolve)
		case k == "median_minutes_to_detect":
			b = appendMinutes(b, st.MedianDetect)
		case k == "median_minutes_to_resolve":
			b = appendMinutes(b, st.MedianResolve)
		case k == "years":
			b = appendCounts(b, st.Years)
		}
	}
	return append(b, '}')
}

func appendCounts(b []byte, tcs []library.TermCount) []byte {
	b = append(b, '[')
	for i, tc := range tcs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"id":`...), tc.ID)
		b = append(appendInt(appendKey(b, "cases"), tc.Count), '}')
	}
	return append(b, ']')
}

// appendMinutes appends a median in minutes, or null when none is known.
func appendMinutes(b []byte, m *int) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	return appendInt(b, *m)
}

// schema writes the JSON Schemas of the content's formats: a case,
// site.json and vocab.json, made from the schemas the loader checks with.
func (w *writer) schema() error {
	for _, s := range []struct {
		path, title string
		schema      *cases.Schema
	}{
		{SchemaPath, "incidentlib case", cases.CaseSchema},
		{urls.APISiteSchema, "incidentlib site.json", cases.SiteSchema},
		{urls.APIVocabSchema, "incidentlib vocab.json", cases.VocabSchema},
	} {
		if err := w.write(s.path, cases.JSONSchema(s.schema, w.base+s.path, s.title)); err != nil {
			return err
		}
	}
	return nil
}
