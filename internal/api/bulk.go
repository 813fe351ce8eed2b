package api

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/flate"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// The bulk downloads hold every case, listed and withdrawn, in one file
// each: cases.csv (a row a case, for spreadsheets), cases.jsonl (a case
// a line, as in its file, with the library's version and licence added
// as the member "incidentlib") and incidentlib-cases.zip (the case files
// as they are, vocab.json, the schemas and a README of the fields). They
// are made while the case files are written, from the bytes those read,
// so that the cases are read once.

// bulk writes the downloads while the API is written: each goes to its
// file as it is made, never whole in memory (cases.jsonl is 96 MB at
// 10,000 cases, the zip half that).
type bulk struct {
	jsonl   io.WriteCloser
	zipOut  io.WriteCloser
	zip     *zip.Writer
	line    bytes.Buffer // the line of cases.jsonl being made
	stamp   []byte       // the "incidentlib" member every line of cases.jsonl ends with
	version string
	day     time.Time // the version's day: the zip's entries are dated by it or by their case
	open    []io.WriteCloser
}

// Create opens a file of the output at a site path, to be written piece
// by piece; the file is whole once the writer is closed. A writer that
// also has a method Abort() is given up with it when the API fails half
// way.
type Create func(path string) (io.WriteCloser, error)

// buffered is the Create of a caller that takes files only whole: the
// file is gathered in memory and given to write when closed.
func buffered(write func(path string, data []byte) error) Create {
	return func(path string) (io.WriteCloser, error) {
		return &memFile{path: path, write: write}, nil
	}
}

type memFile struct {
	bytes.Buffer
	path  string
	write func(string, []byte) error
}

func (f *memFile) Close() error { return f.write(f.path, f.Bytes()) }

// zipDir is the folder the zip unpacks into.
const zipDir = "incidentlib-cases/"

func (w *writer) startBulk() error {
	lib := w.lib
	b := &bulk{version: w.l.Version}
	w.bulk = b
	b.stamp = append(b.stamp, `,"incidentlib":{"library_version":`...)
	b.stamp = appendString(b.stamp, w.l.Version)
	b.stamp = appendString(append(b.stamp, `,"license":`...), lib.Settings.License.Name)
	b.stamp = appendString(append(b.stamp, `,"license_url":`...), lib.Settings.License.URL)
	b.stamp = append(b.stamp, "}}\n"...)
	if d, err := time.Parse("2006-01-02", strings.SplitN(w.l.Version, ".", 2)[0]); err == nil {
		b.day = d
	} else {
		b.day = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	var err error
	if b.jsonl, err = b.create(w.create, urls.APICasesJSONL); err != nil {
		return err
	}
	if b.zipOut, err = b.create(w.create, urls.APICasesZip); err != nil {
		return err
	}
	b.zip = zip.NewWriter(b.zipOut)
	// The zip writes one entry at a time, so one compressor serves them
	// all: a new one for each of 10,000 files was most of the zip's cost.
	var fw *flate.Writer
	b.zip.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		if fw == nil {
			var err error
			fw, err = flate.NewWriter(out, zipLevel)
			return fw, err
		}
		fw.Reset(out)
		return fw, nil
	})
	return nil
}

// zipLevel is the deflate level of the zip's entries, with
// github.com/klauspost/compress/flate rather than compress/flate: on the
// case files of the generator (JSON, half of it Korean), its level 2
// deflates 2.6 times as fast as the standard library's fastest level, 1
// (0.9 s against 2.3 s of CPU for the 95 MB of 10,000 cases), to 49.2% of
// their size against 48.3%. The zip was half of the API's CPU. Any unzip
// reads the entries, which are plain deflate (TestZipHoldsTheFiles reads
// them back with archive/zip).
const zipLevel = 2

// create opens a download and remembers it until it is closed.
func (b *bulk) create(create Create, path string) (io.WriteCloser, error) {
	f, err := create(path)
	if err == nil {
		b.open = append(b.open, f)
	}
	return f, err
}

// close closes a download opened with create.
func (b *bulk) close(f io.WriteCloser) error {
	b.open = slices.DeleteFunc(b.open, func(o io.WriteCloser) bool { return o == f })
	return f.Close()
}

// abort gives up the downloads still open after a failure.
func (b *bulk) abort() {
	if b == nil {
		return
	}
	for _, f := range b.open {
		if a, ok := f.(interface{ Abort() }); ok {
			a.Abort()
		}
	}
	b.open = nil
}

// addCase adds a case file, raw as read, to the JSON Lines and the zip.
func (b *bulk) addCase(c *cases.Case, raw []byte) error {
	b.line.Reset()
	b.line.Write(appendCompact(b.line.AvailableBuffer(), raw))
	// Drop the closing brace, then add the member that names the library.
	end := bytes.LastIndexByte(b.line.Bytes(), '}')
	b.line.Truncate(end)
	if end == 1 { // "{}": no member before ours
		b.line.Write(b.stamp[1:])
	} else {
		b.line.Write(b.stamp)
	}
	if _, err := b.jsonl.Write(b.line.Bytes()); err != nil {
		return err
	}
	return b.file(zipDir+"cases/"+c.ID+".json", c.UpdatedAt, raw)
}

