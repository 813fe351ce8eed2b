package api

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"io"
	"maps"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode"

	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

// TestCSVRoundTrip reads cases.csv with encoding/csv held to RFC 4180 (no
// lazy quotes, every record as wide as the header, CRLF line ends) and
// finds every field of every case, listed and withdrawn, as the model
// holds it; the library's text has Korean, commas, quotes and line breaks
// in its fields, which the test makes sure of.
func TestCSVRoundTrip(t *testing.T) {
	fsys := repotest.MapFS(t, "content")
	files := written(t, fsys)
	lib, _ := cases.Load(fsys)
	l := library.Derive(lib)
	data := files[urls.APICasesCSV]
	if !bytes.HasPrefix(data, []byte("\uFEFFid,")) {
		t.Fatalf("cases.csv does not start with a byte order mark and its header: %q", data[:min(len(data), 20)])
	}
	if !bytes.HasSuffix(data, []byte("\r\n")) || bytes.Contains(bytes.ReplaceAll(data, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("cases.csv has a line end other than CRLF")
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	r.FieldsPerRecord = 0
	records, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := csvColumns()
	if len(records[0]) != len(cols) {
		t.Fatalf("header has %d columns, want %d", len(records[0]), len(cols))
	}
	all := append(append([]*cases.Case{}, lib.Cases...), lib.Withdrawn...)
	if len(records)-1 != len(all) || len(lib.Withdrawn) == 0 {
		t.Fatalf("%d rows for %d cases (%d withdrawn)", len(records)-1, len(all), len(lib.Withdrawn))
	}
	w := &writer{l: l, lib: lib, base: lib.Settings.BaseURL}
	var seen struct{ hangul, comma, quote, newline bool }
	for i, c := range all {
		row := records[i+1]
		for j, col := range cols {
			// encoding/csv reads a quoted CRLF as LF, as it should.
			want := strings.ReplaceAll(col.val(w, c), "\r\n", "\n")
			if row[j] != want {
				t.Errorf("%s: column %s reads %q, want %q", c.ID, col.name, row[j], want)
			}
			f := row[j]
			seen.hangul = seen.hangul || strings.IndexFunc(f, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) >= 0
			seen.comma = seen.comma || strings.Contains(f, ",")
			seen.quote = seen.quote || strings.Contains(f, `"`)
			seen.newline = seen.newline || strings.Contains(f, "\n")
		}
	}
	if !seen.hangul || !seen.comma || !seen.quote || !seen.newline {
		t.Errorf("the library's text does not test every kind of field: %+v", seen)
	}
	if got := records[1][len(cols)-2]; got == "" || got != l.Version {
		t.Errorf("library_version column is %q, want %q", got, l.Version)
	}
}

// TestJSONLValidates loads every line of cases.jsonl as a case file of the
// library: each must pass the case schema and every check, and name the
// library's version.
func TestJSONLValidates(t *testing.T) {
	fsys := repotest.MapFS(t, "content")
	files := written(t, fsys)
	lib, _ := cases.Load(fsys)
	version := library.Derive(lib).Version
	lines := strings.Split(strings.TrimSuffix(string(files[urls.APICasesJSONL]), "\n"), "\n")
	if want := len(lib.Cases) + len(lib.Withdrawn); len(lines) != want {
		t.Fatalf("cases.jsonl has %d lines, want %d", len(lines), want)
	}
	re := fstest.MapFS{}
	for p, f := range fsys {
		if !strings.HasPrefix(p, "cases/") {
			re[p] = f
		}
	}
	for i, line := range lines {
		if !strings.Contains(line, `"incidentlib":{"library_version":"`+version+`"`) {
			t.Errorf("line %d does not name the library's version %s", i+1, version)
		}
		id := line[strings.Index(line, `"id":"`)+6:]
		id = id[:strings.IndexByte(id, '"')]
		re["cases/"+id+".json"] = &fstest.MapFile{Data: []byte(line)}
	}
	again, list := cases.Load(re)
	for _, d := range list.Items {
		if !d.Warning {
			t.Errorf("a line of cases.jsonl does not pass the checks: %s", d.String())
		}
	}
	if len(again.Cases) != len(lib.Cases) || len(again.Withdrawn) != len(lib.Withdrawn) {
		t.Errorf("cases.jsonl reads as %d cases and %d withdrawn, want %d and %d", len(again.Cases), len(again.Withdrawn), len(lib.Cases), len(lib.Withdrawn))
	}
}

// TestZipHoldsTheFiles unpacks the zip: its case files, vocab.json and the
// schemas are the API's own bytes, and its README names every column.
func TestZipHoldsTheFiles(t *testing.T) {
	files := written(t, repotest.MapFS(t, "content"))
	zr, err := zip.NewReader(bytes.NewReader(files[urls.APICasesZip]), int64(len(files[urls.APICasesZip])))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for p, data := range files {
		if strings.HasPrefix(p, "api/v1/cases/") && strings.HasSuffix(p, ".json") && strings.Count(p, "/") == 3 || p == urls.APIVocab || strings.HasPrefix(p, "api/v1/schema/") {
			want[zipDir+strings.TrimPrefix(p, urls.APIDir)] = data
		}
	}
	got := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if f.Modified.Before(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("%s is dated %v", f.Name, f.Modified)
		}
		got[f.Name] = b
	}
	readme := string(got[zipDir+"README.md"])
	delete(got, zipDir+"README.md")
	if len(got[zipDir+"README.ko.md"]) == 0 {
		t.Error("the zip holds no README.ko.md")
	}
	delete(got, zipDir+"README.ko.md")
	if !maps.EqualFunc(got, want, bytes.Equal) {
		for name := range want {
			if !bytes.Equal(got[name], want[name]) {
				t.Errorf("%s: not in the zip as the API writes it", name)
			}
		}
		for name := range got {
			if want[name] == nil {
				t.Errorf("%s: in the zip, not in the API", name)
			}
		}
	}
	for _, col := range csvColumns() {
		if !strings.Contains(readme, "`"+col.name+"`") {
			t.Errorf("README.md does not explain column %s", col.name)
		}
	}
	if !strings.Contains(readme, "Licence: ") {
		t.Error("README.md names no licence")
	}
}
