package htmlexec

import (
	"fmt"
	"reflect"
	"strconv"
	"text/template/parse"
)

// maxDepth is text/template's limit on nested template calls.
const maxDepth = 100000

type compiler struct {
	lookup func(name string) *parse.Tree // a template of the set by name, or nil
	text   bool                          // a text/template set: actions print as they are
	t      *Template
	done   map[string]*compiled
	tree   *parse.Tree // the tree being compiled, for error positions
}

func (c *compiler) errorf(node parse.Node, format string, args ...any) error {
	loc, _ := c.tree.ErrorContext(node)
	return fmt.Errorf("%w: %s: %s", ErrUnsupported, loc, fmt.Sprintf(format, args...))
}

func (c *compiler) template(name string) (*compiled, error) {
	if x, ok := c.done[name]; ok {
		return x, nil
	}
	tree := c.lookup(name)
	if tree == nil || tree.Root == nil {
		return nil, fmt.Errorf("%w: template %q is not defined or empty", ErrUnsupported, name)
	}
	x := &compiled{name: name, tree: tree}
	c.done[name] = x // before the body: a template may call itself
	saved := c.tree
	c.tree = tree
	body, err := c.list(tree.Root)
	c.tree = saved
	if err != nil {
		return nil, err
	}
	x.body = body
	return x, nil
}

func noop(*state, reflect.Value) {}

func (c *compiler) list(l *parse.ListNode) (step, error) {
	if l == nil {
		return noop, nil
	}
	var steps []step
	for _, n := range l.Nodes {
		st, err := c.node(n)
		if err != nil {
			return nil, err
		}
		if st != nil {
			steps = append(steps, st)
		}
	}
	switch len(steps) {
	case 0:
		return noop, nil
	case 1:
		return steps[0], nil
	}
	return func(s *state, dot reflect.Value) {
		for _, st := range steps {
			st(s, dot)
		}
	}, nil
}

func (c *compiler) node(n parse.Node) (step, error) {
	switch n := n.(type) {
	case *parse.TextNode:
		text := n.Text
		return func(s *state, _ reflect.Value) { s.w.Write(text) }, nil
	case *parse.CommentNode:
		return nil, nil
	case *parse.ActionNode:
		return c.action(n)
	case *parse.IfNode:
		return c.ifOrWith(false, n.Pipe, n.List, n.ElseList)
	case *parse.WithNode:
		st, err := c.ifOrWith(true, n.Pipe, n.List, n.ElseList)
		if err != nil {
			return nil, err
		}
		return c.keptBlock(n.Pipe, n.List, n.ElseList, st)
	case *parse.RangeNode:
		st, err := c.rangeNode(n)
		if err != nil {
			return nil, err
		}
		return c.keptBlock(n.Pipe, n.List, n.ElseList, st)
	case *parse.TemplateNode:
		return c.call(n)
	}
	return nil, c.errorf(n, "%s", n)
}

// action compiles {{pipeline}}. html/template ends the pipeline of every
// action that prints with its escapers; they run on the value as plain Go.
func (c *compiler) action(n *parse.ActionNode) (step, error) {
	if len(n.Pipe.Decl) > 0 {
		p, err := c.pipeline(n.Pipe)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot reflect.Value) { p(s, dot) }, nil
	}
	cmds := n.Pipe.Cmds
	if c.text {
		return c.textAction(n)
	}
	var escs []escaper
	for len(cmds) > 0 {
		e, ok := escaperOf(cmds[len(cmds)-1])
		if !ok {
			break
		}
		escs = append([]escaper{e}, escs...)
		cmds = cmds[:len(cmds)-1]
	}
	if len(escs) == 0 || len(cmds) == 0 {
		return nil, c.errorf(n, "action %s is not escaped as html/template escapes", n)
	}
	for _, cmd := range cmds {
		if _, ok := escaperOf(cmd); ok {
			return nil, c.errorf(n, "escaper inside pipeline %s", n)
		}
	}
	last := escs[len(escs)-1]
	escs = escs[:len(escs)-1]
	return c.printed(cmds, func(s *state, v reflect.Value) {
		str, ct := stringify(v)
		for _, e := range escs {
			str, ct = e.str(str, ct), contentPlain
		}
		last.write(s.w, str, ct)
	})
}

// printed compiles an action that prints the value of cmds with print: as
// a kept call (kept.go) where it is one, evaluated every time otherwise.
func (c *compiler) printed(cmds []*parse.CommandNode, print func(s *state, v reflect.Value)) (step, error) {
	k, err := c.keptCall(cmds)
	if err != nil {
		return nil, err
	}
	if k != nil {
		return func(s *state, dot reflect.Value) { k.run(s, dot, print) }, nil
	}
	value, err := c.commands(cmds)
	if err != nil {
		return nil, err
	}
	return func(s *state, dot reflect.Value) { print(s, value(s, dot)) }, nil
}

