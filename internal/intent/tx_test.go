package intent

import (
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
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
