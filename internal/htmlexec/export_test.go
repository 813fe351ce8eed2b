package htmlexec

// Refuse makes every Compile return ErrUnsupported until restore is called,
// as when html/template's escapers are not the ones this package knows, so
// that a test outside the package can load a theme that html/template alone
// renders.
func Refuse() (restore func()) {
	saved := escapersChecked
	escapersChecked = func() error { return escapersDiffer("refused by a test") }
	return func() { escapersChecked = saved }
}
