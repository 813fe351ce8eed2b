package library

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/related"
	"incidentlib/internal/repotest"
)

func loadContent(t testing.TB, fsys fstest.MapFS) *cases.Library {
	t.Helper()
	lib, list := cases.Load(fsys)
	if list.Errors() > 0 {
		t.Fatalf("content has errors: %v", list.Err())
	}
	return lib
}

func contentFS(t testing.TB) fstest.MapFS { return repotest.MapFS(t, "content") }

// testLib is a Library with the shipped UI strings, which its reasons
// are written in.
type testLib struct {
	*Library
	strings l10n.Strings
}

// shippedStrings are the UI strings of the embedded theme.
func shippedStrings(t testing.TB) l10n.Strings {
	t.Helper()
	data, err := fs.ReadFile(incidentlib.Templates(), "strings.json")
	if err != nil {
		t.Fatal(err)
	}
	str, err := l10n.ParseStrings(data)
	if err != nil {
		t.Fatal(err)
	}
	return str
}

// derived derives lib with the search index's words.
func derived(t testing.TB, lib *cases.Library) *testLib {
	t.Helper()
	return &testLib{Library: Derive(lib), strings: shippedStrings(t)}
}

func (l *testLib) Reason(lang string, kind related.Kind, r related.Reason) string {
	return l.Library.Reason(l.strings, lang, kind, r)
}

func (l *testLib) label(lang string, f *cases.Facet, id string) string {
	return label(l.Lib, lang, f, id)
}
