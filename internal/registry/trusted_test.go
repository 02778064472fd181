package registry

import "testing"

func TestTrustedSourcesParseAndMatch(t *testing.T) {
	for _, bad := range []string{
		"eip155:1", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=rpc.example", "eip155:1=", "eip155:1=rpc.example,",
		"eip155:1=rpc.example/path", "eip155:1=user@rpc.example", "eip155:1=rpc.example:0", "eip155:1=rpc.example:65536",
		"1=rpc.example",
	} {
		var ts TrustedSources
		if err := ts.Add(bad); err == nil {
			t.Errorf("Add(%q) accepted", bad)
		}
	}

	var ts TrustedSources
	for _, entry := range []string{"eip155:8453=RPC-A.example.,rpc-b.example:8545", "eip155:8453=[::1]:8545", "eip155:1=10.0.0.7"} {
		if err := ts.Add(entry); err != nil {
			t.Fatalf("Add(%q): %v", entry, err)
		}
	}
	for _, tt := range []struct {
		chain, url string
		want       bool
	}{
		{"eip155:8453", "https://rpc-a.example/v2/SECRET", true},
		{"eip155:8453", "https://rpc-a.example.:8443", true}, // a host without a port: any port
		{"eip155:8453", "http://rpc-b.example:8545", true},
		{"eip155:8453", "https://rpc-b.example", false}, // port 443, not 8545
		{"eip155:8453", "http://[::1]:8545", true},
		{"eip155:8453", "http://127.0.0.1:8545", false},
		{"eip155:8453", "https://rpc-a.example.evil.test", false},
		{"eip155:8453", "https://evil.test/rpc-a.example", false},
		{"eip155:8453", "https://rpc-a.example@evil.test", false},
		{"eip155:1", "http://[::ffff:10.0.0.7]:80", true},
		{"eip155:1", "https://rpc-a.example", false}, // another chain's list
		{"eip155:10", "https://rpc-a.example", false},
		{"eip155:8453", "not a url", false},
	} {
		if got := ts.Trusts(tt.chain, tt.url); got != tt.want {
			t.Errorf("Trusts(%s, %s) = %v, want %v", tt.chain, tt.url, got, tt.want)
		}
	}
	if !ts.Restricts("eip155:8453") || ts.Restricts("eip155:10") {
		t.Error("Restricts: want eip155:8453 only (and eip155:1)")
	}
	c := Chain{ID: "eip155:8453", RPCURL: "https://rpc-a.example", WitnessURLs: []string{"https://other.example", "http://rpc-b.example:8545"}}
	if n := ts.TrustedHosts(c); n != 2 {
		t.Errorf("TrustedHosts = %d, want 2", n)
	}
	// Two ports of one listed host are one provider's word.
	c.WitnessURLs = []string{"https://rpc-a.example:8443"}
	if n := ts.TrustedHosts(c); n != 1 {
		t.Errorf("TrustedHosts of one host on two ports = %d, want 1", n)
	}
	if s := ts.String(); s != "eip155:1=10.0.0.7 eip155:8453=rpc-a.example,rpc-b.example:8545,[::1]:8545" {
		t.Errorf("String() = %q", s)
	}
}
