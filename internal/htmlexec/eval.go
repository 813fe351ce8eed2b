package htmlexec

import (
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"text/template/parse"
	"unsafe"
)

var (
	reflectValueType = reflect.TypeFor[reflect.Value]()
	errorType        = reflect.TypeFor[error]()
	stringerType     = reflect.TypeFor[fmt.Stringer]()
)

// arg is an argument of a call. A literal keeps its node so that it takes
// the type of its parameter, as in text/template.
type arg struct {
	node   parse.Node
	eval   pipeFunc      // nil for literals
	lit    reflect.Value // a literal's value where no type asks for another
	litErr error
}

func (c *compiler) args(nodes []parse.Node) ([]arg, error) {
	out := make([]arg, len(nodes))
	for i, n := range nodes {
		a, err := c.arg(n)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func (c *compiler) arg(n parse.Node) (arg, error) {
	a := arg{node: n}
	var e expr
	var err error
	switch n := n.(type) {
	case *parse.DotNode:
		a.eval = func(_ *state, dot reflect.Value) reflect.Value { return dot }
		return a, nil
	case *parse.NilNode:
		return a, nil
	case *parse.BoolNode, *parse.StringNode, *parse.NumberNode:
		a.lit, a.litErr = constant(n)
		return a, nil
	case *parse.PipeNode:
		a.eval, err = c.pipeline(n)
		return a, err
	case *parse.FieldNode:
		e, err = c.fieldChain(n, nil, n.Ident, nil, false)
	case *parse.VariableNode:
		e, err = c.variable(n, nil, false)
	case *parse.IdentifierNode:
		e, err = c.function(n, nil, false)
	case *parse.ChainNode:
		e, err = c.chain(n, nil, false)
	default:
		return a, c.errorf(n, "argument %s", n)
	}
	if err != nil {
		return a, err
	}
	a.eval = func(s *state, dot reflect.Value) reflect.Value { return e(s, dot, reflect.Value{}, false) }
	return a, nil
}

// natural is the argument's value with no type asked for.
func (a *arg) natural(s *state, dot reflect.Value, tree *parse.Tree) reflect.Value {
	if a.eval != nil {
		return a.eval(s, dot)
	}
	if a.litErr != nil {
		fail(tree, a.node, "%v", a.litErr)
	}
	return a.lit // invalid for nil
}

// value is the argument converted to a parameter of type typ.
func (a *arg) value(s *state, dot reflect.Value, typ reflect.Type, tree *parse.Tree) reflect.Value {
	if a.eval != nil {
		return validateType(tree, a.node, a.eval(s, dot), typ)
	}
	if _, ok := a.node.(*parse.NilNode); ok {
		if canBeNil(typ) {
			return reflect.Zero(typ)
		}
		fail(tree, a.node, "cannot assign nil to %s", typ)
	}
	switch typ.Kind() {
	case reflect.Bool:
		if n, ok := a.node.(*parse.BoolNode); ok {
			v := reflect.New(typ).Elem()
			v.SetBool(n.True)
			return v
		}
		fail(tree, a.node, "expected bool; found %s", a.node)
	case reflect.String:
		if n, ok := a.node.(*parse.StringNode); ok {
			v := reflect.New(typ).Elem()
			v.SetString(n.Text)
			return v
		}
		fail(tree, a.node, "expected string; found %s", a.node)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := a.node.(*parse.NumberNode); ok && n.IsInt {
			v := reflect.New(typ).Elem()
			v.SetInt(n.Int64)
			return v
		}
		fail(tree, a.node, "expected integer; found %s", a.node)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n, ok := a.node.(*parse.NumberNode); ok && n.IsUint {
			v := reflect.New(typ).Elem()
			v.SetUint(n.Uint64)
			return v
		}
		fail(tree, a.node, "expected unsigned integer; found %s", a.node)
	case reflect.Float32, reflect.Float64:
		if n, ok := a.node.(*parse.NumberNode); ok && n.IsFloat {
			v := reflect.New(typ).Elem()
			v.SetFloat(n.Float64)
			return v
		}
		fail(tree, a.node, "expected float; found %s", a.node)
	case reflect.Interface:
		if typ.NumMethod() == 0 {
			return a.natural(s, dot, tree)
		}
	case reflect.Struct:
		if typ == reflectValueType {
			return reflect.ValueOf(a.natural(s, dot, tree))
		}
	}
	unsupported(fmt.Sprintf("literal %s for a parameter of type %s", a.node, typ))
	return reflect.Value{}
}

// validateType makes value fit a parameter of type typ the way text/template
// does, or stops with its error.
func validateType(tree *parse.Tree, node parse.Node, value reflect.Value, typ reflect.Type) reflect.Value {
	if !value.IsValid() {
		if canBeNil(typ) {
			return reflect.Zero(typ)
		}
		fail(tree, node, "invalid value; expected %s", typ)
	}
	if typ == reflectValueType && value.Type() != typ {
		return reflect.ValueOf(value)
	}
	if !value.Type().AssignableTo(typ) {
		if value.Kind() == reflect.Interface && !value.IsNil() {
			value = value.Elem()
			if value.Type().AssignableTo(typ) {
				return value
			}
		}
		switch {
		case value.Kind() == reflect.Pointer && value.Type().Elem().AssignableTo(typ):
			value = value.Elem()
			if !value.IsValid() {
				fail(tree, node, "dereference of nil pointer of type %s", typ)
			}
		case reflect.PointerTo(value.Type()).AssignableTo(typ) && value.CanAddr():
			value = value.Addr()
		default:
			fail(tree, node, "wrong type for value; expected %s; got %s", typ, value.Type())
		}
	}
	return value
}

func canBeNil(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
		return true
	case reflect.Struct:
		return typ == reflectValueType
	}
	return false
}

// indirect follows pointers and interfaces to a value, stopping at nil.
func indirect(v reflect.Value) (reflect.Value, bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}

func indirectInterface(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface {
		return v
	}
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

// isTrue is text/template's truth: a value is false when it is the zero
// value of its type or an empty collection.
func isTrue(v reflect.Value) (truth, ok bool) {
	if !v.IsValid() {
		return false, true
	}
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		truth = v.Len() > 0
	case reflect.Bool:
		truth = v.Bool()
	case reflect.Complex64, reflect.Complex128:
		truth = v.Complex() != 0
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.UnsafePointer, reflect.Interface:
		truth = !v.IsNil()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		truth = v.Int() != 0
	case reflect.Float32, reflect.Float64:
		truth = v.Float() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		truth = v.Uint() != 0
	case reflect.Struct:
		truth = true
	default:
		return false, false
	}
	return truth, true
}

func truth(v reflect.Value) bool {
	t, _ := isTrue(indirectInterface(v))
	return t
}

// fieldChain compiles .A.B.C with arguments for the last name. recv gives
// the value the chain starts from; nil means dot.
func (c *compiler) fieldChain(node parse.Node, recv pipeFunc, idents []string, argNodes []parse.Node, hasFinal bool) (expr, error) {
	args, err := c.args(argNodes)
	if err != nil {
		return nil, err
	}
	refs := make([]*fieldRef, len(idents))
	for i, name := range idents {
		refs[i] = &fieldRef{name: name, tree: c.tree, node: node}
	}
	mids, last := refs[:len(refs)-1], refs[len(refs)-1]
	return func(s *state, dot, final reflect.Value, has bool) reflect.Value {
		r := dot
		if recv != nil {
			r = recv(s, dot)
		}
		for _, f := range mids {
			r = f.eval(s, dot, r, nil, reflect.Value{}, false)
		}
		return last.eval(s, dot, r, args, final, has)
	}, nil
}

func (c *compiler) variable(n *parse.VariableNode, argNodes []parse.Node, hasFinal bool) (expr, error) {
	name := n.Ident[0]
	if len(n.Ident) == 1 {
		if len(argNodes) > 0 || hasFinal {
			return nil, c.errorf(n, "argument to non-function %s", n)
		}
		return func(s *state, _, _ reflect.Value, _ bool) reflect.Value { return s.varValue(name) }, nil
	}
	return c.fieldChain(n, func(s *state, _ reflect.Value) reflect.Value { return s.varValue(name) }, n.Ident[1:], argNodes, hasFinal)
}

func (c *compiler) chain(n *parse.ChainNode, argNodes []parse.Node, hasFinal bool) (expr, error) {
	if len(n.Field) == 0 || n.Node.Type() == parse.NodeNil {
		return nil, c.errorf(n, "chain %s", n)
	}
	a, err := c.arg(n.Node)
	if err != nil {
		return nil, err
	}
	tree := c.tree
	return c.fieldChain(n, func(s *state, dot reflect.Value) reflect.Value { return a.natural(s, dot, tree) }, n.Field, argNodes, hasFinal)
}

// fieldRef is one name of a field chain: a method, a struct field or a map
// key, resolved once per receiver type.
type fieldRef struct {
	name  string
	tree  *parse.Tree
	node  parse.Node
	cache atomic.Pointer[[]fieldEntry] // the latest receivers' entries, newest first
}

// fieldCacheSize is how many receiver types a fieldRef remembers: a
// template called with values of a few types (a page's text from a
// pointer, a card's from a copy) finds each without a new look-up.
const fieldCacheSize = 4

type fieldEntry struct {
	key      typeKey      // typ's identity, compared on every look-up
	typ      reflect.Type // the receiver's type, after following pointers
	addr     bool         // methods are looked up and called on the receiver's address
	method   int          // index in the method set, or -1
	caller   bool         // the method set's type implements Caller
	field    []int        // index of the struct field, or nil
	exported bool
}

// typeKey is the identity of a reflect.Type: the pointer its interface
// holds, which is the same for every value of one type. Comparing two
// reflect.Type values compares the same pointers through a call of the
// runtime's, which cost a fifth of looking a field up.
type typeKey unsafe.Pointer

func keyOf(t reflect.Type) typeKey {
	return typeKey((*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1])
}

// Caller is implemented by data whose methods templates call on every page,
// such as a page's T(key string) string, to have them called without
// reflection. CallMethod must return exactly what the method called name
// returns for arg (which is "" for a method without arguments), or false
// to leave the call to reflection. It is asked only about methods of one
// string argument or none, that the type has.
type Caller interface {
	CallMethod(name, arg string) (any, bool)
}

var (
	stringType = reflect.TypeFor[string]()
	callerType = reflect.TypeFor[Caller]()
)

// lookup resolves the name on a receiver of type typ; addr says that its
// methods are those of *typ, as for an addressable value.
func (f *fieldRef) lookup(typ reflect.Type, addr bool) *fieldEntry {
	key := keyOf(typ)
	old := f.cache.Load()
	if old != nil {
		entries := *old
		for i := range entries {
			if entries[i].key == key && entries[i].addr == addr {
				return &entries[i]
			}
		}
	}
	e := &fieldEntry{key: key, typ: typ, addr: addr, method: -1}
	mt := typ
	if addr {
		mt = reflect.PointerTo(typ)
	}
	if m, ok := mt.MethodByName(f.name); ok {
		e.method = m.Index
		e.caller = mt.Implements(callerType)
	} else {
		st := typ
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() == reflect.Struct {
			if sf, ok := st.FieldByName(f.name); ok {
				e.field, e.exported = sf.Index, sf.IsExported()
			}
		}
	}
	entries := []fieldEntry{*e}
	if old != nil {
		entries = append(entries, (*old)[:min(len(*old), fieldCacheSize-1)]...)
	}
	f.cache.Store(&entries) // a look-up at the same time may store its own: either holds
	return e
}

func (f *fieldRef) eval(s *state, dot, recv reflect.Value, args []arg, final reflect.Value, hasFinal bool) reflect.Value {
	if !recv.IsValid() {
		return reflect.Value{} // missing data prints as text/template's default does
	}
	orig := recv // its type names it in errors
	recv, isNil := indirect(recv)
	kind := recv.Kind()
	if kind == reflect.Interface && isNil {
		fail(f.tree, f.node, "nil pointer evaluating %s.%s", orig.Type(), f.name)
	}
	// The address of an addressable value is taken only for a method,
	// whose set is then the pointer's: the type of a pointer made by
	// reflection costs a look-up of its own.
	e := f.lookup(recv.Type(), kind != reflect.Interface && kind != reflect.Pointer && recv.CanAddr())
	if e.method >= 0 {
		ptr := recv
		if e.addr {
			ptr = recv.Addr()
		}
		if e.caller && !hasFinal && len(args) <= 1 {
			var out reflect.Value
			var ok bool
			if out, args, ok = f.viaCaller(s, dot, ptr, args); ok {
				return out
			}
		}
		return callValue(s, dot, f.tree, f.node, f.name, ptr.Method(e.method), args, final, hasFinal)
	}
	hasArgs := len(args) > 0 || hasFinal
	switch kind {
	case reflect.Struct:
		if e.field != nil {
			if !e.exported {
				fail(f.tree, f.node, "%s is an unexported field of struct type %s", f.name, orig.Type())
			}
			var field reflect.Value
			if len(e.field) == 1 {
				field = recv.Field(e.field[0])
			} else {
				var err error
				if field, err = recv.FieldByIndexErr(e.field); err != nil {
					fail(f.tree, f.node, "%v", err)
				}
			}
			if hasArgs {
				fail(f.tree, f.node, "%s has arguments but cannot be invoked as function", f.name)
			}
			return field
		}
	case reflect.Map:
		key := reflect.ValueOf(f.name)
		if key.Type().AssignableTo(recv.Type().Key()) {
			if hasArgs {
				fail(f.tree, f.node, "%s is not a method but has arguments", f.name)
			}
			return recv.MapIndex(key) // invalid when missing, as by default
		}
	case reflect.Pointer:
		if et := recv.Type().Elem(); et.Kind() == reflect.Struct {
			if _, ok := et.FieldByName(f.name); !ok {
				fail(f.tree, f.node, "can't evaluate field %s in type %s", f.name, orig.Type())
			}
		}
		if isNil {
			fail(f.tree, f.node, "nil pointer evaluating %s.%s", orig.Type(), f.name)
		}
	}
	fail(f.tree, f.node, "can't evaluate field %s in type %s", f.name, orig.Type())
	return reflect.Value{}
}

// viaCaller answers a method call of at most one argument through Caller
// when the argument, if any, is a string. The argument is evaluated once,
// whichever way the call goes: the args returned carry its value for
// callValue when Caller does not answer.
func (f *fieldRef) viaCaller(s *state, dot, ptr reflect.Value, args []arg) (reflect.Value, []arg, bool) {
	var str string
	if len(args) == 1 {
		a := args[0]
		v := a.natural(s, dot, f.tree)
		if a.eval != nil {
			args = []arg{{node: a.node, eval: func(*state, reflect.Value) reflect.Value { return v }}}
		}
		if !v.IsValid() || v.Type() != stringType {
			return reflect.Value{}, args, false
		}
		str = v.String()
	}
	if out, ok := f.callCaller(ptr, str); ok {
		s.answered++
		return reflect.ValueOf(out), args, true
	}
	return reflect.Value{}, args, false
}

// callCaller calls the method through Caller, turning a panic into an
// error as text/template does.
func (f *fieldRef) callCaller(ptr reflect.Value, arg string) (out any, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if x, isExec := r.(execError); isExec {
				panic(x)
			}
			fail(f.tree, f.node, "error calling %s: %v", f.name, r)
		}
	}()
	return ptr.Interface().(Caller).CallMethod(f.name, arg)
}

