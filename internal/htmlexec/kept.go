package htmlexec

import (
	"reflect"
	"slices"
	"strconv"
	"sync/atomic"
	"text/template/parse"
)

// KeyedCaller is a Caller whose answers depend on nothing but the method's
// name and argument and a key of the receiver's, such as a page's language
// on one site: every receiver with the same key answers CallMethod alike.
//
// An action that prints such an answer, a method with a literal string
// argument or none ({{.T "nav.home"}}, {{$.T "unknown"}}, {{.P.SiteTitle}}),
// is a kept call: its output, escaped, is kept per key the first time the
// Caller answers, and later executions with the same key write it without
// calling or escaping anything. A page calls dozens of such methods, each
// of them several times slower than reading a field.
type KeyedCaller interface {
	Caller
	// CallerKey returns the receiver's key: never the same for receivers
	// that answer differently, in this process, even after one of them is
	// gone. 0 keeps nothing.
	CallerKey() uint64
}

// keptCall is a compiled kept call.
type keptCall struct {
	recv pipeFunc  // the receiver of the method; nil for dot
	last *fieldRef // the method
	args []arg     // none, or a literal string
	outs atomic.Pointer[[]keptOut]
	// declined is set once a receiver is no KeyedCaller, or one with a
	// key did not have the name answered by its Caller (the name is a
	// field, or a method the Caller leaves to reflection). The call is
	// then never kept, and costs no more than any other.
	declined atomic.Bool
}

// keptOut is the output of a kept call for one key.
type keptOut struct {
	key uint64
	out string
}

// keptKeys is how many keys a kept call remembers, the newest: the
// languages of a site, and those of the site before it in a server that
// builds the site again after an edit.
const keptKeys = 8

// keptCall returns the kept call of a pipeline of one command that calls a
// method, with a literal string or nothing as its argument, on dot or on a
// variable, or through a chain of names; nil when cmds is anything else.
// Whether the method is one a KeyedCaller answers is known only when it
// runs: otherwise it runs as it would without this.
func (c *compiler) keptCall(cmds []*parse.CommandNode) (*keptCall, error) {
	if len(cmds) != 1 || len(cmds[0].Args) > 2 {
		return nil, nil
	}
	cmd := cmds[0]
	if len(cmd.Args) == 2 {
		if _, ok := cmd.Args[1].(*parse.StringNode); !ok {
			return nil, nil
		}
	}
	var (
		node   parse.Node
		idents []string
		start  pipeFunc // nil: dot
	)
	switch n := cmd.Args[0].(type) {
	case *parse.FieldNode:
		node, idents = n, n.Ident
	case *parse.VariableNode:
		if len(n.Ident) < 2 {
			return nil, nil
		}
		name := n.Ident[0]
		node, idents = n, n.Ident[1:]
		start = func(s *state, _ reflect.Value) reflect.Value { return s.varValue(name) }
	default:
		return nil, nil
	}
	args, err := c.args(cmd.Args[1:])
	if err != nil {
		return nil, err
	}
	k := &keptCall{last: &fieldRef{name: idents[len(idents)-1], tree: c.tree, node: node}, args: args}
	// The names before the method are evaluated as fieldChain evaluates
	// them.
	switch mids := idents[:len(idents)-1]; {
	case len(mids) > 0:
		e, err := c.fieldChain(node, start, mids, nil, false)
		if err != nil {
			return nil, err
		}
		k.recv = func(s *state, dot reflect.Value) reflect.Value { return e(s, dot, reflect.Value{}, false) }
	default:
		k.recv = start // nil: dot
	}
	return k, nil
}

// run executes the kept call, printing its value with print.
func (k *keptCall) run(s *state, dot reflect.Value, print func(*state, reflect.Value)) {
	r := dot
	if k.recv != nil {
		r = k.recv(s, dot)
	}
	if k.declined.Load() {
		print(s, digInterface(k.last.eval(s, dot, r, k.args, reflect.Value{}, false)))
		return
	}
	key, keyed := callerKey(r)
	if !keyed {
		k.declined.Store(true)
	}
	if key != 0 {
		if outs := k.outs.Load(); outs != nil {
			for _, o := range *outs {
				if o.key == key {
					s.w.WriteString(o.out)
					return
				}
			}
		}
	}
	answered := s.answered
	v := digInterface(k.last.eval(s, dot, r, k.args, reflect.Value{}, false))
	start := s.w.Len()
	print(s, v)
	// Kept only when the Caller answered: a method it declines is
	// called by reflection, and nothing says it is the same for the key.
	switch {
	case key == 0:
	case s.answered == answered+1:
		k.keep(key, string(s.w.Bytes()[start:]))
	default:
		k.declined.Store(true)
	}
}

