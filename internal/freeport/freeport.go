// Package freeport hands out loopback ports for servers that want an address before anything
// listens on it: a child process given a flag, a node that takes a number. The port was free a
// moment ago, which is as much as can be known without holding the listener.
package freeport

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	mu sync.Mutex
	// handedOut: a port closed again is free, and the kernel may hand it to the next caller before
	// the first one's server binds it; two servers of one process must not race for it.
	handedOut = map[int]bool{}
)

// Ports are drawn at random below the kernel's ephemeral range, which the kernel uses for every
// other process's ":0" listener and outgoing connection: a port drawn from that range was seen
// taken by another test package's connection between the check and the child's bind (a
// localcluster test, CI of stop 32). Below it only another caller of this package picks, at
// random among thousands, so two rarely meet. Kubernetes' NodePorts (30000 and up) are left out
// too: on a node, kube-proxy may redirect 127.0.0.1:<nodeport> although a bind succeeds.
const (
	lowestPort = 10000
	nodePorts  = 30000
	tries      = 100
)

// Port returns a loopback port that was free a moment ago, never the same twice in this process:
// below the ephemeral range when one of a hundred random tries there is free, else one the kernel
// picks.
func Port() (int, error) {
	mu.Lock()
	defer mu.Unlock()
	if top := min(ephemeralStart(), nodePorts); top > lowestPort {
		for range tries {
			port := lowestPort + rand.IntN(top-lowestPort)
			if !handedOut[port] && listenable(port) {
				handedOut[port] = true
				return port, nil
			}
		}
	}
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		if !handedOut[port] {
			handedOut[port] = true
			return port, nil
		}
	}
}

// listenable reports whether a listener can bind 127.0.0.1:port now.
func listenable(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// ephemeralStart is the first port of the kernel's ephemeral range (Linux), 0 when unknown.
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 {
		return 0
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil {
		return 0
	}
	return n
}

// Addr is Port as "127.0.0.1:<port>".
func Addr() (string, error) {
	port, err := Port()
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}

// Addrs returns n addresses of Addr.
func Addrs(n int) ([]string, error) {
	addrs := make([]string, n)
	for i := range addrs {
		var err error
		if addrs[i], err = Addr(); err != nil {
			return nil, err
		}
	}
	return addrs, nil
}

// MustPort is Port, failing t if there is none.
func MustPort(t testing.TB) int {
	t.Helper()
	port, err := Port()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// MustAddr is Addr, failing t if there is none.
func MustAddr(t testing.TB) string {
	t.Helper()
	addr, err := Addr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}
