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

// TestPriceFeedMetaData contains all meta data concerning the TestPriceFeed contract.
var TestPriceFeedMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"},{\"internalType\":\"string\",\"name\":\"description_\",\"type\":\"string\"},{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotOwner\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"int256\",\"name\":\"current\",\"type\":\"int256\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"}],\"name\":\"AnswerUpdated\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"description\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"latestRoundData\",\"outputs\":[{\"internalType\":\"uint80\",\"name\":\"roundId\",\"type\":\"uint80\"},{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"startedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint80\",\"name\":\"answeredInRound\",\"type\":\"uint80\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt_\",\"type\":\"uint256\"}],\"name\":\"setAnswer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"}],\"name\":\"setDecimals\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"version\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "TestPriceFeed",
	Bin: "0x60a060405234801561000f575f5ffd5b506040516107c83803806107c883398101604081905261002e916100f5565b336080525f805460ff191660ff8516179055600161004c838261024d565b50610057814261005f565b50505061033e565b600280546001600160501b0316905f61007783610307565b82546101009290920a6001600160501b03818102199093169183160217909155600384905560048390556002546040518481529116915083907f0559884fd3a460db3073b7fc896cc77986f16e378210ded43186175bf646fc5f9060200160405180910390a35050565b634e487b7160e01b5f52604160045260245ffd5b5f5f5f60608486031215610107575f5ffd5b835160ff81168114610117575f5ffd5b60208501519093506001600160401b03811115610132575f5ffd5b8401601f81018613610142575f5ffd5b80516001600160401b0381111561015b5761015b6100e1565b604051601f8201601f19908116603f011681016001600160401b0381118282101715610189576101896100e1565b6040528181528282016020018810156101a0575f5ffd5b8160208401602083015e5f91810160200191909152604095909501519396949550929392505050565b600181811c908216806101dd57607f821691505b6020821081036101fb57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561024857805f5260205f20601f840160051c810160208510156102265750805b601f840160051c820191505b81811015610245575f8155600101610232565b50505b505050565b81516001600160401b03811115610266576102666100e1565b61027a8161027484546101c9565b84610201565b6020601f8211600181146102ac575f83156102955750848201515b5f19600385901b1c1916600184901b178455610245565b5f84815260208120601f198516915b828110156102db57878501518255602094850194600190920191016102bb565b50848210156102f857868401515f19600387901b60f8161c191681555b50505050600190811b01905550565b5f6001600160501b0382166002600160501b0319810161033557634e487b7160e01b5f52601160045260245ffd5b60010192915050565b6080516104656103635f395f818160f901528181610204015261026901526104655ff3fe608060405234801561000f575f5ffd5b506004361061007a575f3560e01c80637a1395aa116100585780637a1395aa146100cc578063860f1383146100e15780638da5cb5b146100f4578063feaf968c14610133575f5ffd5b8063313ce5671461007e57806354fd4d50146100a15780637284e416146100b7575b5f5ffd5b5f5461008a9060ff1681565b60405160ff90911681526020015b60405180910390f35b6100a9600481565b604051908152602001610098565b6100bf61016d565b6040516100989190610345565b6100df6100da36600461037a565b6101f9565b005b6100df6100ef3660046103a1565b61025e565b61011b7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610098565b600254600354600454604080516001600160501b03909416808552602085019390935283018190526060830152608082015260a001610098565b6001805461017a906103c1565b80601f01602080910402602001604051908101604052809291908181526020018280546101a6906103c1565b80156101f15780601f106101c8576101008083540402835291602001916101f1565b820191905f5260205f20905b8154815290600101906020018083116101d457829003601f168201915b505050505081565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146102495760405163245aecd360e01b81523360048201526024015b60405180910390fd5b5f805460ff191660ff92909216919091179055565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146102a95760405163245aecd360e01b8152336004820152602401610240565b6102bf8282156102b957826102c3565b426102c3565b5050565b600280546001600160501b0316905f6102db836103f9565b82546101009290920a6001600160501b03818102199093169183160217909155600384905560048390556002546040518481529116915083907f0559884fd3a460db3073b7fc896cc77986f16e378210ded43186175bf646fc5f9060200160405180910390a35050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f6020828403121561038a575f5ffd5b813560ff8116811461039a575f5ffd5b9392505050565b5f5f604083850312156103b2575f5ffd5b50508035926020909101359150565b600181811c908216806103d557607f821691505b6020821081036103f357634e487b7160e01b5f52602260045260245ffd5b50919050565b5f6001600160501b0382166001600160501b03810361042657634e487b7160e01b5f52601160045260245ffd5b6001019291505056fea26469706673582212202ea9fd6f2e2b6cf3bd74e8597aa9343b4942371a387d9674ecfc4fdb1210c95a64736f6c634300081e0033",
}

// TestPriceFeed is an auto generated Go binding around an Ethereum contract.
type TestPriceFeed struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TestPriceFeed) GetABI() abi.ABI {
	return c.abi
}

// NewTestPriceFeed creates a new instance of TestPriceFeed.
func NewTestPriceFeed() *TestPriceFeed {
	parsed, err := TestPriceFeedMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TestPriceFeed{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TestPriceFeed) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint8 decimals_, string description_, int256 answer_) returns()
