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

// BlocklistTokenMetaData contains all meta data concerning the BlocklistToken contract.
var BlocklistTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Blocked\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"allowance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"approver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidApprover\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidReceiver\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSender\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSpender\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"blocked\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"isBlocked\",\"type\":\"bool\"}],\"name\":\"setBlocked\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "BlocklistToken",
	Bin: "0x608060405234801561000f575f5ffd5b5060405180604001604052806009815260200168109b1bd8dadb1a5cdd60ba1b81525060405180604001604052806005815260200164424c4f434b60d81b815250816003908161005f919061010c565b50600461006c828261010c565b5050506101c6565b634e487b7160e01b5f52604160045260245ffd5b600181811c9082168061009c57607f821691505b6020821081036100ba57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561010757805f5260205f20601f840160051c810160208510156100e55750805b601f840160051c820191505b81811015610104575f81556001016100f1565b50505b505050565b81516001600160401b0381111561012557610125610074565b610139816101338454610088565b846100c0565b6020601f82116001811461016b575f83156101545750848201515b5f19600385901b1c1916600184901b178455610104565b5f84815260208120601f198516915b8281101561019a578785015182556020948501946001909201910161017a565b50848210156101b757868401515f19600387901b60f8161c191681555b50505050600190811b01905550565b61087c806101d35f395ff3fe608060405234801561000f575f5ffd5b50600436106100b0575f3560e01c806340c10f191161006e57806340c10f191461016357806370a082311461017657806395d89b411461019e578063a9059cbb146101a6578063dd62ed3e146101b9578063e5962195146101f1575f5ffd5b80620af2a1146100b457806306fdde03146100ee578063095ea7b31461010c57806318160ddd1461012f57806323b872dd14610141578063313ce56714610154575b5f5ffd5b6100ec6100c23660046106ce565b6001600160a01b03919091165f908152600560205260409020805460ff1916911515919091179055565b005b6100f6610213565b6040516101039190610707565b60405180910390f35b61011f61011a36600461073c565b6102a3565b6040519015158152602001610103565b6002545b604051908152602001610103565b61011f61014f366004610764565b6102bc565b60405160128152602001610103565b6100ec61017136600461073c565b6102df565b61013361018436600461079e565b6001600160a01b03165f9081526020819052604090205490565b6100f66102ed565b61011f6101b436600461073c565b6102fc565b6101336101c73660046107be565b6001600160a01b039182165f90815260016020908152604080832093909416825291909152205490565b61011f6101ff36600461079e565b60056020525f908152604090205460ff1681565b606060038054610222906107ef565b80601f016020809104026020016040519081016040528092919081815260200182805461024e906107ef565b80156102995780601f1061027057610100808354040283529160200191610299565b820191905f5260205f20905b81548152906001019060200180831161027c57829003601f168201915b5050505050905090565b5f336102b0818585610309565b60019150505b92915050565b5f336102c985828561031b565b6102d485858561039c565b506001949350505050565b6102e982826103f9565b5050565b606060048054610222906107ef565b5f336102b081858561039c565b610316838383600161042d565b505050565b6001600160a01b038381165f908152600160209081526040808320938616835292905220545f19811015610396578181101561038857604051637dc7a0d960e11b81526001600160a01b038416600482015260248101829052604481018390526064015b60405180910390fd5b61039684848484035f61042d565b50505050565b6001600160a01b0383166103c557604051634b637e8f60e11b81525f600482015260240161037f565b6001600160a01b0382166103ee5760405163ec442f0560e01b81525f600482015260240161037f565b6103168383836104ff565b6001600160a01b0382166104225760405163ec442f0560e01b81525f600482015260240161037f565b6102e95f83836104ff565b6001600160a01b0384166104565760405163e602df0560e01b81525f600482015260240161037f565b6001600160a01b03831661047f57604051634a1406b160e11b81525f600482015260240161037f565b6001600160a01b038085165f908152600160209081526040808320938716835292905220829055801561039657826001600160a01b0316846001600160a01b03167f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925846040516104f191815260200190565b60405180910390a350505050565b6001600160a01b0383165f9081526005602052604090205460ff1615610543576040516375e91ce760e01b81526001600160a01b038416600482015260240161037f565b6001600160a01b0382165f9081526005602052604090205460ff1615610587576040516375e91ce760e01b81526001600160a01b038316600482015260240161037f565b6103168383836001600160a01b0383166105b7578060025f8282546105ac9190610827565b909155506106279050565b6001600160a01b0383165f90815260208190526040902054818110156106095760405163391434e360e21b81526001600160a01b0385166004820152602481018290526044810183905260640161037f565b6001600160a01b0384165f9081526020819052604090209082900390555b6001600160a01b03821661064357600280548290039055610661565b6001600160a01b0382165f9081526020819052604090208054820190555b816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef836040516106a691815260200190565b60405180910390a3505050565b80356001600160a01b03811681146106c9575f5ffd5b919050565b5f5f604083850312156106df575f5ffd5b6106e8836106b3565b9150602083013580151581146106fc575f5ffd5b809150509250929050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f5f6040838503121561074d575f5ffd5b610756836106b3565b946020939093013593505050565b5f5f5f60608486031215610776575f5ffd5b61077f846106b3565b925061078d602085016106b3565b929592945050506040919091013590565b5f602082840312156107ae575f5ffd5b6107b7826106b3565b9392505050565b5f5f604083850312156107cf575f5ffd5b6107d8836106b3565b91506107e6602084016106b3565b90509250929050565b600181811c9082168061080357607f821691505b60208210810361082157634e487b7160e01b5f52602260045260245ffd5b50919050565b808201808211156102b657634e487b7160e01b5f52601160045260245ffdfea26469706673582212204d79b71b8981c0f553053af7876eeaf17e03acae5b44fb5f35be5bf362d2482764736f6c634300081e0033",
}

