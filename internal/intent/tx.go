package intent

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// Tx is SimulationResult.tx: a transaction ready for the client to sign.
type Tx struct {
	// To is the 0x address called, EIP-55.
	To string `json:"to"`
	// Data is the 0x hex calldata ("0x" for a plain value transfer).
	Data string `json:"data"`
	// Value is the wei sent, as a decimal string (a uint256 does not fit a JSON number).
	Value string `json:"value"`
	// ChainID is the numeric EIP-155 chain id, unlike the CAIP-2 strings elsewhere.
	ChainID uint64 `json:"chainId"`
	// Gas is the gas limit to send it with, from the chain's estimate of this exact transaction
	// plus a safety margin; omitted when the chain could not estimate it.
	Gas uint64 `json:"gas,omitempty"`
}

// ERC20ABIJSON is the ERC-20 functions the service encodes.
const ERC20ABIJSON = `[{"type":"function","name":"transfer","stateMutability":"nonpayable",
"inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}],
"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"approve","stateMutability":"nonpayable",
"inputs":[{"name":"spender","type":"address"},{"name":"amount","type":"uint256"}],
"outputs":[{"name":"","type":"bool"}]}]`

// The ABIs are constants: parsing them cannot fail at run time once a test has parsed them.
var erc20ABI = mustParseABI(ERC20ABIJSON)

func mustParseABI(def string) abi.ABI {
	parsed, err := abi.JSON(strings.NewReader(def))
	if err != nil {
		panic(fmt.Sprintf("intent: invalid built-in ABI: %v", err))
	}
	return parsed
}

// ERC20TransferData is the calldata of transfer(to, amount): selector 0xa9059cbb and two words.
func ERC20TransferData(to common.Address, amount *big.Int) ([]byte, error) {
	if err := checkUint256(amount); err != nil {
		return nil, err
	}
	return erc20ABI.Pack("transfer", to, amount)
}

// ERC20ApproveData is the calldata of approve(spender, amount): selector 0x095ea7b3 and two words.
func ERC20ApproveData(spender common.Address, amount *big.Int) ([]byte, error) {
	if err := checkUint256(amount); err != nil {
		return nil, err
	}
	return erc20ABI.Pack("approve", spender, amount)
}

// checkUint256 guards the ABI packer, which silently wraps values outside 0..2^256-1.
func checkUint256(v *big.Int) error {
	if v == nil || v.Sign() < 0 || v.Cmp(maxUint256) > 0 {
		return fmt.Errorf("value %v is not a uint256", v)
	}
	return nil
}
