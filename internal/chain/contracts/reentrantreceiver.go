// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// ReentrantReceiverMetaData contains all meta data concerning the ReentrantReceiver contract.
var ReentrantReceiverMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"target_\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"arm\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"attempts\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"target_\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"exec\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"payload\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reentered\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"target\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "ReentrantReceiver",
	Bin: "0x6080604052348015600e575f5ffd5b5061060b8061001c5f395ff3fe608060405260043610610057575f3560e01c80633522bfd0146101135780633f09775e146101325780635754a04214610160578063a878f85814610183578063be6002c2146101a4578063d4b83992146101b7575f5ffd5b3661010f575f546001600160a01b03161561010d575f80546001600160a01b031981168255600380546001600160a01b03909216926100958361031f565b91905055505f816001600160a01b031660016040516100b4919061037b565b5f604051808303815f865af19150503d805f81146100ed576040519150601f19603f3d011682016040523d82523d5f602084013e6100f2565b606091505b50509050801561010a576002805460ff191660011790555b50505b005b5f5ffd5b34801561011e575f5ffd5b5061010d61012d3660046103ec565b6101ed565b34801561013d575f5ffd5b5060025461014b9060ff1681565b60405190151581526020015b60405180910390f35b34801561016b575f5ffd5b5061017560035481565b604051908152602001610157565b34801561018e575f5ffd5b5061019761021a565b6040516101579190610477565b6101976101b23660046103ec565b6102a6565b3480156101c2575f5ffd5b505f546101d5906001600160a01b031681565b6040516001600160a01b039091168152602001610157565b5f80546001600160a01b0319166001600160a01b038516179055600161021482848361050c565b50505050565b6001805461022790610343565b80601f016020809104026020016040519081016040528092919081815260200182805461025390610343565b801561029e5780601f106102755761010080835404028352916020019161029e565b820191905f5260205f20905b81548152906001019060200180831161028157829003601f168201915b505050505081565b60605f5f856001600160a01b03163486866040516102c59291906105c6565b5f6040518083038185875af1925050503d805f81146102ff576040519150601f19603f3d011682016040523d82523d5f602084013e610304565b606091505b50915091508161031657805160208201fd5b95945050505050565b5f6001820161033c57634e487b7160e01b5f52601160045260245ffd5b5060010190565b600181811c9082168061035757607f821691505b60208210810361037557634e487b7160e01b5f52602260045260245ffd5b50919050565b5f5f835461038881610343565b60018216801561039f57600181146103b4576103e1565b60ff19831686528115158202860193506103e1565b865f5260205f205f5b838110156103d9578154888201526001909101906020016103bd565b505081860193505b509195945050505050565b5f5f5f604084860312156103fe575f5ffd5b83356001600160a01b0381168114610414575f5ffd5b9250602084013567ffffffffffffffff81111561042f575f5ffd5b8401601f8101861361043f575f5ffd5b803567ffffffffffffffff811115610455575f5ffd5b866020828401011115610466575f5ffd5b939660209190910195509293505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b634e487b7160e01b5f52604160045260245ffd5b601f82111561050757805f5260205f20601f840160051c810160208510156104e55750805b601f840160051c820191505b81811015610504575f81556001016104f1565b50505b505050565b67ffffffffffffffff831115610524576105246104ac565b610538836105328354610343565b836104c0565b5f601f841160018114610569575f85156105525750838201355b5f19600387901b1c1916600186901b178355610504565b5f83815260208120601f198716915b828110156105985786850135825560209485019460019092019101610578565b50868210156105b4575f1960f88860031b161c19848701351681555b505060018560011b0183555050505050565b818382375f910190815291905056fea2646970667358221220961757a1572d482193743ffc927b1276fb96e13ce088c4f36857b15d5519728264736f6c634300081e0033",
}

// ReentrantReceiver is an auto generated Go binding around an Ethereum contract.
type ReentrantReceiver struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ReentrantReceiver) GetABI() abi.ABI {
	return c.abi
}

