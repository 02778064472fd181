package caip

import (
	"errors"
	"strings"
	"testing"
)

// Addresses from the EIP-55 specification's test vectors.
const (
	alice = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	bob   = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

func TestParseChainID(t *testing.T) {
	tests := []struct {
		in      string
		wantErr bool
		numeric uint64
		isEVM   bool
	}{
		{in: "eip155:1", numeric: 1, isEVM: true},
		{in: "eip155:8453", numeric: 8453, isEVM: true},
		{in: "eip155:18446744073709551615", numeric: 18446744073709551615, isEVM: true},
		{in: "cosmos:cosmoshub-4"},
		{in: "bip122:000000000019d6689c085ae165831e93"},
		{in: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"},
		{in: "", wantErr: true},
		{in: "eip155", wantErr: true},
		{in: "eip155:", wantErr: true},
		{in: ":1", wantErr: true},
		{in: "EIP155:1", wantErr: true},
		{in: "ab:1", wantErr: true},
		{in: "namespace9:1", wantErr: true},
		{in: "eip155:01", wantErr: true},
		{in: "eip155:0", wantErr: true},
		{in: "eip155:-1", wantErr: true},
		{in: "eip155:0x1", wantErr: true},
		{in: "eip155:1.5", wantErr: true},
		{in: "eip155: 1", wantErr: true},
		{in: "eip155:18446744073709551616", wantErr: true},
		{in: "eip155:1:2", wantErr: true},
		{in: "cosmos:" + strings.Repeat("a", 33), wantErr: true},
		{in: "cosmos:a/b", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseChainID(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrInvalidChainID) {
					t.Fatalf("ParseChainID(%q) = %v, %v; want ErrInvalidChainID", tt.in, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseChainID(%q): %v", tt.in, err)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
			n, ok := got.EIP155()
			if ok != tt.isEVM || n != tt.numeric {
				t.Errorf("EIP155() = %d, %v; want %d, %v", n, ok, tt.numeric, tt.isEVM)
			}
		})
	}
}

// Vectors from EIP-55 itself.
var eip55Vectors = []string{
	// All caps
	"0x52908400098527886E0F7030069857D2E4169EE7",
	"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
	// All lower
	"0xde709f2102306220921060314715629080e2fb77",
	"0x27b1fdb04752bbc536007a920d24acb045561c26",
	// Normal
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
	"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
}

func TestEIP55Vectors(t *testing.T) {
	for _, v := range eip55Vectors {
		t.Run(v, func(t *testing.T) {
			for _, spelling := range []string{v, "0x" + strings.ToLower(v[2:]), "0x" + strings.ToUpper(v[2:])} {
				got, err := ParseEVMAddress(spelling)
				if err != nil {
					t.Fatalf("ParseEVMAddress(%q): %v", spelling, err)
				}
				if got.Hex() != v {
					t.Errorf("ParseEVMAddress(%q).Hex() = %s, want the EIP-55 form %s", spelling, got.Hex(), v)
				}
			}
		})
	}
}

func TestEIP55ChecksumMismatch(t *testing.T) {
	// Each is a normal vector with the case of one letter flipped, so still mixed case.
	for _, bad := range []string{
		"0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5D359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6Fb",
		"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDB",
	} {
		_, err := ParseEVMAddress(bad)
		if !errors.Is(err, ErrChecksumMismatch) {
			t.Errorf("ParseEVMAddress(%q) = %v, want ErrChecksumMismatch", bad, err)
		}
	}
}

func TestParseEVMAddressSyntax(t *testing.T) {
	for _, bad := range []string{
		"", "0x", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", " 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	} {
		if _, err := ParseEVMAddress(bad); !errors.Is(err, ErrInvalidAddress) {
			t.Errorf("ParseEVMAddress(%q) = %v, want ErrInvalidAddress", bad, err)
		}
	}
}

func TestParseAccountID(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  error
	}{
		{in: "eip155:1:" + alice, want: "eip155:1:" + alice},
		{in: "eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", want: "eip155:1:" + alice},
		{in: "eip155:8453:0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", wantErr: ErrInvalidAddress},
		{in: "eip155:1:0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", want: "eip155:1:" + alice},
		{in: "cosmos:cosmoshub-4:cosmos1t2uflqwqe0fsj0shcfkrvpukewcw40yjj6hdc0", want: "cosmos:cosmoshub-4:cosmos1t2uflqwqe0fsj0shcfkrvpukewcw40yjj6hdc0"},
		{in: "eip155:1:0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", wantErr: ErrChecksumMismatch},
		{in: "eip155:1:", wantErr: ErrInvalidAccountID},
		{in: "eip155:1", wantErr: ErrInvalidAccountID},
		{in: alice, wantErr: ErrInvalidAccountID},
		{in: "eip155:01:" + alice, wantErr: ErrInvalidChainID},
		{in: "eip155:1:" + alice + ":x", wantErr: ErrInvalidAccountID},
		{in: "cosmos:cosmoshub-4:" + strings.Repeat("a", 129), wantErr: ErrInvalidAccountID},
		{in: "cosmos:cosmoshub-4:a b", wantErr: ErrInvalidAccountID},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAccountID(tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !errors.Is(err, ErrInvalidAccountID) {
					t.Fatalf("ParseAccountID(%q) = %v, %v; want %v wrapped in ErrInvalidAccountID", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAccountID(%q): %v", tt.in, err)
			}
			if got.String() != tt.want {
				t.Errorf("String() = %q, want %q", got.String(), tt.want)
			}
		})
	}
}

// FuzzParseAccountID: never panics; a parsed id re-parses to itself (normalisation is idempotent)
// and an eip155 id always comes out in EIP-55 form.
func FuzzParseAccountID(f *testing.F) {
	for _, seed := range []string{"eip155:1:" + alice, "eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		"cosmos:cosmoshub-4:cosmos1abc", "eip155:1:0xZZ", "::", "eip155:0:" + bob} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAccountID(s)
		if err != nil {
			return
		}
		again, err := ParseAccountID(a.String())
		if err != nil || again != a {
			t.Fatalf("re-parse of %q = %v, %v; want %v", a.String(), again, err, a)
		}
		if addr, ok := a.EVMAddress(); ok && addr.Hex() != a.Address {
			t.Fatalf("eip155 address %q not in EIP-55 form %q", a.Address, addr.Hex())
		}
	})
}