// textAction compiles an action of a text/template set: its value is
// written as it is. Only strings and ints are printed here; any other value
// stops execution with ErrUnsupported, so that text/template prints it.
func (c *compiler) textAction(n *parse.ActionNode) (step, error) {
	for _, cmd := range n.Pipe.Cmds {
		if _, ok := escaperOf(cmd); ok {
			return nil, c.errorf(n, "escaper in a text template: %s", n)
		}
	}
	return c.printed(n.Pipe.Cmds, func(s *state, v reflect.Value) {
		if v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.String:
			s.w.WriteString(v.String())
		case reflect.Int:
			s.w.WriteString(strconv.Itoa(int(v.Int())))
		default:
			unsupported("printing a " + v.Kind().String() + " in a text template")
		}
	})
}

type pipeFunc func(s *state, dot reflect.Value) reflect.Value

// pipeline compiles a pipeline with its variable declarations.
func (c *compiler) pipeline(p *parse.PipeNode) (pipeFunc, error) {
	value, err := c.commands(p.Cmds)
	if err != nil {
		return nil, err
	}
	if len(p.Decl) == 0 {
		return value, nil
	}
	names := make([]string, len(p.Decl))
	for i, d := range p.Decl {
		if len(d.Ident) != 1 {
			return nil, c.errorf(d, "declaration %s", d)
		}
		names[i] = d.Ident[0]
	}
	assign := p.IsAssign
	return func(s *state, dot reflect.Value) reflect.Value {
		v := value(s, dot)
		for _, name := range names {
			if assign {
				s.setVar(name, v)
			} else {
				s.push(name, v)
			}
		}
		return v
	}, nil
}

func (c *compiler) commands(cmds []*parse.CommandNode) (pipeFunc, error) {
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%w: empty pipeline", ErrUnsupported)
	}
	exprs := make([]expr, len(cmds))
	for i, cmd := range cmds {
		e, err := c.command(cmd, i > 0)
		if err != nil {
			return nil, err
		}
		exprs[i] = e
	}
	if len(exprs) == 1 {
		e := exprs[0]
		return func(s *state, dot reflect.Value) reflect.Value {
			return digInterface(e(s, dot, reflect.Value{}, false))
		}, nil
	}
	return func(s *state, dot reflect.Value) reflect.Value {
		var v reflect.Value
		for i, e := range exprs {
			v = digInterface(e(s, dot, v, i > 0))
		}
		return v
	}, nil
}

// digInterface unwraps a value of type any, as text/template does after
// each command of a pipeline.
func digInterface(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface && v.Type().NumMethod() == 0 {
		return reflect.ValueOf(v.Interface())
	}
	return v
}

func (c *compiler) command(cmd *parse.CommandNode, hasFinal bool) (expr, error) {
	tree := c.tree
	switch n := cmd.Args[0].(type) {
	case *parse.FieldNode:
		return c.fieldChain(n, nil, n.Ident, cmd.Args[1:], hasFinal)
	case *parse.ChainNode:
		return c.chain(n, cmd.Args[1:], hasFinal)
	case *parse.IdentifierNode:
		return c.function(n, cmd.Args[1:], hasFinal)
	case *parse.VariableNode:
		return c.variable(n, cmd.Args[1:], hasFinal)
	case *parse.PipeNode:
		if len(cmd.Args) > 1 || hasFinal {
			return nil, c.errorf(n, "argument to non-function")
		}
		p, err := c.pipeline(n)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot, _ reflect.Value, _ bool) reflect.Value { return p(s, dot) }, nil
	}
	if len(cmd.Args) > 1 || hasFinal {
		return nil, c.errorf(cmd, "argument to non-function")
	}
	switch n := cmd.Args[0].(type) {
	case *parse.DotNode:
		return func(_ *state, dot, _ reflect.Value, _ bool) reflect.Value { return dot }, nil
	case *parse.BoolNode, *parse.StringNode, *parse.NumberNode:
		v, err := constant(n)
		if err != nil {
			return nil, c.errorf(n, "%v", err)
		}
		return func(*state, reflect.Value, reflect.Value, bool) reflect.Value { return v }, nil
	case *parse.NilNode:
		return func(*state, reflect.Value, reflect.Value, bool) reflect.Value {
			fail(tree, n, "nil is not a command")
			return reflect.Value{}
		}, nil
	}
	return nil, c.errorf(cmd, "command %s", cmd)
}

