package offheap

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
)

func TestBytes(t *testing.T) {
	var a Arena
	var got [][]byte
	for _, n := range []int{1, 10, 4096, chunk - 5000, 3000, chunk + 1, 7} {
		b := a.Bytes(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(b), cap(b))
		}
		for i, c := range b {
			if c != 0 {
				t.Fatalf("Bytes(%d)[%d] = %d, want zero", n, i, c)
			}
		}
		for i := range b {
			b[i] = byte(len(got) + 1)
		}
		got = append(got, b)
	}
	// Memory the collector does not know about must survive a collection,
	// and no slice may share bytes with another.
	runtime.GC()
	for k, b := range got {
		if i := bytes.IndexFunc(b, func(r rune) bool { return r != rune(k+1) }); i >= 0 {
			t.Errorf("slice %d (%d bytes) was overwritten at %d", k, len(b), i)
		}
	}
	if m := a.Mapped(); m < 3*chunk || m > 4*chunk+1 {
		t.Errorf("Mapped() = %d, want between %d and %d", m, 3*chunk, 4*chunk+1)
	}
	if len(a.Bytes(0)) != 0 {
		t.Error("Bytes(0) is not empty")
	}
}

func TestString(t *testing.T) {
	for _, a := range []*Arena{nil, new(Arena)} {
		src := []byte("로드 밸런서 <p>")
		s := a.String(src)
		src[0] = 'x'
		if s != "로드 밸런서 <p>" {
			t.Errorf("arena %v: String = %q, changed with its source", a != nil, s)
		}
		if a.String(nil) != "" {
			t.Error("String(nil) is not empty")
		}
	}
	if (*Arena)(nil).Mapped() != 0 {
		t.Error("a nil arena maps memory")
	}
}

// TestConcurrent is for the race detector, and checks that slices handed to
// different goroutines at once never overlap.
func TestConcurrent(t *testing.T) {
	var a Arena
	var wg sync.WaitGroup
	out := make([][][]byte, 4)
	for g := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				b := a.Bytes(100 + i%50)
				for j := range b {
					b[j] = byte(g + 1)
				}
				out[g] = append(out[g], b)
			}
		}()
	}
	wg.Wait()
	for g, bs := range out {
		for _, b := range bs {
			if bytes.Count(b, []byte{byte(g + 1)}) != len(b) {
				t.Fatalf("goroutine %d's slice was written by another", g)
			}
		}
	}
}
