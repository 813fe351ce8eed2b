package api

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

// TestReadmeKoNamesEveryField checks that the Korean table describes every
// field and member of the case schema and every column of cases.csv that
// is not a facet's (those are described from their field), so that a new
// field cannot reach the zip's README.ko.md without a Korean line.
func TestReadmeKoNamesEveryField(t *testing.T) {
	for _, p := range cases.CaseSchema.Props {
		if koFieldDocs[p.Name] == "" {
			t.Errorf("field %s has no Korean description in koFieldDocs", p.Name)
		}
		for _, q := range p.Props {
			if koSubfieldDoc(p.Name, q.Name) == "" {
				t.Errorf("member %s.%s has no Korean description in koSubfieldDocs", p.Name, q.Name)
			}
		}
	}
	facets := map[string]bool{}
	for _, f := range listedFacets() {
		facets[f.Field] = true
	}
	for _, col := range csvColumns() {
		if !facets[col.name] && koColumnDocs[col.name] == "" {
			t.Errorf("column %s has no Korean description in koColumnDocs", col.name)
		}
	}
}

// TestZipReadmeKo reads README.ko.md out of the zip the API writes: it
// names every field and column, as README.md does, and every line that
// describes one is written in Korean.
func TestZipReadmeKo(t *testing.T) {
	files := written(t, repotest.MapFS(t, "content"))
	zr, err := zip.NewReader(bytes.NewReader(files[urls.APICasesZip]), int64(len(files[urls.APICasesZip])))
	if err != nil {
		t.Fatal(err)
	}
	var ko, en string
	for _, f := range zr.File {
		if f.Name != zipDir+"README.ko.md" && f.Name != zipDir+"README.md" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Name, ".ko.md") {
			ko = string(b)
		} else {
			en = string(b)
		}
	}
	if ko == "" || en == "" {
		t.Fatalf("the zip holds README.md (%d bytes) and README.ko.md (%d bytes)", len(en), len(ko))
	}
	names := func(s string) []string {
		var out []string
		for _, line := range strings.Split(s, "\n") {
			if name, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "- `"); ok {
				out = append(out, name[:strings.Index(name, "`")])
			}
		}
		return out
	}
	if e, k := strings.Join(names(en), " "), strings.Join(names(ko), " "); e != k {
		t.Errorf("README.ko.md names\n%s\nREADME.md names\n%s", k, e)
	}
	if len(names(ko)) < len(csvColumns())+len(cases.CaseSchema.Props) {
		t.Errorf("README.ko.md names %d fields and columns, want at least %d", len(names(ko)), len(csvColumns())+len(cases.CaseSchema.Props))
	}
	for _, line := range strings.Split(ko, "\n") {
		_, doc, ok := strings.Cut(line, "`: ")
		if ok && !strings.ContainsFunc(doc, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
			t.Errorf("README.ko.md: not in Korean: %s", line)
		}
	}
	if !strings.Contains(ko, "라이선스: ") {
		t.Error("README.ko.md names no licence")
	}
}