// constant is the value of a literal where no type asks for another.
func constant(n parse.Node) (reflect.Value, error) {
	switch n := n.(type) {
	case *parse.BoolNode:
		return reflect.ValueOf(n.True), nil
	case *parse.StringNode:
		return reflect.ValueOf(n.Text), nil
	case *parse.NumberNode:
		switch {
		case n.IsComplex:
			return reflect.ValueOf(n.Complex128), nil
		case n.IsFloat && !isHexInt(n.Text) && !isRuneInt(n.Text) && containsAny(n.Text, ".eEpP"):
			return reflect.ValueOf(n.Float64), nil
		case n.IsInt:
			i := int(n.Int64)
			if int64(i) != n.Int64 {
				return reflect.Value{}, fmt.Errorf("%s overflows int", n.Text)
			}
			return reflect.ValueOf(i), nil
		}
		return reflect.Value{}, fmt.Errorf("%s overflows int", n.Text)
	}
	return reflect.Value{}, fmt.Errorf("not a constant: %s", n)
}

func isRuneInt(s string) bool { return len(s) > 0 && s[0] == '\'' }

func isHexInt(s string) bool {
	return len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !containsAny(s, "pP")
}

func containsAny(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// branch compiles the parts if, with and range share: the pipeline, the
// body and the else list (nil when there is none).
func (c *compiler) branch(pipe *parse.PipeNode, list, elseList *parse.ListNode) (p pipeFunc, body, els step, err error) {
	if p, err = c.pipeline(pipe); err != nil {
		return nil, nil, nil, err
	}
	if body, err = c.list(list); err != nil {
		return nil, nil, nil, err
	}
	if elseList != nil {
		if els, err = c.list(elseList); err != nil {
			return nil, nil, nil, err
		}
	}
	return p, body, els, nil
}

func (c *compiler) ifOrWith(with bool, pipe *parse.PipeNode, list, elseList *parse.ListNode) (step, error) {
	p, body, els, err := c.branch(pipe, list, elseList)
	if err != nil {
		return nil, err
	}
	tree := c.tree
	return func(s *state, dot reflect.Value) {
		mark := s.mark()
		val := p(s, dot)
		truth, ok := isTrue(indirectInterface(val))
		if !ok {
			fail(tree, pipe, "if/with can't use %v", val)
		}
		switch {
		case truth && with:
			body(s, val)
		case truth:
			body(s, dot)
		case els != nil:
			els(s, dot)
		}
		s.pop(mark)
	}, nil
}

func (c *compiler) rangeNode(r *parse.RangeNode) (step, error) {
	p, body, els, err := c.branch(r.Pipe, r.List, r.ElseList)
	if err != nil {
		return nil, err
	}
	decl := r.Pipe.Decl
	if r.Pipe.IsAssign && len(decl) > 0 {
		return nil, c.errorf(r, "range with assignment")
	}
	tree := c.tree
	return func(s *state, dot reflect.Value) {
		mark := s.mark()
		val, _ := indirect(p(s, dot))
		inner := s.mark()
		switch val.Kind() {
		case reflect.Array, reflect.Slice:
			if n := val.Len(); n > 0 {
				for i := 0; i < n; i++ {
					elem := val.Index(i)
					if len(decl) > 0 {
						s.vars[inner-1].value = elem // the last declared variable
					}
					if len(decl) > 1 {
						s.vars[inner-2].value = reflect.ValueOf(i)
					}
					body(s, elem)
					s.pop(inner)
				}
				s.pop(mark)
				return
			}
		case reflect.Invalid:
			// A nil value ranges over nothing, as in text/template.
		case reflect.Map, reflect.Chan, reflect.Func,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			unsupported("range over " + val.Kind().String())
		default:
			fail(tree, r, "range can't iterate over %v", val)
		}
		if els != nil {
			els(s, dot)
		}
		s.pop(mark)
	}, nil
}

// call compiles {{template "name" pipeline}}: the callee sees only its own
// $, the value of the pipeline.
func (c *compiler) call(n *parse.TemplateNode) (step, error) {
	x, err := c.template(n.Name)
	if err != nil {
		return nil, err
	}
	var p pipeFunc
	if n.Pipe != nil {
		if p, err = c.pipeline(n.Pipe); err != nil {
			return nil, err
		}
	}
	tree := c.tree
	return func(s *state, dot reflect.Value) {
		var newDot reflect.Value
		if p != nil {
			newDot = p(s, dot)
		}
		if s.depth >= maxDepth {
			fail(tree, n, "exceeded maximum template depth (%v)", maxDepth)
		}
		base, mark := s.base, s.mark()
		s.base = mark
		s.push("$", newDot)
		s.depth++
		x.body(s, newDot)
		s.depth--
		s.pop(mark)
		s.base = base
	}, nil
}