// keep stores the output for key, before those of other keys.
func (k *keptCall) keep(key uint64, out string) {
	outs := []keptOut{{key, out}}
	if old := k.outs.Load(); old != nil {
		for _, o := range *old {
			if o.key != key && len(outs) < keptKeys {
				outs = append(outs, o)
			}
		}
	}
	k.outs.Store(&outs) // two workers may store at once: either holds
}

// callerKey returns the key of the receiver r when it is a KeyedCaller
// behind a pointer (keyed), 0 otherwise or when asking fails: the method's
// call then reports what is wrong as it would without keeping.
func callerKey(r reflect.Value) (key uint64, keyed bool) {
	if r.Kind() == reflect.Interface && !r.IsNil() {
		r = r.Elem()
	}
	if r.Kind() != reflect.Pointer || r.IsNil() || !r.CanInterface() {
		return 0, false
	}
	kc, ok := r.Interface().(KeyedCaller)
	if !ok {
		return 0, false
	}
	defer func() {
		if recover() != nil {
			key = 0
		}
	}()
	return kc.CallerKey(), true
}

// A keptBlock is a {{with}} or {{range}} without else whose pipeline is a
// kept call ({{range .Nav}}, {{with .Asset "css/site.css"}}) and whose body
// reads nothing from outside but its dot and names of $ that hold a
// string, a bool or a number ({{if eq .ID $.Section}}): what it writes
// then depends on nothing but the key and the values of those names, and
// is kept for them like a kept call's output. The body may call templates
// and functions; those, and the methods of the values it reaches, are
// taken to give the same output for the same data, as templates assume.
type keptBlock struct {
	call     *keptCall
	outer    []pipeFunc // the names of $ the body reads
	step     step       // the block as compiled without keeping
	outs     atomic.Pointer[[]blockOut]
	declined atomic.Bool // as for keptCall
}

// blockOut is the output of a kept block for a key and outer values.
type blockOut struct {
	key   uint64
	outer []outerValue
	out   string
}

// outerValue is the value of a name of $ as a kept block compares it.
type outerValue struct {
	typ typeKey
	str string
}

// maxOuter is how many names of $ a kept block may read.
const maxOuter = 4

// keptBlock returns the block compiled as st, kept where it can be.
func (c *compiler) keptBlock(pipe *parse.PipeNode, body, els *parse.ListNode, st step) (step, error) {
	if els != nil || len(pipe.Decl) > 0 {
		return st, nil
	}
	var reads []*parse.VariableNode
	if !outerReads(body, &reads) || len(reads) > maxOuter {
		return st, nil
	}
	call, err := c.keptCall(pipe.Cmds)
	if err != nil || call == nil {
		return st, err
	}
	b := &keptBlock{call: call, step: st}
	for _, v := range reads {
		e, err := c.fieldChain(v, func(s *state, _ reflect.Value) reflect.Value { return s.varValue("$") }, v.Ident[1:], nil, false)
		if err != nil {
			return nil, err
		}
		b.outer = append(b.outer, func(s *state, dot reflect.Value) reflect.Value { return e(s, dot, reflect.Value{}, false) })
	}
	return b.run, nil
}

