package settlement

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestOwed(t *testing.T) {
	exclusive := common.HexToAddress("0x00000000000000000000000000000000000000e1")
	other := common.HexToAddress("0x00000000000000000000000000000000000000e2")
	order := func(start, floor int64, from, to uint64) Order {
		return Order{StartAmountOut: big.NewInt(start), MinAmountOut: big.NewInt(floor), DecayStart: from, DecayEnd: to}
	}
	for _, tt := range []struct {
		name   string
		o      Order
		filler common.Address
		at     uint64
		want   int64
	}{
		{"before the window", order(2_000, 1_000, 100, 200), other, 99, 2_000},
		{"at its start", order(2_000, 1_000, 100, 200), other, 100, 2_000},
		{"inside, exact", order(2_000, 1_000, 100, 200), other, 150, 1_500},
		{"inside, the fall rounded down", order(1_003, 1_000, 100, 107), other, 103, 1_002},
		{"at its end", order(2_000, 1_000, 100, 200), other, 200, 1_000},
		{"after it", order(2_000, 1_000, 100, 200), other, 1_000, 1_000},
		{"a step, before", order(2_000, 1_000, 100, 100), other, 99, 2_000},
		{"a step, at", order(2_000, 1_000, 100, 100), other, 100, 1_000},
		{"a plain order", Order{MinAmountOut: big.NewInt(7)}, other, 5, 7},
		{"the exclusive filler pays the decayed amount",
			Order{MinAmountOut: big.NewInt(990_001), ExclusiveFiller: exclusive, ExclusivityDeadline: 50, ExclusivityOverrideBps: big.NewInt(300)},
			exclusive, 50, 990_001},
		{"another pays the override, rounded up",
			Order{MinAmountOut: big.NewInt(990_001), ExclusiveFiller: exclusive, ExclusivityDeadline: 50, ExclusivityOverrideBps: big.NewInt(300)},
			other, 50, 1_019_702},
		{"after the deadline, no override",
			Order{MinAmountOut: big.NewInt(990_001), ExclusiveFiller: exclusive, ExclusivityDeadline: 50, ExclusivityOverrideBps: big.NewInt(300)},
			other, 51, 990_001},
	} {
		got, err := Owed(tt.o, tt.filler, tt.at)
		if err != nil || got.Cmp(big.NewInt(tt.want)) != 0 {
			t.Errorf("%s: Owed = %v, %v; want %d", tt.name, got, err, tt.want)
		}
	}
	noOverride := Order{MinAmountOut: big.NewInt(1), ExclusiveFiller: exclusive, ExclusivityDeadline: 50}
	if _, err := Owed(noOverride, other, 50); !errors.Is(err, ErrExclusive) {
		t.Errorf("another filler at the deadline without an override: %v; want ErrExclusive", err)
	}
	if got, err := Owed(noOverride, other, 51); err != nil || got.Int64() != 1 {
		t.Errorf("after the deadline: %v, %v", got, err)
	}
}
