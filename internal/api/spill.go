package api

import "io"

// spillAt is the size past which a file the API builds in memory goes to
// its output file piece by piece (spill). cases.json is 186 MB at 100,000
// cases and the largest topics' files over 100 MB: built whole, the
// buffer that held them (w.buf, reused) stayed that large, twice that
// while it grew, for the rest of the API. Smaller files are still given
// to write whole, as before.
var spillAt = 1 << 20 // a variable for the tests

// spill is a file of the API being built in w.buf: it stays in memory
// while it is small and goes to the output through create once it passes
// spillAt, so that memory holds at most about spillAt of it.
type spill struct {
	w    *writer
	path string
	f    io.WriteCloser // nil while the file is only in memory
	err  error
}

// spill starts the file at path.
func (w *writer) spill(path string) *spill { return &spill{w: w, path: path} }

// flush writes out b, the next bytes of the file, when it has passed
// spillAt, and returns what is left to fill (b emptied, or b itself).
// After an error it keeps nothing more: close reports it.
func (s *spill) flush(b []byte) []byte {
	if len(b) < spillAt {
		return b
	}
	if s.err == nil && s.f == nil {
		s.f, s.err = s.w.create(s.path)
	}
	if s.err == nil {
		_, s.err = s.f.Write(b)
	}
	return b[:0]
}

// close ends the file with b, its last bytes, and keeps b's memory as
// w.buf for the next file.
func (s *spill) close(b []byte) error {
	s.w.buf = b[:0]
	if s.f == nil && s.err == nil {
		return s.w.write(s.path, b)
	}
	if s.err == nil {
		_, s.err = s.f.Write(b)
	}
	if s.err != nil {
		if a, ok := s.f.(interface{ Abort() }); ok {
			a.Abort()
		}
		return s.err
	}
	return s.f.Close()
}