// outerReads adds the names of $ that n reads to reads, and reports
// whether n reads nothing else from outside its dot: no other variable,
// and no declaration (which a block cannot be kept with).
func outerReads(n parse.Node, reads *[]*parse.VariableNode) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *parse.ListNode:
		if n == nil {
			return true
		}
		for _, x := range n.Nodes {
			if !outerReads(x, reads) {
				return false
			}
		}
		return true
	case *parse.TextNode, *parse.CommentNode, *parse.FieldNode, *parse.IdentifierNode, *parse.DotNode,
		*parse.BoolNode, *parse.StringNode, *parse.NumberNode, *parse.NilNode:
		return true
	case *parse.ActionNode:
		return outerReads(n.Pipe, reads)
	case *parse.IfNode:
		return outerReads(n.Pipe, reads) && outerReads(n.List, reads) && outerReads(n.ElseList, reads)
	case *parse.WithNode:
		return outerReads(n.Pipe, reads) && outerReads(n.List, reads) && outerReads(n.ElseList, reads)
	case *parse.RangeNode:
		return outerReads(n.Pipe, reads) && outerReads(n.List, reads) && outerReads(n.ElseList, reads)
	case *parse.TemplateNode:
		// The callee sees only what it is given: its own $.
		return n.Pipe == nil || outerReads(n.Pipe, reads)
	case *parse.PipeNode:
		if n == nil {
			return true
		}
		if len(n.Decl) > 0 {
			return false
		}
		for i, cmd := range n.Cmds {
			// A name of $ called with arguments, or with the value of
			// the command before, is no value to compare.
			if v, ok := cmd.Args[0].(*parse.VariableNode); ok && (len(cmd.Args) > 1 || i > 0) && v.Ident[0] == "$" {
				return false
			}
			for _, a := range cmd.Args {
				if !outerReads(a, reads) {
					return false
				}
			}
		}
		return true
	case *parse.ChainNode:
		return outerReads(n.Node, reads)
	case *parse.VariableNode:
		if n.Ident[0] != "$" || len(n.Ident) < 2 {
			return false
		}
		*reads = append(*reads, n)
		return true
	}
	return false
}

// run executes the block, writing its kept output when it has one.
func (b *keptBlock) run(s *state, dot reflect.Value) {
	if b.declined.Load() {
		b.step(s, dot)
		return
	}
	r := dot
	if b.call.recv != nil {
		r = b.call.recv(s, dot)
	}
	key, keyed := callerKey(r)
	if !keyed {
		b.declined.Store(true)
	}
	var vals [maxOuter]outerValue
	if key == 0 || !b.readOuter(s, dot, &vals) {
		b.step(s, dot)
		return
	}
	outer := vals[:len(b.outer)]
	if outs := b.outs.Load(); outs != nil {
		for _, o := range *outs {
			if o.key == key && slices.Equal(o.outer, outer) {
				s.w.WriteString(o.out)
				return
			}
		}
	}
	// Kept only when the Caller answers the pipeline's call.
	answered := s.answered
	b.call.last.eval(s, dot, r, b.call.args, reflect.Value{}, false)
	if s.answered != answered+1 {
		b.declined.Store(true)
		b.step(s, dot)
		return
	}
	start := s.w.Len()
	b.step(s, dot)
	b.keep(blockOut{key, slices.Clone(outer), string(s.w.Bytes()[start:])})
}

// readOuter evaluates the names of $ the body reads into vals, and reports
// whether each is a string, a bool or a number. A name that fails to
// evaluate is left to the body to report, if it reads it at all.
func (b *keptBlock) readOuter(s *state, dot reflect.Value, vals *[maxOuter]outerValue) (ok bool) {
	mark, args := s.mark(), len(s.args)
	defer func() {
		if r := recover(); r != nil {
			if _, isExec := r.(execError); !isExec {
				panic(r)
			}
			s.pop(mark)
			s.args = s.args[:args]
			ok = false
		}
	}()
	for i, o := range b.outer {
		v := indirectInterface(o(s, dot))
		var str string
		switch v.Kind() {
		case reflect.String:
			str = v.String()
		case reflect.Bool:
			str = strconv.FormatBool(v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			str = strconv.FormatInt(v.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			str = strconv.FormatUint(v.Uint(), 10)
		default:
			return false
		}
		vals[i] = outerValue{keyOf(v.Type()), str}
	}
	return true
}

// keep stores an output, before the others; a block remembers a few
// outputs per key (a header's for each section of the site). A block
// whose names of $ take more values for one key than it remembers (one
// that reads a page's title, say) would miss on most pages and pay for
// keeping each time: it is declined instead.
func (b *keptBlock) keep(o blockOut) {
	outs := []blockOut{o}
	if old := b.outs.Load(); old != nil {
		if len(*old) == keptBlockOuts && !slices.ContainsFunc(*old, func(x blockOut) bool { return x.key != o.key }) {
			b.declined.Store(true)
			return
		}
		for _, x := range *old {
			if len(outs) == keptBlockOuts {
				break
			}
			if x.key != o.key || !slices.Equal(x.outer, o.outer) {
				outs = append(outs, x)
			}
		}
	}
	b.outs.Store(&outs)
}

// keptBlockOuts is how many outputs a kept block remembers.
const keptBlockOuts = 64
