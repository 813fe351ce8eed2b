package jsonpos

import (
	"strings"
	"testing"
)

func TestPositions(t *testing.T) {
	src := "{\n  \"a\": [1, \"둘\", true],\n  \"b\": {\"c\": null}, \"한\": \"x\"\n}"
	d := Parse(src)
	if d.Fatal || len(d.Problems) > 0 {
		t.Fatalf("problems %+v", d.Problems)
	}
	a := d.Root.Get("a")
	pos := func(v *Value) [2]int { l, c := d.Pos(v.Off); return [2]int{l, c} }
	if got := pos(a); got != [2]int{2, 8} {
		t.Errorf("a at %v", got)
	}
	if got := pos(a.Items[2]); got != [2]int{2, 17} {
		t.Errorf("a[2] at %v (columns count characters)", got)
	}
	if got := pos(d.Root.Get("b").Get("c")); got != [2]int{3, 14} {
		t.Errorf("b.c at %v", got)
	}
	if d.Root.Get("한").Str != "x" || a.Items[1].Str != "둘" || d.Root.Get("b").Get("c").Kind != Null {
		t.Error("values wrong")
	}
}

func TestStrings(t *testing.T) {
	d := Parse(`"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"`)
	if d.Fatal || d.Root.Str != "a\"\\/\b\f\n\r\té😀" {
		t.Fatalf("%q %+v", d.Root.Str, d.Problems)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
		fatal     bool
	}{
		{`{"a": 1,}`, 1, 9, "trailing comma", true},
		{`{"a" 1}`, 1, 6, "expected ':'", true},
		{"{\n\"a\": tru}", 2, 6, "expected a value", true},
		{`[1 2]`, 1, 4, "expected ',' or ']'", true},
		{`"abc`, 1, 1, "unterminated string", true},
		{`01`, 1, 2, "after the end", true},
		{`{"a": 1} x`, 1, 10, "after the end", true},
		{`{"a": 1, "a": 2}`, 1, 10, `duplicate key "a"`, false},
		{"\"a\xffb\"", 1, 3, "invalid UTF-8", false},
		{"\"a\tb\"", 1, 3, "control character", true},
		{`"\x"`, 1, 2, "invalid escape", true},
		{``, 1, 1, "empty file", true},
		{strings.Repeat("[", 300), 1, 201, "nesting deeper", true},
	}
	for _, tt := range tests {
		d := Parse(tt.src)
		if len(d.Problems) == 0 {
			t.Errorf("%q: no problem reported", tt.src)
			continue
		}
		p := d.Problems[0]
		l, c := d.Pos(p.Off)
		if l != tt.line || c != tt.col || !strings.Contains(p.Msg, tt.msg) || d.Fatal != tt.fatal {
			t.Errorf("%q: %d:%d %q fatal=%v; want %d:%d %q fatal=%v", tt.src, l, c, p.Msg, d.Fatal, tt.line, tt.col, tt.msg, tt.fatal)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2.5e3, "x", null, true, {"b": false}]}`))
	f.Add([]byte(`"\ud800"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := Parse(string(b))
		for _, p := range d.Problems {
			d.Pos(p.Off)
		}
	})
}
