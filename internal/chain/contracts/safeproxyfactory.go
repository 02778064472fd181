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

// SafeProxyFactoryMetaData contains all meta data concerning the SafeProxyFactory contract.
var SafeProxyFactoryMetaData = bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"singleton\",\"type\":\"address\"}],\"name\":\"ProxyCreation\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_singleton\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"initializer\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"saltNonce\",\"type\":\"uint256\"}],\"name\":\"createChainSpecificProxyWithNonce\",\"outputs\":[{\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_singleton\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"initializer\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"saltNonce\",\"type\":\"uint256\"},{\"internalType\":\"contractIProxyCreationCallback\",\"name\":\"callback\",\"type\":\"address\"}],\"name\":\"createProxyWithCallback\",\"outputs\":[{\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_singleton\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"initializer\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"saltNonce\",\"type\":\"uint256\"}],\"name\":\"createProxyWithNonce\",\"outputs\":[{\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getChainId\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"proxyCreationCode\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "SafeProxyFactory",
	Bin: "0x6080604052348015600e575f5ffd5b506107668061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610055575f3560e01c80631688f0b9146100595780633408e4701461008957806353e5d93514610097578063d18af54d146100ac578063ec9e80bb146100bf575b5f5ffd5b61006c610067366004610472565b6100d2565b6040516001600160a01b0390911681526020015b60405180910390f35b604051468152602001610080565b61009f610166565b60405161008091906104f6565b61006c6100ba36600461050f565b610190565b61006c6100cd366004610472565b61025f565b5f5f8380519060200120836040516020016100f7929190918252602082015260400190565b60405160208183030381529060405280519060200120905061011a858583610290565b6040516001600160a01b038781168252919350908316907f4f51faf6c4561ff95f067657e43439f0f856d97c04d9ec9070a6199ad418e2359060200160405180910390a2509392505050565b606060405180602001610178906103af565b601f1982820381018352601f90910116604052919050565b5f5f83836040516020016101c092919091825260601b6bffffffffffffffffffffffff1916602082015260340190565b604051602081830303815290604052805190602001205f1c90506101e58686836100d2565b91506001600160a01b03831615610256576040516303ca56a360e31b81526001600160a01b03841690631e52b518906102289085908a908a908a90600401610577565b5f604051808303815f87803b15801561023f575f5ffd5b505af1158015610251573d5f5f3e3d5ffd5b505050505b50949350505050565b5f5f8380519060200120836102714690565b60408051602081019490945283019190915260608201526080016100f7565b5f833b6102e45760405162461bcd60e51b815260206004820152601f60248201527f53696e676c65746f6e20636f6e7472616374206e6f74206465706c6f7965640060448201526064015b60405180910390fd5b5f604051806020016102f5906103af565b601f1982820381018352601f90910116604081905261032291906001600160a01b038816906020016105b3565b6040516020818303038152906040529050828151826020015ff591506001600160a01b03821661038a5760405162461bcd60e51b815260206004820152601360248201527210dc99585d194c8818d85b1b0819985a5b1959606a1b60448201526064016102db565b8351156103a7575f5f5f8651602088015f875af1036103a7575f5ffd5b509392505050565b610163806105ce83390190565b6001600160a01b03811681146103d0575f5ffd5b50565b634e487b7160e01b5f52604160045260245ffd5b5f82601f8301126103f6575f5ffd5b813567ffffffffffffffff811115610410576104106103d3565b604051601f8201601f19908116603f0116810167ffffffffffffffff8111828210171561043f5761043f6103d3565b604052818152838201602001851015610456575f5ffd5b816020850160208301375f918101602001919091529392505050565b5f5f5f60608486031215610484575f5ffd5b833561048f816103bc565b9250602084013567ffffffffffffffff8111156104aa575f5ffd5b6104b6868287016103e7565b93969395505050506040919091013590565b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b602081525f61050860208301846104c8565b9392505050565b5f5f5f5f60808587031215610522575f5ffd5b843561052d816103bc565b9350602085013567ffffffffffffffff811115610548575f5ffd5b610554878288016103e7565b93505060408501359150606085013561056c816103bc565b939692955090935050565b6001600160a01b038581168252841660208201526080604082018190525f906105a2908301856104c8565b905082606083015295945050505050565b5f83518060208601845e919091019182525060200191905056fe6080604052348015600e575f5ffd5b50604051610163380380610163833981016040819052602b9160b2565b6001600160a01b038116608f5760405162461bcd60e51b815260206004820152602260248201527f496e76616c69642073696e676c65746f6e20616464726573732070726f766964604482015261195960f21b606482015260840160405180910390fd5b5f80546001600160a01b0319166001600160a01b039290921691909117905560dd565b5f6020828403121560c1575f5ffd5b81516001600160a01b038116811460d6575f5ffd5b9392505050565b607a806100e95f395ff3fe60806040525f80546001600160a01b03169035632cf35bc960e11b01602657805f5260205ff35b365f5f375f5f365f845af490503d5f5f3e80603f573d5ffd5b503d5ff3fea264697066735822122097c077b265092a77e2cdd808baf7108e3142a3a7aa480e43d380bab44b510d9864736f6c634300081e0033a26469706673582212205cedb26c9d99fd61d0de4c8f60436d5c899ce002aa0dbe238daa2ab0f509a90b64736f6c634300081e0033",
}

// SafeProxyFactory is an auto generated Go binding around an Ethereum contract.
type SafeProxyFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SafeProxyFactory) GetABI() abi.ABI {
	return c.abi
}

