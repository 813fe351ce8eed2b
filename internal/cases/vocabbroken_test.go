package cases

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/repotest"
)

// overlay is a file system with some files replaced.
type overlay struct {
	fs.FS
	files fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	return o.FS.Open(name)
}

// TestBrokenVocab loads the repository's content with a vocab.json that
// cannot be used: the report is vocab.json's own errors, not an "unknown
// term" for every term of every case and topic (324 errors before).
func TestBrokenVocab(t *testing.T) {
	content := os.DirFS(repotest.Dir(t, "content"))
	for name, src := range map[string]string{
		"cut short":        `{"root_cause": [`,
		"not an object":    `[]`,
		"a wrong field":    `{"root_cause": [{"id": "software-bug", "en": "Software defect", "ko": "소프트웨어 결함", "label": 5}]}`,
		"missing sections": `{}`,
	} {
		_, list := Load(overlay{content, fstest.MapFS{"vocab.json": {Data: []byte(src)}}})
		if list.Errors() == 0 {
			t.Errorf("%s: no error", name)
		}
		for _, d := range list.Items {
			if !d.Warning && d.File != "vocab.json" {
				t.Errorf("%s: a follow-on error: %s", name, d.String())
			}
		}
	}
	if _, list := Load(content); list.Errors() != 0 {
		t.Errorf("the content itself has errors:\n%s", report(list))
	}
	if _, list := Load(overlay{content, fstest.MapFS{"vocab.json": {Data: []byte("{}")}}}); !strings.Contains(report(list), "vocab.json") {
		t.Errorf("no vocab.json error:\n%s", report(list))
	}
}
