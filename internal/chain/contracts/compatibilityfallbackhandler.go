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

// CompatibilityFallbackHandlerMetaData contains all meta data concerning the CompatibilityFallbackHandler contract.
var CompatibilityFallbackHandlerMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractSafe\",\"name\":\"safe\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"message\",\"type\":\"bytes\"}],\"name\":\"encodeMessageDataForSafe\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"message\",\"type\":\"bytes\"}],\"name\":\"getMessageHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"contractSafe\",\"name\":\"safe\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"message\",\"type\":\"bytes\"}],\"name\":\"getMessageHashForSafe\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getModules\",\"outputs\":[{\"internalType\":\"address[]\",\"name\":\"\",\"type\":\"address[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"_dataHash\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"_signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"_data\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"_signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"onERC1155BatchReceived\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"onERC1155Received\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"onERC721Received\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"targetContract\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"calldataPayload\",\"type\":\"bytes\"}],\"name\":\"simulate\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"response\",\"type\":\"bytes\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"tokensReceived\",\"outputs\":[],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "CompatibilityFallbackHandler",
	Bin: "0x6080604052348015600e575f5ffd5b50610d888061001c5f395ff3fe608060405234801561000f575f5ffd5b50600436106100b0575f3560e01c8063230316401161006e57806323031640146101755780636ac2478414610195578063b2494df3146101a8578063bc197c81146101bd578063bd61951d146101df578063f23a6e61146101f2575f5ffd5b806223de29146100b457806301ffc9a7146100ce5780630a1028c4146100f6578063150b7a02146101175780631626ba7e1461014f57806320c13b0b14610162575b5f5ffd5b6100cc6100c23660046106a9565b5050505050505050565b005b6100e16100dc36600461076b565b610212565b60405190151581526020015b60405180910390f35b610109610104366004610835565b610263565b6040519081526020016100ed565b61013661012536600461086e565b630a85bd0160e11b95945050505050565b6040516001600160e01b031990911681526020016100ed565b61013661015d3660046108db565b61026e565b610136610170366004610922565b610328565b610188610183366004610985565b610469565b6040516100ed91906109e9565b6101096101a3366004610985565b610577565b6101b0610591565b6040516100ed91906109fb565b6101366101cb366004610a86565b63bc197c8160e01b98975050505050505050565b6101886101ed366004610b26565b610607565b610136610200366004610b5d565b63f23a6e6160e01b9695505050505050565b5f6001600160e01b03198216630271189760e51b148061024257506001600160e01b03198216630a85bd0160e11b145b8061025d57506001600160e01b031982166301ffc9a760e01b145b92915050565b5f61025d3383610577565b60408051602080820186905282518083039091018152818301928390526320c13b0b60e01b9092525f913391839183916320c13b0b916102b49189908990604401610bd3565b602060405180830381865afa1580156102cf573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906102f39190610c17565b90506001600160e01b031981166320c13b0b60e01b14610313575f61031c565b630b135d3f60e11b5b925050505b9392505050565b5f33816103358286610469565b805160208201208551919250905f036103fa57604051635ae6bd3760e01b8152600481018290526001600160a01b03841690635ae6bd3790602401602060405180830381865afa15801561038b573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906103af9190610c32565b5f036103f55760405162461bcd60e51b815260206004820152601160248201527012185cda081b9bdd08185c1c1c9bdd9959607a1b604482015260640160405180910390fd5b610457565b60405163934f3a1160e01b81526001600160a01b0384169063934f3a119061042a90849086908a90600401610c49565b5f6040518083038186803b158015610440575f5ffd5b505afa158015610452573d5f5f3e3d5ffd5b505050505b506320c13b0b60e01b95945050505050565b60605f7f60b3cbf8b4a223d68d641b3b6ddf9a298e7f33710cf3d3a9d1146b5a6150fbca5f1b83805190602001206040516020016104b1929190918252602082015260400190565b604051602081830303815290604052805190602001209050601960f81b600160f81b856001600160a01b031663f698da256040518163ffffffff1660e01b8152600401602060405180830381865afa15801561050f573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906105339190610c32565b6040516001600160f81b0319938416602082015292909116602183015260228201526042810182905260620160405160208183030381529060405291505092915050565b5f6105828383610469565b80519060200120905092915050565b604051636617c22960e11b815260016004820152600a602482015260609033905f90829063cc2f8452906044015f60405180830381865afa1580156105d8573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526105ff9190810190610c8d565b509392505050565b606060405163b4faba0960e01b81526004360360048083013760205f36835f335af1505060203d036040519150808201604052806020833e505f5161032157805160208201fd5b6001600160a01b0381168114610662575f5ffd5b50565b5f5f83601f840112610675575f5ffd5b5081356001600160401b0381111561068b575f5ffd5b6020830191508360208285010111156106a2575f5ffd5b9250929050565b5f5f5f5f5f5f5f5f60c0898b0312156106c0575f5ffd5b88356106cb8161064e565b975060208901356106db8161064e565b965060408901356106eb8161064e565b95506060890135945060808901356001600160401b0381111561070c575f5ffd5b6107188b828c01610665565b90955093505060a08901356001600160401b03811115610736575f5ffd5b6107428b828c01610665565b999c989b5096995094979396929594505050565b6001600160e01b031981168114610662575f5ffd5b5f6020828403121561077b575f5ffd5b813561032181610756565b634e487b7160e01b5f52604160045260245ffd5b604051601f8201601f191681016001600160401b03811182821017156107c2576107c2610786565b604052919050565b5f82601f8301126107d9575f5ffd5b81356001600160401b038111156107f2576107f2610786565b610805601f8201601f191660200161079a565b818152846020838601011115610819575f5ffd5b816020850160208301375f918101602001919091529392505050565b5f60208284031215610845575f5ffd5b81356001600160401b0381111561085a575f5ffd5b610866848285016107ca565b949350505050565b5f5f5f5f5f60808688031215610882575f5ffd5b853561088d8161064e565b9450602086013561089d8161064e565b93506040860135925060608601356001600160401b038111156108be575f5ffd5b6108ca88828901610665565b969995985093965092949392505050565b5f5f5f604084860312156108ed575f5ffd5b8335925060208401356001600160401b03811115610909575f5ffd5b61091586828701610665565b9497909650939450505050565b5f5f60408385031215610933575f5ffd5b82356001600160401b03811115610948575f5ffd5b610954858286016107ca565b92505060208301356001600160401b0381111561096f575f5ffd5b61097b858286016107ca565b9150509250929050565b5f5f60408385031215610996575f5ffd5b82356109a18161064e565b915060208301356001600160401b0381111561096f575f5ffd5b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b602081525f61032160208301846109bb565b602080825282518282018190525f918401906040840190835b81811015610a3b5783516001600160a01b0316835260209384019390920191600101610a14565b509095945050505050565b5f5f83601f840112610a56575f5ffd5b5081356001600160401b03811115610a6c575f5ffd5b6020830191508360208260051b85010111156106a2575f5ffd5b5f5f5f5f5f5f5f5f60a0898b031215610a9d575f5ffd5b8835610aa88161064e565b97506020890135610ab88161064e565b965060408901356001600160401b03811115610ad2575f5ffd5b610ade8b828c01610a46565b90975095505060608901356001600160401b03811115610afc575f5ffd5b610b088b828c01610a46565b90955093505060808901356001600160401b03811115610736575f5ffd5b5f5f5f60408486031215610b38575f5ffd5b8335610b438161064e565b925060208401356001600160401b03811115610909575f5ffd5b5f5f5f5f5f5f60a08789031215610b72575f5ffd5b8635610b7d8161064e565b95506020870135610b8d8161064e565b9450604087013593506060870135925060808701356001600160401b03811115610bb5575f5ffd5b610bc189828a01610665565b979a9699509497509295939492505050565b604081525f610be560408301866109bb565b8281036020840152838152838560208301375f602085830101526020601f19601f860116820101915050949350505050565b5f60208284031215610c27575f5ffd5b815161032181610756565b5f60208284031215610c42575f5ffd5b5051919050565b838152606060208201525f610c6160608301856109bb565b8281036040840152610c7381856109bb565b9695505050505050565b8051610c888161064e565b919050565b5f5f60408385031215610c9e575f5ffd5b82516001600160401b03811115610cb3575f5ffd5b8301601f81018513610cc3575f5ffd5b80516001600160401b03811115610cdc57610cdc610786565b8060051b610cec6020820161079a565b91825260208184018101929081019088841115610d07575f5ffd5b6020850194505b83851015610d355784519250610d238361064e565b82825260209485019490910190610d0e565b8096505050505050610d4960208401610c7d565b9050925092905056fea2646970667358221220b55c5c51865e2af088b4d27a3733b224c58f03eddc6cab73d05f6dfd2003e0fd64736f6c634300081e0033",
}

