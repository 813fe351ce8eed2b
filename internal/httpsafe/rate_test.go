package httpsafe

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLongCallAfterBody: the minimum rate of a body ends with the body: a
// call that takes longer than bodyGrace once its body is read is answered,
// its request's context not cancelled.
func TestLongCallAfterBody(t *testing.T) {
	if testing.Short() {
		t.Skip("waits past bodyGrace")
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-r.Context().Done():
			http.Error(w, "canceled", 500)
		case <-time.After(bodyGrace + 2*time.Second):
			io.WriteString(w, "ok")
		}
	})
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv, capped := NewServer(h, ln, Limits{})
	go srv.Serve(capped)
	defer srv.Close()
	resp, err := http.Post("http://"+ln.Addr().String()+"/", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "ok" {
		t.Errorf("got %d %q", resp.StatusCode, b)
	}
}
