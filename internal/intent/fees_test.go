package intent

import (
	"math/big"
	"testing"
)

// Worked examples, done by hand:
//
//	ERC-20 transfer: 65,000 gas x 20 gwei = 0.0013 ETH x $3150.25 = $4.095325; 0 bps.
//	swap 100 USDC:   180,000 x 20 gwei = 0.0036 ETH x 3150.25 = $11.3409; 35 bps of $100 = $0.35;
//	                 total $11.6909.
//	bridge 1500.5 USDC: 250,000 x 20 gwei = 0.005 ETH x 3150.25 = $15.75125;
//	                 20 bps of $1500.50 = $3.001; total $18.75225.
func TestComputeFeesWorkedExamples(t *testing.T) {
	ethPrice := big.NewRat(315025, 100)
	usdcPrice := big.NewRat(1, 1)
	fees := DefaultFeeSchedule()
	tests := []struct {
		name string
		in   FeeInputs
		want Fees
	}{
		{
			name: "erc20 transfer",
			in: FeeInputs{GasUnits: GasERC20Transfer, GasPriceWei: gwei(20), NativePriceUSD: ethPrice, NativeDecimals: 18,
				Amount: big.NewInt(1_000_000), TokenDecimals: 6, TokenPriceUSD: usdcPrice, Bps: fees.For([]Step{StepTransfer})},
			want: Fees{GasUSD: "4.095325", ProtocolFeeBps: 0, SolverFeeBps: 0, TotalUSD: "4.095325"},
		},
		{
			name: "swap",
			in: FeeInputs{GasUnits: 180_000, GasPriceWei: gwei(20), NativePriceUSD: ethPrice, NativeDecimals: 18,
				Amount: big.NewInt(100_000_000), TokenDecimals: 6, TokenPriceUSD: usdcPrice, Bps: fees.For([]Step{StepSwap})},
			want: Fees{GasUSD: "11.3409", ProtocolFeeBps: 30, SolverFeeBps: 5, TotalUSD: "11.6909"},
		},
		{
			name: "bridge",
			in: FeeInputs{GasUnits: 250_000, GasPriceWei: gwei(20), NativePriceUSD: ethPrice, NativeDecimals: 18,
				Amount: big.NewInt(1_500_500_000), TokenDecimals: 6, TokenPriceUSD: usdcPrice, Bps: fees.For([]Step{StepBridge})},
			want: Fees{GasUSD: "15.75125", ProtocolFeeBps: 10, SolverFeeBps: 10, TotalUSD: "18.75225"},
		},
		{
			name: "swap+bridge sums bps",
			in: FeeInputs{GasUnits: 430_000, GasPriceWei: gwei(20), NativePriceUSD: ethPrice, NativeDecimals: 18,
				Amount: big.NewInt(100_000_000), TokenDecimals: 6, TokenPriceUSD: usdcPrice, Bps: fees.For([]Step{StepSwap, StepBridge})},
			// 430,000 x 20 gwei = 0.0086 ETH x 3150.25 = 27.09215; 55 bps of $100 = 0.55.
			want: Fees{GasUSD: "27.09215", ProtocolFeeBps: 40, SolverFeeBps: 15, TotalUSD: "27.64215"},
		},
		{
			name: "total rounds the exact sum once",
			// gas = 1 x 4 wei x $0.1 / 1e6 = 0.0000004 -> "0.00";
			// fee = 0.004 tokens x $1 x 1 bps = 0.0000004;
			// exact total 0.0000008 -> "0.000001", where summing rounded parts would give 0.
			in: FeeInputs{GasUnits: 1, GasPriceWei: big.NewInt(4), NativePriceUSD: big.NewRat(1, 10), NativeDecimals: 6,
				Amount: big.NewInt(4), TokenDecimals: 3, TokenPriceUSD: usdcPrice, Bps: StepFee{ProtocolBps: 1}},
			want: Fees{GasUSD: "0.00", ProtocolFeeBps: 1, SolverFeeBps: 0, TotalUSD: "0.000001"},
		},
		{
			name: "half up at the sixth place",
			// 1 x 5 wei x $0.1 / 1e6 = 0.0000005 -> 0.000001.
			in:   FeeInputs{GasUnits: 1, GasPriceWei: big.NewInt(5), NativePriceUSD: big.NewRat(1, 10), NativeDecimals: 6},
			want: Fees{GasUSD: "0.000001", TotalUSD: "0.000001"},
		},
		{
			name: "unknown token price counts gas only",
			in: FeeInputs{GasUnits: 180_000, GasPriceWei: gwei(20), NativePriceUSD: ethPrice, NativeDecimals: 18,
				Amount: big.NewInt(100_000_000), TokenDecimals: 6, Bps: fees.For([]Step{StepSwap})},
			want: Fees{GasUSD: "11.3409", ProtocolFeeBps: 30, SolverFeeBps: 5, TotalUSD: "11.3409"},
		},
		{
			name: "unknown native price counts gas as zero",
			in: FeeInputs{GasUnits: 180_000, GasPriceWei: gwei(20), NativeDecimals: 18,
				Amount: big.NewInt(100_000_000), TokenDecimals: 6, TokenPriceUSD: usdcPrice, Bps: fees.For([]Step{StepSwap})},
			want: Fees{GasUSD: "0.00", ProtocolFeeBps: 30, SolverFeeBps: 5, TotalUSD: "0.35"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ComputeFees(tt.in); got != tt.want {
				t.Errorf("ComputeFees = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestFeeScheduleValidate(t *testing.T) {
	if err := DefaultFeeSchedule().Validate(); err != nil {
		t.Fatalf("default schedule invalid: %v", err)
	}
	bad := []FeeSchedule{
		{Transfer: StepFee{ProtocolBps: 10_000}},
		{Swap: StepFee{ProtocolBps: 6000}, Bridge: StepFee{SolverBps: 4000}},
		{Bridge: StepFee{ProtocolBps: 1<<32 - 1, SolverBps: 1}},
	}
	for _, f := range bad {
		if err := f.Validate(); err == nil {
			t.Errorf("Validate(%+v) accepted", f)
		}
	}
	if _, err := NewService(Config{Catalog: testCatalog(), Fees: &bad[0]}); err == nil {
		t.Error("NewService accepted an invalid fee schedule")
	}
}

func TestDefaultGasUnits(t *testing.T) {
	tests := []struct {
		path     []Step
		native   bool
		callData []byte
		want     uint64
	}{
		{[]Step{StepTransfer}, true, nil, 21_000},
		{[]Step{StepTransfer}, false, nil, 65_000},
		{[]Step{StepSwap}, false, nil, 350_000},
		{[]Step{StepBridge}, true, nil, 350_000},
		{[]Step{StepSwap, StepBridge}, false, nil, 350_000},
		{[]Step{StepTransfer}, true, []byte{0, 1, 2}, 21_000 + 4 + 16 + 16},
	}
	for _, tt := range tests {
		if got := DefaultGasUnits(tt.path, tt.native, tt.callData); got != tt.want {
			t.Errorf("DefaultGasUnits(%v, %v, %x) = %d, want %d", tt.path, tt.native, tt.callData, got, tt.want)
		}
	}
}
