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

// FillInstruction is an auto generated low-level Go binding around an user-defined struct.
type FillInstruction struct {
	DestinationChainId uint64
	DestinationSettler [32]byte
	OriginData         []byte
}

// OnchainCrossChainOrder is an auto generated low-level Go binding around an user-defined struct.
type OnchainCrossChainOrder struct {
	FillDeadline  uint32
	OrderDataType [32]byte
	OrderData     []byte
}

// Order is an auto generated low-level Go binding around an user-defined struct.
type Order struct {
	Account            [32]byte
	OriginChainId      *big.Int
	User               common.Address
	DestinationChainId *big.Int
	Recipient          common.Address
	TokenIn            common.Address
	TokenOut           common.Address
	AmountIn           *big.Int
	MinAmountOut       *big.Int
	Deadline           uint64
	Nonce              [32]byte
	DestinationSettler common.Address
}

// Output is an auto generated low-level Go binding around an user-defined struct.
type Output struct {
	Token     [32]byte
	Amount    *big.Int
	Recipient [32]byte
	ChainId   *big.Int
}

// ResolvedCrossChainOrder is an auto generated low-level Go binding around an user-defined struct.
type ResolvedCrossChainOrder struct {
	User             common.Address
	OriginChainId    *big.Int
	OpenDeadline     uint32
	FillDeadline     uint32
	OrderId          [32]byte
	MaxSpent         []Output
	MinReceived      []Output
	FillInstructions []FillInstruction
}

