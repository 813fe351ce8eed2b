// Package htmlexec executes html/template templates faster than
// html/template does, with the same output.
//
// html/template makes a template safe by rewriting its parse tree: each
// action gets escaping functions appended to its pipeline. Executing the
// rewritten tree is then text/template's work, which looks up every field by
// name and calls every function, escapers included, through reflection. On a
// site of tens of thousands of pages that is most of the build.
//
// Compile takes the tree html/template has already escaped and turns it into
// Go closures once: fields resolve to indexes cached per type, the escapers
// are plain Go functions that write to the output, and data that implements
// Caller has its most used methods called without reflect.Value.Call. The
// escaping itself is still html/template's decision:
// this package only runs what html/template put in the tree.
//
// CompileText does the same for a text/template set, such as the Markdown
// twin of a case page: there are no escapers, strings and ints print as they
// are, and any other printed value makes the caller run text/template.
//
// # What it runs
//
// Text, actions, if/else, with/else, range over slices and arrays with or
// without variables, template calls, variables, field chains, methods, the
// template's own functions and the builtins and, or, not, len, index, eq, ne,
// lt, le, gt, ge, print, printf and println. The escapers it knows are those
// for HTML text, RCDATA, quoted attributes and URLs.
//
// Anything else fails to compile, and a value it cannot handle the way
// text/template would (a comparison of structs, ranging over a map) stops
// execution with ErrUnsupported: in both cases the caller runs html/template
// instead, so a template is never rendered differently, only slower.
//
// # Kept output
//
// Much of a page is the same on every page of its language: its UI strings,
// the header's links, the footer. Data that implements KeyedCaller says
// which pages its Caller answers alike (a key, such as a site's language),
// and an action that prints such an answer keeps its escaped output per
// key (a kept call, {{.T "nav.home"}}), as does a range or with over such
// an answer whose body reads nothing else from outside but names of $
// that hold a string, a bool or a number (a kept block, the header's
// {{range .Nav}} with {{if eq .ID $.Section}}). Later executions with the
// same key, and the same values of those names, write the kept bytes and
// evaluate nothing else. Only what a Caller answered is kept, and
// TestCompiledTemplates in package site compares every page of three
// libraries with html/template's, kept output included.
//
// # Gauges
//
// A fallback writes the same bytes as htmlexec would, so it shows only as a
// slower build. Each Template counts its executions that stopped with
// ErrUnsupported (Fallbacks); the site adds them up with the templates this
// package refused to compile, `incidentlib build -v` prints both, and a test
// of package build fails when the shipped content or a generated library
// causes any.
//
// BenchmarkPages (bench_test.go) renders the same pages of a generated
// library of 1,000 cases through this package and through html/template,
// view and link resolution included (cards are rendered once beforehand,
// as a build keeps them), so the difference is the engines':
//
//	go test -run XXX -bench Pages -count 3 ./internal/htmlexec
//
//	page     htmlexec                       html/template
//	case     202 µs  36.4 kB  397 allocs    961 µs  99.3 kB  2,845 allocs
//	topic    119 µs   6.2 kB  158 allocs    709 µs  61.5 kB  2,454 allocs
//	cases     95 µs   6.4 kB  132 allocs    462 µs  39.5 kB  1,450 allocs
//	facet    159 µs  21.0 kB  281 allocs    958 µs  88.1 kB  3,013 allocs
//	home     157 µs  23.2 kB  294 allocs    708 µs  81.7 kB  2,696 allocs
//
// per page (ns/op in µs, B/op, allocs/op; medians of 3), Go 1.26.8,
// linux/amd64, Intel Xeon, 2 cores shared with other work (load average
// 2–5), 2026-12-01. Times move with the machine's load; bytes and
// allocations do not.
//
// # When Go changes html/template
//
// The escapers here are written to match those of the Go release the
// package was tested with. Once per process, before the first template
// compiles, the package checks that the html/template linked in still puts
// the same escapers in each context and still writes the same bytes for a
// corpus of hostile strings. If not, Compile returns ErrUnsupported for
// every template, and callers render everything with html/template.
package htmlexec

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	texttemplate "text/template"
	"text/template/parse"
)

// ErrUnsupported reports a template or a value this package does not run;
// the caller should execute the template with html/template instead.
var ErrUnsupported = errors.New("htmlexec: not supported")

// Template is a compiled template, safe for concurrent use.
type Template struct {
	name  string
	root  *compiled
	funcs map[string]reflect.Value
	// fallbacks counts the executions that stopped with ErrUnsupported.
	fallbacks atomic.Int64
}

type compiled struct {
	name string
	tree *parse.Tree
	body step
}

// Compile compiles the template called name of set, and every template it
// calls. funcs must be the functions the set was parsed with. The set is
// executed once with no data, so that html/template escapes it; an escaping
// error is returned as html/template reports it.
//
// The first call checks that html/template escapes as this package does
// (see checkEscapers); when it does not, every call returns ErrUnsupported.
func Compile(set *template.Template, name string, funcs template.FuncMap) (*Template, error) {
	if set.Lookup(name) == nil {
		return nil, fmt.Errorf("htmlexec: no template %q", name)
	}
	if err := set.ExecuteTemplate(io.Discard, name, nil); err != nil {
		var terr *template.Error
		if errors.As(err, &terr) {
			return nil, err // the template is not safe: html/template refused it
		}
		// Any other error comes from executing with no data, after escaping.
	}
	if err := escapersChecked(); err != nil {
		return nil, err
	}
	return compile(set, name, funcs)
}

