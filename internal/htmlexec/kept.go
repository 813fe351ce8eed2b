package htmlexec

import (
	"reflect"
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
