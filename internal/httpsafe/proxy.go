package httpsafe

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the reverse proxies whose X-Forwarded-For a server
// believes (-trust-proxy). Behind nginx every connection comes from the
// proxy's address: without trusting it, every client would share one
// address in the access log and in the per-address caps, and one client
// could take everyone's share. With no proxies (the default) the header is
// ignored, since any client can send it.
type Proxies []netip.Prefix

// ParseProxies reads a comma-separated list of addresses and CIDR
// ranges, such as "127.0.0.1,10.0.0.0/8"; "" is none.
func ParseProxies(s string) (Proxies, error) {
	var p Proxies
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q is neither an address nor a CIDR range such as 10.0.0.0/8", f)
			}
			p = append(p, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		pre, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR range such as 10.0.0.0/8", f)
		}
		p = append(p, pre.Masked())
	}
	return p, nil
}

func (p Proxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, pre := range p {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// Client is the address r comes from: the connection's, or when that is a
// trusted proxy, the nearest address in X-Forwarded-For that is not one
// (read from the right, as each proxy appends the address it saw). An
// address that does not parse ends the walk at the last trusted hop, so
// a client cannot pass a made-up value for an address.
func (p Proxies) Client(r *http.Request) string {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	a, err := netip.ParseAddr(host)
	if err != nil || len(p) == 0 || !p.trusts(a) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h := strings.TrimSpace(hops[i])
		if h == "" {
			continue
		}
		next, err := netip.ParseAddr(h)
		if err != nil {
			break
		}
		a = next.Unmap()
		if !p.trusts(a) {
			break
		}
	}
	return a.String()
}