// function compiles a call of a named function: the template's own first,
// then the builtins.
func (c *compiler) function(n *parse.IdentifierNode, argNodes []parse.Node, hasFinal bool) (expr, error) {
	args, err := c.args(argNodes)
	if err != nil {
		return nil, err
	}
	tree, name := c.tree, n.Ident
	fn, ok := c.t.funcs[name]
	if ok {
		if f, isAdd := fn.Interface().(func(int, int) int); isAdd {
			return intFunc(tree, n, name, f, args), nil
		}
	}
	if !ok && name == "printf" && len(args) > 0 {
		if format, isLit := args[0].node.(*parse.StringNode); isLit {
			return printf(tree, n, format.Text, args[1:]), nil
		}
	}
	if !ok {
		if name == "and" || name == "or" {
			if len(args) == 0 {
				return nil, c.errorf(n, "%s without arguments", name)
			}
			return andOr(tree, n, name == "or", args), nil
		}
		if d, ok := direct[name]; ok {
			return directCall(tree, n, name, d, args), nil
		}
		b, ok := builtins[name]
		if !ok {
			return nil, c.errorf(n, "function %q", name)
		}
		fn = b
	}
	return func(s *state, dot, final reflect.Value, has bool) reflect.Value {
		return callValue(s, dot, tree, n, name, fn, args, final, has)
	}, nil
}