// CompatibilityFallbackHandler is an auto generated Go binding around an Ethereum contract.
type CompatibilityFallbackHandler struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *CompatibilityFallbackHandler) GetABI() abi.ABI {
	return c.abi
}

// NewCompatibilityFallbackHandler creates a new instance of CompatibilityFallbackHandler.
func NewCompatibilityFallbackHandler() *CompatibilityFallbackHandler {
	parsed, err := CompatibilityFallbackHandlerMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &CompatibilityFallbackHandler{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *CompatibilityFallbackHandler) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackEncodeMessageDataForSafe is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23031640.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function encodeMessageDataForSafe(address safe, bytes message) view returns(bytes)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackEncodeMessageDataForSafe(safe common.Address, message []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("encodeMessageDataForSafe", safe, message)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEncodeMessageDataForSafe is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23031640.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function encodeMessageDataForSafe(address safe, bytes message) view returns(bytes)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackEncodeMessageDataForSafe(safe common.Address, message []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("encodeMessageDataForSafe", safe, message)
}

// UnpackEncodeMessageDataForSafe is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23031640.
//
// Solidity: function encodeMessageDataForSafe(address safe, bytes message) view returns(bytes)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackEncodeMessageDataForSafe(data []byte) ([]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("encodeMessageDataForSafe", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// PackGetMessageHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0a1028c4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getMessageHash(bytes message) view returns(bytes32)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackGetMessageHash(message []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("getMessageHash", message)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetMessageHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0a1028c4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getMessageHash(bytes message) view returns(bytes32)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackGetMessageHash(message []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("getMessageHash", message)
}

// UnpackGetMessageHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0a1028c4.
//
// Solidity: function getMessageHash(bytes message) view returns(bytes32)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackGetMessageHash(data []byte) ([32]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("getMessageHash", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGetMessageHashForSafe is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6ac24784.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getMessageHashForSafe(address safe, bytes message) view returns(bytes32)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackGetMessageHashForSafe(safe common.Address, message []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("getMessageHashForSafe", safe, message)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetMessageHashForSafe is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6ac24784.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getMessageHashForSafe(address safe, bytes message) view returns(bytes32)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackGetMessageHashForSafe(safe common.Address, message []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("getMessageHashForSafe", safe, message)
}