// NewReentrantReceiver creates a new instance of ReentrantReceiver.
func NewReentrantReceiver() *ReentrantReceiver {
	parsed, err := ReentrantReceiverMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ReentrantReceiver{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ReentrantReceiver) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackArm is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3522bfd0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function arm(address target_, bytes data) returns()
func (reentrantReceiver *ReentrantReceiver) PackArm(target common.Address, data []byte) []byte {
	enc, err := reentrantReceiver.abi.Pack("arm", target, data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackArm is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3522bfd0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function arm(address target_, bytes data) returns()
func (reentrantReceiver *ReentrantReceiver) TryPackArm(target common.Address, data []byte) ([]byte, error) {
	return reentrantReceiver.abi.Pack("arm", target, data)
}

// PackAttempts is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5754a042.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function attempts() view returns(uint256)
func (reentrantReceiver *ReentrantReceiver) PackAttempts() []byte {
	enc, err := reentrantReceiver.abi.Pack("attempts")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAttempts is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5754a042.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function attempts() view returns(uint256)
func (reentrantReceiver *ReentrantReceiver) TryPackAttempts() ([]byte, error) {
	return reentrantReceiver.abi.Pack("attempts")
}

// UnpackAttempts is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5754a042.
//
// Solidity: function attempts() view returns(uint256)
func (reentrantReceiver *ReentrantReceiver) UnpackAttempts(data []byte) (*big.Int, error) {
	out, err := reentrantReceiver.abi.Unpack("attempts", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackExec is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbe6002c2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function exec(address target_, bytes data) payable returns(bytes)
func (reentrantReceiver *ReentrantReceiver) PackExec(target common.Address, data []byte) []byte {
	enc, err := reentrantReceiver.abi.Pack("exec", target, data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExec is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbe6002c2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function exec(address target_, bytes data) payable returns(bytes)
func (reentrantReceiver *ReentrantReceiver) TryPackExec(target common.Address, data []byte) ([]byte, error) {
	return reentrantReceiver.abi.Pack("exec", target, data)
}

// UnpackExec is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbe6002c2.
//
// Solidity: function exec(address target_, bytes data) payable returns(bytes)
func (reentrantReceiver *ReentrantReceiver) UnpackExec(data []byte) ([]byte, error) {
	out, err := reentrantReceiver.abi.Unpack("exec", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// PackPayload is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa878f858.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payload() view returns(bytes)
func (reentrantReceiver *ReentrantReceiver) PackPayload() []byte {
	enc, err := reentrantReceiver.abi.Pack("payload")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayload is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa878f858.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payload() view returns(bytes)
func (reentrantReceiver *ReentrantReceiver) TryPackPayload() ([]byte, error) {
	return reentrantReceiver.abi.Pack("payload")
}

// UnpackPayload is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa878f858.
//
// Solidity: function payload() view returns(bytes)
func (reentrantReceiver *ReentrantReceiver) UnpackPayload(data []byte) ([]byte, error) {
	out, err := reentrantReceiver.abi.Unpack("payload", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// PackReentered is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f09775e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reentered() view returns(bool)
func (reentrantReceiver *ReentrantReceiver) PackReentered() []byte {
	enc, err := reentrantReceiver.abi.Pack("reentered")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReentered is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f09775e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reentered() view returns(bool)
func (reentrantReceiver *ReentrantReceiver) TryPackReentered() ([]byte, error) {
	return reentrantReceiver.abi.Pack("reentered")
}

// UnpackReentered is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3f09775e.
//
// Solidity: function reentered() view returns(bool)
func (reentrantReceiver *ReentrantReceiver) UnpackReentered(data []byte) (bool, error) {
	out, err := reentrantReceiver.abi.Unpack("reentered", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTarget is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd4b83992.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function target() view returns(address)
func (reentrantReceiver *ReentrantReceiver) PackTarget() []byte {
	enc, err := reentrantReceiver.abi.Pack("target")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTarget is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd4b83992.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function target() view returns(address)
func (reentrantReceiver *ReentrantReceiver) TryPackTarget() ([]byte, error) {
	return reentrantReceiver.abi.Pack("target")
}

// UnpackTarget is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd4b83992.
//
// Solidity: function target() view returns(address)
func (reentrantReceiver *ReentrantReceiver) UnpackTarget(data []byte) (common.Address, error) {
	out, err := reentrantReceiver.abi.Unpack("target", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}
