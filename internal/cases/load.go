package cases

import (
	"io/fs"
	"strconv"

	"incidentlib/internal/cases/internal/offheap"
	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// Load reads a content folder. It always returns every problem it found; the
// library is usable only when the list holds no errors.
func Load(fsys fs.FS) (*Library, diag.List) {
	return load(fsys, nil)
}

// LoadOffHeap is Load for a process that builds once and exits: the strings
// of the cases, and what Keep holds, live outside the garbage-collected heap
// for the life of the process. At 100,000 cases that is about a gigabyte the
// collector neither counts nor walks (see package offheap). A server, which
// loads again on every edit, must use Load: this memory is never freed.
func LoadOffHeap(fsys fs.FS) (*Library, diag.List) {
	return load(fsys, new(offheap.Arena))
}

func load(fsys fs.FS, text *offheap.Arena) (*Library, diag.List) {
	var list diag.List
	lib := &Library{ByID: map[string]*Case{}, Topics: map[string]map[string]Bilingual{}, text: text}

	glossary := loadGlossary(fsys, &list)
	if root := readJSON(fsys, "site.json", SiteSchema, &list); root != nil {
		lib.Settings = convertSettings(root)
		checkTranslations(root, &list)
		checkParticlesJSON(root, &list)
		checkGlossaryJSON(glossary, root, &list)
	}
	root := readJSON(fsys, "vocab.json", VocabSchema, &list)
	if root != nil {
		lib.Vocab = convertVocab(root.v, root, &list)
		checkParticlesJSON(root, &list)
		checkGlossaryJSON(glossary, root, &list)
	}
	lib.Vocab.Glossary = glossary
	lib.Vocab.broken = root == nil || !root.ok
	lib.Vocab.buildIndex()

	lib.Cases, lib.Drafts = loadCases(fsys, &lib.Vocab, text, &list)
	finish(lib, fsys, &list)
	return lib, list
}

// finish completes a library whose cases are read and sorted: the id index,
// the checks across cases, prose pages and topic introductions, and the
// report in a stable order. Load and Reload end the same way.
func finish(lib *Library, fsys fs.FS, list *diag.List) {
	for _, c := range lib.Cases {
		lib.ByID[c.ID] = c
	}
	checkRoot(fsys, list)
	crossCheck(lib, list)
	checkWithdrawals(lib, list)
	lib.Cases, lib.Withdrawn = splitWithdrawn(lib.Cases)
	checkOrgs(lib, list)
	lib.Prose = loadProse(fsys, lib.Vocab.Glossary, list)
	loadTopics(fsys, lib, list)
	list.Sort()
}

// parsed is a file parsed and checked against its schema.
type parsed struct {
	v    *jsonpos.Value
	doc  *jsonpos.Doc
	file string
	ok   bool // the schema check passed
}

func (p *parsed) pos(v *jsonpos.Value) (int, int) { return p.doc.Pos(v.Off) }

func readJSON(fsys fs.FS, name string, s *Schema, list *diag.List) *parsed {
	src, err := ReadContent(fsys, name)
	if err != nil {
		list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return nil
	}
	return parseChecked(new(jsonpos.Parser), string(src), name, s, list)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// parseChecked parses src with ps, so the result is valid until ps parses
// again.
func parseChecked(ps *jsonpos.Parser, src, name string, s *Schema, list *diag.List) *parsed {
	doc := ps.Parse(src)
	for _, p := range doc.Problems {
		line, col := doc.Pos(p.Off)
		list.Errorf(name, line, col, "", "%s", p.Msg)
	}
	if doc.Fatal {
		return nil
	}
	v := &validator{doc: doc, file: name, list: list}
	ok := v.validate(doc.Root, s, make(fieldPath, 0, 8))
	if doc.Root.Kind != jsonpos.Object {
		return nil
	}
	return &parsed{v: doc.Root, doc: doc, file: name, ok: ok}
}

// The conversions below run after the schema check, so they may assume the
// right kinds; where a value had the wrong kind they leave the zero value.

func getStr(v *jsonpos.Value, key string) string {
	if m := v.Get(key); m != nil && m.Kind == jsonpos.String {
		return m.Str
	}
	return ""
}

func getText(v *jsonpos.Value, key string) Bilingual {
	m := v.Get(key)
	if m == nil || m.Kind != jsonpos.Object {
		return Bilingual{}
	}
	return Bilingual{En: getStr(m, "en"), Ko: getStr(m, "ko")}
}

// getTextOrString reads a field that is either {en, ko} or one plain string.
// A plain string is English with no Korean side, except "unknown", which
// means the same in both languages.
func getTextOrString(v *jsonpos.Value, key string) Bilingual {
	m := v.Get(key)
	if m != nil && m.Kind == jsonpos.String {
		if m.Str == "unknown" {
			return Bilingual{En: m.Str, Ko: m.Str}
		}
		return Bilingual{En: m.Str}
	}
	return getText(v, key)
}

func getList(v *jsonpos.Value, key string) []*jsonpos.Value {
	if m := v.Get(key); m != nil && m.Kind == jsonpos.Array {
		return m.Items
	}
	return nil
}

func getStrings(v *jsonpos.Value, key string) []string {
	var out []string
	for _, it := range getList(v, key) {
		if it.Kind == jsonpos.String {
			out = append(out, it.Str)
		}
	}
	return out
}

func getObj(v *jsonpos.Value, key string) *jsonpos.Value {
	if m := v.Get(key); m != nil && m.Kind == jsonpos.Object {
		return m
	}
	return &jsonpos.Value{Kind: jsonpos.Object}
}

func convertSettings(p *parsed) Settings {
	v := p.v
	s := Settings{
		Title:       getText(v, "title"),
		Description: getText(v, "description"),
		BaseURL:     getStr(v, "base_url"),
		PageSize:    20,
	}
	if n := v.Get("page_size"); n != nil && n.Kind == jsonpos.Number {
		if size, err := strconv.Atoi(n.Str); err == nil && size >= minPageSize && size <= maxPageSize {
			s.PageSize = size
		}
	}
	co := getObj(v, "callout")
	s.Callout = Callout{Title: getText(co, "title"), Text: getText(co, "text")}
	if l := co.Get("link"); l != nil && l.Kind == jsonpos.Object {
		s.Callout.Link = Link{Label: getText(l, "label"), URL: getStr(l, "url")}
	}
	mcp := getObj(v, "mcp")
	s.MCP = MCP{URL: getStr(mcp, "url"), Tools: getStrings(mcp, "tools"), Note: getText(mcp, "note")}
	for _, l := range getList(v, "links") {
		s.Links = append(s.Links, Link{Label: getText(l, "label"), URL: getStr(l, "url")})
	}
	lic := getObj(v, "license")
	s.License = License{Name: getStr(lic, "name"), URL: getStr(lic, "url")}
	repo := getObj(v, "repository")
	s.Repository = Repository{URL: getStr(repo, "url"), EditURL: getStr(repo, "edit_url")}
	return s
}
