package registry

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/caip"
)

// TrustedSources is the operator's list, per destination chain (CAIP-2 id), of the RPC hosts whose
// word may release a bridge escrow (--attestation-trusted-hosts). A Chain's endpoints are the
// Chain's: whoever can write the Chain, or the Secrets its URLs come from, could point them all at
// hosts of their own that agree on a forged fill. For a chain on this list, a fill is attested
// only when two endpoints on the list agree, so that write access to Chains no longer amounts to
// the attester's power. A chain not on the list keeps the Chain's own endpoints. The zero value
// restricts nothing.
type TrustedSources map[string][]hostPattern

// hostPattern is a host name or address, lower case, and a port (0: any port).
type hostPattern struct {
	host string
	port int
}

// Add parses one "CHAIN=HOST[:PORT][,HOST[:PORT]...]" entry (CHAIN a CAIP-2 eip155 id) into t.
func (t *TrustedSources) Add(entry string) error {
	chain, hosts, ok := strings.Cut(entry, "=")
	id, err := caip.ParseChainID(strings.TrimSpace(chain))
	if !ok || err != nil || id.Namespace != caip.NamespaceEIP155 {
		return fmt.Errorf("%q: want eip155:<id>=host[:port][,host[:port]...]", entry)
	}
	var patterns []hostPattern
	for h := range strings.SplitSeq(hosts, ",") {
		p, err := parseHostPattern(strings.TrimSpace(h))
		if err != nil {
			return fmt.Errorf("%q: %w", entry, err)
		}
		patterns = append(patterns, p)
	}
	if *t == nil {
		*t = TrustedSources{}
	}
	(*t)[id.String()] = append((*t)[id.String()], patterns...)
	return nil
}

// parseHostPattern reads "host" or "host:port" ("[v6]:port" for an IPv6 address with a port).
func parseHostPattern(s string) (hostPattern, error) {
	if s == "" || strings.ContainsAny(s, "/@?#") {
		return hostPattern{}, fmt.Errorf("%q is not a host or host:port", s)
	}
	host, port := s, 0
	if h, p, err := net.SplitHostPort(s); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return hostPattern{}, fmt.Errorf("%q: bad port", s)
		}
		host, port = h, n
	}
	return hostPattern{host: normalHost(host), port: port}, nil
}

// normalHost is a host as compared: lower case, no trailing dot, an IP address in its canonical
// form.
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Unmap().String()
	}
	return h
}

// Restricts reports whether the chain's attestations need trusted endpoints.
func (t TrustedSources) Restricts(chainID string) bool { return len(t[chainID]) > 0 }

// Trusts reports whether the endpoint at rawURL is on the chain's list.
func (t TrustedSources) Trusts(chainID, rawURL string) bool {
	_, ok := t.TrustedHost(chainID, rawURL)
	return ok
}

// TrustedHost is the host of the endpoint at rawURL, normalised, when it is on the chain's list.
// Sources are counted by host: two ports of one host are one provider's word.
func (t TrustedSources) TrustedHost(chainID, rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	host := normalHost(u.Hostname())
	port := map[string]int{"http": 80, "https": 443, "ws": 80, "wss": 443}[u.Scheme]
	if p := u.Port(); p != "" {
		port, _ = strconv.Atoi(p)
	}
	ok := slices.ContainsFunc(t[chainID], func(p hostPattern) bool {
		return p.host == host && (p.port == 0 || p.port == port)
	})
	return host, ok
}

// TrustedHosts is how many distinct listed hosts the chain's endpoints (its node and witnesses)
// are on.
func (t TrustedSources) TrustedHosts(c Chain) int {
	hosts := map[string]bool{}
	for _, u := range append([]string{c.RPCURL}, c.WitnessURLs...) {
		if h, ok := t.TrustedHost(c.ID, u); u != "" && ok {
			hosts[h] = true
		}
	}
	return len(hosts)
}

// String lists the entries, for flag defaults.
func (t TrustedSources) String() string {
	var out []string
	for chain, patterns := range t {
		hosts := make([]string, len(patterns))
		for i, p := range patterns {
			hosts[i] = p.host
			if p.port != 0 {
				hosts[i] = net.JoinHostPort(p.host, strconv.Itoa(p.port))
			}
		}
		out = append(out, chain+"="+strings.Join(hosts, ","))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
