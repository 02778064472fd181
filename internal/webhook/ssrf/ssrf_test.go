package ssrf

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestCheckRefusesTheServicesOwnNetwork(t *testing.T) {
	for _, c := range []struct {
		addr          string
		allowLoopback bool
		refused       string // "" when allowed
	}{
		{"93.184.216.34", false, ""},
		{"2606:2800:220:1:248:1893:25c8:1946", false, ""},
		{"127.0.0.1", false, "loopback"},
		{"127.0.0.1", true, ""},
		{"::1", false, "loopback"},
		{"::ffff:127.0.0.1", false, "loopback"}, // IPv4-mapped
		{"10.1.2.3", false, "private"},
		{"172.16.0.1", false, "private"},
		{"192.168.1.1", true, "private"}, // a test endpoint may use loopback, not the LAN
		{"fd00:ec2::254", false, "private"},
		{"169.254.169.254", false, "link-local"}, // cloud metadata
		{"fe80::1", false, "link-local"},
		{"0.0.0.0", false, "not a unicast"},
		{"239.1.2.3", false, "not a unicast"},
		{"100.64.0.1", false, "reserved"},
		{"198.18.0.1", false, "reserved"},
		{"64:ff9b::a01:203", false, "reserved"},                     // NAT64 of 10.1.2.3
		{"::7f00:1", false, "reserved"},                             // IPv4-compatible 127.0.0.1
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", false, "reserved"}, // Teredo
		{"fec0::1", false, "reserved"},
		{"192.88.99.1", false, "reserved"},
		{"168.63.129.16", false, "reserved"},
	} {
		err := Check(netip.MustParseAddr(c.addr), c.allowLoopback)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("Check(%s, loopback %v) = %v; want allowed", c.addr, c.allowLoopback, err)
		case c.refused != "" && (err == nil || !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("Check(%s, loopback %v) = %v; want refused as %s", c.addr, c.allowLoopback, err, c.refused)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, c := range []struct {
		url           string
		allowLoopback bool
		ok            bool
	}{
		{"https://hooks.example.com/tis", false, true},
		{"http://hooks.example.com/tis", false, false},
		{"http://hooks.example.com/tis", true, false}, // http only to loopback
		{"http://127.0.0.1:9999/hooks", true, true},
		{"http://localhost:9999/hooks", true, true},
		{"http://127.0.0.1:9999/hooks", false, false},
		{"https://localhost/hooks", false, false},
		{"https://10.0.0.7/hooks", false, false},
		{"https://[fe80::1]/hooks", true, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://user:pw@hooks.example.com/", false, false},
		{"ftp://hooks.example.com/", false, false},
		{"https:///nohost", false, false},
	} {
		err := CheckURL(c.url, c.allowLoopback)
		if (err == nil) != c.ok {
			t.Errorf("CheckURL(%q, loopback %v) = %v; want ok %v", c.url, c.allowLoopback, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrRefused) {
			t.Errorf("CheckURL(%q): %v does not match ErrRefused", c.url, err)
		}
	}
}

// The dialer judges what a name resolves to, not the name: "localhost" reaches a loopback server
// only when loopback is allowed.
func TestDialerChecksResolvedAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	target := "http://localhost:" + port + "/"

	get := func(allow bool) error {
		client := &http.Client{Transport: &http.Transport{DialContext: (&Dialer{AllowLoopback: allow}).DialContext}}
		resp, err := client.Get(target)
		if err == nil {
			_ = resp.Body.Close()
		}
		return err
	}
	if err := get(false); err == nil || !errors.Is(err, ErrRefused) {
		t.Fatalf("a dial of localhost without loopback allowed: %v; want ErrRefused", err)
	}
	if err := get(true); err != nil {
		t.Fatalf("a dial of localhost with loopback allowed: %v", err)
	}

	// An address literal is judged as such.
	d := &Dialer{}
	if _, err := d.DialContext(context.Background(), "tcp", "127.0.0.1:"+port); err == nil || !errors.Is(err, ErrRefused) {
		t.Fatalf("a dial of 127.0.0.1: %v; want ErrRefused", err)
	}
}
