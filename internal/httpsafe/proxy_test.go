package httpsafe

import (
	"net/http/httptest"
	"testing"
)

func TestProxiesClient(t *testing.T) {
	p, err := ParseProxies("127.0.0.1, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ remote, xff, want string }{
		{"203.0.113.9:5000", "", "203.0.113.9"},
		{"203.0.113.9:5000", "198.51.100.1", "203.0.113.9"}, // not a proxy: its header is ignored
		{"127.0.0.1:5000", "", "127.0.0.1"},
		{"127.0.0.1:5000", "198.51.100.1", "198.51.100.1"},
		{"127.0.0.1:5000", "6.6.6.6, 198.51.100.1, 10.1.2.3", "198.51.100.1"}, // the forged first hop is not believed
		{"127.0.0.1:5000", "garbage", "127.0.0.1"},
		{"127.0.0.1:5000", "198.51.100.1, garbage", "127.0.0.1"},
		{"[::ffff:127.0.0.1]:5000", "2001:db8::1", "2001:db8::1"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := p.Client(r); got != tc.want {
			t.Errorf("%s with X-Forwarded-For %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
	var none Proxies
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:1"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	if got := none.Client(r); got != "127.0.0.1" {
		t.Errorf("no trusted proxy: %s", got)
	}
	for _, bad := range []string{"localhost", "10.0.0.0/33", "1.2.3"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("ParseProxies(%q) took it", bad)
		}
	}
}