// UnpackGetMessageHashForSafe is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6ac24784.
//
// Solidity: function getMessageHashForSafe(address safe, bytes message) view returns(bytes32)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackGetMessageHashForSafe(data []byte) ([32]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("getMessageHashForSafe", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGetModules is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb2494df3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getModules() view returns(address[])
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackGetModules() []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("getModules")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetModules is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb2494df3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getModules() view returns(address[])
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackGetModules() ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("getModules")
}

// UnpackGetModules is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb2494df3.
//
// Solidity: function getModules() view returns(address[])
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackGetModules(data []byte) ([]common.Address, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("getModules", data)
	if err != nil {
		return *new([]common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new([]common.Address)).(*[]common.Address)
	return out0, nil
}

// PackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes32 _dataHash, bytes _signature) view returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackIsValidSignature(dataHash [32]byte, signature []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("isValidSignature", dataHash, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes32 _dataHash, bytes _signature) view returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackIsValidSignature(dataHash [32]byte, signature []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("isValidSignature", dataHash, signature)
}

// UnpackIsValidSignature is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 _dataHash, bytes _signature) view returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackIsValidSignature(data []byte) ([4]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("isValidSignature", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackIsValidSignature0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x20c13b0b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes _data, bytes _signature) view returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackIsValidSignature0(data []byte, signature []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("isValidSignature0", data, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x20c13b0b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes _data, bytes _signature) view returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackIsValidSignature0(data []byte, signature []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("isValidSignature0", data, signature)
}

