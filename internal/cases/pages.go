package cases

import (
	"bytes"
	"io/fs"
	"sort"
	"strings"
	"unicode/utf8"

	"incidentlib/internal/diag"
	"incidentlib/internal/urls"
)

// loadProse reads content/pages/<slug>.<lang>.md.
func loadProse(fsys fs.FS, glossary *Glossary, list *diag.List) []Prose {
	entries := readDir(fsys, pagesDir, list) // prose pages are optional
	bySlug := map[string]*Prose{}
	var slugs []string
	for _, e := range entries {
		name := pagesDir + "/" + e.Name()
		slug, lang, ok := splitLangFile(e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			hidden(name, list)
			continue
		}
		if dir, err := isDir(fsys, name, e); err != nil || dir {
			notAFile(name, pagesDir+"/", err, list)
			continue
		}
		if !ok || !isSlug(slug) {
			list.Errorf(name, 0, 0, "", "a page file is named <slug>.<en|ko>.md with a lower-case slug")
			continue
		}
		if msg := checkSlug(slug); msg != "" {
			list.Errorf(name, 0, 0, "", "%s", msg)
			continue
		}
		if reservedSlug(slug) {
			list.Errorf(name, 0, 0, "", "%q is taken by the site's own pages (/<lang>/%s/); choose another name", slug, slug)
			continue
		}
		body, ok := readText(fsys, name, list)
		if !ok {
			continue
		}
		pg := bySlug[slug]
		if pg == nil {
			pg = &Prose{Slug: slug}
			bySlug[slug] = pg
			slugs = append(slugs, slug)
		}
		checkParticlesText(name, body, list)
		if lang == "ko" {
			checkGlossaryText(glossary, name, body, list)
		}
		setLang(&pg.Body, lang, body)
		setLang(&pg.File, lang, name)
	}
	sort.Strings(slugs)
	var out []Prose
	for _, s := range slugs {
		pg := bySlug[s]
		for _, lang := range Languages {
			if pg.Body.Get(lang) == "" {
				list.Warnf(pagesDir+"/"+s+"."+Other(lang)+".md", 0, 0, "", "no %s version (%s/%s.%s.md): that page shows this text, marked as not translated", langName(lang), pagesDir, s, lang)
			}
		}
		out = append(out, *pg)
	}
	return out
}

// notAFile reports an entry of a folder of Markdown files that is a folder,
// or that cannot be read (a link that leads nowhere or round in a loop).
func notAFile(name, in string, err error, list *diag.List) {
	if err != nil {
		list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return
	}
	list.Errorf(name, 0, 0, "", "a folder in %s is not read: the Markdown files go directly in %s", in, in)
}

// reservedSlug reports whether a prose page would take the address of one of
// the site's own sections.
func reservedSlug(slug string) bool {
	return FacetByName(slug) != nil || urls.ReservedSlug(slug)
}

func langName(lang string) string {
	if lang == "ko" {
		return "Korean"
	}
	return "English"
}

func splitLangFile(name string) (stem, lang string, ok bool) {
	if !strings.HasSuffix(name, ".md") {
		return "", "", false
	}
	base := strings.TrimSuffix(name, ".md")
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return "", "", false
	}
	stem, lang = base[:i], base[i+1:]
	return stem, lang, lang == "en" || lang == "ko"
}

func setLang(t *Bilingual, lang, s string) {
	if lang == "ko" {
		t.Ko = s
	} else {
		t.En = s
	}
}

func readText(fsys fs.FS, name string, list *diag.List) (string, bool) {
	b, err := ReadContent(fsys, name)
	if err != nil {
		list.Errorf(name, 0, 0, "", "cannot read: %v", unwrapPathError(err))
		return "", false
	}
	if !utf8.Valid(b) {
		line, col := 1, 1
		for i := 0; i < len(b); {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += n
		}
		list.Errorf(name, line, col, "", "invalid UTF-8")
		return "", false
	}
	// A byte-order mark at the start is no text, as in JSON files.
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if len(b) > maxTextBytes {
		list.Errorf(name, 0, 0, "", "%s", textTooLong(len(b)))
		return "", false
	}
	if line, col, r, ok := controlChar(b); ok {
		list.Errorf(name, line, col, "", "control character %U: only tabs and line breaks may be in text", r)
		return "", false
	}
	return string(b), true
}

// controlChar finds the first control character of text other than tab
// and line break (a carriage return before a line feed is a line break).
func controlChar(b []byte) (line, col int, r rune, found bool) {
	line, col = 1, 1
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r == '\t', r == '\r' && i+1 < len(b) && b[i+1] == '\n':
		case r < 0x20, r >= 0x7f && r <= 0x9f:
			return line, col, r, true
		}
		col++
		i += n
	}
	return 0, 0, 0, false
}