// SettlementMetaData contains all meta data concerning the Settlement contract.
var SettlementMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"attester_\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"refundDelay_\",\"type\":\"uint64\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"AlreadyFilled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"AlreadyOpened\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"}],\"name\":\"BelowMinimum\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DeadlineMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DeadlinePassed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FailedCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidAttestation\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidShortString\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"MalformedOrder\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"NotOpened\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOrderOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OrderIdMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ReentrancyGuardReentrantCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"refundableAt\",\"type\":\"uint256\"}],\"name\":\"RefundTooEarly\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"str\",\"type\":\"string\"}],\"name\":\"StringTooLong\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"received\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expected\",\"type\":\"uint256\"}],\"name\":\"TransferShort\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongChain\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongDestination\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongOrderDataType\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongValue\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"EIP712DomainChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"Filled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"maxSpent\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"minReceived\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"uint64\",\"name\":\"destinationChainId\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"destinationSettler\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"}],\"internalType\":\"structFillInstruction[]\",\"name\":\"fillInstructions\",\"type\":\"tuple[]\"}],\"indexed\":false,\"internalType\":\"structResolvedCrossChainOrder\",\"name\":\"resolvedOrder\",\"type\":\"tuple\"}],\"name\":\"Open\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"indexed\":false,\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"Opened\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"Refunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"Settled\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"FILL_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"NATIVE\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"ORDER_DATA_TYPE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"attester\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"eip712Domain\",\"outputs\":[{\"internalType\":\"bytes1\",\"name\":\"fields\",\"type\":\"bytes1\"},{\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"version\",\"type\":\"string\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"verifyingContract\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"uint256[]\",\"name\":\"extensions\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"fillerData\",\"type\":\"bytes\"}],\"name\":\"fill\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"fillDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"fills\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structOnchainCrossChainOrder\",\"name\":\"crossChainOrder\",\"type\":\"tuple\"}],\"name\":\"open\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"orders\",\"outputs\":[{\"internalType\":\"enumSettlement.Status\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"refundDelay\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structOnchainCrossChainOrder\",\"name\":\"crossChainOrder\",\"type\":\"tuple\"}],\"name\":\"resolve\",\"outputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"maxSpent\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"minReceived\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"uint64\",\"name\":\"destinationChainId\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"destinationSettler\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"}],\"internalType\":\"structFillInstruction[]\",\"name\":\"fillInstructions\",\"type\":\"tuple[]\"}],\"internalType\":\"structResolvedCrossChainOrder\",\"name\":\"\",\"type\":\"tuple\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "Settlement",
	Bin: "0x6101a0604052348015610010575f5ffd5b5060405161276738038061276783398101604081905261002f916101f3565b6040518060400160405280601881526020017f5472616e73666572496e74656e74536574746c656d656e740000000000000000815250604051806040016040528060018152602001603160f81b815250600161009561009261018960201b60201c565b90565b5561009f826101ad565b610120526100ac816101ad565b61014052815160208084019190912060e052815190820120610100524660a05261013860e05161010051604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201529081019290925260608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b60805250503060c0526001600160a01b0382166101685760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b03909116610160526001600160401b03166101805261029c565b7f9b779b17422d0df92223018b32b4d1fa46e071723d6817e2486d003becc55f0090565b5f5f829050601f815111156101e0578260405163305a27a960e01b81526004016101d79190610241565b60405180910390fd5b80516101eb82610276565b179392505050565b5f5f60408385031215610204575f5ffd5b82516001600160a01b038116811461021a575f5ffd5b60208401519092506001600160401b0381168114610236575f5ffd5b809150509250929050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80516020808301519190811015610296575f198160200360031b1b821691505b50919050565b60805160a05160c05160e051610100516101205161014051610160516101805161245861030f5f395f8181610171015261042e01525f81816101e80152610b6901525f6114ab01525f61147b01525f6118f601525f6118ce01525f61182901525f61185301525f61187d01526124585ff3fe6080604052600436106100d9575f3560e01c806384b0196e1161007c578063af8de6f611610057578063af8de6f6146102ff578063cca51a241461031e578063e917a9621461033d578063f2ba764b14610350575f5ffd5b806384b0196e146102765780639c3f1e901461029d578063a0cf0aea146102d8575f5ffd5b806341b477dd116100b757806341b477dd146101ab57806347b0c3b3146101d757806355a4f8d21461022257806382e2c43f14610263575f5ffd5b8063173d647e146100dd57806320158c44146100fe5780633e602b4c14610160575b5f5ffd5b3480156100e8575f5ffd5b506100fc6100f7366004611b90565b610383565b005b348015610109575f5ffd5b5061013c610118366004611bab565b60036020525f9081526040902080546001909101546001600160a01b039091169082565b604080516001600160a01b0390931683526020830191909152015b60405180910390f35b34801561016b575f5ffd5b506101937f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160401b039091168152602001610157565b3480156101b6575f5ffd5b506101ca6101c5366004611bc2565b61054f565b6040516101579190611d0a565b3480156101e2575f5ffd5b5061020a7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610157565b34801561022d575f5ffd5b506102557f2537ba76a3f20719927fd3fc3cf67ea5a5c7badeb5eb8635e7f5f23602aec23b81565b604051908152602001610157565b6100fc610271366004611e07565b6105ea565b348015610281575f5ffd5b5061028a610904565b6040516101579796959493929190611e7e565b3480156102a8575f5ffd5b506102cb6102b7366004611bab565b60026020525f908152604090205460ff1681565b6040516101579190611f28565b3480156102e3575f5ffd5b5061020a73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee81565b34801561030a575f5ffd5b50610255610319366004611f72565b610946565b348015610329575f5ffd5b506100fc610338366004611fa7565b6109b9565b6100fc61034b366004611bc2565b610c35565b34801561035b575f5ffd5b506102557feec1ce72785eaea47e9b4484c8ff47ad2e64e182fbe37aeedfa1985cccdf2eca81565b61038b610f6f565b5f8160405160200161039d9190612010565b604051602081830303815290604052805190602001209050468260200135146103d9576040516310dfc03360e01b815260040160405180910390fd5b60015f8281526002602052604090205460ff1660038111156103fd576103fd611f14565b1461042357604051630e5ea0ab60e01b8152600481018290526024015b60405180910390fd5b5f6001600160401b037f000000000000000000000000000000000000000000000000000000000000000016610460610140850161012086016120f6565b6001600160401b03166104739190612123565b90508042116104985760405163c97053b160e01b81526004810182905260240161041a565b5f828152600260205260409020805460ff191660031790556104dd6104c360c0850160a08601612136565b6104d36060860160408701612136565b8560e00135610f8a565b6104ed6060840160408501612136565b6001600160a01b0316827ff552ca82e113ac3c539c3d617f29fcd19c172a0c75dad017555c9e109f7fe1838560e0013560405161052c91815260200190565b60405180910390a3505061054c60015f5160206124035f395f51905f5255565b50565b610557611b24565b7feec1ce72785eaea47e9b4484c8ff47ad2e64e182fbe37aeedfa1985cccdf2eca82602001351461059b57604051633b6b895360e11b815260040160405180910390fd5b5f6105b16105ac6040850185612151565b610fd2565b90506105e381826040516020016105c89190612193565b60405160208183030381529060405280519060200120611069565b9392505050565b6105f2610f6f565b5f6105fd8585610fd2565b905085816040516020016106119190612193565b6040516020818303038152906040528051906020012014610645576040516338fd46f360e11b815260040160405180910390fd5b46816060015114158061066657506101608101516001600160a01b03163014155b1561068457604051633be53d8360e21b815260040160405180910390fd5b8061012001516001600160401b03164211156106b35760405163387b2e5560e11b815260040160405180910390fd5b604082146106d4576040516362f736ef60e11b815260040160405180910390fd5b5f806106e28486018661227a565b90925090506001600160a01b0381166106f85750335b82610100015182101561072f5761010083015160405163bd49034f60e01b815261041a918491600401918252602082015260400190565b5f888152600360205260409020546001600160a01b0316156107675760405163cee8144360e01b81526004810189905260240161041a565b6020830151461480156107d55760015f8a81526002602052604090205460ff16600381111561079857610798611f14565b146107b957604051630e5ea0ab60e01b8152600481018a905260240161041a565b5f898152600260208190526040909120805460ff191690911790555b6040805180820182526001600160a01b03848116825260208083018781525f8e81526003909252939020915182546001600160a01b0319169116178155905160019091015560c0840151608085015161082f9190856112e1565b83608001516001600160a01b0316826001600160a01b03168a7ff34b46d162bfdb332240cb89a10794aa192f907552f0a3ec8d94fa18399ecec48660405161087991815260200190565b60405180910390a480156108e35761089a8460a00151838660e00151610f8a565b816001600160a01b0316897f16cfaad9ef877ffdcfedd9eae2009b4d27454094546f8fab5fbb10129037afc88660e001516040516108da91815260200190565b60405180910390a35b505050506108fd60015f5160206124035f395f51905f5255565b5050505050565b5f6060805f5f5f6060610915611474565b61091d6114a4565b604080515f80825260208201909252600f60f81b9b939a50919850469750309650945092509050565b604080517f2537ba76a3f20719927fd3fc3cf67ea5a5c7badeb5eb8635e7f5f23602aec23b60208201529081018490526001600160a01b0383166060820152608081018290525f906109b19060a0015b604051602081830303815290604052805190602001206114cf565b949350505050565b6109c1610f6f565b5f856040516020016109d39190612010565b60405160208183030381529060405280519060200120905046866020013514610a0f576040516310dfc03360e01b815260040160405180910390fd5b60015f8281526002602052604090205460ff166003811115610a3357610a33611f14565b14610a5457604051630e5ea0ab60e01b81526004810182905260240161041a565b856101000135841015610a885760405163bd49034f60e01b815260048101859052610100870135602482015260440161041a565b6001600160a01b038516610aaf5760405163d92e233d60e01b815260040160405180910390fd5b604080517f2537ba76a3f20719927fd3fc3cf67ea5a5c7badeb5eb8635e7f5f23602aec23b60208201529081018290526001600160a01b0386166060820152608081018590525f90610b039060a001610996565b90505f5f610b468387878080601f0160208091040260200160405190810160405280939291908181526020018383808284375f920191909152506114fb92505050565b5090925090505f816003811115610b5f57610b5f611f14565b141580610b9e57507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b031614155b15610bbc5760405163bd8ba84d60e01b815260040160405180910390fd5b5f848152600260208190526040909120805460ff19169091179055610bf5610bea60c08b0160a08c01612136565b898b60e00135610f8a565b876001600160a01b0316847f16cfaad9ef877ffdcfedd9eae2009b4d27454094546f8fab5fbb10129037afc88b60e001356040516108da91815260200190565b610c3d610f6f565b7feec1ce72785eaea47e9b4484c8ff47ad2e64e182fbe37aeedfa1985cccdf2eca816020013514610c8157604051633b6b895360e11b815260040160405180910390fd5b5f610c926105ac6040840184612151565b90505f81604051602001610ca69190612193565b60405160208183030381529060405280519060200120905046826020015114610ce2576040516310dfc03360e01b815260040160405180910390fd5b60408201516001600160a01b03163314610d0f57604051637b2095ad60e11b815260040160405180910390fd5b6101208201516001600160401b0316610d2b60208501856122a8565b63ffffffff1614610d4f5760405163604f46d560e11b815260040160405180910390fd5b8161012001516001600160401b0316421115610d7e5760405163387b2e5560e11b815260040160405180910390fd5b60e08201511580610d925750610100820151155b15610db05760405163162908e360e11b815260040160405180910390fd5b60808201516001600160a01b03161580610dd657506101608201516001600160a01b0316155b15610df45760405163d92e233d60e01b815260040160405180910390fd5b60608201516001600160401b031015610e2057604051633be53d8360e21b815260040160405180910390fd5b468260600151148015610e4157506101608201516001600160a01b03163014155b15610e5f57604051633be53d8360e21b815260040160405180910390fd5b5f8181526002602052604081205460ff166003811115610e8157610e81611f14565b14610ea25760405163de5d1a9f60e01b81526004810182905260240161041a565b5f818152600260205260409020805460ff1916600117905560a082015160e0830151610ed091903390611544565b81604001516001600160a01b0316817f4f268651a1d20b7ab3a6dd0feea7beaba6b77bde97b9aa2f1f23b4172e4d660b84604051610f0e9190612193565b60405180910390a3807fa576d0af275d0c6207ef43ceee8c498a5d7a26b8157a32d3fdf361e64371628c610f428484611069565b604051610f4f9190611d0a565b60405180910390a2505061054c60015f5160206124035f395f51905f5255565b610f776116c7565b60025f5160206124035f395f51905f5255565b73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeed196001600160a01b03841601610fbe57610fb982826116f8565b505050565b610fb96001600160a01b038416838361176f565b60408051610180810182525f80825260208201819052918101829052606081018290526080810182905260a0810182905260c0810182905260e081018290526101008101829052610120810182905261014081018290526101608101919091526101808214611054576040516362f736ef60e11b815260040160405180910390fd5b61106082840184612300565b90505b92915050565b611071611b24565b6040838101516001600160a01b03168252602080850151908301526101208401805163ffffffff908116848401529051166060830152608082018390528051600180825281830190925290816020015b6110e860405180608001604052805f81526020015f81526020015f81526020015f81525090565b8152602001906001900390816110c15790505060a0820152604080516080810190915260c084015181906001600160a01b03168152602001846101000151815260200161113f85608001516001600160a01b031690565b815260200184606001518152508160a001515f81518110611162576111626123c4565b602090810291909101015260408051600180825281830190925290816020015b6111a960405180608001604052805f81526020015f81526020015f81526020015f81525090565b8152602001906001900390816111825790505060c0820152604080516080810190915260a084015181906001600160a01b031681526020018460e0015181526020015f5f1b815260200184602001518152508160c001515f81518110611211576112116123c4565b602090810291909101015260408051600180825281830190925290816020015b60408051606080820183525f80835260208301529181019190915281526020019060019003908161123157505060e0820152604080516060808201909252908401516001600160401b0316815261016084015160208201906001600160a01b03168152602001846040516020016112a89190612193565b6040516020818303038152906040528152508160e001515f815181106112d0576112d06123c4565b602002602001018190525092915050565b73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeed196001600160a01b038416016113305780341461132657604051632635240760e21b815260040160405180910390fd5b610fb982826116f8565b341561134f57604051632635240760e21b815260040160405180910390fd5b6040516370a0823160e01b81526001600160a01b0383811660048301525f91908516906370a0823190602401602060405180830381865afa158015611396573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906113ba91906123d8565b90506113d16001600160a01b0385163385856117a4565b6040516370a0823160e01b81526001600160a01b0384811660048301525f9183918716906370a0823190602401602060405180830381865afa158015611419573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061143d91906123d8565b61144791906123ef565b9050828110156108fd57604051630ba11f2f60e21b8152600481018290526024810184905260440161041a565b606061149f7f00000000000000000000000000000000000000000000000000000000000000006117e0565b905090565b606061149f7f00000000000000000000000000000000000000000000000000000000000000006117e0565b5f6110636114db61181d565b8360405161190160f01b8152600281019290925260228201526042902090565b5f5f5f8351604103611532576020840151604085015160608601515f1a61152488828585611946565b95509550955050505061153d565b505081515f91506002905b9250925092565b73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeed196001600160a01b0384160161158957803414610fb957604051632635240760e21b815260040160405180910390fd5b34156115a857604051632635240760e21b815260040160405180910390fd5b6040516370a0823160e01b81523060048201525f906001600160a01b038516906370a0823190602401602060405180830381865afa1580156115ec573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061161091906123d8565b90506116276001600160a01b0385168430856117a4565b6040516370a0823160e01b81523060048201525f9082906001600160a01b038716906370a0823190602401602060405180830381865afa15801561166d573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061169191906123d8565b61169b91906123ef565b90508281146108fd57604051630ba11f2f60e21b8152600481018290526024810184905260440161041a565b5f5160206124035f395f51905f52546002036116f657604051633ee5aeb560e01b815260040160405180910390fd5b565b804710156117225760405163cf47918160e01b81524760048201526024810182905260440161041a565b61173b828260405180602001604052805f815250611a0e565b15611744575050565b3d1561175657611752611a23565b5050565b60405163d6bda27560e01b815260040160405180910390fd5b61177c8383836001611a2e565b610fb957604051635274afe760e01b81526001600160a01b038416600482015260240161041a565b6117b2848484846001611a90565b6117da57604051635274afe760e01b81526001600160a01b038516600482015260240161041a565b50505050565b60605f6117ec83611afd565b6040805160208082528183019092529192505f91906020820181803683375050509182525060208101929092525090565b5f306001600160a01b037f00000000000000000000000000000000000000000000000000000000000000001614801561187557507f000000000000000000000000000000000000000000000000000000000000000046145b1561189f57507f000000000000000000000000000000000000000000000000000000000000000090565b61149f604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201527f0000000000000000000000000000000000000000000000000000000000000000918101919091527f000000000000000000000000000000000000000000000000000000000000000060608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b5f80807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a084111561197f57505f91506003905082611a04565b604080515f808252602082018084528a905260ff891692820192909252606081018790526080810186905260019060a0016020604051602081039080840390855afa1580156119d0573d5f5f3e3d5ffd5b5050604051601f1901519150506001600160a01b0381166119fb57505f925060019150829050611a04565b92505f91508190505b9450945094915050565b5f5f5f83516020850186885af1949350505050565b6040513d5f823e3d81fd5b60405163a9059cbb60e01b5f8181526001600160a01b038616600452602485905291602083604481808b5af1925060015f51148316611a84578383151615611a78573d5f823e3d81fd5b5f873b113d1516831692505b60405250949350505050565b6040516323b872dd60e01b5f8181526001600160a01b038781166004528616602452604485905291602083606481808c5af1925060015f51148316611aec578383151615611ae0573d5f823e3d81fd5b5f883b113d1516831692505b604052505f60605295945050505050565b5f60ff8216601f81111561106357604051632cd44ac360e21b815260040160405180910390fd5b6040518061010001604052805f6001600160a01b031681526020015f81526020015f63ffffffff1681526020015f63ffffffff1681526020015f81526020016060815260200160608152602001606081525090565b5f6101808284031215611b8a575f5ffd5b50919050565b5f6101808284031215611ba1575f5ffd5b6110608383611b79565b5f60208284031215611bbb575f5ffd5b5035919050565b5f60208284031215611bd2575f5ffd5b81356001600160401b03811115611be7575f5ffd5b8201606081850312156105e3575f5ffd5b5f8151808452602084019350602083015f5b82811015611c4e5781518051875260208101516020880152604081015160408801526060810151606088015250608086019550602082019150600181019050611c0a565b5093949350505050565b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b5f82825180855260208501945060208160051b830101602085015f5b83811015611cfe57601f1985840301885281516001600160401b038151168452602081015160208501526040810151905060606040850152611ce76060850182611c58565b6020998a0199909450929092019150600101611ca2565b50909695505050505050565b60208152611d246020820183516001600160a01b03169052565b602082015160408201525f6040830151611d46606084018263ffffffff169052565b50606083015163ffffffff8116608084015250608083015160a083015260a083015161010060c0840152611d7e610120840182611bf8565b905060c0840151601f198483030160e0850152611d9b8282611bf8565b91505060e0840151601f1984830301610100850152611dba8282611c86565b95945050505050565b5f5f83601f840112611dd3575f5ffd5b5081356001600160401b03811115611de9575f5ffd5b602083019150836020828501011115611e00575f5ffd5b9250929050565b5f5f5f5f5f60608688031215611e1b575f5ffd5b8535945060208601356001600160401b03811115611e37575f5ffd5b611e4388828901611dc3565b90955093505060408601356001600160401b03811115611e61575f5ffd5b611e6d88828901611dc3565b969995985093965092949392505050565b60ff60f81b8816815260e060208201525f611e9c60e0830189611c58565b8281036040840152611eae8189611c58565b606084018890526001600160a01b038716608085015260a0840186905283810360c0850152845180825260208087019350909101905f5b81811015611f03578351835260209384019390920191600101611ee5565b50909b9a5050505050505050505050565b634e487b7160e01b5f52602160045260245ffd5b6020810160048310611f4857634e487b7160e01b5f52602160045260245ffd5b91905290565b6001600160a01b038116811461054c575f5ffd5b8035611f6d81611f4e565b919050565b5f5f5f60608486031215611f84575f5ffd5b833592506020840135611f9681611f4e565b929592945050506040919091013590565b5f5f5f5f5f6101e08688031215611fbc575f5ffd5b611fc68787611b79565b9450610180860135611fd781611f4e565b93506101a086013592506101c08601356001600160401b03811115611e61575f5ffd5b80356001600160401b0381168114611f6d575f5ffd5b8135815260208083013590820152610180810161202f60408401611f62565b6001600160a01b031660408301526060838101359083015261205360808401611f62565b6001600160a01b0316608083015261206d60a08401611f62565b6001600160a01b031660a083015261208760c08401611f62565b6001600160a01b031660c083015260e0838101359083015261010080840135908301526120b76101208401611ffa565b6001600160401b031661012083015261014083810135908301526120de6101608401611f62565b6001600160a01b0381166101608401525b5092915050565b5f60208284031215612106575f5ffd5b61106082611ffa565b634e487b7160e01b5f52601160045260245ffd5b808201808211156110635761106361210f565b5f60208284031215612146575f5ffd5b81356105e381611f4e565b5f5f8335601e19843603018112612166575f5ffd5b8301803591506001600160401b0382111561217f575f5ffd5b602001915036819003821315611e00575f5ffd5b5f61018082019050825182526020830151602083015260408301516121c360408401826001600160a01b03169052565b506060830151606083015260808301516121e860808401826001600160a01b03169052565b5060a083015161220360a08401826001600160a01b03169052565b5060c083015161221e60c08401826001600160a01b03169052565b5060e083015160e08301526101008301516101008301526101208301516122516101208401826001600160401b03169052565b506101408301516101408301526101608301516120ef6101608401826001600160a01b03169052565b5f5f6040838503121561228b575f5ffd5b82359150602083013561229d81611f4e565b809150509250929050565b5f602082840312156122b8575f5ffd5b813563ffffffff811681146105e3575f5ffd5b60405161018081016001600160401b03811182821017156122fa57634e487b7160e01b5f52604160045260245ffd5b60405290565b5f610180828403128015612312575f5ffd5b5061231b6122cb565b823581526020808401359082015261233560408401611f62565b60408201526060838101359082015261235060808401611f62565b608082015261236160a08401611f62565b60a082015261237260c08401611f62565b60c082015260e0838101359082015261010080840135908201526123996101208401611ffa565b61012082015261014083810135908201526123b76101608401611f62565b6101608201529392505050565b634e487b7160e01b5f52603260045260245ffd5b5f602082840312156123e8575f5ffd5b5051919050565b818103818111156110635761106361210f56fe9b779b17422d0df92223018b32b4d1fa46e071723d6817e2486d003becc55f00a26469706673582212200ef930f9829d36a4bcab152958ff0d39dd1075a62f458d5666f67d16bf19cdb564736f6c634300081e0033",
}