// BlocklistToken is an auto generated Go binding around an Ethereum contract.
type BlocklistToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *BlocklistToken) GetABI() abi.ABI {
	return c.abi
}

// NewBlocklistToken creates a new instance of BlocklistToken.
func NewBlocklistToken() *BlocklistToken {
	parsed, err := BlocklistTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &BlocklistToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *BlocklistToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (blocklistToken *BlocklistToken) PackAllowance(owner common.Address, spender common.Address) []byte {
	enc, err := blocklistToken.abi.Pack("allowance", owner, spender)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (blocklistToken *BlocklistToken) TryPackAllowance(owner common.Address, spender common.Address) ([]byte, error) {
	return blocklistToken.abi.Pack("allowance", owner, spender)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (blocklistToken *BlocklistToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := blocklistToken.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) PackApprove(spender common.Address, value *big.Int) []byte {
	enc, err := blocklistToken.abi.Pack("approve", spender, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) TryPackApprove(spender common.Address, value *big.Int) ([]byte, error) {
	return blocklistToken.abi.Pack("approve", spender, value)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) UnpackApprove(data []byte) (bool, error) {
	out, err := blocklistToken.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (blocklistToken *BlocklistToken) PackBalanceOf(account common.Address) []byte {
	enc, err := blocklistToken.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (blocklistToken *BlocklistToken) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return blocklistToken.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (blocklistToken *BlocklistToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := blocklistToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBlocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe5962195.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function blocked(address ) view returns(bool)
func (blocklistToken *BlocklistToken) PackBlocked(arg0 common.Address) []byte {
	enc, err := blocklistToken.abi.Pack("blocked", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBlocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe5962195.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function blocked(address ) view returns(bool)
func (blocklistToken *BlocklistToken) TryPackBlocked(arg0 common.Address) ([]byte, error) {
	return blocklistToken.abi.Pack("blocked", arg0)
}

// UnpackBlocked is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe5962195.
//
// Solidity: function blocked(address ) view returns(bool)
func (blocklistToken *BlocklistToken) UnpackBlocked(data []byte) (bool, error) {
	out, err := blocklistToken.abi.Unpack("blocked", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (blocklistToken *BlocklistToken) PackDecimals() []byte {
	enc, err := blocklistToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (blocklistToken *BlocklistToken) TryPackDecimals() ([]byte, error) {
	return blocklistToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (blocklistToken *BlocklistToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := blocklistToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (blocklistToken *BlocklistToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := blocklistToken.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (blocklistToken *BlocklistToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return blocklistToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (blocklistToken *BlocklistToken) PackName() []byte {
	enc, err := blocklistToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (blocklistToken *BlocklistToken) TryPackName() ([]byte, error) {
	return blocklistToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (blocklistToken *BlocklistToken) UnpackName(data []byte) (string, error) {
	out, err := blocklistToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSetBlocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x000af2a1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setBlocked(address account, bool isBlocked) returns()
func (blocklistToken *BlocklistToken) PackSetBlocked(account common.Address, isBlocked bool) []byte {
	enc, err := blocklistToken.abi.Pack("setBlocked", account, isBlocked)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetBlocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x000af2a1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setBlocked(address account, bool isBlocked) returns()
func (blocklistToken *BlocklistToken) TryPackSetBlocked(account common.Address, isBlocked bool) ([]byte, error) {
	return blocklistToken.abi.Pack("setBlocked", account, isBlocked)
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (blocklistToken *BlocklistToken) PackSymbol() []byte {
	enc, err := blocklistToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (blocklistToken *BlocklistToken) TryPackSymbol() ([]byte, error) {
	return blocklistToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (blocklistToken *BlocklistToken) UnpackSymbol(data []byte) (string, error) {
	out, err := blocklistToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (blocklistToken *BlocklistToken) PackTotalSupply() []byte {
	enc, err := blocklistToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (blocklistToken *BlocklistToken) TryPackTotalSupply() ([]byte, error) {
	return blocklistToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (blocklistToken *BlocklistToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := blocklistToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) PackTransfer(to common.Address, value *big.Int) []byte {
	enc, err := blocklistToken.abi.Pack("transfer", to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) TryPackTransfer(to common.Address, value *big.Int) ([]byte, error) {
	return blocklistToken.abi.Pack("transfer", to, value)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := blocklistToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) PackTransferFrom(from common.Address, to common.Address, value *big.Int) []byte {
	enc, err := blocklistToken.abi.Pack("transferFrom", from, to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) TryPackTransferFrom(from common.Address, to common.Address, value *big.Int) ([]byte, error) {
	return blocklistToken.abi.Pack("transferFrom", from, to, value)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (blocklistToken *BlocklistToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := blocklistToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// BlocklistTokenApproval represents a Approval event raised by the BlocklistToken contract.
type BlocklistTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const BlocklistTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (BlocklistTokenApproval) ContractEventName() string {
	return BlocklistTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (blocklistToken *BlocklistToken) UnpackApprovalEvent(log *types.Log) (*BlocklistTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != blocklistToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(BlocklistTokenApproval)
	if len(log.Data) > 0 {
		if err := blocklistToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range blocklistToken.abi.Events[event].Inputs {
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

// BlocklistTokenTransfer represents a Transfer event raised by the BlocklistToken contract.
type BlocklistTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const BlocklistTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (BlocklistTokenTransfer) ContractEventName() string {
	return BlocklistTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (blocklistToken *BlocklistToken) UnpackTransferEvent(log *types.Log) (*BlocklistTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != blocklistToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(BlocklistTokenTransfer)
	if len(log.Data) > 0 {
		if err := blocklistToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range blocklistToken.abi.Events[event].Inputs {
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

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (blocklistToken *BlocklistToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["Blocked"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackBlockedError(raw[4:])
	}
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["ERC20InsufficientAllowance"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackERC20InsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["ERC20InsufficientBalance"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackERC20InsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["ERC20InvalidApprover"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackERC20InvalidApproverError(raw[4:])
	}
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["ERC20InvalidReceiver"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackERC20InvalidReceiverError(raw[4:])
	}
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["ERC20InvalidSender"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackERC20InvalidSenderError(raw[4:])
	}
	if bytes.Equal(raw[:4], blocklistToken.abi.Errors["ERC20InvalidSpender"].ID.Bytes()[:4]) {
		return blocklistToken.UnpackERC20InvalidSpenderError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// BlocklistTokenBlocked represents a Blocked error raised by the BlocklistToken contract.
type BlocklistTokenBlocked struct {
	Account common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Blocked(address account)
func BlocklistTokenBlockedErrorID() common.Hash {
	return common.HexToHash("0x75e91ce73c1d3352d8dd3610443539cd33dfe13b1de8f8caae54ec26dd0dc9cb")
}

// UnpackBlockedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Blocked(address account)
func (blocklistToken *BlocklistToken) UnpackBlockedError(raw []byte) (*BlocklistTokenBlocked, error) {
	out := new(BlocklistTokenBlocked)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "Blocked", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// BlocklistTokenERC20InsufficientAllowance represents a ERC20InsufficientAllowance error raised by the BlocklistToken contract.
type BlocklistTokenERC20InsufficientAllowance struct {
	Spender   common.Address
	Allowance *big.Int
	Needed    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)
func BlocklistTokenERC20InsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0xfb8f41b23e99d2101d86da76cdfa87dd51c82ed07d3cb62cbc473e469dbc75c3")
}

// UnpackERC20InsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)
func (blocklistToken *BlocklistToken) UnpackERC20InsufficientAllowanceError(raw []byte) (*BlocklistTokenERC20InsufficientAllowance, error) {
	out := new(BlocklistTokenERC20InsufficientAllowance)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "ERC20InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// BlocklistTokenERC20InsufficientBalance represents a ERC20InsufficientBalance error raised by the BlocklistToken contract.
type BlocklistTokenERC20InsufficientBalance struct {
	Sender  common.Address
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)
func BlocklistTokenERC20InsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xe450d38cd8d9f7d95077d567d60ed49c7254716e6ad08fc9872816c97e0ffec6")
}

// UnpackERC20InsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)
func (blocklistToken *BlocklistToken) UnpackERC20InsufficientBalanceError(raw []byte) (*BlocklistTokenERC20InsufficientBalance, error) {
	out := new(BlocklistTokenERC20InsufficientBalance)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "ERC20InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// BlocklistTokenERC20InvalidApprover represents a ERC20InvalidApprover error raised by the BlocklistToken contract.
type BlocklistTokenERC20InvalidApprover struct {
	Approver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidApprover(address approver)
func BlocklistTokenERC20InvalidApproverErrorID() common.Hash {
	return common.HexToHash("0xe602df05cc75712490294c6c104ab7c17f4030363910a7a2626411c6d3118847")
}

// UnpackERC20InvalidApproverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidApprover(address approver)
func (blocklistToken *BlocklistToken) UnpackERC20InvalidApproverError(raw []byte) (*BlocklistTokenERC20InvalidApprover, error) {
	out := new(BlocklistTokenERC20InvalidApprover)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "ERC20InvalidApprover", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// BlocklistTokenERC20InvalidReceiver represents a ERC20InvalidReceiver error raised by the BlocklistToken contract.
type BlocklistTokenERC20InvalidReceiver struct {
	Receiver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidReceiver(address receiver)
func BlocklistTokenERC20InvalidReceiverErrorID() common.Hash {
	return common.HexToHash("0xec442f055133b72f3b2f9f0bb351c406b178527de2040a7d1feb4e058771f613")
}

// UnpackERC20InvalidReceiverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidReceiver(address receiver)
func (blocklistToken *BlocklistToken) UnpackERC20InvalidReceiverError(raw []byte) (*BlocklistTokenERC20InvalidReceiver, error) {
	out := new(BlocklistTokenERC20InvalidReceiver)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "ERC20InvalidReceiver", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// BlocklistTokenERC20InvalidSender represents a ERC20InvalidSender error raised by the BlocklistToken contract.
type BlocklistTokenERC20InvalidSender struct {
	Sender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidSender(address sender)
func BlocklistTokenERC20InvalidSenderErrorID() common.Hash {
	return common.HexToHash("0x96c6fd1edd0cd6ef7ff0ecc0facdf53148dc0048b57fe58af65755250a7a96bd")
}

// UnpackERC20InvalidSenderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidSender(address sender)
func (blocklistToken *BlocklistToken) UnpackERC20InvalidSenderError(raw []byte) (*BlocklistTokenERC20InvalidSender, error) {
	out := new(BlocklistTokenERC20InvalidSender)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "ERC20InvalidSender", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// BlocklistTokenERC20InvalidSpender represents a ERC20InvalidSpender error raised by the BlocklistToken contract.
type BlocklistTokenERC20InvalidSpender struct {
	Spender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidSpender(address spender)
func BlocklistTokenERC20InvalidSpenderErrorID() common.Hash {
	return common.HexToHash("0x94280d62c347d8d9f4d59a76ea321452406db88df38e0c9da304f58b57b373a2")
}

// UnpackERC20InvalidSpenderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidSpender(address spender)
func (blocklistToken *BlocklistToken) UnpackERC20InvalidSpenderError(raw []byte) (*BlocklistTokenERC20InvalidSpender, error) {
	out := new(BlocklistTokenERC20InvalidSpender)
	if err := blocklistToken.abi.UnpackIntoInterface(out, "ERC20InvalidSpender", raw); err != nil {
		return nil, err
	}
	return out, nil
}