// UnpackIsValidSignature0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x20c13b0b.
//
// Solidity: function isValidSignature(bytes _data, bytes _signature) view returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackIsValidSignature0(data []byte) ([4]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("isValidSignature0", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOnERC1155BatchReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbc197c81.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function onERC1155BatchReceived(address , address , uint256[] , uint256[] , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackOnERC1155BatchReceived(arg0 common.Address, arg1 common.Address, arg2 []*big.Int, arg3 []*big.Int, arg4 []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("onERC1155BatchReceived", arg0, arg1, arg2, arg3, arg4)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOnERC1155BatchReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbc197c81.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function onERC1155BatchReceived(address , address , uint256[] , uint256[] , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackOnERC1155BatchReceived(arg0 common.Address, arg1 common.Address, arg2 []*big.Int, arg3 []*big.Int, arg4 []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("onERC1155BatchReceived", arg0, arg1, arg2, arg3, arg4)
}

// UnpackOnERC1155BatchReceived is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbc197c81.
//
// Solidity: function onERC1155BatchReceived(address , address , uint256[] , uint256[] , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackOnERC1155BatchReceived(data []byte) ([4]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("onERC1155BatchReceived", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOnERC1155Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf23a6e61.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function onERC1155Received(address , address , uint256 , uint256 , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackOnERC1155Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 *big.Int, arg4 []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("onERC1155Received", arg0, arg1, arg2, arg3, arg4)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOnERC1155Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf23a6e61.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function onERC1155Received(address , address , uint256 , uint256 , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackOnERC1155Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 *big.Int, arg4 []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("onERC1155Received", arg0, arg1, arg2, arg3, arg4)
}

// UnpackOnERC1155Received is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf23a6e61.
//
// Solidity: function onERC1155Received(address , address , uint256 , uint256 , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackOnERC1155Received(data []byte) ([4]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("onERC1155Received", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOnERC721Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x150b7a02.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function onERC721Received(address , address , uint256 , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackOnERC721Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("onERC721Received", arg0, arg1, arg2, arg3)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOnERC721Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x150b7a02.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function onERC721Received(address , address , uint256 , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackOnERC721Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("onERC721Received", arg0, arg1, arg2, arg3)
}

// UnpackOnERC721Received is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x150b7a02.
//
// Solidity: function onERC721Received(address , address , uint256 , bytes ) pure returns(bytes4)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackOnERC721Received(data []byte) ([4]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("onERC721Received", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackSimulate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbd61951d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function simulate(address targetContract, bytes calldataPayload) returns(bytes response)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackSimulate(targetContract common.Address, calldataPayload []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("simulate", targetContract, calldataPayload)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSimulate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbd61951d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function simulate(address targetContract, bytes calldataPayload) returns(bytes response)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackSimulate(targetContract common.Address, calldataPayload []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("simulate", targetContract, calldataPayload)
}

// UnpackSimulate is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbd61951d.
//
// Solidity: function simulate(address targetContract, bytes calldataPayload) returns(bytes response)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackSimulate(data []byte) ([]byte, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("simulate", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("supportsInterface", interfaceId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := compatibilityFallbackHandler.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTokensReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0023de29.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokensReceived(address , address , address , uint256 , bytes , bytes ) pure returns()
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) PackTokensReceived(arg0 common.Address, arg1 common.Address, arg2 common.Address, arg3 *big.Int, arg4 []byte, arg5 []byte) []byte {
	enc, err := compatibilityFallbackHandler.abi.Pack("tokensReceived", arg0, arg1, arg2, arg3, arg4, arg5)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokensReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0023de29.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokensReceived(address , address , address , uint256 , bytes , bytes ) pure returns()
func (compatibilityFallbackHandler *CompatibilityFallbackHandler) TryPackTokensReceived(arg0 common.Address, arg1 common.Address, arg2 common.Address, arg3 *big.Int, arg4 []byte, arg5 []byte) ([]byte, error) {
	return compatibilityFallbackHandler.abi.Pack("tokensReceived", arg0, arg1, arg2, arg3, arg4, arg5)
}
