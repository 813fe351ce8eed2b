package incidentlib

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is how long a function of the module may be, from its func
// keyword to its closing brace, so that each reads on one screen or two.
const maxFuncLines = 80

// longFuncsAllowed are the folders whose functions may be longer: the
// generator of made-up libraries writes its cases as long tables of prose.
var longFuncsAllowed = map[string]bool{
	"internal/gencases": true,
}

// TestFunctionLength holds every function and method of the module's
// non-test Go files to maxFuncLines, outside longFuncsAllowed.
func TestFunctionLength(t *testing.T) {
	funcs, err := funcLengths(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(funcs) < 500 {
		t.Fatalf("read only %d functions: not at the module root?", len(funcs))
	}
	over := 0
	for _, f := range funcs {
		if f.lines > maxFuncLines && !longFuncsAllowed[f.dir] {
			t.Errorf("%s: %s is %d lines, more than %d: split it into named steps", f.pos, f.name, f.lines, maxFuncLines)
			over++
		}
	}
	t.Logf("%d functions, %d over %d lines outside %v", len(funcs), over, maxFuncLines, sortedKeys(longFuncsAllowed))
}

// TestFuncLengths checks funcLengths on a file made up for it: a method
// and a function, counted from func to the closing brace, comments above
// left out.
func TestFuncLengths(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\n// Doc.\nfunc (T) M() {\n\tprintln()\n}\n\nfunc f() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package x\n\nfunc g() {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	funcs, err := funcLengths(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range funcs {
		got = append(got, fmt.Sprintf("%s %d", f.name, f.lines))
	}
	if s := strings.Join(got, ", "); s != "T.M 3, f 1" {
		t.Errorf("funcLengths = %s, want T.M 3, f 1", s)
	}
}

type funcLength struct {
	dir, name, pos string
	lines          int
}

// funcLengths returns the length in lines of every function declared in
// the non-test Go files under root, in file and line order (WalkDir
// walks in lexical order).
func funcLengths(root string) ([]funcLength, error) {
	var funcs []funcLength
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			funcs = append(funcs, funcLength{
				dir:   filepath.ToSlash(rel),
				name:  funcName(fd),
				pos:   fmt.Sprintf("%s:%d", filepath.ToSlash(p), start.Line),
				lines: end.Line - start.Line + 1,
			})
		}
		return nil
	})
	return funcs, err
}

// funcName returns a declared function's name, with its receiver's type
// for a method: "Site.Page", "cmdNew".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		}
		break
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// maxSiteMethods bounds site.Site, the HTML presenter, so that page
// families live in small types of their own (views, feeds, prepares…)
// rather than on it.
const maxSiteMethods = 29

// TestSiteMethods holds site.Site to maxSiteMethods methods.
func TestSiteMethods(t *testing.T) {
	funcs, err := funcLengths("internal/site")
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, f := range funcs {
		if strings.HasPrefix(f.name, "Site.") {
			methods = append(methods, f.name)
		}
	}
	if len(methods) < 10 || len(methods) > maxSiteMethods {
		t.Errorf("site.Site has %d methods, want 10 to %d (give a page family a type of its own): %v", len(methods), maxSiteMethods, methods)
	}
}
