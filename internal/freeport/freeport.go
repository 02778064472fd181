// Package freeport hands out loopback ports for servers that want an address before anything
// listens on it: a child process given a flag, a node that takes a number. The port was free a
// moment ago, which is as much as can be known without holding the listener.
package freeport

import (
	"net"
	"strconv"
	"sync"
	"testing"
)

var (
	mu sync.Mutex
	// handedOut: a port closed again is free, and the kernel may hand it to the next caller before
	// the first one's server binds it; two servers of one process must not race for it.
	handedOut = map[int]bool{}
)

// Port returns a loopback port that was free a moment ago, never the same twice in this process.
func Port() (int, error) {
	mu.Lock()
	defer mu.Unlock()
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
