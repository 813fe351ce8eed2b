package jsonpos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
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
	d := Parse(`"a\"\\\/\n\t\u00e9\ud83d\ude00"`)
	if d.Fatal || len(d.Problems) > 0 || d.Root.Str != "a\"\\/\n\té😀" {
		t.Fatalf("%q %+v", d.Root.Str, d.Problems)
	}
	// Reported, but read as encoding/json reads them.
	for src, want := range map[string]string{
		`"\b\f\r\u0000\u001b\u007f\u0085"`: "\b\f\r\x00\x1b\x7f\u0085",
		`"\ud800\u0041"`:                   "\ufffdA",
		`"\ud800\ud800x"`:                  "\ufffd\ufffdx",
		`"\ude00\ud83d"`:                   "\ufffd\ufffd",
	} {
		if d := Parse(src); d.Fatal || len(d.Problems) == 0 || d.Root.Str != want {
			t.Errorf("%s: %q %+v, want %q and problems", src, d.Root.Str, d.Problems, want)
		}
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
		{`{"a": "x\u0000"}`, 1, 9, `control character U+0000 in a string`, false},
		{"{\"a\":\n \"\\u001b[31m\"}", 2, 3, `control character U+001B`, false},
		{`["ok", "a\ud800b"]`, 1, 10, `lone surrogate \ud800`, false},
		{"\"a\xffb\"", 1, 3, "invalid UTF-8", false},
		{"\"a\\n\xffb\"", 1, 5, "invalid UTF-8", false},
		{"\"a\\", 1, 4, "unterminated string", true},
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

// TestParserReuse parses with one Parser a document, a broken one and
// another: each tree is right, and strings from an earlier tree survive.
func TestParserReuse(t *testing.T) {
	var p Parser
	first := p.Parse(`{"name": "first", "list": [1, 2, {"deep": "x\ny"}]}`)
	name := first.Root.Get("name").Str
	deep := first.Root.Get("list").Items[2].Get("deep").Str
	if broken := p.Parse(`{"a": [1, 2`); !broken.Fatal || broken.Root != nil {
		t.Fatalf("broken document: %+v", broken)
	}
	d := p.Parse(`{"name": "second", "list": ["한", "b"], "empty": {}, "none": []}`)
	if d.Fatal || len(d.Problems) > 0 {
		t.Fatalf("problems %+v", d.Problems)
	}
	list := d.Root.Get("list")
	if d.Root.Get("name").Str != "second" || len(list.Items) != 2 || list.Items[0].Str != "한" || list.Items[1].Str != "b" ||
		len(d.Root.Members) != 4 || d.Root.Get("empty").Members != nil || d.Root.Get("none").Items != nil {
		t.Errorf("second tree wrong: %+v", d.Root)
	}
	if name != "first" || deep != "x\ny" {
		t.Errorf("strings of the first tree changed: %q %q", name, deep)
	}
}

// TestShortStrings parses documents whose strings have escapes, some long
// enough to fill a block of the parser's strings, with ShortStrings set:
// each tree is the one Parse makes, until the next parse.
func TestShortStrings(t *testing.T) {
	p := Parser{ShortStrings: true}
	long := strings.Repeat(`x\n한\"`, 100000) // eight bytes a time
	for _, src := range []string{
		`{"a": "x\ny", "b": ["\u00e9", "plain", "\"q\"", ""], "c\u0041": {"d": "\t\\"}}`,
		`["` + long + `", "after \n the long one", "` + long[:8*999] + `"]`,
		`{"en": "two\n\nparagraphs", "ko": "두\n\n문단", "bad": "\ud800 lone"}`,
		`["a\nb", "c\nd", "e\nf"]`,
	} {
		got, want := p.Parse(src), Parse(src)
		if got.Fatal || want.Fatal {
			t.Fatalf("%.60s: %+v", src, want.Problems)
		}
		if !reflect.DeepEqual(plain(got.Root), plain(want.Root)) || !reflect.DeepEqual(got.Problems, want.Problems) {
			t.Errorf("%.60s: the tree with short strings differs", src)
		}
	}
}

// TestParserReuseKeySets parses with one Parser documents whose objects
// have many keys, nested, with and without duplicates: the sets of keys
// kept from one object to the next find exactly the duplicates of each.
func TestParserReuseKeySets(t *testing.T) {
	object := func(prefix string, n int, dup bool, inner string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, "%q: %d, ", fmt.Sprintf("%s%d", prefix, i), i)
		}
		if dup {
			fmt.Fprintf(&b, "%q: 0, ", prefix+"3")
		}
		fmt.Fprintf(&b, "%q: %s}", prefix+"inner", inner)
		return b.String()
	}
	var p Parser
	for round := range 3 {
		for _, tc := range []struct {
			src  string
			dups int
		}{
			{object("a", 40, true, object("a", 30, false, "[]")), 1},
			{object("a", 40, false, object("a", 30, true, object("b", 20, true, "{}"))), 2},
			{object("a", 40, false, object("a", 30, false, "null")), 0},
			{"[" + object("k", 20, false, "1") + "," + object("k", 20, false, "2") + "," + object("k", 20, true, "3") + "]", 1},
			{object("x", 2000, false, "0"), 0},
			{object("x", 2000, true, "0"), 1},
		} {
			d := p.Parse(tc.src)
			if d.Fatal || len(d.Problems) != tc.dups {
				t.Errorf("round %d: %d problems, want %d duplicate keys: %+v", round, len(d.Problems), tc.dups, d.Problems)
			}
		}
	}
}