// file adds one file to the zip, dated as given.
func (b *bulk) file(name string, mod time.Time, data []byte) error {
	f, err := b.zip.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod.UTC()})
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return err
}

// finish writes cases.jsonl, cases.csv and the zip, which takes the other
// files the API wrote (vocab.json and the schemas) from kept.
func (w *writer) finishBulk(kept map[string][]byte) error {
	b := w.bulk
	if err := b.close(b.jsonl); err != nil {
		return err
	}
	csvFile, err := b.create(w.create, urls.APICasesCSV)
	if err != nil {
		return err
	}
	if err := w.casesCSV(csvFile); err != nil {
		return err
	}
	if err := b.close(csvFile); err != nil {
		return err
	}
	for _, p := range zipExtras {
		if err := b.file(zipDir+strings.TrimPrefix(p, urls.APIDir), b.day, kept[p]); err != nil {
			return err
		}
	}
	if err := b.file(zipDir+"README.md", b.day, w.readme()); err != nil {
		return err
	}
	if err := b.file(zipDir+"README.ko.md", b.day, w.readmeKo()); err != nil {
		return err
	}
	if err := b.zip.Close(); err != nil {
		return err
	}
	return b.close(b.zipOut)
}

// zipExtras are the API's files the zip holds beside the cases.
var zipExtras = []string{urls.APIVocab, urls.APISchema, urls.APISiteSchema, urls.APIVocabSchema}

// csvColumn is a column of cases.csv: its header and its value for a case.
type csvColumn struct {
	name string
	doc  string
	val  func(w *writer, c *cases.Case) string
}

// csvColumns are the columns of cases.csv, in order. Lists are joined with
// ";" (terms and ids hold none), the source addresses with a space (an
// address holds none, and may hold ";").
func csvColumns() []csvColumn {
	cols := []csvColumn{
		{"id", "The case's stable id.", func(_ *writer, c *cases.Case) string { return c.ID }},
		{"org", "The organisation that had the incident.", func(_ *writer, c *cases.Case) string { return c.Org }},
		{"org_slug", "The organisation's slug.", func(_ *writer, c *cases.Case) string { return c.OrgSlug }},
		{"date", "YYYY-MM-DD, YYYY-MM or YYYY; empty when the source gives none.", func(_ *writer, c *cases.Case) string { return c.Date.String() }},
		{"date_kind", "What the date is the date of: incident or published.", func(_ *writer, c *cases.Case) string { return c.DateKind }},
		{"title_en", "The title in English.", func(_ *writer, c *cases.Case) string { return c.Title.En }},
		{"title_ko", "The title in Korean.", func(_ *writer, c *cases.Case) string { return c.Title.Ko }},
		{"summary_en", "The summary in English, paragraphs apart by a blank line.", func(_ *writer, c *cases.Case) string { return c.Summary.En }},
		{"summary_ko", "The summary in Korean.", func(_ *writer, c *cases.Case) string { return c.Summary.Ko }},
	}
	for _, f := range listedFacets() {
		f := f
		cols = append(cols, csvColumn{f.Field, "Term ids of vocab.json's " + f.Field + ", joined with \";\".", func(_ *writer, c *cases.Case) string { return strings.Join(f.Terms(c), ";") }})
	}
	minutes := func(d *cases.Duration) string {
		if d == nil {
			return ""
		}
		return strconv.Itoa(int(*d))
	}
	cols = append(cols,
		csvColumn{"minutes_to_detect", "From the start of the impact to its detection, in minutes; empty when unknown.", func(_ *writer, c *cases.Case) string { return minutes(c.Timeline.DetectedAfter) }},
		csvColumn{"minutes_to_mitigate", "To its mitigation, in minutes; empty when unknown.", func(_ *writer, c *cases.Case) string { return minutes(c.Timeline.MitigatedAfter) }},
		csvColumn{"minutes_to_resolve", "To its end, in minutes; empty when unknown.", func(_ *writer, c *cases.Case) string { return minutes(c.Timeline.ResolvedAfter) }},
		csvColumn{"region", "Where, as an identifier.", func(_ *writer, c *cases.Case) string { return c.Impact.Region }},
		csvColumn{"sources", "The addresses of the sources, joined with a space.", func(_ *writer, c *cases.Case) string {
			urls := make([]string, len(c.Sources))
			for i, s := range c.Sources {
				urls[i] = s.URL
			}
			return strings.Join(urls, " ")
		}},
		csvColumn{"related", "Ids of the cases an editor linked, joined with \";\".", func(_ *writer, c *cases.Case) string { return strings.Join(c.Related, ";") }},
		csvColumn{"recurrence_of", "The id of the earlier case this one repeats.", func(_ *writer, c *cases.Case) string { return c.RecurrenceOf }},
		csvColumn{"updated_at", "When the case last changed, RFC 3339.", func(_ *writer, c *cases.Case) string { return c.UpdatedAt.Format(time.RFC3339) }},
		csvColumn{"withdrawn", "The day the case was withdrawn; empty for a listed case.", func(_ *writer, c *cases.Case) string {
			if c.Withdrawn == nil {
				return ""
			}
			return c.Withdrawn.Date.String()
		}},
		csvColumn{"withdrawn_reason_en", "Why, in English.", func(_ *writer, c *cases.Case) string {
			if c.Withdrawn == nil {
				return ""
			}
			return c.Withdrawn.Reason.En
		}},
		csvColumn{"withdrawn_reason_ko", "Why, in Korean.", func(_ *writer, c *cases.Case) string {
			if c.Withdrawn == nil {
				return ""
			}
			return c.Withdrawn.Reason.Ko
		}},
		csvColumn{"replaced_by", "Ids of the cases that replace a withdrawn one, joined with \";\".", func(_ *writer, c *cases.Case) string {
			if c.Withdrawn == nil {
				return ""
			}
			return strings.Join(c.Withdrawn.ReplacedBy, ";")
		}},
		csvColumn{"page_en", "The case's page in English.", func(w *writer, c *cases.Case) string { return w.base + urls.Case("en", c.ID) }},
		csvColumn{"page_ko", "The case's page in Korean.", func(w *writer, c *cases.Case) string { return w.base + urls.Case("ko", c.ID) }},
		csvColumn{"library_version", "The version of the library the file was written from.", func(w *writer, _ *cases.Case) string { return w.l.Version }},
		csvColumn{"license", "The licence of the data.", func(w *writer, _ *cases.Case) string { return w.lib.Settings.License.Name }},
	)
	return cols
}