// Settlement is an auto generated Go binding around an Ethereum contract.
type Settlement struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Settlement) GetABI() abi.ABI {
	return c.abi
}

// NewSettlement creates a new instance of Settlement.
func NewSettlement() *Settlement {
	parsed, err := SettlementMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Settlement{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Settlement) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address attester_, uint64 refundDelay_) returns()
func (settlement *Settlement) PackConstructor(attester_ common.Address, refundDelay_ uint64) []byte {
	enc, err := settlement.abi.Pack("", attester_, refundDelay_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackFILLTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x55a4f8d2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function FILL_TYPEHASH() view returns(bytes32)
func (settlement *Settlement) PackFILLTYPEHASH() []byte {
	enc, err := settlement.abi.Pack("FILL_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFILLTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x55a4f8d2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function FILL_TYPEHASH() view returns(bytes32)
func (settlement *Settlement) TryPackFILLTYPEHASH() ([]byte, error) {
	return settlement.abi.Pack("FILL_TYPEHASH")
}

// UnpackFILLTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x55a4f8d2.
//
// Solidity: function FILL_TYPEHASH() view returns(bytes32)
func (settlement *Settlement) UnpackFILLTYPEHASH(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("FILL_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackNATIVE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa0cf0aea.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function NATIVE() view returns(address)
func (settlement *Settlement) PackNATIVE() []byte {
	enc, err := settlement.abi.Pack("NATIVE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNATIVE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa0cf0aea.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function NATIVE() view returns(address)
func (settlement *Settlement) TryPackNATIVE() ([]byte, error) {
	return settlement.abi.Pack("NATIVE")
}

// UnpackNATIVE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa0cf0aea.
//
// Solidity: function NATIVE() view returns(address)
func (settlement *Settlement) UnpackNATIVE(data []byte) (common.Address, error) {
	out, err := settlement.abi.Unpack("NATIVE", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackORDERDATATYPE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2ba764b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function ORDER_DATA_TYPE() view returns(bytes32)
func (settlement *Settlement) PackORDERDATATYPE() []byte {
	enc, err := settlement.abi.Pack("ORDER_DATA_TYPE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackORDERDATATYPE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2ba764b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function ORDER_DATA_TYPE() view returns(bytes32)
func (settlement *Settlement) TryPackORDERDATATYPE() ([]byte, error) {
	return settlement.abi.Pack("ORDER_DATA_TYPE")
}

// UnpackORDERDATATYPE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf2ba764b.
//
// Solidity: function ORDER_DATA_TYPE() view returns(bytes32)
func (settlement *Settlement) UnpackORDERDATATYPE(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("ORDER_DATA_TYPE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackAttester is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x47b0c3b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function attester() view returns(address)
func (settlement *Settlement) PackAttester() []byte {
	enc, err := settlement.abi.Pack("attester")
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
func (settlement *Settlement) TryPackAttester() ([]byte, error) {
	return settlement.abi.Pack("attester")
}

// UnpackAttester is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x47b0c3b3.
//
// Solidity: function attester() view returns(address)
func (settlement *Settlement) UnpackAttester(data []byte) (common.Address, error) {
	out, err := settlement.abi.Unpack("attester", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackEip712Domain is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84b0196e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (settlement *Settlement) PackEip712Domain() []byte {
	enc, err := settlement.abi.Pack("eip712Domain")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEip712Domain is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84b0196e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (settlement *Settlement) TryPackEip712Domain() ([]byte, error) {
	return settlement.abi.Pack("eip712Domain")
}

// Eip712DomainOutput serves as a container for the return parameters of contract
// method Eip712Domain.
type Eip712DomainOutput struct {
	Fields            [1]byte
	Name              string
	Version           string
	ChainId           *big.Int
	VerifyingContract common.Address
	Salt              [32]byte
	Extensions        []*big.Int
}

// UnpackEip712Domain is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x84b0196e.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (settlement *Settlement) UnpackEip712Domain(data []byte) (Eip712DomainOutput, error) {
	out, err := settlement.abi.Unpack("eip712Domain", data)
	outstruct := new(Eip712DomainOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Fields = *abi.ConvertType(out[0], new([1]byte)).(*[1]byte)
	outstruct.Name = *abi.ConvertType(out[1], new(string)).(*string)
	outstruct.Version = *abi.ConvertType(out[2], new(string)).(*string)
	outstruct.ChainId = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.VerifyingContract = *abi.ConvertType(out[4], new(common.Address)).(*common.Address)
	outstruct.Salt = *abi.ConvertType(out[5], new([32]byte)).(*[32]byte)
	outstruct.Extensions = *abi.ConvertType(out[6], new([]*big.Int)).(*[]*big.Int)
	return *outstruct, nil
}

// PackFill is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82e2c43f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fill(bytes32 orderId, bytes originData, bytes fillerData) payable returns()
func (settlement *Settlement) PackFill(orderId [32]byte, originData []byte, fillerData []byte) []byte {
	enc, err := settlement.abi.Pack("fill", orderId, originData, fillerData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFill is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82e2c43f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fill(bytes32 orderId, bytes originData, bytes fillerData) payable returns()
func (settlement *Settlement) TryPackFill(orderId [32]byte, originData []byte, fillerData []byte) ([]byte, error) {
	return settlement.abi.Pack("fill", orderId, originData, fillerData)
}

// PackFillDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xaf8de6f6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fillDigest(bytes32 orderId, address filler, uint256 amountOut) view returns(bytes32)
func (settlement *Settlement) PackFillDigest(orderId [32]byte, filler common.Address, amountOut *big.Int) []byte {
	enc, err := settlement.abi.Pack("fillDigest", orderId, filler, amountOut)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFillDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xaf8de6f6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fillDigest(bytes32 orderId, address filler, uint256 amountOut) view returns(bytes32)
func (settlement *Settlement) TryPackFillDigest(orderId [32]byte, filler common.Address, amountOut *big.Int) ([]byte, error) {
	return settlement.abi.Pack("fillDigest", orderId, filler, amountOut)
}

// UnpackFillDigest is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xaf8de6f6.
//
// Solidity: function fillDigest(bytes32 orderId, address filler, uint256 amountOut) view returns(bytes32)
func (settlement *Settlement) UnpackFillDigest(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("fillDigest", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackFills is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x20158c44.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fills(bytes32 orderId) view returns(address filler, uint256 amountOut)
func (settlement *Settlement) PackFills(orderId [32]byte) []byte {
	enc, err := settlement.abi.Pack("fills", orderId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFills is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x20158c44.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fills(bytes32 orderId) view returns(address filler, uint256 amountOut)
func (settlement *Settlement) TryPackFills(orderId [32]byte) ([]byte, error) {
	return settlement.abi.Pack("fills", orderId)
}

// FillsOutput serves as a container for the return parameters of contract
// method Fills.
type FillsOutput struct {
	Filler    common.Address
	AmountOut *big.Int
}

// UnpackFills is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x20158c44.
//
// Solidity: function fills(bytes32 orderId) view returns(address filler, uint256 amountOut)
func (settlement *Settlement) UnpackFills(data []byte) (FillsOutput, error) {
	out, err := settlement.abi.Unpack("fills", data)
	outstruct := new(FillsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Filler = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.AmountOut = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackOpen is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe917a962.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function open((uint32,bytes32,bytes) crossChainOrder) payable returns()
func (settlement *Settlement) PackOpen(crossChainOrder OnchainCrossChainOrder) []byte {
	enc, err := settlement.abi.Pack("open", crossChainOrder)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOpen is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe917a962.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function open((uint32,bytes32,bytes) crossChainOrder) payable returns()
func (settlement *Settlement) TryPackOpen(crossChainOrder OnchainCrossChainOrder) ([]byte, error) {
	return settlement.abi.Pack("open", crossChainOrder)
}

// PackOrders is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9c3f1e90.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function orders(bytes32 orderId) view returns(uint8)
func (settlement *Settlement) PackOrders(orderId [32]byte) []byte {
	enc, err := settlement.abi.Pack("orders", orderId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOrders is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9c3f1e90.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function orders(bytes32 orderId) view returns(uint8)
func (settlement *Settlement) TryPackOrders(orderId [32]byte) ([]byte, error) {
	return settlement.abi.Pack("orders", orderId)
}

// UnpackOrders is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9c3f1e90.
//
// Solidity: function orders(bytes32 orderId) view returns(uint8)
func (settlement *Settlement) UnpackOrders(data []byte) (uint8, error) {
	out, err := settlement.abi.Unpack("orders", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x173d647e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refund((bytes32,uint256,address,uint256,address,address,address,uint256,uint256,uint64,bytes32,address) order) returns()
func (settlement *Settlement) PackRefund(order Order) []byte {
	enc, err := settlement.abi.Pack("refund", order)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x173d647e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refund((bytes32,uint256,address,uint256,address,address,address,uint256,uint256,uint64,bytes32,address) order) returns()
func (settlement *Settlement) TryPackRefund(order Order) ([]byte, error) {
	return settlement.abi.Pack("refund", order)
}

// PackRefundDelay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3e602b4c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refundDelay() view returns(uint64)
func (settlement *Settlement) PackRefundDelay() []byte {
	enc, err := settlement.abi.Pack("refundDelay")
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
func (settlement *Settlement) TryPackRefundDelay() ([]byte, error) {
	return settlement.abi.Pack("refundDelay")
}

// UnpackRefundDelay is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3e602b4c.
//
// Solidity: function refundDelay() view returns(uint64)
func (settlement *Settlement) UnpackRefundDelay(data []byte) (uint64, error) {
	out, err := settlement.abi.Unpack("refundDelay", data)
	if err != nil {
		return *new(uint64), err
	}
	out0 := *abi.ConvertType(out[0], new(uint64)).(*uint64)
	return out0, nil
}

// PackResolve is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x41b477dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function resolve((uint32,bytes32,bytes) crossChainOrder) pure returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint64,bytes32,bytes)[]))
func (settlement *Settlement) PackResolve(crossChainOrder OnchainCrossChainOrder) []byte {
	enc, err := settlement.abi.Pack("resolve", crossChainOrder)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackResolve is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x41b477dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function resolve((uint32,bytes32,bytes) crossChainOrder) pure returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint64,bytes32,bytes)[]))
func (settlement *Settlement) TryPackResolve(crossChainOrder OnchainCrossChainOrder) ([]byte, error) {
	return settlement.abi.Pack("resolve", crossChainOrder)
}

// UnpackResolve is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x41b477dd.
//
// Solidity: function resolve((uint32,bytes32,bytes) crossChainOrder) pure returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint64,bytes32,bytes)[]))
func (settlement *Settlement) UnpackResolve(data []byte) (ResolvedCrossChainOrder, error) {
	out, err := settlement.abi.Unpack("resolve", data)
	if err != nil {
		return *new(ResolvedCrossChainOrder), err
	}
	out0 := *abi.ConvertType(out[0], new(ResolvedCrossChainOrder)).(*ResolvedCrossChainOrder)
	return out0, nil
}

// PackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcca51a24.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settle((bytes32,uint256,address,uint256,address,address,address,uint256,uint256,uint64,bytes32,address) order, address filler, uint256 amountOut, bytes signature) returns()
func (settlement *Settlement) PackSettle(order Order, filler common.Address, amountOut *big.Int, signature []byte) []byte {
	enc, err := settlement.abi.Pack("settle", order, filler, amountOut, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcca51a24.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settle((bytes32,uint256,address,uint256,address,address,address,uint256,uint256,uint64,bytes32,address) order, address filler, uint256 amountOut, bytes signature) returns()
func (settlement *Settlement) TryPackSettle(order Order, filler common.Address, amountOut *big.Int, signature []byte) ([]byte, error) {
	return settlement.abi.Pack("settle", order, filler, amountOut, signature)
}

// SettlementEIP712DomainChanged represents a EIP712DomainChanged event raised by the Settlement contract.
type SettlementEIP712DomainChanged struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const SettlementEIP712DomainChangedEventName = "EIP712DomainChanged"

// ContractEventName returns the user-defined event name.
func (SettlementEIP712DomainChanged) ContractEventName() string {
	return SettlementEIP712DomainChangedEventName
}

// UnpackEIP712DomainChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EIP712DomainChanged()
func (settlement *Settlement) UnpackEIP712DomainChangedEvent(log *types.Log) (*SettlementEIP712DomainChanged, error) {
	event := "EIP712DomainChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementEIP712DomainChanged)
	if len(log.Data) > 0 {
		if err := settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlement.abi.Events[event].Inputs {
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

// SettlementFilled represents a Filled event raised by the Settlement contract.
type SettlementFilled struct {
	OrderId   [32]byte
	Filler    common.Address
	Recipient common.Address
	AmountOut *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const SettlementFilledEventName = "Filled"

// ContractEventName returns the user-defined event name.
func (SettlementFilled) ContractEventName() string {
	return SettlementFilledEventName
}

// UnpackFilledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Filled(bytes32 indexed orderId, address indexed filler, address indexed recipient, uint256 amountOut)
func (settlement *Settlement) UnpackFilledEvent(log *types.Log) (*SettlementFilled, error) {
	event := "Filled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementFilled)
	if len(log.Data) > 0 {
		if err := settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlement.abi.Events[event].Inputs {
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

// SettlementOpen represents a Open event raised by the Settlement contract.
type SettlementOpen struct {
	OrderId       [32]byte
	ResolvedOrder ResolvedCrossChainOrder
	Raw           *types.Log // Blockchain specific contextual infos
}

const SettlementOpenEventName = "Open"

// ContractEventName returns the user-defined event name.
func (SettlementOpen) ContractEventName() string {
	return SettlementOpenEventName
}

// UnpackOpenEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Open(bytes32 indexed orderId, (address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint64,bytes32,bytes)[]) resolvedOrder)
func (settlement *Settlement) UnpackOpenEvent(log *types.Log) (*SettlementOpen, error) {
	event := "Open"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementOpen)
	if len(log.Data) > 0 {
		if err := settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlement.abi.Events[event].Inputs {
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

// SettlementOpened represents a Opened event raised by the Settlement contract.
type SettlementOpened struct {
	OrderId [32]byte
	User    common.Address
	Order   Order
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementOpenedEventName = "Opened"

// ContractEventName returns the user-defined event name.
func (SettlementOpened) ContractEventName() string {
	return SettlementOpenedEventName
}

// UnpackOpenedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Opened(bytes32 indexed orderId, address indexed user, (bytes32,uint256,address,uint256,address,address,address,uint256,uint256,uint64,bytes32,address) order)
func (settlement *Settlement) UnpackOpenedEvent(log *types.Log) (*SettlementOpened, error) {
	event := "Opened"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementOpened)
	if len(log.Data) > 0 {
		if err := settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlement.abi.Events[event].Inputs {
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

// SettlementRefunded represents a Refunded event raised by the Settlement contract.
type SettlementRefunded struct {
	OrderId  [32]byte
	User     common.Address
	AmountIn *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const SettlementRefundedEventName = "Refunded"

// ContractEventName returns the user-defined event name.
func (SettlementRefunded) ContractEventName() string {
	return SettlementRefundedEventName
}

// UnpackRefundedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Refunded(bytes32 indexed orderId, address indexed user, uint256 amountIn)
func (settlement *Settlement) UnpackRefundedEvent(log *types.Log) (*SettlementRefunded, error) {
	event := "Refunded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementRefunded)
	if len(log.Data) > 0 {
		if err := settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlement.abi.Events[event].Inputs {
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

// SettlementSettled represents a Settled event raised by the Settlement contract.
type SettlementSettled struct {
	OrderId  [32]byte
	Filler   common.Address
	AmountIn *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const SettlementSettledEventName = "Settled"

// ContractEventName returns the user-defined event name.
func (SettlementSettled) ContractEventName() string {
	return SettlementSettledEventName
}

// UnpackSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Settled(bytes32 indexed orderId, address indexed filler, uint256 amountIn)
func (settlement *Settlement) UnpackSettledEvent(log *types.Log) (*SettlementSettled, error) {
	event := "Settled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementSettled)
	if len(log.Data) > 0 {
		if err := settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlement.abi.Events[event].Inputs {
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
func (settlement *Settlement) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], settlement.abi.Errors["AlreadyFilled"].ID.Bytes()[:4]) {
		return settlement.UnpackAlreadyFilledError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["AlreadyOpened"].ID.Bytes()[:4]) {
		return settlement.UnpackAlreadyOpenedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["BelowMinimum"].ID.Bytes()[:4]) {
		return settlement.UnpackBelowMinimumError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["DeadlineMismatch"].ID.Bytes()[:4]) {
		return settlement.UnpackDeadlineMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["DeadlinePassed"].ID.Bytes()[:4]) {
		return settlement.UnpackDeadlinePassedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["FailedCall"].ID.Bytes()[:4]) {
		return settlement.UnpackFailedCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return settlement.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["InvalidAmount"].ID.Bytes()[:4]) {
		return settlement.UnpackInvalidAmountError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["InvalidAttestation"].ID.Bytes()[:4]) {
		return settlement.UnpackInvalidAttestationError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["InvalidShortString"].ID.Bytes()[:4]) {
		return settlement.UnpackInvalidShortStringError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["MalformedOrder"].ID.Bytes()[:4]) {
		return settlement.UnpackMalformedOrderError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NotOpened"].ID.Bytes()[:4]) {
		return settlement.UnpackNotOpenedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NotOrderOwner"].ID.Bytes()[:4]) {
		return settlement.UnpackNotOrderOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["OrderIdMismatch"].ID.Bytes()[:4]) {
		return settlement.UnpackOrderIdMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["ReentrancyGuardReentrantCall"].ID.Bytes()[:4]) {
		return settlement.UnpackReentrancyGuardReentrantCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["RefundTooEarly"].ID.Bytes()[:4]) {
		return settlement.UnpackRefundTooEarlyError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["SafeERC20FailedOperation"].ID.Bytes()[:4]) {
		return settlement.UnpackSafeERC20FailedOperationError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["StringTooLong"].ID.Bytes()[:4]) {
		return settlement.UnpackStringTooLongError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["TransferShort"].ID.Bytes()[:4]) {
		return settlement.UnpackTransferShortError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongChain"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongChainError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongDestination"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongDestinationError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongOrderDataType"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongOrderDataTypeError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongValue"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongValueError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return settlement.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// SettlementAlreadyFilled represents a AlreadyFilled error raised by the Settlement contract.
type SettlementAlreadyFilled struct {
	OrderId [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AlreadyFilled(bytes32 orderId)
func SettlementAlreadyFilledErrorID() common.Hash {
	return common.HexToHash("0xcee814430f462fa736c124b732c7a9accc7838dc253bc16d5145f53413e56ca1")
}

// UnpackAlreadyFilledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AlreadyFilled(bytes32 orderId)
func (settlement *Settlement) UnpackAlreadyFilledError(raw []byte) (*SettlementAlreadyFilled, error) {
	out := new(SettlementAlreadyFilled)
	if err := settlement.abi.UnpackIntoInterface(out, "AlreadyFilled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementAlreadyOpened represents a AlreadyOpened error raised by the Settlement contract.
type SettlementAlreadyOpened struct {
	OrderId [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AlreadyOpened(bytes32 orderId)
func SettlementAlreadyOpenedErrorID() common.Hash {
	return common.HexToHash("0xde5d1a9fb814a5457662176fefa3fde0727f74136371b78084a406fe4d99087b")
}

// UnpackAlreadyOpenedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AlreadyOpened(bytes32 orderId)
func (settlement *Settlement) UnpackAlreadyOpenedError(raw []byte) (*SettlementAlreadyOpened, error) {
	out := new(SettlementAlreadyOpened)
	if err := settlement.abi.UnpackIntoInterface(out, "AlreadyOpened", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementBelowMinimum represents a BelowMinimum error raised by the Settlement contract.
type SettlementBelowMinimum struct {
	AmountOut    *big.Int
	MinAmountOut *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BelowMinimum(uint256 amountOut, uint256 minAmountOut)
func SettlementBelowMinimumErrorID() common.Hash {
	return common.HexToHash("0xbd49034f17bd8cd8171b39a2bec57ff9a2e5a06c580d5777f88b290bee56cf1a")
}

// UnpackBelowMinimumError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BelowMinimum(uint256 amountOut, uint256 minAmountOut)
func (settlement *Settlement) UnpackBelowMinimumError(raw []byte) (*SettlementBelowMinimum, error) {
	out := new(SettlementBelowMinimum)
	if err := settlement.abi.UnpackIntoInterface(out, "BelowMinimum", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementDeadlineMismatch represents a DeadlineMismatch error raised by the Settlement contract.
type SettlementDeadlineMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DeadlineMismatch()
func SettlementDeadlineMismatchErrorID() common.Hash {
	return common.HexToHash("0xc09e8daadbb951d5e87cab3e50dc2f7b0ba06100259144a1ef6681d3bc33b624")
}

// UnpackDeadlineMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DeadlineMismatch()
func (settlement *Settlement) UnpackDeadlineMismatchError(raw []byte) (*SettlementDeadlineMismatch, error) {
	out := new(SettlementDeadlineMismatch)
	if err := settlement.abi.UnpackIntoInterface(out, "DeadlineMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementDeadlinePassed represents a DeadlinePassed error raised by the Settlement contract.
type SettlementDeadlinePassed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DeadlinePassed()
func SettlementDeadlinePassedErrorID() common.Hash {
	return common.HexToHash("0x70f65caac7c09036bde4bbed5e995a002d66fa61e6f109973be165cfef0a86ce")
}

// UnpackDeadlinePassedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DeadlinePassed()
func (settlement *Settlement) UnpackDeadlinePassedError(raw []byte) (*SettlementDeadlinePassed, error) {
	out := new(SettlementDeadlinePassed)
	if err := settlement.abi.UnpackIntoInterface(out, "DeadlinePassed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementFailedCall represents a FailedCall error raised by the Settlement contract.
type SettlementFailedCall struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FailedCall()
func SettlementFailedCallErrorID() common.Hash {
	return common.HexToHash("0xd6bda27508c0fb6d8a39b4b122878dab26f731a7d4e4abe711dd3731899052a4")
}

// UnpackFailedCallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FailedCall()
func (settlement *Settlement) UnpackFailedCallError(raw []byte) (*SettlementFailedCall, error) {
	out := new(SettlementFailedCall)
	if err := settlement.abi.UnpackIntoInterface(out, "FailedCall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementInsufficientBalance represents a InsufficientBalance error raised by the Settlement contract.
type SettlementInsufficientBalance struct {
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(uint256 balance, uint256 needed)
func SettlementInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcf4791818fba6e019216eb4864093b4947f674afada5d305e57d598b641dad1d")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(uint256 balance, uint256 needed)
func (settlement *Settlement) UnpackInsufficientBalanceError(raw []byte) (*SettlementInsufficientBalance, error) {
	out := new(SettlementInsufficientBalance)
	if err := settlement.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementInvalidAmount represents a InvalidAmount error raised by the Settlement contract.
type SettlementInvalidAmount struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAmount()
func SettlementInvalidAmountErrorID() common.Hash {
	return common.HexToHash("0x2c5211c6cb73b16841677a034781e8336d18ce66df858e54153c86854e11f7b8")
}

// UnpackInvalidAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAmount()
func (settlement *Settlement) UnpackInvalidAmountError(raw []byte) (*SettlementInvalidAmount, error) {
	out := new(SettlementInvalidAmount)
	if err := settlement.abi.UnpackIntoInterface(out, "InvalidAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementInvalidAttestation represents a InvalidAttestation error raised by the Settlement contract.
type SettlementInvalidAttestation struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAttestation()
func SettlementInvalidAttestationErrorID() common.Hash {
	return common.HexToHash("0xbd8ba84d4af301e1b110d1f93f8971934a3ba3afdf4200e7f884f76f2dd27077")
}

// UnpackInvalidAttestationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAttestation()
func (settlement *Settlement) UnpackInvalidAttestationError(raw []byte) (*SettlementInvalidAttestation, error) {
	out := new(SettlementInvalidAttestation)
	if err := settlement.abi.UnpackIntoInterface(out, "InvalidAttestation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementInvalidShortString represents a InvalidShortString error raised by the Settlement contract.
type SettlementInvalidShortString struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidShortString()
func SettlementInvalidShortStringErrorID() common.Hash {
	return common.HexToHash("0xb3512b0c6163e5f0bafab72bb631b9d58cd7a731b082f910338aa21c83d5c274")
}

// UnpackInvalidShortStringError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidShortString()
func (settlement *Settlement) UnpackInvalidShortStringError(raw []byte) (*SettlementInvalidShortString, error) {
	out := new(SettlementInvalidShortString)
	if err := settlement.abi.UnpackIntoInterface(out, "InvalidShortString", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementMalformedOrder represents a MalformedOrder error raised by the Settlement contract.
type SettlementMalformedOrder struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error MalformedOrder()
func SettlementMalformedOrderErrorID() common.Hash {
	return common.HexToHash("0xc5ee6ddedc8970595372512f05e45b9677836f4cc388a6516bf41f64d3e97f65")
}

// UnpackMalformedOrderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error MalformedOrder()
func (settlement *Settlement) UnpackMalformedOrderError(raw []byte) (*SettlementMalformedOrder, error) {
	out := new(SettlementMalformedOrder)
	if err := settlement.abi.UnpackIntoInterface(out, "MalformedOrder", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementNotOpened represents a NotOpened error raised by the Settlement contract.
type SettlementNotOpened struct {
	OrderId [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOpened(bytes32 orderId)
func SettlementNotOpenedErrorID() common.Hash {
	return common.HexToHash("0x0e5ea0ab4c5ec326798ad7fc5380f1fbfb7cd6c86b300529eadb7d83d854093a")
}

// UnpackNotOpenedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOpened(bytes32 orderId)
func (settlement *Settlement) UnpackNotOpenedError(raw []byte) (*SettlementNotOpened, error) {
	out := new(SettlementNotOpened)
	if err := settlement.abi.UnpackIntoInterface(out, "NotOpened", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementNotOrderOwner represents a NotOrderOwner error raised by the Settlement contract.
type SettlementNotOrderOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOrderOwner()
func SettlementNotOrderOwnerErrorID() common.Hash {
	return common.HexToHash("0xf6412b5a9f98f861af79c1937e4ad40c98a45a023657259dd5775a8de7ecca15")
}

// UnpackNotOrderOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOrderOwner()
func (settlement *Settlement) UnpackNotOrderOwnerError(raw []byte) (*SettlementNotOrderOwner, error) {
	out := new(SettlementNotOrderOwner)
	if err := settlement.abi.UnpackIntoInterface(out, "NotOrderOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementOrderIdMismatch represents a OrderIdMismatch error raised by the Settlement contract.
type SettlementOrderIdMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OrderIdMismatch()
func SettlementOrderIdMismatchErrorID() common.Hash {
	return common.HexToHash("0x71fa8de67f8b035f7b647283dc16685cc6d969a5a86d8bfa7f96354717af67cd")
}

// UnpackOrderIdMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OrderIdMismatch()
func (settlement *Settlement) UnpackOrderIdMismatchError(raw []byte) (*SettlementOrderIdMismatch, error) {
	out := new(SettlementOrderIdMismatch)
	if err := settlement.abi.UnpackIntoInterface(out, "OrderIdMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementReentrancyGuardReentrantCall represents a ReentrancyGuardReentrantCall error raised by the Settlement contract.
type SettlementReentrancyGuardReentrantCall struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ReentrancyGuardReentrantCall()
func SettlementReentrancyGuardReentrantCallErrorID() common.Hash {
	return common.HexToHash("0x3ee5aeb571de7fc460830b4d0017439a1ca56fb0bc39062227ade4fe4a24c1ca")
}

// UnpackReentrancyGuardReentrantCallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ReentrancyGuardReentrantCall()
func (settlement *Settlement) UnpackReentrancyGuardReentrantCallError(raw []byte) (*SettlementReentrancyGuardReentrantCall, error) {
	out := new(SettlementReentrancyGuardReentrantCall)
	if err := settlement.abi.UnpackIntoInterface(out, "ReentrancyGuardReentrantCall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementRefundTooEarly represents a RefundTooEarly error raised by the Settlement contract.
type SettlementRefundTooEarly struct {
	RefundableAt *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error RefundTooEarly(uint256 refundableAt)
func SettlementRefundTooEarlyErrorID() common.Hash {
	return common.HexToHash("0xc97053b166a966452daf62f5e98b978b51178f53b317d6c0c57b4ac5ffb7a5f4")
}

// UnpackRefundTooEarlyError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error RefundTooEarly(uint256 refundableAt)
func (settlement *Settlement) UnpackRefundTooEarlyError(raw []byte) (*SettlementRefundTooEarly, error) {
	out := new(SettlementRefundTooEarly)
	if err := settlement.abi.UnpackIntoInterface(out, "RefundTooEarly", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementSafeERC20FailedOperation represents a SafeERC20FailedOperation error raised by the Settlement contract.
type SettlementSafeERC20FailedOperation struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SafeERC20FailedOperation(address token)
func SettlementSafeERC20FailedOperationErrorID() common.Hash {
	return common.HexToHash("0x5274afe73c98b4749fc91ffae6b7b574e7842cb2144a159e9377a5f20b32edf9")
}

// UnpackSafeERC20FailedOperationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SafeERC20FailedOperation(address token)
func (settlement *Settlement) UnpackSafeERC20FailedOperationError(raw []byte) (*SettlementSafeERC20FailedOperation, error) {
	out := new(SettlementSafeERC20FailedOperation)
	if err := settlement.abi.UnpackIntoInterface(out, "SafeERC20FailedOperation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementStringTooLong represents a StringTooLong error raised by the Settlement contract.
type SettlementStringTooLong struct {
	Str string
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error StringTooLong(string str)
func SettlementStringTooLongErrorID() common.Hash {
	return common.HexToHash("0x305a27a93f8e33b7392df0a0f91d6fc63847395853c45991eec52dbf24d72381")
}

// UnpackStringTooLongError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error StringTooLong(string str)
func (settlement *Settlement) UnpackStringTooLongError(raw []byte) (*SettlementStringTooLong, error) {
	out := new(SettlementStringTooLong)
	if err := settlement.abi.UnpackIntoInterface(out, "StringTooLong", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementTransferShort represents a TransferShort error raised by the Settlement contract.
type SettlementTransferShort struct {
	Received *big.Int
	Expected *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TransferShort(uint256 received, uint256 expected)
func SettlementTransferShortErrorID() common.Hash {
	return common.HexToHash("0x2e847cbc7e92cfa2ace51712ff49c812a43c8274fc16fa6851141be67c00766d")
}

// UnpackTransferShortError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TransferShort(uint256 received, uint256 expected)
func (settlement *Settlement) UnpackTransferShortError(raw []byte) (*SettlementTransferShort, error) {
	out := new(SettlementTransferShort)
	if err := settlement.abi.UnpackIntoInterface(out, "TransferShort", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementWrongChain represents a WrongChain error raised by the Settlement contract.
type SettlementWrongChain struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongChain()
func SettlementWrongChainErrorID() common.Hash {
	return common.HexToHash("0x10dfc0335c19295c382cb53aae6de08649b5ae251dfaadd00512a35c8db090ed")
}

// UnpackWrongChainError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongChain()
func (settlement *Settlement) UnpackWrongChainError(raw []byte) (*SettlementWrongChain, error) {
	out := new(SettlementWrongChain)
	if err := settlement.abi.UnpackIntoInterface(out, "WrongChain", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementWrongDestination represents a WrongDestination error raised by the Settlement contract.
type SettlementWrongDestination struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongDestination()
func SettlementWrongDestinationErrorID() common.Hash {
	return common.HexToHash("0xef94f60c762ece22c56ef7b31f330129c1366741a790c267ea8084fe2988d0cd")
}

// UnpackWrongDestinationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongDestination()
func (settlement *Settlement) UnpackWrongDestinationError(raw []byte) (*SettlementWrongDestination, error) {
	out := new(SettlementWrongDestination)
	if err := settlement.abi.UnpackIntoInterface(out, "WrongDestination", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementWrongOrderDataType represents a WrongOrderDataType error raised by the Settlement contract.
type SettlementWrongOrderDataType struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongOrderDataType()
func SettlementWrongOrderDataTypeErrorID() common.Hash {
	return common.HexToHash("0x76d712a617c49115dda895432b76e04ed2de05ccabf8ba776a9b212bf8830117")
}

// UnpackWrongOrderDataTypeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongOrderDataType()
func (settlement *Settlement) UnpackWrongOrderDataTypeError(raw []byte) (*SettlementWrongOrderDataType, error) {
	out := new(SettlementWrongOrderDataType)
	if err := settlement.abi.UnpackIntoInterface(out, "WrongOrderDataType", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementWrongValue represents a WrongValue error raised by the Settlement contract.
type SettlementWrongValue struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongValue()
func SettlementWrongValueErrorID() common.Hash {
	return common.HexToHash("0x98d4901c0f97ff4fb4b12f6efe3f7d66c362a06e0786d79de1d138f816754bcd")
}

// UnpackWrongValueError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongValue()
func (settlement *Settlement) UnpackWrongValueError(raw []byte) (*SettlementWrongValue, error) {
	out := new(SettlementWrongValue)
	if err := settlement.abi.UnpackIntoInterface(out, "WrongValue", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementZeroAddress represents a ZeroAddress error raised by the Settlement contract.
type SettlementZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func SettlementZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (settlement *Settlement) UnpackZeroAddressError(raw []byte) (*SettlementZeroAddress, error) {
	out := new(SettlementZeroAddress)
	if err := settlement.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
