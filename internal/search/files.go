package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"incidentlib/internal/urls"
)

// files hands index files to write, each as JSON and, when scripts is set,
// as the script that registers it. Several goroutines may use it at once;
// it calls write from one at a time, and after a failure not at all.
type files struct {
	write   func(string, []byte) error
	scripts bool
	mu      sync.Mutex
	js      []byte // the script of the last file, reused for the next
	stopped atomic.Bool
	firstMu sync.Mutex
	first   error
}

// fail stops further writes; the first error given is the build's.
func (fs *files) fail(err error) {
	fs.firstMu.Lock()
	if fs.first == nil {
		fs.first = err
	}
	fs.firstMu.Unlock()
	fs.stopped.Store(true)
}

func (fs *files) failed() bool { return fs.stopped.Load() }

func (fs *files) firstErr() error {
	fs.firstMu.Lock()
	defer fs.firstMu.Unlock()
	return fs.first
}

// value writes v as the index file name.
func (fs *files) value(name string, v any) error {
	data, err := marshal(v)
	if err != nil {
		return fmt.Errorf("search: %s: %w", name, err)
	}
	return fs.raw(name, data)
}

// raw writes data, JSON already, as the index file name.
func (fs *files) raw(name string, data []byte) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.failed() {
		return errStopped
	}
	if err := fs.write(urls.SearchFile(name+".json"), data); err != nil {
		fs.fail(err)
		return err
	}
	if !fs.scripts {
		return nil
	}
	js := append(fs.js[:0], "window.__ilsearch=window.__ilsearch||{};__ilsearch["...)
	js = append(append(append(js, quoteJSON(name)...), "]="...), data...)
	js = append(js, ";\n"...)
	fs.js = js
	if err := fs.write(urls.SearchFile(name+".js"), js); err != nil {
		fs.fail(err)
		return err
	}
	return nil
}

// errStopped is what a write returns after another one failed; the build
// reports the first failure.
var errStopped = errors.New("search: stopped after an earlier error")

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// The data only ever reaches pages as text or through JSON.parse, so HTML
	// escaping would only cost bytes.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func quoteJSON(s string) string {
	b, _ := marshal(s)
	return string(b)
}

// appendJSONString appends s quoted as marshal quotes it. Index terms are
// letters and digits, which need no escapes, so it copies them directly and
// leaves anything else to marshal.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return append(b, quoteJSON(s)...)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		// marshal replaces invalid UTF-8 and escapes the line and paragraph
		// separators.
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return append(b, quoteJSON(s)...)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
