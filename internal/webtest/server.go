package webtest

import (
	"bufio"
	"fmt"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// StartServer starts cmd, a server that says where it listens (an
// http:// address) on standard error, as incidentlib serve and mcp -http
// do, and returns that address, ending in a slash, and a function that
// returns what the server has printed so far. The server gets SIGTERM when
// the test ends, and an error is reported when it is still running 20 s
// later (then it is killed). A test may stop it sooner itself.
func StartServer(t testing.TB, cmd *exec.Cmd) (base string, log func() string) {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%s did not stop on SIGTERM", cmd.Args[0])
		}
	})
	var mu sync.Mutex
	var out strings.Builder
	log = func() string {
		mu.Lock()
		defer mu.Unlock()
		return out.String()
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`http://[^ /]+/`)
		for sc.Scan() {
			mu.Lock()
			out.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if u := re.FindString(sc.Text()); u != "" {
				select {
				case urls <- u:
				default:
				}
			}
		}
	}()
	select {
	case base = <-urls:
		return base, log
	case <-time.After(time.Minute):
		t.Fatalf("the server never said where it listens:\n%s", log())
		return "", nil
	}
}

// WaitFor asks url (GET) every 100 ms until want accepts the status of an
// answer, for limit at most, as long as a busy machine may need to load a
// library; it returns an error that says what came last when limit
// passed. A nil want accepts any answer.
func WaitFor(url string, limit time.Duration, want func(status int) bool) error {
	client := &http.Client{Timeout: limit}
	for deadline := time.Now().Add(limit); ; time.Sleep(100 * time.Millisecond) {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if want == nil || want(resp.StatusCode) {
				return nil
			}
			err = fmt.Errorf("%s", resp.Status)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer as expected within %v: %v", url, limit, err)
		}
	}
}