// NewSafeProxyFactory creates a new instance of SafeProxyFactory.
func NewSafeProxyFactory() *SafeProxyFactory {
	parsed, err := SafeProxyFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SafeProxyFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SafeProxyFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackCreateChainSpecificProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xec9e80bb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createChainSpecificProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) PackCreateChainSpecificProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) []byte {
	enc, err := safeProxyFactory.abi.Pack("createChainSpecificProxyWithNonce", singleton, initializer, saltNonce)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateChainSpecificProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xec9e80bb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createChainSpecificProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) TryPackCreateChainSpecificProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) ([]byte, error) {
	return safeProxyFactory.abi.Pack("createChainSpecificProxyWithNonce", singleton, initializer, saltNonce)
}

// UnpackCreateChainSpecificProxyWithNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xec9e80bb.
//
// Solidity: function createChainSpecificProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) UnpackCreateChainSpecificProxyWithNonce(data []byte) (common.Address, error) {
	out, err := safeProxyFactory.abi.Unpack("createChainSpecificProxyWithNonce", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCreateProxyWithCallback is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd18af54d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createProxyWithCallback(address _singleton, bytes initializer, uint256 saltNonce, address callback) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) PackCreateProxyWithCallback(singleton common.Address, initializer []byte, saltNonce *big.Int, callback common.Address) []byte {
	enc, err := safeProxyFactory.abi.Pack("createProxyWithCallback", singleton, initializer, saltNonce, callback)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateProxyWithCallback is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd18af54d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createProxyWithCallback(address _singleton, bytes initializer, uint256 saltNonce, address callback) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) TryPackCreateProxyWithCallback(singleton common.Address, initializer []byte, saltNonce *big.Int, callback common.Address) ([]byte, error) {
	return safeProxyFactory.abi.Pack("createProxyWithCallback", singleton, initializer, saltNonce, callback)
}

// UnpackCreateProxyWithCallback is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd18af54d.
//
// Solidity: function createProxyWithCallback(address _singleton, bytes initializer, uint256 saltNonce, address callback) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) UnpackCreateProxyWithCallback(data []byte) (common.Address, error) {
	out, err := safeProxyFactory.abi.Unpack("createProxyWithCallback", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCreateProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1688f0b9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) PackCreateProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) []byte {
	enc, err := safeProxyFactory.abi.Pack("createProxyWithNonce", singleton, initializer, saltNonce)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1688f0b9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) TryPackCreateProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) ([]byte, error) {
	return safeProxyFactory.abi.Pack("createProxyWithNonce", singleton, initializer, saltNonce)
}

// UnpackCreateProxyWithNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1688f0b9.
//
// Solidity: function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) UnpackCreateProxyWithNonce(data []byte) (common.Address, error) {
	out, err := safeProxyFactory.abi.Unpack("createProxyWithNonce", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetChainId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3408e470.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getChainId() view returns(uint256)
func (safeProxyFactory *SafeProxyFactory) PackGetChainId() []byte {
	enc, err := safeProxyFactory.abi.Pack("getChainId")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetChainId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3408e470.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getChainId() view returns(uint256)
func (safeProxyFactory *SafeProxyFactory) TryPackGetChainId() ([]byte, error) {
	return safeProxyFactory.abi.Pack("getChainId")
}

// UnpackGetChainId is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3408e470.
//
// Solidity: function getChainId() view returns(uint256)
func (safeProxyFactory *SafeProxyFactory) UnpackGetChainId(data []byte) (*big.Int, error) {
	out, err := safeProxyFactory.abi.Unpack("getChainId", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackProxyCreationCode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x53e5d935.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function proxyCreationCode() pure returns(bytes)
func (safeProxyFactory *SafeProxyFactory) PackProxyCreationCode() []byte {
	enc, err := safeProxyFactory.abi.Pack("proxyCreationCode")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackProxyCreationCode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x53e5d935.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function proxyCreationCode() pure returns(bytes)
func (safeProxyFactory *SafeProxyFactory) TryPackProxyCreationCode() ([]byte, error) {
	return safeProxyFactory.abi.Pack("proxyCreationCode")
}

// UnpackProxyCreationCode is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x53e5d935.
//
// Solidity: function proxyCreationCode() pure returns(bytes)
func (safeProxyFactory *SafeProxyFactory) UnpackProxyCreationCode(data []byte) ([]byte, error) {
	out, err := safeProxyFactory.abi.Unpack("proxyCreationCode", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// SafeProxyFactoryProxyCreation represents a ProxyCreation event raised by the SafeProxyFactory contract.
type SafeProxyFactoryProxyCreation struct {
	Proxy     common.Address
	Singleton common.Address
	Raw       *types.Log // Blockchain specific contextual infos
}

const SafeProxyFactoryProxyCreationEventName = "ProxyCreation"

// ContractEventName returns the user-defined event name.
func (SafeProxyFactoryProxyCreation) ContractEventName() string {
	return SafeProxyFactoryProxyCreationEventName
}

// UnpackProxyCreationEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ProxyCreation(address indexed proxy, address singleton)
func (safeProxyFactory *SafeProxyFactory) UnpackProxyCreationEvent(log *types.Log) (*SafeProxyFactoryProxyCreation, error) {
	event := "ProxyCreation"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != safeProxyFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SafeProxyFactoryProxyCreation)
	if len(log.Data) > 0 {
		if err := safeProxyFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range safeProxyFactory.abi.Events[event].Inputs {
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