func (testPriceFeed *TestPriceFeed) PackConstructor(decimals_ uint8, description_ string, answer_ *big.Int) []byte {
	enc, err := testPriceFeed.abi.Pack("", decimals_, description_, answer_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (testPriceFeed *TestPriceFeed) PackDecimals() []byte {
	enc, err := testPriceFeed.abi.Pack("decimals")
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
func (testPriceFeed *TestPriceFeed) TryPackDecimals() ([]byte, error) {
	return testPriceFeed.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (testPriceFeed *TestPriceFeed) UnpackDecimals(data []byte) (uint8, error) {
	out, err := testPriceFeed.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDescription is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7284e416.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function description() view returns(string)
func (testPriceFeed *TestPriceFeed) PackDescription() []byte {
	enc, err := testPriceFeed.abi.Pack("description")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDescription is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7284e416.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function description() view returns(string)
func (testPriceFeed *TestPriceFeed) TryPackDescription() ([]byte, error) {
	return testPriceFeed.abi.Pack("description")
}

// UnpackDescription is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7284e416.
//
// Solidity: function description() view returns(string)
func (testPriceFeed *TestPriceFeed) UnpackDescription(data []byte) (string, error) {
	out, err := testPriceFeed.abi.Unpack("description", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (testPriceFeed *TestPriceFeed) PackLatestRoundData() []byte {
	enc, err := testPriceFeed.abi.Pack("latestRoundData")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (testPriceFeed *TestPriceFeed) TryPackLatestRoundData() ([]byte, error) {
	return testPriceFeed.abi.Pack("latestRoundData")
}

// LatestRoundDataOutput serves as a container for the return parameters of contract
// method LatestRoundData.
type LatestRoundDataOutput struct {
	RoundId         *big.Int
	Answer          *big.Int
	StartedAt       *big.Int
	UpdatedAt       *big.Int
	AnsweredInRound *big.Int
}

// UnpackLatestRoundData is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfeaf968c.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (testPriceFeed *TestPriceFeed) UnpackLatestRoundData(data []byte) (LatestRoundDataOutput, error) {
	out, err := testPriceFeed.abi.Unpack("latestRoundData", data)
	outstruct := new(LatestRoundDataOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.RoundId = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Answer = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.StartedAt = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.UpdatedAt = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.AnsweredInRound = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (testPriceFeed *TestPriceFeed) PackOwner() []byte {
	enc, err := testPriceFeed.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (testPriceFeed *TestPriceFeed) TryPackOwner() ([]byte, error) {
	return testPriceFeed.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (testPriceFeed *TestPriceFeed) UnpackOwner(data []byte) (common.Address, error) {
	out, err := testPriceFeed.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackSetAnswer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x860f1383.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setAnswer(int256 answer_, uint256 updatedAt_) returns()
func (testPriceFeed *TestPriceFeed) PackSetAnswer(answer *big.Int, updatedAt *big.Int) []byte {
	enc, err := testPriceFeed.abi.Pack("setAnswer", answer, updatedAt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetAnswer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x860f1383.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setAnswer(int256 answer_, uint256 updatedAt_) returns()
func (testPriceFeed *TestPriceFeed) TryPackSetAnswer(answer *big.Int, updatedAt *big.Int) ([]byte, error) {
	return testPriceFeed.abi.Pack("setAnswer", answer, updatedAt)
}

// PackSetDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7a1395aa.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setDecimals(uint8 decimals_) returns()
func (testPriceFeed *TestPriceFeed) PackSetDecimals(decimals uint8) []byte {
	enc, err := testPriceFeed.abi.Pack("setDecimals", decimals)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7a1395aa.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setDecimals(uint8 decimals_) returns()
func (testPriceFeed *TestPriceFeed) TryPackSetDecimals(decimals uint8) ([]byte, error) {
	return testPriceFeed.abi.Pack("setDecimals", decimals)
}

// PackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function version() view returns(uint256)
func (testPriceFeed *TestPriceFeed) PackVersion() []byte {
	enc, err := testPriceFeed.abi.Pack("version")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function version() view returns(uint256)
func (testPriceFeed *TestPriceFeed) TryPackVersion() ([]byte, error) {
	return testPriceFeed.abi.Pack("version")
}

// UnpackVersion is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x54fd4d50.
//
// Solidity: function version() view returns(uint256)
func (testPriceFeed *TestPriceFeed) UnpackVersion(data []byte) (*big.Int, error) {
	out, err := testPriceFeed.abi.Unpack("version", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// TestPriceFeedAnswerUpdated represents a AnswerUpdated event raised by the TestPriceFeed contract.
type TestPriceFeedAnswerUpdated struct {
	Current   *big.Int
	RoundId   *big.Int
	UpdatedAt *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const TestPriceFeedAnswerUpdatedEventName = "AnswerUpdated"

// ContractEventName returns the user-defined event name.
func (TestPriceFeedAnswerUpdated) ContractEventName() string {
	return TestPriceFeedAnswerUpdatedEventName
}

// UnpackAnswerUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)
func (testPriceFeed *TestPriceFeed) UnpackAnswerUpdatedEvent(log *types.Log) (*TestPriceFeedAnswerUpdated, error) {
	event := "AnswerUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != testPriceFeed.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TestPriceFeedAnswerUpdated)
	if len(log.Data) > 0 {
		if err := testPriceFeed.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range testPriceFeed.abi.Events[event].Inputs {
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
func (testPriceFeed *TestPriceFeed) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], testPriceFeed.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return testPriceFeed.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// TestPriceFeedNotOwner represents a NotOwner error raised by the TestPriceFeed contract.
type TestPriceFeedNotOwner struct {
	Caller common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner(address caller)
func TestPriceFeedNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x245aecd3fabbd17d6c3c92dc7f0ab916ea8cbf6fc1862c8b56893090ac3fff4c")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner(address caller)
func (testPriceFeed *TestPriceFeed) UnpackNotOwnerError(raw []byte) (*TestPriceFeedNotOwner, error) {
	out := new(TestPriceFeedNotOwner)
	if err := testPriceFeed.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}
