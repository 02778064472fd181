// Package ssrf keeps webhook deliveries from reaching the service's own network: a delivery goes
// only to a public address, resolved once, connected to as resolved, and checked again on the
// socket itself (so that a DNS answer that changes between the check and the connection, DNS
// rebinding, cannot slip a private address in).
package ssrf

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrRefused is the error of every refused destination; errors.Is finds it.
var ErrRefused = errors.New("destination refused")

// blocked are the ranges no delivery may reach, besides what netip classifies (loopback,
// private, link-local, multicast, unspecified): shared address space, IETF, benchmarking,
// documentation and reserved ranges, and the IPv6 ones that embed IPv4 or translate to it.
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT, often cloud-internal
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"), // 6to4
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("192.88.99.0/24"),   // 6to4 relays
	netip.MustParsePrefix("168.63.129.16/32"), // Azure's host service (WireServer)
	netip.MustParsePrefix("2001::/32"),        // Teredo
	netip.MustParsePrefix("fec0::/10"),        // site-local (deprecated, still routed by some)
	netip.MustParsePrefix("::/96"),            // IPv4-compatible
	netip.MustParsePrefix("::ffff:0:0:0/96"),  // IPv4-translated
}

// Check refuses an address that is not public: loopback (unless allowLoopback), private (RFC 1918,
// fc00::/7), link-local (169.254.0.0/16 with the cloud metadata service, fe80::/10), multicast,
// unspecified and the reserved ranges. An IPv4-mapped IPv6 address is judged as its IPv4 address.
func Check(ip netip.Addr, allowLoopback bool) error {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return fmt.Errorf("%w: no address", ErrRefused)
	case ip.IsLoopback():
		if allowLoopback {
			return nil
		}
		return fmt.Errorf("%w: %s is a loopback address", ErrRefused, ip)
	case ip.IsPrivate():
		return fmt.Errorf("%w: %s is a private address", ErrRefused, ip)
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return fmt.Errorf("%w: %s is a link-local address (the cloud metadata service lives there)", ErrRefused, ip)
	case ip.IsUnspecified(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast(), !ip.IsGlobalUnicast():
		return fmt.Errorf("%w: %s is not a unicast address", ErrRefused, ip)
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return fmt.Errorf("%w: %s is in the reserved range %s", ErrRefused, ip, p)
		}
	}
	return nil
}

// CheckURL refuses a URL a delivery may not go to before anything is resolved: not https (plain
// http only to a loopback host, and only with allowLoopback), user information, or an address
// literal that Check refuses.
func CheckURL(raw string, allowLoopback bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %s is not a URL", ErrRefused, raw)
	}
	if u.User != nil {
		return fmt.Errorf("%w: the URL carries user information", ErrRefused)
	}
	host := u.Hostname()
	switch u.Scheme {
	case "https":
	case "http":
		if !allowLoopback || !isLoopbackHost(host) {
			return fmt.Errorf("%w: the URL must be https (plain http is allowed to a loopback address of a test endpoint only)", ErrRefused)
		}
	default:
		return fmt.Errorf("%w: the URL must be https, not %q", ErrRefused, u.Scheme)
	}
	if host == "" {
		return fmt.Errorf("%w: the URL has no host", ErrRefused)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return Check(ip, allowLoopback)
	}
	if isLoopbackHost(host) && !allowLoopback {
		return fmt.Errorf("%w: %s is a loopback host", ErrRefused, host)
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// Dialer connects to public addresses only.
type Dialer struct {
	// AllowLoopback lets a dial reach loopback addresses (test endpoints).
	AllowLoopback bool
	// Timeout bounds the connection; 5 s when zero.
	Timeout time.Duration
	// Resolver resolves host names; net.DefaultResolver when nil.
	Resolver *net.Resolver
}

// DialContext is an http.Transport's DialContext: it resolves the host once, refuses the
// destination when any of its addresses is refused, connects to the first address by number, and
// checks the address of the socket once more before the connection is made.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	addrs, err := d.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if err := Check(a, d.AllowLoopback); err != nil {
			return nil, fmt.Errorf("%s resolves to a refused address: %w", host, err)
		}
	}
	dialer := net.Dialer{
		Timeout: d.Timeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrRefused, address)
			}
			return Check(ap.Addr(), d.AllowLoopback)
		},
	}
	if dialer.Timeout == 0 {
		dialer.Timeout = 5 * time.Second
	}
	return dialer.DialContext(ctx, network, net.JoinHostPort(addrs[0].String(), port))
}

func (d *Dialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	r := d.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolving %s: no address", host)
	}
	return addrs, nil
}