// directCall calls a builtin whose parameters are all reflect.Value as a
// Go function: text/template would pass it the arguments' own values, so
// nothing is converted.
func directCall(tree *parse.Tree, n parse.Node, name string, d directFunc, args []arg) expr {
	return func(s *state, dot, final reflect.Value, has bool) reflect.Value {
		// The arguments go on the state's stack of them, which a call
		// in an argument uses above them and leaves as it found it: a
		// slice of the call's own would be made on the heap, since d.fn
		// is not known when this is compiled.
		from := len(s.args)
		for i := range args {
			v := args[i].natural(s, dot, tree)
			s.args = append(s.args, v)
		}
		if has {
			s.args = append(s.args, final)
		}
		argv := s.args[from:]
		if len(argv) < d.min || d.max >= 0 && len(argv) > d.max {
			unsupported("wrong number of arguments for " + name)
		}
		v, err := d.fn(argv)
		clear(argv) // let go of the values
		s.args = s.args[:from]
		if err != nil {
			fail(tree, n, "error calling %s: %v", name, err)
		}
		return v
	}
}

var anyType = reflect.TypeFor[any]()

// printf is the builtin with a literal format, called as fmt.Sprintf.
func printf(tree *parse.Tree, n parse.Node, format string, args []arg) expr {
	return func(s *state, dot, final reflect.Value, has bool) reflect.Value {
		vals := make([]any, 0, len(args)+1)
		for i := range args {
			vals = append(vals, args[i].value(s, dot, anyType, tree).Interface())
		}
		if has {
			vals = append(vals, validateType(tree, n, final, anyType).Interface())
		}
		return reflect.ValueOf(fmt.Sprintf(format, vals...))
	}
}

