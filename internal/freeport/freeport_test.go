package freeport

import (
	"net"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

func TestAddrsAreLoopbackAndListenable(t *testing.T) {
	addrs, err := Addrs(3)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range append(addrs, MustAddr(t)) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil || host != "127.0.0.1" {
			t.Fatalf("%q is not 127.0.0.1:<port> (%v)", addr, err)
		}
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			t.Fatalf("%q: port %q", addr, port)
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("listening on %s: %v", addr, err)
		}
		_ = l.Close()
	}
}

// Concurrent callers, as parallel tests are, never get the same port.
func TestNeverTheSamePortTwice(t *testing.T) {
	const callers, each = 8, 50
	got := make(chan int, callers*each)
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range each {
				port, err := Port()
				if err != nil {
					t.Error(err)
					return
				}
				got <- port
			}
		})
	}
	wg.Wait()
	close(got)
	seen := map[int]bool{}
	for port := range got {
		if seen[port] {
			t.Fatalf("port %d handed out twice", port)
		}
		seen[port] = true
	}
}

// Ports come from below the kernel's ephemeral range (and Kubernetes' NodePorts), where no other
// process's ":0" listener or outgoing connection can be handed the port between the check and the
// bind.
func TestPortsComeFromBelowTheEphemeralRange(t *testing.T) {
	top := min(ephemeralStart(), nodePorts)
	if top <= lowestPort {
		if runtime.GOOS == "linux" && ephemeralStart() == 0 {
			t.Fatal("the ephemeral range was not read")
		}
		top = 65536 // no room below the range (or not Linux): the kernel picks, any port
	}
	for range 20 {
		if port := MustPort(t); port < lowestPort || port >= top {
			t.Fatalf("port %d is not in [%d, %d)", port, lowestPort, top)
		}
	}
}
