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

// ForgingSettlementMetaData contains all meta data concerning the ForgingSettlement contract.
var ForgingSettlementMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"attester_\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"refundDelay_\",\"type\":\"uint64\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"Filled\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"attester\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"forgeFill\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"refundDelay\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "ForgingSettlement",
	Bin: "0x60c060405234801561000f575f5ffd5b5060405161027c38038061027c83398101604081905261002e9161004d565b6001600160a01b039091166080526001600160401b031660a05261009b565b5f5f6040838503121561005e575f5ffd5b82516001600160a01b0381168114610074575f5ffd5b60208401519092506001600160401b0381168114610090575f5ffd5b809150509250929050565b60805160a0516101c26100ba5f395f604801525f608d01526101c25ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80633e602b4c1461004357806347b0c3b314610088578063ea85652d146100c7575b5f5ffd5b61006a7f000000000000000000000000000000000000000000000000000000000000000081565b60405167ffffffffffffffff90911681526020015b60405180910390f35b6100af7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b03909116815260200161007f565b6100da6100d536600461014b565b6100dc565b005b816001600160a01b0316836001600160a01b0316857ff34b46d162bfdb332240cb89a10794aa192f907552f0a3ec8d94fa18399ecec48460405161012291815260200190565b60405180910390a450505050565b80356001600160a01b0381168114610146575f5ffd5b919050565b5f5f5f5f6080858703121561015e575f5ffd5b8435935061016e60208601610130565b925061017c60408601610130565b939692955092936060013592505056fea2646970667358221220ba65c887af61dd64f76636d5612996a224513ea4423be2467534eeeb76fe145064736f6c634300081e0033",
}

// ForgingSettlement is an auto generated Go binding around an Ethereum contract.
type ForgingSettlement struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ForgingSettlement) GetABI() abi.ABI {
	return c.abi
}

// NewForgingSettlement creates a new instance of ForgingSettlement.
func NewForgingSettlement() *ForgingSettlement {
	parsed, err := ForgingSettlementMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ForgingSettlement{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ForgingSettlement) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address attester_, uint64 refundDelay_) returns()
func (forgingSettlement *ForgingSettlement) PackConstructor(attester_ common.Address, refundDelay_ uint64) []byte {
	enc, err := forgingSettlement.abi.Pack("", attester_, refundDelay_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAttester is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x47b0c3b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function attester() view returns(address)
func (forgingSettlement *ForgingSettlement) PackAttester() []byte {
	enc, err := forgingSettlement.abi.Pack("attester")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAttester is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x47b0c3b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function attester() view returns(address)
func (forgingSettlement *ForgingSettlement) TryPackAttester() ([]byte, error) {
	return forgingSettlement.abi.Pack("attester")
}

// UnpackAttester is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x47b0c3b3.
//
// Solidity: function attester() view returns(address)
func (forgingSettlement *ForgingSettlement) UnpackAttester(data []byte) (common.Address, error) {
	out, err := forgingSettlement.abi.Unpack("attester", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackForgeFill is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xea85652d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function forgeFill(bytes32 orderId, address filler, address recipient, uint256 amountOut) returns()
func (forgingSettlement *ForgingSettlement) PackForgeFill(orderId [32]byte, filler common.Address, recipient common.Address, amountOut *big.Int) []byte {
	enc, err := forgingSettlement.abi.Pack("forgeFill", orderId, filler, recipient, amountOut)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackForgeFill is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xea85652d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function forgeFill(bytes32 orderId, address filler, address recipient, uint256 amountOut) returns()
func (forgingSettlement *ForgingSettlement) TryPackForgeFill(orderId [32]byte, filler common.Address, recipient common.Address, amountOut *big.Int) ([]byte, error) {
	return forgingSettlement.abi.Pack("forgeFill", orderId, filler, recipient, amountOut)
}

// PackRefundDelay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3e602b4c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refundDelay() view returns(uint64)
func (forgingSettlement *ForgingSettlement) PackRefundDelay() []byte {
	enc, err := forgingSettlement.abi.Pack("refundDelay")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefundDelay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3e602b4c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refundDelay() view returns(uint64)
func (forgingSettlement *ForgingSettlement) TryPackRefundDelay() ([]byte, error) {
	return forgingSettlement.abi.Pack("refundDelay")
}

// UnpackRefundDelay is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3e602b4c.
//
// Solidity: function refundDelay() view returns(uint64)
func (forgingSettlement *ForgingSettlement) UnpackRefundDelay(data []byte) (uint64, error) {
	out, err := forgingSettlement.abi.Unpack("refundDelay", data)
	if err != nil {
		return *new(uint64), err
	}
	out0 := *abi.ConvertType(out[0], new(uint64)).(*uint64)
	return out0, nil
}

// ForgingSettlementFilled represents a Filled event raised by the ForgingSettlement contract.
type ForgingSettlementFilled struct {
	OrderId   [32]byte
	Filler    common.Address
	Recipient common.Address
	AmountOut *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const ForgingSettlementFilledEventName = "Filled"

// ContractEventName returns the user-defined event name.
func (ForgingSettlementFilled) ContractEventName() string {
	return ForgingSettlementFilledEventName
}

// UnpackFilledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Filled(bytes32 indexed orderId, address indexed filler, address indexed recipient, uint256 amountOut)
func (forgingSettlement *ForgingSettlement) UnpackFilledEvent(log *types.Log) (*ForgingSettlementFilled, error) {
	event := "Filled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != forgingSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ForgingSettlementFilled)
	if len(log.Data) > 0 {
		if err := forgingSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range forgingSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}