// intFunc calls a template function of two ints, such as add, as Go.
func intFunc(tree *parse.Tree, n parse.Node, name string, f func(int, int) int, args []arg) expr {
	return func(s *state, dot, final reflect.Value, has bool) reflect.Value {
		var in [2]int
		k := 0
		for i := range args {
			if k == 2 {
				fail(tree, n, "wrong number of args for %s: want 2 got %d", name, len(args))
			}
			in[k] = int(args[i].value(s, dot, intType, tree).Int())
			k++
		}
		if has {
			if k == 2 {
				fail(tree, n, "wrong number of args for %s: want 2 got %d", name, len(args)+1)
			}
			in[k] = int(validateType(tree, n, final, intType).Int())
			k++
		}
		if k != 2 {
			fail(tree, n, "wrong number of args for %s: want 2 got %d", name, k)
		}
		defer func() {
			if r := recover(); r != nil {
				fail(tree, n, "error calling %s: %v", name, r)
			}
		}()
		return reflect.ValueOf(f(in[0], in[1]))
	}
}

func andOr(tree *parse.Tree, n parse.Node, or bool, args []arg) expr {
	return func(s *state, dot, final reflect.Value, has bool) reflect.Value {
		var v reflect.Value
		for i := range args {
			v = args[i].natural(s, dot, tree)
			if truth(v) == or {
				return v
			}
		}
		if has {
			v = validateType(tree, n, final, reflectValueType).Interface().(reflect.Value)
		}
		return v
	}
}

