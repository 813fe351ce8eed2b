package htmlexec

import (
	"errors"
	"fmt"
	"reflect"
)

// builtins are text/template's predefined functions that templates of this
// kind use, with text/template's signatures so that callValue passes them
// arguments as text/template would. and and or are compiled apart: they
// evaluate their arguments lazily.
var builtins = map[string]reflect.Value{
	"print":   reflect.ValueOf(fmt.Sprint),
	"printf":  reflect.ValueOf(fmt.Sprintf),
	"println": reflect.ValueOf(fmt.Sprintln),
}

// directFunc is a builtin called without reflection, with between min and
// max arguments (max -1: any number).
type directFunc struct {
	min, max int
	fn       func(args []reflect.Value) (reflect.Value, error)
}

var direct = map[string]directFunc{
	"not": {1, 1, func(a []reflect.Value) (reflect.Value, error) { return reflect.ValueOf(!truth(a[0])), nil }},
	"len": {1, 1, func(a []reflect.Value) (reflect.Value, error) {
		n, err := length(a[0])
		return reflect.ValueOf(n), err
	}},
	"index": {1, -1, func(a []reflect.Value) (reflect.Value, error) { return index(a[0], a[1:]...) }},
	"eq":    {1, -1, boolResult(func(a []reflect.Value) (bool, error) { return eq(a[0], a[1:]...) })},
	"ne":    {2, 2, boolResult(func(a []reflect.Value) (bool, error) { return ne(a[0], a[1]) })},
	"lt":    {2, 2, boolResult(func(a []reflect.Value) (bool, error) { return lt(a[0], a[1]) })},
	"le":    {2, 2, boolResult(func(a []reflect.Value) (bool, error) { return le(a[0], a[1]) })},
	"gt":    {2, 2, boolResult(func(a []reflect.Value) (bool, error) { return gt(a[0], a[1]) })},
	"ge":    {2, 2, boolResult(func(a []reflect.Value) (bool, error) { return ge(a[0], a[1]) })},
}

var (
	trueValue  = reflect.ValueOf(true)
	falseValue = reflect.ValueOf(false)
)

func boolResult(f func([]reflect.Value) (bool, error)) func([]reflect.Value) (reflect.Value, error) {
	return func(a []reflect.Value) (reflect.Value, error) {
		b, err := f(a)
		if b {
			return trueValue, err
		}
		return falseValue, err
	}
}

func length(v reflect.Value) (int, error) {
	v, isNil := indirect(v)
	if isNil {
		return 0, errors.New("len of nil pointer")
	}
	switch v.Kind() {
	case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
		return v.Len(), nil
	}
	return 0, fmt.Errorf("len of type %s", v.Type())
}

// index supports what templates here index: slices, arrays and strings by
// an int, maps by a key of their key type.
func index(item reflect.Value, indexes ...reflect.Value) (reflect.Value, error) {
	item = indirectInterface(item)
	if !item.IsValid() {
		return reflect.Value{}, errors.New("index of untyped nil")
	}
	for _, ix := range indexes {
		ix = indirectInterface(ix)
		var isNil bool
		if item, isNil = indirect(item); isNil {
			return reflect.Value{}, errors.New("index of nil pointer")
		}
		switch item.Kind() {
		case reflect.Array, reflect.Slice, reflect.String:
			if !ix.IsValid() || ix.Type() != reflect.TypeFor[int]() {
				unsupported("index with a value that is not an int")
			}
			x := int(ix.Int())
			if x < 0 || x >= item.Len() {
				unsupported("index out of range")
			}
			item = item.Index(x)
		case reflect.Map:
			if !ix.IsValid() || !ix.Type().AssignableTo(item.Type().Key()) {
				unsupported("map index of another type")
			}
			if x := item.MapIndex(ix); x.IsValid() {
				item = x
			} else {
				item = reflect.Zero(item.Type().Elem())
			}
		default:
			return reflect.Value{}, fmt.Errorf("can't index item of type %s", item.Type())
		}
	}
	return item, nil
}

type kind int

const (
	invalidKind kind = iota
	boolKind
	complexKind
	intKind
	floatKind
	stringKind
	uintKind
)

var errBadComparisonType = errors.New("invalid type for comparison")

func basicKind(v reflect.Value) (kind, error) {
	switch v.Kind() {
	case reflect.Bool:
		return boolKind, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intKind, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintKind, nil
	case reflect.Float32, reflect.Float64:
		return floatKind, nil
	case reflect.Complex64, reflect.Complex128:
		return complexKind, nil
	case reflect.String:
		return stringKind, nil
	}
	return invalidKind, errBadComparisonType
}

// eq compares values of basic kinds as text/template does; other values
// are left to html/template.
func eq(a reflect.Value, bs ...reflect.Value) (bool, error) {
	a = indirectInterface(a)
	if len(bs) == 0 {
		return false, errors.New("missing argument for comparison")
	}
	k1, _ := basicKind(a)
	for _, b := range bs {
		b = indirectInterface(b)
		k2, _ := basicKind(b)
		t := false
		if k1 != k2 {
			switch {
			case k1 == intKind && k2 == uintKind:
				t = a.Int() >= 0 && uint64(a.Int()) == b.Uint()
			case k1 == uintKind && k2 == intKind:
				t = b.Int() >= 0 && a.Uint() == uint64(b.Int())
			default:
				if a.IsValid() && b.IsValid() {
					return false, errBadComparison
				}
			}
		} else {
			switch k1 {
			case boolKind:
				t = a.Bool() == b.Bool()
			case complexKind:
				t = a.Complex() == b.Complex()
			case floatKind:
				t = a.Float() == b.Float()
			case intKind:
				t = a.Int() == b.Int()
			case stringKind:
				t = a.String() == b.String()
			case uintKind:
				t = a.Uint() == b.Uint()
			default:
				unsupported("comparison of values of kind " + a.Kind().String())
			}
		}
		if t {
			return true, nil
		}
	}
	return false, nil
}

func ne(a, b reflect.Value) (bool, error) {
	equal, err := eq(a, b)
	return !equal, err
}

func lt(a, b reflect.Value) (bool, error) {
	a = indirectInterface(a)
	k1, err := basicKind(a)
	if err != nil {
		return false, err
	}
	b = indirectInterface(b)
	k2, err := basicKind(b)
	if err != nil {
		return false, err
	}
	if k1 != k2 {
		switch {
		case k1 == intKind && k2 == uintKind:
			return a.Int() < 0 || uint64(a.Int()) < b.Uint(), nil
		case k1 == uintKind && k2 == intKind:
			return b.Int() >= 0 && a.Uint() < uint64(b.Int()), nil
		}
		return false, errBadComparison
	}
	switch k1 {
	case floatKind:
		return a.Float() < b.Float(), nil
	case intKind:
		return a.Int() < b.Int(), nil
	case stringKind:
		return a.String() < b.String(), nil
	case uintKind:
		return a.Uint() < b.Uint(), nil
	}
	return false, errBadComparisonType
}

func le(a, b reflect.Value) (bool, error) {
	less, err := lt(a, b)
	if less || err != nil {
		return less, err
	}
	return eq(a, b)
}

func gt(a, b reflect.Value) (bool, error) {
	le, err := le(a, b)
	if err != nil {
		return false, err
	}
	return !le, nil
}

func ge(a, b reflect.Value) (bool, error) {
	less, err := lt(a, b)
	if err != nil {
		return false, err
	}
	return !less, nil
}
