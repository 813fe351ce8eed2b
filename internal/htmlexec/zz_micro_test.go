package htmlexec

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
)

type zzItem struct{ Href, Label, ID string }
type zzPage struct {
	A, B  string
	Flag  bool
	Items []zzItem
	Sec   string
}

func (p *zzPage) T(k string) string { return "translated " + k }
func (p *zzPage) CallMethod(name, arg string) (any, bool) {
	if name == "T" {
		if v, ok := zzStrings[arg]; ok {
			return v, true
		}
	}
	return nil, false
}

var zzStrings = map[string]any{"case.x": "translated case.x"}

func BenchmarkZZ(b *testing.B) {
	items := make([]zzItem, 10)
	for i := range items {
		items[i] = zzItem{"~/en/x/", "Label", "id"}
	}
	data := &zzPage{A: "hello world", B: "~/en/cases/", Flag: true, Items: items, Sec: "id"}
	for _, c := range []struct{ name, src string }{
		{"text", strings.Repeat(`<p>{{.A}}</p>`, 100)},
		{"attr", strings.Repeat(`<a title="{{.A}}">`, 100)},
		{"href", strings.Repeat(`<a href="{{.B}}">`, 100)},
		{"T", strings.Repeat(`<p>{{.T "case.x"}}</p>`, 100)},
		{"if", strings.Repeat(`{{if .Flag}}x{{end}}`, 100)},
		{"with", strings.Repeat(`{{with .A}}x{{end}}`, 100)},
		{"range", strings.Repeat(`{{range .Items}}<a href="{{.Href}}"{{if eq .ID $.Sec}} c{{end}}>{{.Label}}</a>{{end}}`, 10)},
	} {
		set := template.Must(template.New("t").Parse(c.src))
		ct, err := Compile(set, "t", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if err := ct.Execute(&out, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
