package watcher

import (
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// silentWitness accepts connections and never answers, as a node that hangs does.
func silentWitness(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = c.Close() })
		}
	}()
	return "http://" + l.Addr().String()
}

// goneWitness is an address where nothing listens any more.
func goneWitness(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// A witness that hangs or is gone abstains within the watcher's call deadline: the fill waits
// (no quorum), nothing is signed, and the step does not hang.
func TestASlowOrGoneWitnessAbstainsWithinTheDeadline(t *testing.T) {
	const deadline = 300 * time.Millisecond
	for name, url := range map[string]string{"silent": silentWitness(t), "gone": goneWitness(t)} {
		t.Run(name, func(t *testing.T) {
			w, err := jsonrpc.Dial(t.Context(), "eip155:31337", url, jsonrpc.Options{Caller: Caller, Timeout: deadline})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			m, err := newMetrics(nil)
			if err != nil {
				t.Fatal(err)
			}
			f := &follower{
				chain: registry.Chain{ID: "eip155:31337", BlockTimeSeconds: 1}, witnesses: []*witness{{Client: w}},
				log: logr.Discard(), metrics: m, reported: map[common.Hash]string{},
			}
			ref := OrderRef{OrderID: common.HexToHash("0x01"), Fill: &FillRef{Hash: common.HexToHash("0x02"), Filler: common.HexToAddress("0x03"), AmountOut: big.NewInt(1)}}
			start := time.Now()
			verdicts := f.askWitnesses(t.Context(), ref, fillView{status: 1, block: 7, blockHash: common.HexToHash("0x04")})
			took := time.Since(start)
			if len(verdicts) != 1 || verdicts[0].kind != abstains {
				t.Fatalf("verdicts %+v, want one abstention", verdicts)
			}
			// One call is made before the witness is given up on; the bound leaves room for a slow
			// machine, the deadline is what keeps it finite.
			if took > 10*deadline {
				t.Errorf("asking the witness took %s, deadline %s", took, deadline)
			}
		})
	}
}