// callValue calls fn as text/template calls a function or method.
func callValue(s *state, dot reflect.Value, tree *parse.Tree, node parse.Node, name string, fn reflect.Value, args []arg, final reflect.Value, hasFinal bool) reflect.Value {
	typ := fn.Type()
	numIn := len(args)
	if hasFinal {
		numIn++
	}
	numFixed := len(args)
	if typ.IsVariadic() {
		numFixed = typ.NumIn() - 1
		if numIn < numFixed {
			fail(tree, node, "wrong number of args for %s: want at least %d got %d", name, typ.NumIn()-1, len(args))
		}
	} else if numIn != typ.NumIn() {
		fail(tree, node, "wrong number of args for %s: want %d got %d", name, typ.NumIn(), numIn)
	}
	switch {
	case typ.NumOut() == 1:
	case typ.NumOut() == 2 && typ.Out(1) == errorType:
	default:
		fail(tree, node, "can't call method/function %q with %d results", name, typ.NumOut())
	}
	var small [4]reflect.Value
	argv := small[:0]
	if numIn > len(small) {
		argv = make([]reflect.Value, 0, numIn)
	}
	i := 0
	for ; i < numFixed && i < len(args); i++ {
		argv = append(argv, args[i].value(s, dot, typ.In(i), tree))
	}
	if typ.IsVariadic() {
		et := typ.In(typ.NumIn() - 1).Elem()
		for ; i < len(args); i++ {
			argv = append(argv, args[i].value(s, dot, et, tree))
		}
	}
	if hasFinal {
		t := typ.In(typ.NumIn() - 1)
		if typ.IsVariadic() {
			if numIn-1 < numFixed {
				t = typ.In(numIn - 1)
			} else {
				t = t.Elem()
			}
		}
		argv = append(argv, validateType(tree, node, final, t))
	}
	v, err := safeCall(fn, argv)
	if err != nil {
		fail(tree, node, "error calling %s: %v", name, err)
	}
	if v.Type() == reflectValueType {
		v = v.Interface().(reflect.Value)
	}
	return v
}

// safeCall calls fn, turning a panic into an error as text/template does;
// this package's own stops pass through.
func safeCall(fn reflect.Value, args []reflect.Value) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(execError); ok {
				panic(e)
			}
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	out := fn.Call(args)
	if len(out) == 2 && !out[1].IsNil() {
		return out[0], out[1].Interface().(error)
	}
	return out[0], nil
}

var errBadComparison = errors.New("incompatible types for comparison")
