package httpsafe

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dialSlowReader connects with a small receive buffer, so that an answer
// the client does not read fills it at once.
func dialSlowReader(t *testing.T, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
	}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestRequestDeadline (#39): an answer a client does not read ends at
// Limits.Request; an event stream does not. The client reads nothing until
// well past the deadline, then reads what there is: the 64 MB answer is
// cut short.
func TestRequestDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("waits past a deadline for seconds")
	}
	const deadline = 500 * time.Millisecond
	big := bytes.Repeat([]byte("x"), 64<<20)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stream" {
			MarkStream(r)
			for i := 0; i < 40; i++ {
				fmt.Fprint(w, "data: tick\n\n")
				w.(http.Flusher).Flush()
				time.Sleep(50 * time.Millisecond)
			}
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(big)))
		w.Write(big)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, capped := NewServer(h, ln, Limits{Request: deadline})
	go srv.Serve(capped)
	t.Cleanup(func() { srv.Close() })

	c := dialSlowReader(t, ln.Addr().String())
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	time.Sleep(deadline + 3*time.Second) // the client reads nothing
	c.SetReadDeadline(time.Now().Add(time.Minute))
	n, err := io.Copy(io.Discard, c)
	if n >= int64(len(big)) {
		t.Errorf("a client that read nothing for %v got the whole answer (%d bytes, %v): the deadline (%v) did not end it", deadline+3*time.Second, n, err, deadline)
	} else {
		t.Logf("the answer was cut after %d of %d bytes", n, len(big))
	}

	// A stream keeps going past the deadline: 40 ticks of 50 ms.
	resp, err := http.Get("http://" + ln.Addr().String() + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if k := strings.Count(string(b), "tick"); k != 40 || err != nil {
		t.Errorf("an event stream past the deadline: %d ticks of 40 (%v)", k, err)
	}
}

// TestBodyEndsAtReadTimeout (#39): a body that comes above the minimum
// rate still ends at the server's ReadTimeout: the minimum rate's read
// deadline does not replace it. The client sends 200 kB at 4 kB a second
// (50 s); the server answers once its ReadTimeout (1 s) is over.
func TestBodyEndsAtReadTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("sends a slow body for seconds")
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "body: "+err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, "read it all")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, capped := NewServer(h, ln, Limits{})
	srv.ReadTimeout = time.Second
	go srv.Serve(capped)
	t.Cleanup(func() { srv.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", 200<<10)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		chunk := bytes.Repeat([]byte("y"), 400)
		for i := 0; i < 512; i++ {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("no answer to a slow body after %v: %v", took, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || took > 10*time.Second {
		t.Errorf("a body of 50 s at 4 kB/s: %s after %v, want 400 soon after the read timeout (1 s)", resp.Status, took)
	}
	t.Logf("answered %s after %v", resp.Status, took.Round(time.Millisecond))
}