// casesCSV writes cases.csv: RFC 4180 (CRLF line ends, quotes only where
// needed, doubled inside), UTF-8 after a byte order mark, which is what
// spreadsheets need to read Korean as Korean rather than as their
// locale's code page.
func (w *writer) casesCSV(out io.Writer) error {
	cols := csvColumns()
	if _, err := io.WriteString(out, "\uFEFF"); err != nil {
		return err
	}
	cw := csv.NewWriter(out)
	cw.UseCRLF = true
	row := make([]string, len(cols))
	for i, col := range cols {
		row[i] = col.name
	}
	if err := cw.Write(row); err != nil {
		return err
	}
	for _, list := range [][]*cases.Case{w.lib.Cases, w.lib.Withdrawn} {
		for _, c := range list {
			for i, col := range cols {
				row[i] = col.val(w, c)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// readme is the zip's README.md: what the files are, and every field of a
// case and column of cases.csv, from the schema and the column table.
func (w *writer) readme() []byte {
	var b strings.Builder
	lic := w.lib.Settings.License
	fmt.Fprintf(&b, "# incidentlib cases, library version %s\n\n", w.l.Version)
	if lic.Name != "" {
		fmt.Fprintf(&b, "Licence: %s (%s).\n\n", lic.Name, lic.URL)
	}
	fmt.Fprintf(&b, "Every case of the library, %d listed and %d withdrawn, from %s.\n\n", len(w.lib.Cases), len(w.lib.Withdrawn), w.base)
	b.WriteString("- `cases/ID.json`: each case as it is written in the library (a withdrawn case carries `withdrawn`).\n")
	b.WriteString("- `vocab.json`: every term of the controlled fields, with its labels in English and Korean and its number of cases.\n")
	b.WriteString("- `schema/case.json`, `schema/vocab.json`, `schema/site.json`: JSON Schemas of the formats.\n\n")
	b.WriteString("README.ko.md says the same in Korean.\n\n")
	b.WriteString("The same cases are published as `cases.csv` (a row a case) and `cases.jsonl` (a case a line, with a member `incidentlib` naming this version and the licence) beside this zip.\n\n")
	b.WriteString("## Fields of a case\n\n")
	for _, p := range cases.CaseSchema.Props {
		opt := ""
		if p.Optional {
			opt = " (optional)"
		}
		fmt.Fprintf(&b, "- `%s`%s: %s\n", p.Name, opt, p.Description)
		for _, q := range p.Props {
			fmt.Fprintf(&b, "  - `%s`: %s\n", q.Name, q.Description)
		}
	}
	b.WriteString("\n## Columns of cases.csv\n\n")
	b.WriteString("UTF-8 with a byte order mark, RFC 4180: a header row, CRLF line ends, fields with a comma, a quote or a line break in double quotes.\n\n")
	for _, col := range csvColumns() {
		fmt.Fprintf(&b, "- `%s`: %s\n", col.name, col.doc)
	}
	return []byte(b.String())
}
