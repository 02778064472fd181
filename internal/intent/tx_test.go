package intent

import (
	"encoding/hex"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestERC20TransferDataKnownVector(t *testing.T) {
	got, err := ERC20TransferData(common.HexToAddress("0x000000000000000000000000000000000000dEaD"), big.NewInt(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	want := "a9059cbb" +
		"000000000000000000000000000000000000000000000000000000000000dead" +
		"00000000000000000000000000000000000000000000000000000000000f4240"
	if hex.EncodeToString(got) != want {
		t.Errorf("transfer calldata\n got %x\nwant %s", got, want)
	}
}

func TestERC20TransferDataRefusesNonUint256(t *testing.T) {
	tooBig := new(big.Int).Lsh(big.NewInt(1), 256)
	for _, v := range []*big.Int{nil, big.NewInt(-1), tooBig} {
		if _, err := ERC20TransferData(common.Address{}, v); err == nil {
			t.Errorf("ERC20TransferData(%v) succeeded; the ABI packer would have wrapped it", v)
		}
	}
}

func TestSubmitOrderData(t *testing.T) {
	o := Order{
		OrderID:     common.HexToHash("0x0101010101010101010101010101010101010101010101010101010101010101"),
		TokenIn:     common.HexToAddress(usdcMainnet),
		TokenOut:    common.HexToAddress(usdcBase),
		AmountIn:    big.NewInt(1_500_500_000),
		DestChainID: 8453,
		Recipient:   common.HexToAddress(bob),
		Deadline:    1_900_000_000,
		CallData:    []byte{0xca, 0xfe},
	}
	got, err := SubmitOrderData(o)
	if err != nil {
		t.Fatal(err)
	}
	selector := crypto.Keccak256([]byte("submitOrder(bytes32,address,address,uint256,uint256,address,uint64,bytes)"))[:4]
	word := func(b []byte) string { return hex.EncodeToString(common.LeftPadBytes(b, 32)) }
	want := hex.EncodeToString(selector) +
		word(o.OrderID[:]) + word(o.TokenIn[:]) + word(o.TokenOut[:]) +
		word(o.AmountIn.Bytes()) + word(big.NewInt(8453).Bytes()) + word(o.Recipient[:]) +
		word(big.NewInt(1_900_000_000).Bytes()) +
		word([]byte{0x01, 0x00}) + // offset of callData: 8 head words = 256
		word([]byte{0x02}) + // its length
		"cafe" + strings.Repeat("0", 60)
	if hex.EncodeToString(got) != want {
		t.Errorf("submitOrder calldata\n got %x\nwant %s", got, want)
	}
}