// compile compiles a template html/template has escaped.
func compile(set *template.Template, name string, funcs template.FuncMap) (*Template, error) {
	return compileSet(func(name string) *parse.Tree {
		if tt := set.Lookup(name); tt != nil {
			return tt.Tree
		}
		return nil
	}, false, name, funcs)
}

// compileSet compiles the template called name of the set that lookup
// reads, with the set's functions.
func compileSet(lookup func(string) *parse.Tree, text bool, name string, funcs map[string]any) (*Template, error) {
	t := &Template{name: name, funcs: map[string]reflect.Value{}}
	for k, f := range funcs {
		t.funcs[k] = reflect.ValueOf(f)
	}
	c := &compiler{lookup: lookup, text: text, t: t, done: map[string]*compiled{}}
	root, err := c.template(name)
	if err != nil {
		return nil, err
	}
	t.root = root
	return t, nil
}

// CompileText compiles the template called name of a text/template set,
// and every template it calls; funcs must be the functions the set was
// parsed with. The compiled template prints strings and ints as they are,
// as text/template does, and stops with ErrUnsupported on any other value
// it would print, so that the caller runs text/template instead.
func CompileText(set *texttemplate.Template, name string, funcs texttemplate.FuncMap) (*Template, error) {
	if set.Lookup(name) == nil {
		return nil, fmt.Errorf("htmlexec: no template %q", name)
	}
	return compileSet(func(name string) *parse.Tree {
		if tt := set.Lookup(name); tt != nil {
			return tt.Tree
		}
		return nil
	}, true, name, funcs)
}

// Execute writes the template applied to data to w. On ErrUnsupported, w may
// hold part of the output, and the caller is expected to run the template
// with html/template (or text/template) instead: Fallbacks counts these.
func (t *Template) Execute(w *bytes.Buffer, data any) (err error) {
	dot := reflect.ValueOf(data)
	s := statePool.Get().(*state)
	s.w, s.base, s.depth, s.answered = w, 0, 0, 0
	s.vars = append(s.vars[:0], variable{"$", dot})
	s.args = s.args[:0]
	defer func() {
		r := recover()
		if r != nil {
			e, ok := r.(execError)
			if !ok {
				panic(r)
			}
			err = e.err
			if errors.Is(err, ErrUnsupported) {
				t.fallbacks.Add(1)
			}
		}
		// The state lets go of the data before it serves another
		// execution.
		clear(s.vars[:cap(s.vars)])
		clear(s.args[:cap(s.args)])
		s.w = nil
		statePool.Put(s)
	}()
	t.root.body(s, dot)
	return nil
}

// statePool holds the states of executions: a site executes templates
// tens of thousands of times, and a state with its stacks is a few hundred
// bytes that the garbage collector would otherwise take back each time.
var statePool = sync.Pool{New: func() any {
	return &state{vars: make([]variable, 0, 8), args: make([]reflect.Value, 0, 8)}
}}

// Fallbacks returns how many executions of t stopped with ErrUnsupported so
// far: each is a page its caller rendered again with the standard library.
// It is the gauge of this package at run time; a site whose templates and
// data are all supported keeps it at zero.
func (t *Template) Fallbacks() int64 { return t.fallbacks.Load() }

type variable struct {
	name  string
	value reflect.Value
}

type state struct {
	w     *bytes.Buffer
	vars  []variable
	base  int // the first variable of the template being executed
	depth int
	args  []reflect.Value // the arguments of the builtins being called (directCall)
	// answered counts the methods a Caller answered, so that a kept call
	// (kept.go) knows whether the one it made was.
	answered int
}

type execError struct{ err error }

func (s *state) mark() int { return len(s.vars) }

func (s *state) pop(mark int) { s.vars = s.vars[:mark] }

func (s *state) push(name string, v reflect.Value) { s.vars = append(s.vars, variable{name, v}) }

func (s *state) setVar(name string, v reflect.Value) {
	for i := len(s.vars) - 1; i >= s.base; i-- {
		if s.vars[i].name == name {
			s.vars[i].value = v
			return
		}
	}
	panic(execError{fmt.Errorf("undefined variable: %s", name)})
}

func (s *state) varValue(name string) reflect.Value {
	for i := len(s.vars) - 1; i >= s.base; i-- {
		if s.vars[i].name == name {
			return s.vars[i].value
		}
	}
	panic(execError{fmt.Errorf("undefined variable: %s", name)})
}

// fail stops execution with an error placed at node, worded as
// text/template words it.
func fail(tree *parse.Tree, node parse.Node, format string, args ...any) {
	loc, ctx := tree.ErrorContext(node)
	panic(execError{fmt.Errorf("template: %s: executing %q at <%s>: %s", loc, tree.Name, doublePercent(ctx), fmt.Sprintf(format, args...))})
}

func doublePercent(s string) string { return strings.ReplaceAll(s, "%", "%%") }

func unsupported(what string) {
	panic(execError{fmt.Errorf("%w: %s", ErrUnsupported, what)})
}

// step writes part of the output; expr computes a value. final is the value
// of the previous command in a pipeline (invalid when there is none, see
// hasFinal).
type (
	step func(s *state, dot reflect.Value)
	expr func(s *state, dot reflect.Value, final reflect.Value, hasFinal bool) reflect.Value
)