// FuzzParse checks that any input is parsed without a panic, with problems
// at positions inside the file, the same with a reused Parser, and that
// valid JSON gives the tree encoding/json decodes.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2.5e3, "x", null, true, {"b": false}]}`))
	f.Add([]byte(`"\ud800"`))
	f.Add([]byte(`["\ud800\u0041", "\ude00\ud83d\ude00", "\u0000"]`))
	f.Add([]byte(`{"text": {"en": "two\n\nparagraphs \"quoted\"", "ko": "한국어 \u00e9"}}`))
	// One Parser for every input, with short strings and the key sets
	// of earlier inputs: it must find what Parse finds.
	var reused Parser
	reused.ShortStrings = true
	f.Fuzz(func(t *testing.T, b []byte) {
		d := Parse(string(b))
		if r := reused.Parse(string(b)); !reflect.DeepEqual(r.Problems, d.Problems) || r.Fatal != d.Fatal ||
			!d.Fatal && !reflect.DeepEqual(plain(r.Root), plain(d.Root)) {
			t.Errorf("a reused Parser with short strings found %+v, Parse %+v", r.Problems, d.Problems)
		}
		for _, p := range d.Problems {
			if line, col := d.Pos(p.Off); line < 1 || col < 1 {
				t.Errorf("problem %+v at %d:%d", p, line, col)
			}
		}
		// Deep nesting is refused here.
		if !json.Valid(b) || bytes.Count(b, []byte("["))+bytes.Count(b, []byte("{")) >= maxDepth {
			return
		}
		if d.Fatal {
			t.Fatalf("valid JSON refused: %+v", d.Problems)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := plain(d.Root); !reflect.DeepEqual(got, want) {
			t.Errorf("tree %#v, encoding/json %#v", got, want)
		}
	})
}

// plain converts a tree to what encoding/json decodes with UseNumber; of
// duplicate keys, the last wins, as there.
func plain(v *Value) any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Str)
	case String:
		return v.Str
	case Array:
		out := []any{}
		for _, it := range v.Items {
			out = append(out, plain(it))
		}
		return out
	case Object:
		out := map[string]any{}
		for _, m := range v.Members {
			out[m.Key] = plain(m.Value)
		}
		return out
	}
	return nil
}
