package diag

import (
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	tests := []struct {
		line       string
		col, width int
		want       string
		caret      int
	}{
		{`{"a": "b"}`, 6, 36, `{"a": "b"}`, 6},
		{strings.Repeat("x", 100) + `"bad"` + strings.Repeat("y", 100), 100, 5, `…xxxxx"bad"…`, 6},
		{`"가나": 1`, 6, 36, `"가나": 1`, 8}, // two wide characters before the column
	}
	for _, tt := range tests {
		got, caret := clip(tt.line, tt.col, tt.width)
		if got != tt.want || caret != tt.caret {
			t.Errorf("clip(%q, %d) = %q, %d; want %q, %d", tt.line, tt.col, got, caret, tt.want, tt.caret)
		}
	}
}

func TestExcerpt(t *testing.T) {
	src := "{\n  \"a\": 1,\r\n\t\"b\": x\n}"
	tests := []struct {
		line, col int
		want      string
	}{
		{2, 8, "  \"a\": 1,\n       ^"},
		{3, 7, " \"b\": x\n      ^"},
		{5, 1, ""}, // past the end
		{0, 0, ""}, // no position
	}
	for _, tt := range tests {
		if got := (Diag{Line: tt.line, Col: tt.col}).Excerpt(src); got != tt.want {
			t.Errorf("Excerpt at %d:%d = %q, want %q", tt.line, tt.col, got, tt.want)
		}
	}
}
