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
	DestinationChainId *big.Int
	DestinationSettler [32]byte
	OriginData         []byte
}

// GaslessCrossChainOrder is an auto generated low-level Go binding around an user-defined struct.
type GaslessCrossChainOrder struct {
	OriginSettler common.Address
	User          common.Address
	Nonce         *big.Int
	OriginChainId *big.Int
	OpenDeadline  uint32
	FillDeadline  uint32
	OrderDataType [32]byte
	OrderData     []byte
}

// OnchainCrossChainOrder is an auto generated low-level Go binding around an user-defined struct.
type OnchainCrossChainOrder struct {
	FillDeadline  uint32
	OrderDataType [32]byte
	OrderData     []byte
}

// Order is an auto generated low-level Go binding around an user-defined struct.
type Order struct {
	Account                [32]byte
	OriginSettler          common.Address
	OriginChainId          *big.Int
	User                   common.Address
	DestinationChainId     *big.Int
	Recipient              common.Address
	TokenIn                common.Address
	TokenOut               common.Address
	AmountIn               *big.Int
	StartAmountOut         *big.Int
	MinAmountOut           *big.Int
	DecayStart             uint64
	DecayEnd               uint64
	ExclusiveFiller        common.Address
	ExclusivityDeadline    uint64
	ExclusivityOverrideBps *big.Int
	FeeAmount              *big.Int
	FeeRecipient           common.Address
	NativeDropAmount       *big.Int
	Deadline               uint64
	Nonce                  [32]byte
	DestinationSettler     common.Address
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
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"attester_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"guardian_\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"refundDelay_\",\"type\":\"uint64\"},{\"internalType\":\"address\",\"name\":\"permit2_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"AlreadyFilled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"AlreadyOpened\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"}],\"name\":\"BelowMinimum\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DeadlineMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DeadlinePassed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DecayInverted\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"EnforcedPause\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ExpectedPause\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FailedCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"feeAmount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"FeeTooHigh\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FillerDataNotAccepted\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"GuardianIsAttester\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidAttestation\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidShortString\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"MalformedOrder\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NativeNotGasless\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"exclusiveFiller\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"exclusivityDeadline\",\"type\":\"uint256\"}],\"name\":\"NoExclusiveOverride\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NoFeeRecipient\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NonceMismatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"NotOpened\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOrderOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OpenDeadlineAfterFill\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OpenDeadlinePassed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OrderIdMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ReentrancyGuardReentrantCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint64\",\"name\":\"refundDelay\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"minimum\",\"type\":\"uint64\"}],\"name\":\"RefundDelayTooShort\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"refundableAt\",\"type\":\"uint256\"}],\"name\":\"RefundTooEarly\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"str\",\"type\":\"string\"}],\"name\":\"StringTooLong\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"SwapSettlesByFill\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"received\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expected\",\"type\":\"uint256\"}],\"name\":\"TransferShort\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongChain\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongDestination\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongOrderDataType\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongOriginSettler\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongUser\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WrongValue\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"AllRefundsAllowed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"EIP712DomainChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"FeePaid\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"Filled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"maxSpent\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"minReceived\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"destinationSettler\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"}],\"internalType\":\"structFillInstruction[]\",\"name\":\"fillInstructions\",\"type\":\"tuple[]\"}],\"indexed\":false,\"internalType\":\"structResolvedCrossChainOrder\",\"name\":\"resolvedOrder\",\"type\":\"tuple\"}],\"name\":\"Open\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"startAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"decayStart\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"decayEnd\",\"type\":\"uint64\"},{\"internalType\":\"address\",\"name\":\"exclusiveFiller\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"exclusivityDeadline\",\"type\":\"uint64\"},{\"internalType\":\"uint256\",\"name\":\"exclusivityOverrideBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"feeAmount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeRecipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nativeDropAmount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"indexed\":false,\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"Opened\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"RefundAllowed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"Refunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"Settled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Unpaused\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"FILL_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"GASLESS_ORDER_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"GUARDIAN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MIN_REFUND_DELAY\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"NATIVE\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"ORDER_DATA_TYPE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPE_STRING\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"allRefundsAllowed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"allowAllRefunds\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"allowRefund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"startAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"decayStart\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"decayEnd\",\"type\":\"uint64\"},{\"internalType\":\"address\",\"name\":\"exclusiveFiller\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"exclusivityDeadline\",\"type\":\"uint64\"},{\"internalType\":\"uint256\",\"name\":\"exclusivityOverrideBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"feeAmount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeRecipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nativeDropAmount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"}],\"name\":\"amountOwed\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"attester\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"eip712Domain\",\"outputs\":[{\"internalType\":\"bytes1\",\"name\":\"fields\",\"type\":\"bytes1\"},{\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"version\",\"type\":\"string\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"verifyingContract\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"uint256[]\",\"name\":\"extensions\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"fillerData\",\"type\":\"bytes\"}],\"name\":\"fill\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"fillDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"fills\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structGaslessCrossChainOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"gaslessOrderHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structOnchainCrossChainOrder\",\"name\":\"crossChainOrder\",\"type\":\"tuple\"}],\"name\":\"open\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structGaslessCrossChainOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"originFillerData\",\"type\":\"bytes\"}],\"name\":\"openFor\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"orders\",\"outputs\":[{\"internalType\":\"enumSettlement.Status\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"permit2\",\"outputs\":[{\"internalType\":\"contractISignatureTransfer\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"startAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"decayStart\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"decayEnd\",\"type\":\"uint64\"},{\"internalType\":\"address\",\"name\":\"exclusiveFiller\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"exclusivityDeadline\",\"type\":\"uint64\"},{\"internalType\":\"uint256\",\"name\":\"exclusivityOverrideBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"feeAmount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeRecipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nativeDropAmount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"}],\"name\":\"refundAllowed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"refundDelay\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structOnchainCrossChainOrder\",\"name\":\"crossChainOrder\",\"type\":\"tuple\"}],\"name\":\"resolve\",\"outputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"maxSpent\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"minReceived\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"destinationSettler\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"}],\"internalType\":\"structFillInstruction[]\",\"name\":\"fillInstructions\",\"type\":\"tuple[]\"}],\"internalType\":\"structResolvedCrossChainOrder\",\"name\":\"\",\"type\":\"tuple\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderDataType\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"orderData\",\"type\":\"bytes\"}],\"internalType\":\"structGaslessCrossChainOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"originFillerData\",\"type\":\"bytes\"}],\"name\":\"resolveFor\",\"outputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"openDeadline\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"fillDeadline\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"orderId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"maxSpent\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"token\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"recipient\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"}],\"internalType\":\"structOutput[]\",\"name\":\"minReceived\",\"type\":\"tuple[]\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"destinationSettler\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"originData\",\"type\":\"bytes\"}],\"internalType\":\"structFillInstruction[]\",\"name\":\"fillInstructions\",\"type\":\"tuple[]\"}],\"internalType\":\"structResolvedCrossChainOrder\",\"name\":\"\",\"type\":\"tuple\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"bytes32\",\"name\":\"account\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"originSettler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"originChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"destinationChainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"startAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"decayStart\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"decayEnd\",\"type\":\"uint64\"},{\"internalType\":\"address\",\"name\":\"exclusiveFiller\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"exclusivityDeadline\",\"type\":\"uint64\"},{\"internalType\":\"uint256\",\"name\":\"exclusivityOverrideBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"feeAmount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeRecipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nativeDropAmount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"deadline\",\"type\":\"uint64\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"destinationSettler\",\"type\":\"address\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"filler\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unpause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "Settlement",
	Bin: "0x6101c0604052348015610010575f5ffd5b506040516144d63803806144d683398101604081905261002f9161038f565b6040518060400160405280601881526020017f5472616e73666572496e74656e74536574746c656d656e740000000000000000815250604051806040016040528060018152602001603160f81b815250600161009561009261026660201b60201c565b90565b5561009f8261028a565b610120526100ac8161028a565b61014052815160208084019190912060e052815190820120610100524660a05261013860e05161010051604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201529081019290925260608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b60805250503060c0526001600160a01b038416158061015e57506001600160a01b038316155b8061017057506001600160a01b038116155b1561018e5760405163d92e233d60e01b815260040160405180910390fd5b836001600160a01b0316836001600160a01b0316036101c05760405163a47d97f160e01b815260040160405180910390fd5b610e106001600160401b0383161015610204576040516303f92a4d60e01b81526001600160401b0383166004820152610e1060248201526044015b60405180910390fd5b6001600160a01b03808516610160526001600160401b0383166101805281166101a0526102315f846102c7565b5061025c7f55435dd261a4b9b3364963f7738a7a662ad9c84396d64be3365284bb7f0a5041846102c7565b5050505050610449565b7f9b779b17422d0df92223018b32b4d1fa46e071723d6817e2486d003becc55f0090565b5f5f829050601f815111156102b4578260405163305a27a960e01b81526004016101fb91906103ee565b80516102bf82610423565b179392505050565b5f8281526002602090815260408083206001600160a01b038516845290915281205460ff1661036b575f8381526002602090815260408083206001600160a01b03861684529091529020805460ff191660011790556103233390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161036e565b505f5b92915050565b80516001600160a01b038116811461038a575f5ffd5b919050565b5f5f5f5f608085870312156103a2575f5ffd5b6103ab85610374565b93506103b960208601610374565b60408601519093506001600160401b03811681146103d5575f5ffd5b91506103e360608601610374565b905092959194509250565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80516020808301519190811015610443575f198160200360031b1b821691505b50919050565b60805160a05160c05160e05161010051610120516101405161016051610180516101a0516140096104cd5f395f818161025b015261116601525f8181610458015261086f01525f81816104eb0152610c0601525f6124a801525f61247801525f6128d301525f6128ab01525f61280601525f61283001525f61285a01526140095ff3fe608060405260043610610212575f3560e01c80635c975abb1161011e5780639c3f1e90116100a8578063cb6fa78e1161006d578063cb6fa78e14610701578063d547741f14610720578063e917a9621461073f578063f2ba764b14610752578063f37f713914610772575f5ffd5b80639c3f1e9014610654578063a0cf0aea1461068f578063a217fddf146106b6578063af8de6f6146106c9578063c5ee9d0c146106e8575f5ffd5b8063844fac8e116100ee578063844fac8e146105a85780638456cb59146105c757806384b0196e146105db57806391d148541461060257806399a12ead14610621575f5ffd5b80635c975abb146105405780636ba2776c146105575780637b28ef6b1461057657806382e2c43f14610595575f5ffd5b80632f2ff15d1161019f5780633f4ba83a1161016f5780633f4ba83a1461049257806341b477dd146104a6578063425ce5f9146104c557806347b0c3b3146104da57806355a4f8d21461050d575f5ffd5b80632f2ff15d146103ea578063348206f31461040957806336568abe146104285780633e602b4c14610447575f5ffd5b806320158c44116101e557806320158c44146102d757806322bcd51a14610334578063248a9ca31461036057806324ea54f41461039c5780632aa35ac1146103bc575f5ffd5b806301ffc9a71461021657806312261ee71461024a578063156e21521461029557806318a4c721146102b6575b5f5ffd5b348015610221575f5ffd5b50610235610230366004612f50565b610791565b60405190151581526020015b60405180910390f35b348015610255575f5ffd5b5061027d7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610241565b3480156102a0575f5ffd5b506102a96107c7565b6040516102419190612fa5565b3480156102c1575f5ffd5b506102d56102d0366004612fce565b6107e6565b005b3480156102e2575f5ffd5b506103156102f1366004612fe9565b60056020525f9081526040902080546001909101546001600160a01b039091169082565b604080516001600160a01b039093168352602083019190915201610241565b34801561033f575f5ffd5b5061035361034e366004613055565b6109bd565b6040516102419190613197565b34801561036b575f5ffd5b5061038e61037a366004612fe9565b5f9081526002602052604090206001015490565b604051908152602001610241565b3480156103a7575f5ffd5b5061038e5f516020613fb45f395f51905f5281565b3480156103c7575f5ffd5b506102356103d6366004612fe9565b60066020525f908152604090205460ff1681565b3480156103f5575f5ffd5b506102d5610404366004613266565b610a2b565b348015610414575f5ffd5b506102d5610423366004613294565b610a55565b348015610433575f5ffd5b506102d5610442366004613266565b610ca7565b348015610452575f5ffd5b5061047a7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160401b039091168152602001610241565b34801561049d575f5ffd5b506102d5610cdf565b3480156104b1575f5ffd5b506103536104c0366004613304565b610cfe565b3480156104d0575f5ffd5b5061047a610e1081565b3480156104e5575f5ffd5b5061027d7f000000000000000000000000000000000000000000000000000000000000000081565b348015610518575f5ffd5b5061038e7f2537ba76a3f20719927fd3fc3cf67ea5a5c7badeb5eb8635e7f5f23602aec23b81565b34801561054b575f5ffd5b5060035460ff16610235565b348015610562575f5ffd5b506102d561057136600461333a565b610d64565b348015610581575f5ffd5b5061038e610590366004613359565b610dc3565b6102d56105a3366004613386565b610ddc565b3480156105b3575f5ffd5b506102d56105c23660046133e0565b6110ac565b3480156105d2575f5ffd5b506102d5611357565b3480156105e6575f5ffd5b506105ef611376565b6040516102419796959493929190613430565b34801561060d575f5ffd5b5061023561061c366004613266565b6113b8565b34801561062c575f5ffd5b5061038e7f86b60074679969e60f0a9a1ef9627d911b8a3163e1660ee50be07967a628c3a581565b34801561065f575f5ffd5b5061068261066e366004612fe9565b60046020525f908152604090205460ff1681565b60405161024191906134da565b34801561069a575f5ffd5b5061027d73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee81565b3480156106c1575f5ffd5b5061038e5f81565b3480156106d4575f5ffd5b5061038e6106e3366004613500565b6113e2565b3480156106f3575f5ffd5b506007546102359060ff1681565b34801561070c575f5ffd5b506102d561071b366004612fe9565b61143e565b34801561072b575f5ffd5b506102d561073a366004613266565b611498565b6102d561074d366004613304565b6114bc565b34801561075d575f5ffd5b5061038e5f516020613cb45f395f51905f5281565b34801561077d575f5ffd5b5061038e61078c366004613535565b6115c8565b5f6001600160e01b03198216637965db0b60e01b14806107c157506301ffc9a760e01b6001600160e01b03198316145b92915050565b604051806102e001604052806102c08152602001613cd46102c0913981565b6107ee6115e2565b5f81604051602001610800919061357c565b60408051601f198184030181529190528051602090910120905060015f8281526004602052604090205460ff16600381111561083e5761083e6134c6565b1461086457604051630e5ea0ab60e01b8152600481018290526024015b60405180910390fd5b5f6001600160401b037f0000000000000000000000000000000000000000000000000000000000000000166108a161028085016102608601613734565b6001600160401b03166108b49190613761565b90508042111580156108c9575060075460ff16155b80156108e357505f8281526006602052604090205460ff16155b156109045760405163c97053b160e01b81526004810182905260240161085b565b5f828152600460205260409020805460ff1916600317905561094a61092f60e0850160c08601613774565b61093f6080860160608701613774565b8561010001356115fd565b61095a6080840160608501613774565b6001600160a01b0316827ff552ca82e113ac3c539c3d617f29fcd19c172a0c75dad017555c9e109f7fe18385610100013560405161099a91815260200190565b60405180910390a350506109ba60015f516020613f945f395f51905f5255565b50565b6109c5612e48565b81156109e457604051635926de1d60e11b815260040160405180910390fd5b5f6109ee85611640565b9050610a208182604051602001610a05919061394c565b6040516020818303038152906040528051906020012061186e565b9150505b9392505050565b5f82815260026020526040902060010154610a4581611b9c565b610a4f8383611ba6565b50505050565b610a5d6115e2565b610a65611c37565b5f85604051602001610a77919061357c565b60405160208183030381529060405280519060200120905046866080013503610ab35760405163653df20560e11b815260040160405180910390fd5b60015f8281526004602052604090205460ff166003811115610ad757610ad76134c6565b14610af857604051630e5ea0ab60e01b81526004810182905260240161085b565b856101400135841015610b2c5760405163bd49034f60e01b815260048101859052610140870135602482015260440161085b565b6001600160a01b038516610b535760405163d92e233d60e01b815260040160405180910390fd5b604080517f2537ba76a3f20719927fd3fc3cf67ea5a5c7badeb5eb8635e7f5f23602aec23b60208201529081018290526001600160a01b0386166060820152608081018590525f90610bbe9060a0015b60405160208183030381529060405280519060200120611c5d565b90505f610c008286868080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250611c8992505050565b505090507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316816001600160a01b031614610c565760405163bd8ba84d60e01b815260040160405180910390fd5b5f838152600460205260409020805460ff19166002179055610c8783610c81368b90038b018b6139a4565b89611cd2565b505050610ca060015f516020613f945f395f51905f5255565b5050505050565b6001600160a01b0381163314610cd05760405163334bd91960e11b815260040160405180910390fd5b610cda8282611dcc565b505050565b5f516020613fb45f395f51905f52610cf681611b9c565b6109ba611e37565b610d06612e48565b5f516020613cb45f395f51905f52826020013514610d3757604051633b6b895360e11b815260040160405180910390fd5b5f610d4d610d486040850185613b05565b611e89565b9050610a248182604051602001610a05919061394c565b5f516020613fb45f395f51905f52610d7b81611b9c565b6007805460ff19168315159081179091556040519081527f5a53b8207335ef86077d2a8389f53e5a9876535a91e52ef7551a0ac56b11569e9060200160405180910390a15050565b5f610a24610dd6368590038501856139a4565b83611ebf565b610de46115e2565b610dec611c37565b5f610df78585611e89565b90508581604051602001610e0b919061394c565b6040516020818303038152906040528051906020012014610e3f576040516338fd46f360e11b815260040160405180910390fd5b468160800151141580610e6057506102a08101516001600160a01b03163014155b15610e7e57604051633be53d8360e21b815260040160405180910390fd5b8061026001516001600160401b0316421115610ead5760405163387b2e5560e11b815260040160405180910390fd5b60408214610ece576040516362f736ef60e11b815260040160405180910390fd5b5f80610edc84860186613266565b90925090506001600160a01b038116610ef25750335b5f610efc84611f1c565b905080831015610f295760405163bd49034f60e01b8152600481018490526024810182905260440161085b565b5f898152600560205260409020546001600160a01b031615610f615760405163cee8144360e01b8152600481018a905260240161085b565b604084015146148015610fcc5760015f8b81526004602052604090205460ff166003811115610f9257610f926134c6565b14610fb357604051630e5ea0ab60e01b8152600481018b905260240161085b565b5f8a8152600460205260409020805460ff191660021790555b6040805180820182526001600160a01b03858116825260208083018881525f8f81526005909252939020915182546001600160a01b0319169116178155905160019091015560e085015160a086015161024087015161102e9291908790611f27565b8460a001516001600160a01b0316836001600160a01b03168b7ff34b46d162bfdb332240cb89a10794aa192f907552f0a3ec8d94fa18399ecec48760405161107891815260200190565b60405180910390a48015611091576110918a8685611cd2565b5050505050610ca060015f516020613f945f395f51905f5255565b6110b46115e2565b6110bc611c37565b80156110db57604051635926de1d60e11b815260040160405180910390fd5b5f6110e586611640565b90505f6110f1826120b6565b60c08301516040516370a0823160e01b81523060048201529192505f916001600160a01b03909116906370a0823190602401602060405180830381865afa15801561113e573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906111629190613b47565b90507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b031663137c29fe604051806060016040528060405180604001604052808860c001516001600160a01b0316815260200188610100015181525081526020018b6040013581526020018b60800160208101906111e79190613b5e565b63ffffffff16905260408051808201909152308152610100870151602082015260608701516112168d89612290565b604051806102e001604052806102c08152602001613cd46102c091398d8d6040518863ffffffff1660e01b81526004016112569796959493929190613b81565b5f604051808303815f87803b15801561126d575f5ffd5b505af115801561127f573d5f5f3e3d5ffd5b50505060c08401516040516370a0823160e01b81523060048201525f925083916001600160a01b0316906370a0823190602401602060405180830381865afa1580156112cd573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906112f19190613b47565b6112fb9190613c36565b9050836101000151811461133357610100840151604051630ba11f2f60e21b815261085b918391600401918252602082015260400190565b61133d83856123a9565b50505050610ca060015f516020613f945f395f51905f5255565b5f516020613fb45f395f51905f5261136e81611b9c565b6109ba612434565b5f6060805f5f5f6060611387612471565b61138f6124a1565b604080515f80825260208201909252600f60f81b9b939a50919850469750309650945092509050565b5f9182526002602090815260408084206001600160a01b0393909316845291905290205460ff1690565b604080517f2537ba76a3f20719927fd3fc3cf67ea5a5c7badeb5eb8635e7f5f23602aec23b60208201529081018490526001600160a01b0383166060820152608081018290525f906114369060a001610ba3565b949350505050565b5f516020613fb45f395f51905f5261145581611b9c565b5f82815260066020526040808220805460ff191660011790555183917f15ce9cf12dd8e1bd97cd077c33b1257603bc2b31be1f8b73ec2efccd2e186dcb91a25050565b5f828152600260205260409020600101546114b281611b9c565b610a4f8383611dcc565b6114c46115e2565b6114cc611c37565b5f516020613cb45f395f51905f528160200135146114fd57604051633b6b895360e11b815260040160405180910390fd5b5f61150e610d486040840184613b05565b9050611519816124cc565b60608101516001600160a01b0316331461154657604051637b2095ad60e11b815260040160405180910390fd5b6102608101516001600160401b03166115626020840184613b5e565b63ffffffff16146115865760405163604f46d560e11b815260040160405180910390fd5b5f611590826120b6565b90506115a68260c001513384610100015161251d565b6115b081836123a9565b50506109ba60015f516020613f945f395f51905f5255565b5f6107c1826115dd610d4860e0830183613b05565b612290565b6115ea6126a0565b60025f516020613f945f395f51905f5255565b73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeed196001600160a01b0384160161162c57610cda82826126cf565b610cda6001600160a01b0384168383612746565b611648612e9d565b5f516020613cb45f395f51905f528260c001351461167957604051633b6b895360e11b815260040160405180910390fd5b611689610d4860e0840184613b05565b9050611694816124cc565b306116a26020840184613774565b6001600160a01b0316146116c9576040516310fd5ba160e21b815260040160405180910390fd5b468260600135146116ed576040516310dfc03360e01b815260040160405180910390fd5b60608101516001600160a01b031661170b6040840160208501613774565b6001600160a01b031614611732576040516379e88b3b60e01b815260040160405180910390fd5b61028081015160408301351461175b5760405163e112ed9160e01b815260040160405180910390fd5b6102608101516001600160401b031661177a60c0840160a08501613b5e565b63ffffffff161461179e5760405163604f46d560e11b815260040160405180910390fd5b6117ae60c0830160a08401613b5e565b63ffffffff166117c460a0840160808501613b5e565b63ffffffff1611156117e957604051631e9d3d1560e31b815260040160405180910390fd5b6117f960a0830160808401613b5e565b63ffffffff1642111561181f576040516307c7fd8560e31b815260040160405180910390fd5b73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee6001600160a01b03168160c001516001600160a01b0316036118695760405163769df70760e01b815260040160405180910390fd5b919050565b611876612e48565b6060808401516001600160a01b0316825260408085015160208401526102608501805163ffffffff90811692850192909252511690820152608081018290526102408301511515806118c95760016118cc565b60025b60ff166001600160401b038111156118e6576118e661395b565b60405190808252806020026020018201604052801561193e57816020015b61192b60405180608001604052805f81526020015f81526020015f81526020015f81525090565b8152602001906001900390816119045790505b508260a00181905250604051806080016040528061195f8660e0015161277b565b815260200185610120015181526020016119838660a001516001600160a01b031690565b815260200185608001518152508260a001515f815181106119a6576119a6613c49565b60200260200101819052508015611a195760405180608001604052805f5f1b815260200185610240015181526020016119e98660a001516001600160a01b031690565b815260200185608001518152508260a00151600181518110611a0d57611a0d613c49565b60200260200101819052505b60408051600180825281830190925290816020015b611a5560405180608001604052805f81526020015f81526020015f81526020015f81525090565b815260200190600190039081611a2e579050508260c001819052506040518060800160405280611a888660c0015161277b565b8152602001611aa18661010001518761020001516127b6565b81526020015f5f1b815260200185604001518152508260c001515f81518110611acc57611acc613c49565b602090810291909101015260408051600180825281830190925290816020015b611b0e60405180606001604052805f81526020015f8152602001606081525090565b815260200190600190039081611aec5790505060e08301526040805160608101909152608085015181526102a085015160208201906001600160a01b0316815260200185604051602001611b62919061394c565b6040516020818303038152906040528152508260e001515f81518110611b8a57611b8a613c49565b60200260200101819052505092915050565b6109ba81336127c1565b5f611bb183836113b8565b611c30575f8381526002602090815260408083206001600160a01b03861684529091529020805460ff19166001179055611be83390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a45060016107c1565b505f6107c1565b60035460ff1615611c5b5760405163d93c066560e01b815260040160405180910390fd5b565b5f6107c1611c696127fa565b8360405161190160f01b8152600281019290925260228201526042902090565b5f5f5f8351604103611cc0576020840151604085015160608601515f1a611cb288828585612923565b955095509550505050611ccb565b505081515f91506002905b9250925092565b5f611ce78361010001518461020001516127b6565b9050611cf88360c0015183836115fd565b816001600160a01b0316847f16cfaad9ef877ffdcfedd9eae2009b4d27454094546f8fab5fbb10129037afc883604051611d3491815260200190565b60405180910390a361020083015115610a4f57611d608360c001518461022001518561020001516115fd565b8261022001516001600160a01b0316847f3e8af3edd4cc6c38e4b22a0110ebdcaa13f693b0954b418c7fddcae70f8f864d8560c00151866102000151604051611dbe9291906001600160a01b03929092168252602082015260400190565b60405180910390a350505050565b5f611dd783836113b8565b15611c30575f8381526002602090815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a45060016107c1565b611e3f6129eb565b6003805460ff191690557f5db9ee0a495bf2e6ff9c91a7834c1ba4fdd244a5e8aa4e537bd38aeae4b073aa335b6040516001600160a01b03909116815260200160405180910390a1565b611e91612e9d565b6102c08214611eb3576040516362f736ef60e11b815260040160405180910390fd5b610a24828401846139a4565b5f5f611ef48461012001518561014001518661016001516001600160401b03168761018001516001600160401b031642612a0e565b905061143681856101a00151866101c001516001600160401b0316876101e001518742612a6e565b5f6107c18233611ebf565b8073eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeed196001600160a01b03861601611f5e57611f578382613761565b9050612086565b6040516370a0823160e01b81526001600160a01b0385811660048301525f91908716906370a0823190602401602060405180830381865afa158015611fa5573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190611fc99190613b47565b9050611fe06001600160a01b038716338787612b05565b6040516370a0823160e01b81526001600160a01b0386811660048301525f9183918916906370a0823190602401602060405180830381865afa158015612028573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061204c9190613b47565b6120569190613c36565b90508481101561208357604051630ba11f2f60e21b8152600481018290526024810186905260440161085b565b50505b8034146120a657604051632635240760e21b815260040160405180910390fd5b8015610ca057610ca084826126cf565b5f816040516020016120c8919061394c565b6040516020818303038152906040528051906020012090508161026001516001600160401b031642111561210f5760405163387b2e5560e11b815260040160405180910390fd5b61010082015115806121245750610140820151155b156121425760405163162908e360e11b815260040160405180910390fd5b816101400151826101200151108061217557508161016001516001600160401b03168261018001516001600160401b0316105b156121935760405163014f318f60e31b815260040160405180910390fd5b6121ad826101000151836102000151846102200151612b3b565b60a08201516001600160a01b031615806121d357506102a08201516001600160a01b0316155b156121f15760405163d92e233d60e01b815260040160405180910390fd5b46826080015114801561221257506102a08201516001600160a01b03163014155b1561223057604051633be53d8360e21b815260040160405180910390fd5b5f8181526004602052604081205460ff166003811115612252576122526134c6565b146122735760405163de5d1a9f60e01b81526004810182905260240161085b565b5f818152600460205260409020805460ff19166001179055919050565b5f7f86b60074679969e60f0a9a1ef9627d911b8a3163e1660ee50be07967a628c3a56122bf6020850185613774565b6122cf6040860160208701613774565b604086013560608701356122e960a0890160808a01613b5e565b6122f960c08a0160a08b01613b5e565b8960c001355f516020613cb45f395f51905f528a60405160200161231e929190613c5d565b60408051601f1981840301815282825280516020918201209083019a909a526001600160a01b0398891690820152969095166060870152608086019390935260a085019190915263ffffffff90811660c08501521660e08301526101008201526101208101919091526101400160405160208183030381529060405280519060200120905092915050565b80606001516001600160a01b0316827f5015dd8696dc7f0051fd3a554482774e0cca0715b43ebcbc404da44224ece208836040516123e7919061394c565b60405180910390a3817f3448bbc2203c608599ad448eeb1007cea04b788ac631f9f558e8dd01a3c27b3d61241b838561186e565b6040516124289190613197565b60405180910390a25050565b61243c611c37565b6003805460ff191660011790557f62e78cea01bee320cd4e420270b5ea74000d11b0c9f74754ebdbfc544b05a258611e6c3390565b606061249c7f0000000000000000000000000000000000000000000000000000000000000000612b99565b905090565b606061249c7f0000000000000000000000000000000000000000000000000000000000000000612b99565b468160400151146124f0576040516310dfc03360e01b815260040160405180910390fd5b60208101516001600160a01b031630146109ba576040516310fd5ba160e21b815260040160405180910390fd5b73eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeed196001600160a01b0384160161256257803414610cda57604051632635240760e21b815260040160405180910390fd5b341561258157604051632635240760e21b815260040160405180910390fd5b6040516370a0823160e01b81523060048201525f906001600160a01b038516906370a0823190602401602060405180830381865afa1580156125c5573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906125e99190613b47565b90506126006001600160a01b038516843085612b05565b6040516370a0823160e01b81523060048201525f9082906001600160a01b038716906370a0823190602401602060405180830381865afa158015612646573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061266a9190613b47565b6126749190613c36565b9050828114610ca057604051630ba11f2f60e21b8152600481018290526024810184905260440161085b565b5f516020613f945f395f51905f5254600203611c5b57604051633ee5aeb560e01b815260040160405180910390fd5b804710156126f95760405163cf47918160e01b81524760048201526024810182905260440161085b565b612712828260405180602001604052805f815250612bd6565b1561271b575050565b3d1561272d57612729612beb565b5050565b60405163d6bda27560e01b815260040160405180910390fd5b6127538383836001612bf6565b610cda57604051635274afe760e01b81526001600160a01b038416600482015260240161085b565b5f6001600160a01b03821673eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee146127af576001600160a01b0382166107c1565b5f92915050565b5f610a248284613c36565b6127cb82826113b8565b6127295760405163e2517d3f60e01b81526001600160a01b03821660048201526024810183905260440161085b565b5f306001600160a01b037f00000000000000000000000000000000000000000000000000000000000000001614801561285257507f000000000000000000000000000000000000000000000000000000000000000046145b1561287c57507f000000000000000000000000000000000000000000000000000000000000000090565b61249c604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201527f0000000000000000000000000000000000000000000000000000000000000000918101919091527f000000000000000000000000000000000000000000000000000000000000000060608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b5f80807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a084111561295c57505f915060039050826129e1565b604080515f808252602082018084528a905260ff891692820192909252606081018790526080810186905260019060a0016020604051602081039080840390855afa1580156129ad573d5f5f3e3d5ffd5b5050604051601f1901519150506001600160a01b0381166129d857505f9250600191508290506129e1565b92505f91508190505b9450945094915050565b60035460ff16611c5b57604051638dfc202b60e01b815260040160405180910390fd5b5f828210612a1d575083612a65565b5f612a288386612c58565b9050805f03612a3a5786915050612a65565b612a57612a478789613c36565b82612a528888613c36565b612c69565b612a619088613c36565b9150505b95945050505050565b5f6001600160a01b0386161580612a8457508482115b80612aa05750856001600160a01b0316836001600160a01b0316145b15612aac575085612afb565b835f03612ade57604051639bc7ae1560e01b81526001600160a01b03871660048201526024810186905260440161085b565b612af887612aee86612710613761565b6127106001612d19565b90505b9695505050505050565b612b13848484846001612d5b565b610a4f57604051635274afe760e01b81526001600160a01b038516600482015260240161085b565b828210612b65576040516373ab893560e11b8152600481018390526024810184905260440161085b565b8115801590612b7b57506001600160a01b038116155b15610cda57604051630ef97d8160e11b815260040160405180910390fd5b60605f612ba583612dc8565b6040805160208082528183019092529192505f91906020820181803683375050509182525060208101929092525090565b5f5f5f83516020850186885af1949350505050565b6040513d5f823e3d81fd5b60405163a9059cbb60e01b5f8181526001600160a01b038616600452602485905291602083604481808b5af1925060015f51148316612c4c578383151615612c40573d5f823e3d81fd5b5f873b113d1516831692505b60405250949350505050565b5f8082840384811115908102612a65565b5f5f5f612c768686612def565b91509150815f03612c9a57838181612c9057612c90613c72565b0492505050610a24565b818411612cb157612cb16003851502601118612e0b565b5f848688095f868103871696879004966002600389028118808a02820302808a02820302808a02820302808a02820302808a02820302808a02909103029181900381900460010185841190960395909502919093039390930492909217029150509392505050565b5f612d46612d2683612e1c565b8015612d4157505f8480612d3c57612d3c613c72565b868809115b151590565b612d51868686612c69565b612a659190613761565b6040516323b872dd60e01b5f8181526001600160a01b038781166004528616602452604485905291602083606481808c5af1925060015f51148316612db7578383151615612dab573d5f823e3d81fd5b5f883b113d1516831692505b604052505f60605295945050505050565b5f60ff8216601f8111156107c157604051632cd44ac360e21b815260040160405180910390fd5b5f805f1983850993909202808410938190039390930393915050565b634e487b715f52806020526024601cfd5b5f6002826003811115612e3157612e316134c6565b612e3b9190613c86565b60ff166001149050919050565b6040518061010001604052805f6001600160a01b031681526020015f81526020015f63ffffffff1681526020015f63ffffffff1681526020015f81526020016060815260200160608152602001606081525090565b604080516102c0810182525f80825260208201819052918101829052606081018290526080810182905260a0810182905260c0810182905260e08101829052610100810182905261012081018290526101408101829052610160810182905261018081018290526101a081018290526101c081018290526101e08101829052610200810182905261022081018290526102408101829052610260810182905261028081018290526102a081019190915290565b5f60208284031215612f60575f5ffd5b81356001600160e01b031981168114610a24575f5ffd5b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b602081525f610a246020830184612f77565b5f6102c08284031215612fc8575f5ffd5b50919050565b5f6102c08284031215612fdf575f5ffd5b610a248383612fb7565b5f60208284031215612ff9575f5ffd5b5035919050565b5f6101008284031215612fc8575f5ffd5b5f5f83601f840112613021575f5ffd5b5081356001600160401b03811115613037575f5ffd5b60208301915083602082850101111561304e575f5ffd5b9250929050565b5f5f5f60408486031215613067575f5ffd5b83356001600160401b0381111561307c575f5ffd5b61308886828701613000565b93505060208401356001600160401b038111156130a3575f5ffd5b6130af86828701613011565b9497909650939450505050565b5f8151808452602084019350602083015f5b8281101561311257815180518752602081015160208801526040810151604088015260608101516060880152506080860195506020820191506001810190506130ce565b5093949350505050565b5f82825180855260208501945060208160051b830101602085015f5b8381101561318b57601f198584030188528151805184526020810151602085015260408101519050606060408501526131746060850182612f77565b6020998a0199909450929092019150600101613138565b50909695505050505050565b602081526131b16020820183516001600160a01b03169052565b602082015160408201525f60408301516131d3606084018263ffffffff169052565b50606083015163ffffffff8116608084015250608083015160a083015260a083015161010060c084015261320b6101208401826130bc565b905060c0840151601f198483030160e085015261322882826130bc565b91505060e0840151601f1984830301610100850152612a65828261311c565b6001600160a01b03811681146109ba575f5ffd5b803561186981613247565b5f5f60408385031215613277575f5ffd5b82359150602083013561328981613247565b809150509250929050565b5f5f5f5f5f61032086880312156132a9575f5ffd5b6132b38787612fb7565b94506102c08601356132c481613247565b93506102e086013592506103008601356001600160401b038111156132e7575f5ffd5b6132f388828901613011565b969995985093965092949392505050565b5f60208284031215613314575f5ffd5b81356001600160401b03811115613329575f5ffd5b820160608185031215610a24575f5ffd5b5f6020828403121561334a575f5ffd5b81358015158114610a24575f5ffd5b5f5f6102e0838503121561336b575f5ffd5b6133758484612fb7565b91506102c083013561328981613247565b5f5f5f5f5f6060868803121561339a575f5ffd5b8535945060208601356001600160401b038111156133b6575f5ffd5b6133c288828901613011565b90955093505060408601356001600160401b038111156132e7575f5ffd5b5f5f5f5f5f606086880312156133f4575f5ffd5b85356001600160401b03811115613409575f5ffd5b61341588828901613000565b95505060208601356001600160401b038111156133b6575f5ffd5b60ff60f81b8816815260e060208201525f61344e60e0830189612f77565b82810360408401526134608189612f77565b606084018890526001600160a01b038716608085015260a0840186905283810360c0850152845180825260208087019350909101905f5b818110156134b5578351835260209384019390920191600101613497565b50909b9a5050505050505050505050565b634e487b7160e01b5f52602160045260245ffd5b60208101600483106134fa57634e487b7160e01b5f52602160045260245ffd5b91905290565b5f5f5f60608486031215613512575f5ffd5b83359250602084013561352481613247565b929592945050506040919091013590565b5f60208284031215613545575f5ffd5b81356001600160401b0381111561355a575f5ffd5b61143684828501613000565b80356001600160401b0381168114611869575f5ffd5b813581526102c081016135916020840161325b565b6001600160a01b03166020830152604083810135908301526135b56060840161325b565b6001600160a01b03166060830152608083810135908301526135d960a0840161325b565b6001600160a01b031660a08301526135f360c0840161325b565b6001600160a01b031660c083015261360d60e0840161325b565b6001600160a01b031660e08301526101008381013590830152610120808401359083015261014080840135908301526136496101608401613566565b6001600160401b03166101608301526136656101808401613566565b6001600160401b03166101808301526136816101a0840161325b565b6001600160a01b03166101a083015261369d6101c08401613566565b6001600160401b03166101c08301526101e0838101359083015261020080840135908301526136cf610220840161325b565b6001600160a01b031661022083015261024083810135908301526136f66102608401613566565b6001600160401b0316610260830152610280838101359083015261371d6102a0840161325b565b6001600160a01b0381166102a08401525092915050565b5f60208284031215613744575f5ffd5b610a2482613566565b634e487b7160e01b5f52601160045260245ffd5b808201808211156107c1576107c161374d565b5f60208284031215613784575f5ffd5b8135610a2481613247565b8051825260208101516137ad60208401826001600160a01b03169052565b506040810151604083015260608101516137d260608401826001600160a01b03169052565b506080810151608083015260a08101516137f760a08401826001600160a01b03169052565b5060c081015161381260c08401826001600160a01b03169052565b5060e081015161382d60e08401826001600160a01b03169052565b5061010081015161010083015261012081015161012083015261014081015161014083015261016081015161386e6101608401826001600160401b03169052565b5061018081015161388b6101808401826001600160401b03169052565b506101a08101516138a86101a08401826001600160a01b03169052565b506101c08101516138c56101c08401826001600160401b03169052565b506101e08101516101e08301526102008101516102008301526102208101516138fa6102208401826001600160a01b03169052565b506102408101516102408301526102608101516139236102608401826001600160401b03169052565b506102808101516102808301526102a0810151610cda6102a08401826001600160a01b03169052565b6102c081016107c1828461378f565b634e487b7160e01b5f52604160045260245ffd5b6040516102c081016001600160401b038111828210171561399e57634e487b7160e01b5f52604160045260245ffd5b60405290565b5f6102c08284031280156139b6575f5ffd5b506139bf61396f565b823581526139cf6020840161325b565b6020820152604083810135908201526139ea6060840161325b565b606082015260808381013590820152613a0560a0840161325b565b60a0820152613a1660c0840161325b565b60c0820152613a2760e0840161325b565b60e0820152610100838101359082015261012080840135908201526101408084013590820152613a5a6101608401613566565b610160820152613a6d6101808401613566565b610180820152613a806101a0840161325b565b6101a0820152613a936101c08401613566565b6101c08201526101e083810135908201526102008084013590820152613abc610220840161325b565b6102208201526102408381013590820152613ada6102608401613566565b6102608201526102808381013590820152613af86102a0840161325b565b6102a08201529392505050565b5f5f8335601e19843603018112613b1a575f5ffd5b8301803591506001600160401b03821115613b33575f5ffd5b60200191503681900382131561304e575f5ffd5b5f60208284031215613b57575f5ffd5b5051919050565b5f60208284031215613b6e575f5ffd5b813563ffffffff81168114610a24575f5ffd5b613b9f81895180516001600160a01b03168252602090810151910152565b6020880151604082015260408801516060820152613bd3608082018880516001600160a01b03168252602090810151910152565b60018060a01b03861660c08201528460e08201526101406101008201525f613bff610140830186612f77565b828103610120840152838152838560208301375f602085830101526020601f19601f86011682010191505098975050505050505050565b818103818111156107c1576107c161374d565b634e487b7160e01b5f52603260045260245ffd5b8281526102e08101610a24602083018461378f565b634e487b7160e01b5f52601260045260245ffd5b5f60ff831680613ca457634e487b7160e01b5f52601260045260245ffd5b8060ff8416069150509291505056fecaca33f6e9902b790c05961e6c6b85312e554790bcc292dc2aa7e2141e737a364761736c65737343726f7373436861696e4f72646572207769746e657373294761736c65737343726f7373436861696e4f726465722861646472657373206f726967696e536574746c65722c6164647265737320757365722c75696e74323536206e6f6e63652c75696e74323536206f726967696e436861696e49642c75696e743332206f70656e446561646c696e652c75696e7433322066696c6c446561646c696e652c62797465733332206f7264657244617461547970652c4f72646572206f7264657244617461294f726465722862797465733332206163636f756e742c61646472657373206f726967696e536574746c65722c75696e74323536206f726967696e436861696e49642c6164647265737320757365722c75696e743235362064657374696e6174696f6e436861696e49642c6164647265737320726563697069656e742c6164647265737320746f6b656e496e2c6164647265737320746f6b656e4f75742c75696e7432353620616d6f756e74496e2c75696e74323536207374617274416d6f756e744f75742c75696e74323536206d696e416d6f756e744f75742c75696e74363420646563617953746172742c75696e743634206465636179456e642c61646472657373206578636c757369766546696c6c65722c75696e743634206578636c75736976697479446561646c696e652c75696e74323536206578636c757369766974794f766572726964654270732c75696e7432353620666565416d6f756e742c6164647265737320666565526563697069656e742c75696e74323536206e617469766544726f70416d6f756e742c75696e74363420646561646c696e652c62797465733332206e6f6e63652c616464726573732064657374696e6174696f6e536574746c657229546f6b656e5065726d697373696f6e73286164647265737320746f6b656e2c75696e7432353620616d6f756e74299b779b17422d0df92223018b32b4d1fa46e071723d6817e2486d003becc55f0055435dd261a4b9b3364963f7738a7a662ad9c84396d64be3365284bb7f0a5041a26469706673582212208264fbc6d3773f02f46665b821aff2398359608fcb2d2a1a699ca70cf6212f7064736f6c634300081e0033",
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
// Solidity: constructor(address attester_, address guardian_, uint64 refundDelay_, address permit2_) returns()
func (settlement *Settlement) PackConstructor(attester_ common.Address, guardian_ common.Address, refundDelay_ uint64, permit2_ common.Address) []byte {
	enc, err := settlement.abi.Pack("", attester_, guardian_, refundDelay_, permit2_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDEFAULTADMINROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa217fddf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (settlement *Settlement) PackDEFAULTADMINROLE() []byte {
	enc, err := settlement.abi.Pack("DEFAULT_ADMIN_ROLE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDEFAULTADMINROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa217fddf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (settlement *Settlement) TryPackDEFAULTADMINROLE() ([]byte, error) {
	return settlement.abi.Pack("DEFAULT_ADMIN_ROLE")
}

// UnpackDEFAULTADMINROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (settlement *Settlement) UnpackDEFAULTADMINROLE(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("DEFAULT_ADMIN_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
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

// PackGASLESSORDERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x99a12ead.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function GASLESS_ORDER_TYPEHASH() view returns(bytes32)
func (settlement *Settlement) PackGASLESSORDERTYPEHASH() []byte {
	enc, err := settlement.abi.Pack("GASLESS_ORDER_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGASLESSORDERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x99a12ead.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function GASLESS_ORDER_TYPEHASH() view returns(bytes32)
func (settlement *Settlement) TryPackGASLESSORDERTYPEHASH() ([]byte, error) {
	return settlement.abi.Pack("GASLESS_ORDER_TYPEHASH")
}

// UnpackGASLESSORDERTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x99a12ead.
//
// Solidity: function GASLESS_ORDER_TYPEHASH() view returns(bytes32)
func (settlement *Settlement) UnpackGASLESSORDERTYPEHASH(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("GASLESS_ORDER_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGUARDIANROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x24ea54f4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function GUARDIAN_ROLE() view returns(bytes32)
func (settlement *Settlement) PackGUARDIANROLE() []byte {
	enc, err := settlement.abi.Pack("GUARDIAN_ROLE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGUARDIANROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x24ea54f4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function GUARDIAN_ROLE() view returns(bytes32)
func (settlement *Settlement) TryPackGUARDIANROLE() ([]byte, error) {
	return settlement.abi.Pack("GUARDIAN_ROLE")
}

// UnpackGUARDIANROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x24ea54f4.
//
// Solidity: function GUARDIAN_ROLE() view returns(bytes32)
func (settlement *Settlement) UnpackGUARDIANROLE(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("GUARDIAN_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackMINREFUNDDELAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x425ce5f9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MIN_REFUND_DELAY() view returns(uint64)
func (settlement *Settlement) PackMINREFUNDDELAY() []byte {
	enc, err := settlement.abi.Pack("MIN_REFUND_DELAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMINREFUNDDELAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x425ce5f9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MIN_REFUND_DELAY() view returns(uint64)
func (settlement *Settlement) TryPackMINREFUNDDELAY() ([]byte, error) {
	return settlement.abi.Pack("MIN_REFUND_DELAY")
}

// UnpackMINREFUNDDELAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x425ce5f9.
//
// Solidity: function MIN_REFUND_DELAY() view returns(uint64)
func (settlement *Settlement) UnpackMINREFUNDDELAY(data []byte) (uint64, error) {
	out, err := settlement.abi.Unpack("MIN_REFUND_DELAY", data)
	if err != nil {
		return *new(uint64), err
	}
	out0 := *abi.ConvertType(out[0], new(uint64)).(*uint64)
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

// PackWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x156e2152.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (settlement *Settlement) PackWITNESSTYPESTRING() []byte {
	enc, err := settlement.abi.Pack("WITNESS_TYPE_STRING")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x156e2152.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (settlement *Settlement) TryPackWITNESSTYPESTRING() ([]byte, error) {
	return settlement.abi.Pack("WITNESS_TYPE_STRING")
}

// UnpackWITNESSTYPESTRING is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (settlement *Settlement) UnpackWITNESSTYPESTRING(data []byte) (string, error) {
	out, err := settlement.abi.Unpack("WITNESS_TYPE_STRING", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackAllRefundsAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc5ee9d0c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allRefundsAllowed() view returns(bool)
func (settlement *Settlement) PackAllRefundsAllowed() []byte {
	enc, err := settlement.abi.Pack("allRefundsAllowed")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllRefundsAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc5ee9d0c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allRefundsAllowed() view returns(bool)
func (settlement *Settlement) TryPackAllRefundsAllowed() ([]byte, error) {
	return settlement.abi.Pack("allRefundsAllowed")
}

// UnpackAllRefundsAllowed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc5ee9d0c.
//
// Solidity: function allRefundsAllowed() view returns(bool)
func (settlement *Settlement) UnpackAllRefundsAllowed(data []byte) (bool, error) {
	out, err := settlement.abi.Unpack("allRefundsAllowed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackAllowAllRefunds is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6ba2776c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowAllRefunds(bool allowed) returns()
func (settlement *Settlement) PackAllowAllRefunds(allowed bool) []byte {
	enc, err := settlement.abi.Pack("allowAllRefunds", allowed)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowAllRefunds is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6ba2776c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowAllRefunds(bool allowed) returns()
func (settlement *Settlement) TryPackAllowAllRefunds(allowed bool) ([]byte, error) {
	return settlement.abi.Pack("allowAllRefunds", allowed)
}

// PackAllowRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcb6fa78e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowRefund(bytes32 orderId) returns()
func (settlement *Settlement) PackAllowRefund(orderId [32]byte) []byte {
	enc, err := settlement.abi.Pack("allowRefund", orderId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcb6fa78e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowRefund(bytes32 orderId) returns()
func (settlement *Settlement) TryPackAllowRefund(orderId [32]byte) ([]byte, error) {
	return settlement.abi.Pack("allowRefund", orderId)
}

// PackAmountOwed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7b28ef6b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function amountOwed((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order, address filler) view returns(uint256)
func (settlement *Settlement) PackAmountOwed(order Order, filler common.Address) []byte {
	enc, err := settlement.abi.Pack("amountOwed", order, filler)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAmountOwed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7b28ef6b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function amountOwed((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order, address filler) view returns(uint256)
func (settlement *Settlement) TryPackAmountOwed(order Order, filler common.Address) ([]byte, error) {
	return settlement.abi.Pack("amountOwed", order, filler)
}

// UnpackAmountOwed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7b28ef6b.
//
// Solidity: function amountOwed((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order, address filler) view returns(uint256)
func (settlement *Settlement) UnpackAmountOwed(data []byte) (*big.Int, error) {
	out, err := settlement.abi.Unpack("amountOwed", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
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

// PackGaslessOrderHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf37f7139.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function gaslessOrderHash((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order) pure returns(bytes32)
func (settlement *Settlement) PackGaslessOrderHash(order GaslessCrossChainOrder) []byte {
	enc, err := settlement.abi.Pack("gaslessOrderHash", order)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGaslessOrderHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf37f7139.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function gaslessOrderHash((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order) pure returns(bytes32)
func (settlement *Settlement) TryPackGaslessOrderHash(order GaslessCrossChainOrder) ([]byte, error) {
	return settlement.abi.Pack("gaslessOrderHash", order)
}

// UnpackGaslessOrderHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf37f7139.
//
// Solidity: function gaslessOrderHash((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order) pure returns(bytes32)
func (settlement *Settlement) UnpackGaslessOrderHash(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("gaslessOrderHash", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (settlement *Settlement) PackGetRoleAdmin(role [32]byte) []byte {
	enc, err := settlement.abi.Pack("getRoleAdmin", role)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (settlement *Settlement) TryPackGetRoleAdmin(role [32]byte) ([]byte, error) {
	return settlement.abi.Pack("getRoleAdmin", role)
}

// UnpackGetRoleAdmin is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (settlement *Settlement) UnpackGetRoleAdmin(data []byte) ([32]byte, error) {
	out, err := settlement.abi.Unpack("getRoleAdmin", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGrantRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2f2ff15d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (settlement *Settlement) PackGrantRole(role [32]byte, account common.Address) []byte {
	enc, err := settlement.abi.Pack("grantRole", role, account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGrantRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2f2ff15d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (settlement *Settlement) TryPackGrantRole(role [32]byte, account common.Address) ([]byte, error) {
	return settlement.abi.Pack("grantRole", role, account)
}

// PackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (settlement *Settlement) PackHasRole(role [32]byte, account common.Address) []byte {
	enc, err := settlement.abi.Pack("hasRole", role, account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (settlement *Settlement) TryPackHasRole(role [32]byte, account common.Address) ([]byte, error) {
	return settlement.abi.Pack("hasRole", role, account)
}

// UnpackHasRole is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (settlement *Settlement) UnpackHasRole(data []byte) (bool, error) {
	out, err := settlement.abi.Unpack("hasRole", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
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

// PackOpenFor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x844fac8e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function openFor((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order, bytes signature, bytes originFillerData) returns()
func (settlement *Settlement) PackOpenFor(order GaslessCrossChainOrder, signature []byte, originFillerData []byte) []byte {
	enc, err := settlement.abi.Pack("openFor", order, signature, originFillerData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOpenFor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x844fac8e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function openFor((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order, bytes signature, bytes originFillerData) returns()
func (settlement *Settlement) TryPackOpenFor(order GaslessCrossChainOrder, signature []byte, originFillerData []byte) ([]byte, error) {
	return settlement.abi.Pack("openFor", order, signature, originFillerData)
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

// PackPause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8456cb59.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pause() returns()
func (settlement *Settlement) PackPause() []byte {
	enc, err := settlement.abi.Pack("pause")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8456cb59.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pause() returns()
func (settlement *Settlement) TryPackPause() ([]byte, error) {
	return settlement.abi.Pack("pause")
}

// PackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function paused() view returns(bool)
func (settlement *Settlement) PackPaused() []byte {
	enc, err := settlement.abi.Pack("paused")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function paused() view returns(bool)
func (settlement *Settlement) TryPackPaused() ([]byte, error) {
	return settlement.abi.Pack("paused")
}

// UnpackPaused is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5c975abb.
//
// Solidity: function paused() view returns(bool)
func (settlement *Settlement) UnpackPaused(data []byte) (bool, error) {
	out, err := settlement.abi.Unpack("paused", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackPermit2 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x12261ee7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function permit2() view returns(address)
func (settlement *Settlement) PackPermit2() []byte {
	enc, err := settlement.abi.Pack("permit2")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPermit2 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x12261ee7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function permit2() view returns(address)
func (settlement *Settlement) TryPackPermit2() ([]byte, error) {
	return settlement.abi.Pack("permit2")
}

// UnpackPermit2 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (settlement *Settlement) UnpackPermit2(data []byte) (common.Address, error) {
	out, err := settlement.abi.Unpack("permit2", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18a4c721.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refund((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order) returns()
func (settlement *Settlement) PackRefund(order Order) []byte {
	enc, err := settlement.abi.Pack("refund", order)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18a4c721.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refund((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order) returns()
func (settlement *Settlement) TryPackRefund(order Order) ([]byte, error) {
	return settlement.abi.Pack("refund", order)
}

// PackRefundAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2aa35ac1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refundAllowed(bytes32 orderId) view returns(bool)
func (settlement *Settlement) PackRefundAllowed(orderId [32]byte) []byte {
	enc, err := settlement.abi.Pack("refundAllowed", orderId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefundAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2aa35ac1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refundAllowed(bytes32 orderId) view returns(bool)
func (settlement *Settlement) TryPackRefundAllowed(orderId [32]byte) ([]byte, error) {
	return settlement.abi.Pack("refundAllowed", orderId)
}

// UnpackRefundAllowed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2aa35ac1.
//
// Solidity: function refundAllowed(bytes32 orderId) view returns(bool)
func (settlement *Settlement) UnpackRefundAllowed(data []byte) (bool, error) {
	out, err := settlement.abi.Unpack("refundAllowed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
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

// PackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (settlement *Settlement) PackRenounceRole(role [32]byte, callerConfirmation common.Address) []byte {
	enc, err := settlement.abi.Pack("renounceRole", role, callerConfirmation)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (settlement *Settlement) TryPackRenounceRole(role [32]byte, callerConfirmation common.Address) ([]byte, error) {
	return settlement.abi.Pack("renounceRole", role, callerConfirmation)
}

// PackResolve is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x41b477dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function resolve((uint32,bytes32,bytes) crossChainOrder) pure returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]))
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
// Solidity: function resolve((uint32,bytes32,bytes) crossChainOrder) pure returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]))
func (settlement *Settlement) TryPackResolve(crossChainOrder OnchainCrossChainOrder) ([]byte, error) {
	return settlement.abi.Pack("resolve", crossChainOrder)
}

// UnpackResolve is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x41b477dd.
//
// Solidity: function resolve((uint32,bytes32,bytes) crossChainOrder) pure returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]))
func (settlement *Settlement) UnpackResolve(data []byte) (ResolvedCrossChainOrder, error) {
	out, err := settlement.abi.Unpack("resolve", data)
	if err != nil {
		return *new(ResolvedCrossChainOrder), err
	}
	out0 := *abi.ConvertType(out[0], new(ResolvedCrossChainOrder)).(*ResolvedCrossChainOrder)
	return out0, nil
}

// PackResolveFor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x22bcd51a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function resolveFor((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order, bytes originFillerData) view returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]))
func (settlement *Settlement) PackResolveFor(order GaslessCrossChainOrder, originFillerData []byte) []byte {
	enc, err := settlement.abi.Pack("resolveFor", order, originFillerData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackResolveFor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x22bcd51a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function resolveFor((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order, bytes originFillerData) view returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]))
func (settlement *Settlement) TryPackResolveFor(order GaslessCrossChainOrder, originFillerData []byte) ([]byte, error) {
	return settlement.abi.Pack("resolveFor", order, originFillerData)
}

// UnpackResolveFor is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x22bcd51a.
//
// Solidity: function resolveFor((address,address,uint256,uint256,uint32,uint32,bytes32,bytes) order, bytes originFillerData) view returns((address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]))
func (settlement *Settlement) UnpackResolveFor(data []byte) (ResolvedCrossChainOrder, error) {
	out, err := settlement.abi.Unpack("resolveFor", data)
	if err != nil {
		return *new(ResolvedCrossChainOrder), err
	}
	out0 := *abi.ConvertType(out[0], new(ResolvedCrossChainOrder)).(*ResolvedCrossChainOrder)
	return out0, nil
}

// PackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (settlement *Settlement) PackRevokeRole(role [32]byte, account common.Address) []byte {
	enc, err := settlement.abi.Pack("revokeRole", role, account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (settlement *Settlement) TryPackRevokeRole(role [32]byte, account common.Address) ([]byte, error) {
	return settlement.abi.Pack("revokeRole", role, account)
}

// PackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x348206f3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settle((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order, address filler, uint256 amountOut, bytes signature) returns()
func (settlement *Settlement) PackSettle(order Order, filler common.Address, amountOut *big.Int, signature []byte) []byte {
	enc, err := settlement.abi.Pack("settle", order, filler, amountOut, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x348206f3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settle((bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order, address filler, uint256 amountOut, bytes signature) returns()
func (settlement *Settlement) TryPackSettle(order Order, filler common.Address, amountOut *big.Int, signature []byte) ([]byte, error) {
	return settlement.abi.Pack("settle", order, filler, amountOut, signature)
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (settlement *Settlement) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := settlement.abi.Pack("supportsInterface", interfaceId)
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
func (settlement *Settlement) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return settlement.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (settlement *Settlement) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := settlement.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackUnpause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f4ba83a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unpause() returns()
func (settlement *Settlement) PackUnpause() []byte {
	enc, err := settlement.abi.Pack("unpause")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnpause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f4ba83a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unpause() returns()
func (settlement *Settlement) TryPackUnpause() ([]byte, error) {
	return settlement.abi.Pack("unpause")
}

// SettlementAllRefundsAllowed represents a AllRefundsAllowed event raised by the Settlement contract.
type SettlementAllRefundsAllowed struct {
	Allowed bool
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementAllRefundsAllowedEventName = "AllRefundsAllowed"

// ContractEventName returns the user-defined event name.
func (SettlementAllRefundsAllowed) ContractEventName() string {
	return SettlementAllRefundsAllowedEventName
}

// UnpackAllRefundsAllowedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AllRefundsAllowed(bool allowed)
func (settlement *Settlement) UnpackAllRefundsAllowedEvent(log *types.Log) (*SettlementAllRefundsAllowed, error) {
	event := "AllRefundsAllowed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementAllRefundsAllowed)
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

// SettlementFeePaid represents a FeePaid event raised by the Settlement contract.
type SettlementFeePaid struct {
	OrderId   [32]byte
	Recipient common.Address
	Token     common.Address
	Amount    *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const SettlementFeePaidEventName = "FeePaid"

// ContractEventName returns the user-defined event name.
func (SettlementFeePaid) ContractEventName() string {
	return SettlementFeePaidEventName
}

// UnpackFeePaidEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event FeePaid(bytes32 indexed orderId, address indexed recipient, address token, uint256 amount)
func (settlement *Settlement) UnpackFeePaidEvent(log *types.Log) (*SettlementFeePaid, error) {
	event := "FeePaid"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementFeePaid)
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
// Solidity: event Open(bytes32 indexed orderId, (address,uint256,uint32,uint32,bytes32,(bytes32,uint256,bytes32,uint256)[],(bytes32,uint256,bytes32,uint256)[],(uint256,bytes32,bytes)[]) resolvedOrder)
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
// Solidity: event Opened(bytes32 indexed orderId, address indexed user, (bytes32,address,uint256,address,uint256,address,address,address,uint256,uint256,uint256,uint64,uint64,address,uint64,uint256,uint256,address,uint256,uint64,bytes32,address) order)
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

// SettlementPaused represents a Paused event raised by the Settlement contract.
type SettlementPaused struct {
	Account common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementPausedEventName = "Paused"

// ContractEventName returns the user-defined event name.
func (SettlementPaused) ContractEventName() string {
	return SettlementPausedEventName
}

// UnpackPausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Paused(address account)
func (settlement *Settlement) UnpackPausedEvent(log *types.Log) (*SettlementPaused, error) {
	event := "Paused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementPaused)
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

// SettlementRefundAllowed represents a RefundAllowed event raised by the Settlement contract.
type SettlementRefundAllowed struct {
	OrderId [32]byte
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementRefundAllowedEventName = "RefundAllowed"

// ContractEventName returns the user-defined event name.
func (SettlementRefundAllowed) ContractEventName() string {
	return SettlementRefundAllowedEventName
}

// UnpackRefundAllowedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RefundAllowed(bytes32 indexed orderId)
func (settlement *Settlement) UnpackRefundAllowedEvent(log *types.Log) (*SettlementRefundAllowed, error) {
	event := "RefundAllowed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementRefundAllowed)
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

// SettlementRoleAdminChanged represents a RoleAdminChanged event raised by the Settlement contract.
type SettlementRoleAdminChanged struct {
	Role              [32]byte
	PreviousAdminRole [32]byte
	NewAdminRole      [32]byte
	Raw               *types.Log // Blockchain specific contextual infos
}

const SettlementRoleAdminChangedEventName = "RoleAdminChanged"

// ContractEventName returns the user-defined event name.
func (SettlementRoleAdminChanged) ContractEventName() string {
	return SettlementRoleAdminChangedEventName
}

// UnpackRoleAdminChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (settlement *Settlement) UnpackRoleAdminChangedEvent(log *types.Log) (*SettlementRoleAdminChanged, error) {
	event := "RoleAdminChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementRoleAdminChanged)
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

// SettlementRoleGranted represents a RoleGranted event raised by the Settlement contract.
type SettlementRoleGranted struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementRoleGrantedEventName = "RoleGranted"

// ContractEventName returns the user-defined event name.
func (SettlementRoleGranted) ContractEventName() string {
	return SettlementRoleGrantedEventName
}

// UnpackRoleGrantedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (settlement *Settlement) UnpackRoleGrantedEvent(log *types.Log) (*SettlementRoleGranted, error) {
	event := "RoleGranted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementRoleGranted)
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

// SettlementRoleRevoked represents a RoleRevoked event raised by the Settlement contract.
type SettlementRoleRevoked struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementRoleRevokedEventName = "RoleRevoked"

// ContractEventName returns the user-defined event name.
func (SettlementRoleRevoked) ContractEventName() string {
	return SettlementRoleRevokedEventName
}

// UnpackRoleRevokedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (settlement *Settlement) UnpackRoleRevokedEvent(log *types.Log) (*SettlementRoleRevoked, error) {
	event := "RoleRevoked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementRoleRevoked)
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

// SettlementUnpaused represents a Unpaused event raised by the Settlement contract.
type SettlementUnpaused struct {
	Account common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const SettlementUnpausedEventName = "Unpaused"

// ContractEventName returns the user-defined event name.
func (SettlementUnpaused) ContractEventName() string {
	return SettlementUnpausedEventName
}

// UnpackUnpausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Unpaused(address account)
func (settlement *Settlement) UnpackUnpausedEvent(log *types.Log) (*SettlementUnpaused, error) {
	event := "Unpaused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementUnpaused)
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
	if bytes.Equal(raw[:4], settlement.abi.Errors["AccessControlBadConfirmation"].ID.Bytes()[:4]) {
		return settlement.UnpackAccessControlBadConfirmationError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["AccessControlUnauthorizedAccount"].ID.Bytes()[:4]) {
		return settlement.UnpackAccessControlUnauthorizedAccountError(raw[4:])
	}
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
	if bytes.Equal(raw[:4], settlement.abi.Errors["DecayInverted"].ID.Bytes()[:4]) {
		return settlement.UnpackDecayInvertedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["EnforcedPause"].ID.Bytes()[:4]) {
		return settlement.UnpackEnforcedPauseError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["ExpectedPause"].ID.Bytes()[:4]) {
		return settlement.UnpackExpectedPauseError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["FailedCall"].ID.Bytes()[:4]) {
		return settlement.UnpackFailedCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["FeeTooHigh"].ID.Bytes()[:4]) {
		return settlement.UnpackFeeTooHighError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["FillerDataNotAccepted"].ID.Bytes()[:4]) {
		return settlement.UnpackFillerDataNotAcceptedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["GuardianIsAttester"].ID.Bytes()[:4]) {
		return settlement.UnpackGuardianIsAttesterError(raw[4:])
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
	if bytes.Equal(raw[:4], settlement.abi.Errors["NativeNotGasless"].ID.Bytes()[:4]) {
		return settlement.UnpackNativeNotGaslessError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NoExclusiveOverride"].ID.Bytes()[:4]) {
		return settlement.UnpackNoExclusiveOverrideError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NoFeeRecipient"].ID.Bytes()[:4]) {
		return settlement.UnpackNoFeeRecipientError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NonceMismatch"].ID.Bytes()[:4]) {
		return settlement.UnpackNonceMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NotOpened"].ID.Bytes()[:4]) {
		return settlement.UnpackNotOpenedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["NotOrderOwner"].ID.Bytes()[:4]) {
		return settlement.UnpackNotOrderOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["OpenDeadlineAfterFill"].ID.Bytes()[:4]) {
		return settlement.UnpackOpenDeadlineAfterFillError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["OpenDeadlinePassed"].ID.Bytes()[:4]) {
		return settlement.UnpackOpenDeadlinePassedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["OrderIdMismatch"].ID.Bytes()[:4]) {
		return settlement.UnpackOrderIdMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["ReentrancyGuardReentrantCall"].ID.Bytes()[:4]) {
		return settlement.UnpackReentrancyGuardReentrantCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["RefundDelayTooShort"].ID.Bytes()[:4]) {
		return settlement.UnpackRefundDelayTooShortError(raw[4:])
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
	if bytes.Equal(raw[:4], settlement.abi.Errors["SwapSettlesByFill"].ID.Bytes()[:4]) {
		return settlement.UnpackSwapSettlesByFillError(raw[4:])
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
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongOriginSettler"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongOriginSettlerError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongUser"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongUserError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["WrongValue"].ID.Bytes()[:4]) {
		return settlement.UnpackWrongValueError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlement.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return settlement.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// SettlementAccessControlBadConfirmation represents a AccessControlBadConfirmation error raised by the Settlement contract.
type SettlementAccessControlBadConfirmation struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlBadConfirmation()
func SettlementAccessControlBadConfirmationErrorID() common.Hash {
	return common.HexToHash("0x6697b23232a647058342c0724fe7c415cab25915b54e5dbc03f233173d37b41c")
}

// UnpackAccessControlBadConfirmationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlBadConfirmation()
func (settlement *Settlement) UnpackAccessControlBadConfirmationError(raw []byte) (*SettlementAccessControlBadConfirmation, error) {
	out := new(SettlementAccessControlBadConfirmation)
	if err := settlement.abi.UnpackIntoInterface(out, "AccessControlBadConfirmation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementAccessControlUnauthorizedAccount represents a AccessControlUnauthorizedAccount error raised by the Settlement contract.
type SettlementAccessControlUnauthorizedAccount struct {
	Account    common.Address
	NeededRole [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func SettlementAccessControlUnauthorizedAccountErrorID() common.Hash {
	return common.HexToHash("0xe2517d3fbfae6f8515ef5ff1ccedc3933ab0cbbda0b492c06eb54ad10ef03b3e")
}

// UnpackAccessControlUnauthorizedAccountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func (settlement *Settlement) UnpackAccessControlUnauthorizedAccountError(raw []byte) (*SettlementAccessControlUnauthorizedAccount, error) {
	out := new(SettlementAccessControlUnauthorizedAccount)
	if err := settlement.abi.UnpackIntoInterface(out, "AccessControlUnauthorizedAccount", raw); err != nil {
		return nil, err
	}
	return out, nil
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

// SettlementDecayInverted represents a DecayInverted error raised by the Settlement contract.
type SettlementDecayInverted struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DecayInverted()
func SettlementDecayInvertedErrorID() common.Hash {
	return common.HexToHash("0x0a798c786af547ddaed7dacb10e52b8047dd5910402ea029710dbd5287c99df9")
}

// UnpackDecayInvertedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DecayInverted()
func (settlement *Settlement) UnpackDecayInvertedError(raw []byte) (*SettlementDecayInverted, error) {
	out := new(SettlementDecayInverted)
	if err := settlement.abi.UnpackIntoInterface(out, "DecayInverted", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementEnforcedPause represents a EnforcedPause error raised by the Settlement contract.
type SettlementEnforcedPause struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EnforcedPause()
func SettlementEnforcedPauseErrorID() common.Hash {
	return common.HexToHash("0xd93c0665d6c96d04a8f174024fc4ddd66c250604aff22bbec808de86dd3637e3")
}

// UnpackEnforcedPauseError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EnforcedPause()
func (settlement *Settlement) UnpackEnforcedPauseError(raw []byte) (*SettlementEnforcedPause, error) {
	out := new(SettlementEnforcedPause)
	if err := settlement.abi.UnpackIntoInterface(out, "EnforcedPause", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementExpectedPause represents a ExpectedPause error raised by the Settlement contract.
type SettlementExpectedPause struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ExpectedPause()
func SettlementExpectedPauseErrorID() common.Hash {
	return common.HexToHash("0x8dfc202bcfe9a735b559bee70674422512bc5c30f687046ae8778315fb81da44")
}

// UnpackExpectedPauseError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ExpectedPause()
func (settlement *Settlement) UnpackExpectedPauseError(raw []byte) (*SettlementExpectedPause, error) {
	out := new(SettlementExpectedPause)
	if err := settlement.abi.UnpackIntoInterface(out, "ExpectedPause", raw); err != nil {
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

// SettlementFeeTooHigh represents a FeeTooHigh error raised by the Settlement contract.
type SettlementFeeTooHigh struct {
	FeeAmount *big.Int
	AmountIn  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FeeTooHigh(uint256 feeAmount, uint256 amountIn)
func SettlementFeeTooHighErrorID() common.Hash {
	return common.HexToHash("0xe757126a89ba5140023477c243d17c34ca7467d317e5523eafa819ff2931905a")
}

// UnpackFeeTooHighError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FeeTooHigh(uint256 feeAmount, uint256 amountIn)
func (settlement *Settlement) UnpackFeeTooHighError(raw []byte) (*SettlementFeeTooHigh, error) {
	out := new(SettlementFeeTooHigh)
	if err := settlement.abi.UnpackIntoInterface(out, "FeeTooHigh", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementFillerDataNotAccepted represents a FillerDataNotAccepted error raised by the Settlement contract.
type SettlementFillerDataNotAccepted struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FillerDataNotAccepted()
func SettlementFillerDataNotAcceptedErrorID() common.Hash {
	return common.HexToHash("0xb24dbc3acb053671d1a9acc1a54fa372951007d978f134d1b8fc7979dc8830e6")
}

// UnpackFillerDataNotAcceptedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FillerDataNotAccepted()
func (settlement *Settlement) UnpackFillerDataNotAcceptedError(raw []byte) (*SettlementFillerDataNotAccepted, error) {
	out := new(SettlementFillerDataNotAccepted)
	if err := settlement.abi.UnpackIntoInterface(out, "FillerDataNotAccepted", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementGuardianIsAttester represents a GuardianIsAttester error raised by the Settlement contract.
type SettlementGuardianIsAttester struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error GuardianIsAttester()
func SettlementGuardianIsAttesterErrorID() common.Hash {
	return common.HexToHash("0xa47d97f1653f89c4c3f73f8cff5ec531cc5d44a426665224c0ca8c1eb4c6ea92")
}

// UnpackGuardianIsAttesterError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error GuardianIsAttester()
func (settlement *Settlement) UnpackGuardianIsAttesterError(raw []byte) (*SettlementGuardianIsAttester, error) {
	out := new(SettlementGuardianIsAttester)
	if err := settlement.abi.UnpackIntoInterface(out, "GuardianIsAttester", raw); err != nil {
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

// SettlementNativeNotGasless represents a NativeNotGasless error raised by the Settlement contract.
type SettlementNativeNotGasless struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NativeNotGasless()
func SettlementNativeNotGaslessErrorID() common.Hash {
	return common.HexToHash("0x769df7077e800a604eda74808e15585588aede3a72c1163dde4675f292b024bc")
}

// UnpackNativeNotGaslessError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NativeNotGasless()
func (settlement *Settlement) UnpackNativeNotGaslessError(raw []byte) (*SettlementNativeNotGasless, error) {
	out := new(SettlementNativeNotGasless)
	if err := settlement.abi.UnpackIntoInterface(out, "NativeNotGasless", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementNoExclusiveOverride represents a NoExclusiveOverride error raised by the Settlement contract.
type SettlementNoExclusiveOverride struct {
	ExclusiveFiller     common.Address
	ExclusivityDeadline *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NoExclusiveOverride(address exclusiveFiller, uint256 exclusivityDeadline)
func SettlementNoExclusiveOverrideErrorID() common.Hash {
	return common.HexToHash("0x9bc7ae15ac79ffa323ad52675f88eae04dc2c5cdf3897890e15c99a1b9b36955")
}

// UnpackNoExclusiveOverrideError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NoExclusiveOverride(address exclusiveFiller, uint256 exclusivityDeadline)
func (settlement *Settlement) UnpackNoExclusiveOverrideError(raw []byte) (*SettlementNoExclusiveOverride, error) {
	out := new(SettlementNoExclusiveOverride)
	if err := settlement.abi.UnpackIntoInterface(out, "NoExclusiveOverride", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementNoFeeRecipient represents a NoFeeRecipient error raised by the Settlement contract.
type SettlementNoFeeRecipient struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NoFeeRecipient()
func SettlementNoFeeRecipientErrorID() common.Hash {
	return common.HexToHash("0x1df2fb02751c038c487500e78128b9842b586bb2d3b4223fa620b7fd56352155")
}

// UnpackNoFeeRecipientError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NoFeeRecipient()
func (settlement *Settlement) UnpackNoFeeRecipientError(raw []byte) (*SettlementNoFeeRecipient, error) {
	out := new(SettlementNoFeeRecipient)
	if err := settlement.abi.UnpackIntoInterface(out, "NoFeeRecipient", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementNonceMismatch represents a NonceMismatch error raised by the Settlement contract.
type SettlementNonceMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NonceMismatch()
func SettlementNonceMismatchErrorID() common.Hash {
	return common.HexToHash("0xe112ed91bb74dd69dfe256ccb69e567ab7aac0f92757a06850be5dadb6d2c097")
}

// UnpackNonceMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NonceMismatch()
func (settlement *Settlement) UnpackNonceMismatchError(raw []byte) (*SettlementNonceMismatch, error) {
	out := new(SettlementNonceMismatch)
	if err := settlement.abi.UnpackIntoInterface(out, "NonceMismatch", raw); err != nil {
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

// SettlementOpenDeadlineAfterFill represents a OpenDeadlineAfterFill error raised by the Settlement contract.
type SettlementOpenDeadlineAfterFill struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OpenDeadlineAfterFill()
func SettlementOpenDeadlineAfterFillErrorID() common.Hash {
	return common.HexToHash("0xf4e9e8a8f56eab8afd1168d3036c7c2bc8e13065d73030d9f9f31c2abec3c01a")
}

// UnpackOpenDeadlineAfterFillError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OpenDeadlineAfterFill()
func (settlement *Settlement) UnpackOpenDeadlineAfterFillError(raw []byte) (*SettlementOpenDeadlineAfterFill, error) {
	out := new(SettlementOpenDeadlineAfterFill)
	if err := settlement.abi.UnpackIntoInterface(out, "OpenDeadlineAfterFill", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementOpenDeadlinePassed represents a OpenDeadlinePassed error raised by the Settlement contract.
type SettlementOpenDeadlinePassed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OpenDeadlinePassed()
func SettlementOpenDeadlinePassedErrorID() common.Hash {
	return common.HexToHash("0x3e3fec2835c88888a08d34f770501f1907f654828bab7088d1f49e57ffbe55bc")
}

// UnpackOpenDeadlinePassedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OpenDeadlinePassed()
func (settlement *Settlement) UnpackOpenDeadlinePassedError(raw []byte) (*SettlementOpenDeadlinePassed, error) {
	out := new(SettlementOpenDeadlinePassed)
	if err := settlement.abi.UnpackIntoInterface(out, "OpenDeadlinePassed", raw); err != nil {
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

// SettlementRefundDelayTooShort represents a RefundDelayTooShort error raised by the Settlement contract.
type SettlementRefundDelayTooShort struct {
	RefundDelay uint64
	Minimum     uint64
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error RefundDelayTooShort(uint64 refundDelay, uint64 minimum)
func SettlementRefundDelayTooShortErrorID() common.Hash {
	return common.HexToHash("0x03f92a4d7cdfa608816e3f6ef7ee0dbe11fac1e264d9d767e0befc067898d5ba")
}

// UnpackRefundDelayTooShortError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error RefundDelayTooShort(uint64 refundDelay, uint64 minimum)
func (settlement *Settlement) UnpackRefundDelayTooShortError(raw []byte) (*SettlementRefundDelayTooShort, error) {
	out := new(SettlementRefundDelayTooShort)
	if err := settlement.abi.UnpackIntoInterface(out, "RefundDelayTooShort", raw); err != nil {
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

// SettlementSwapSettlesByFill represents a SwapSettlesByFill error raised by the Settlement contract.
type SettlementSwapSettlesByFill struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SwapSettlesByFill()
func SettlementSwapSettlesByFillErrorID() common.Hash {
	return common.HexToHash("0xca7be40a153c6dff8b3605479e98fac86bfd212743b8a14aa549e25ebe49a1b7")
}

// UnpackSwapSettlesByFillError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SwapSettlesByFill()
func (settlement *Settlement) UnpackSwapSettlesByFillError(raw []byte) (*SettlementSwapSettlesByFill, error) {
	out := new(SettlementSwapSettlesByFill)
	if err := settlement.abi.UnpackIntoInterface(out, "SwapSettlesByFill", raw); err != nil {
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

// SettlementWrongOriginSettler represents a WrongOriginSettler error raised by the Settlement contract.
type SettlementWrongOriginSettler struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongOriginSettler()
func SettlementWrongOriginSettlerErrorID() common.Hash {
	return common.HexToHash("0x43f56e849ff32d34bab37858b6ee91d003f2b83bb9887cb93fd220c156b77e9b")
}

// UnpackWrongOriginSettlerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongOriginSettler()
func (settlement *Settlement) UnpackWrongOriginSettlerError(raw []byte) (*SettlementWrongOriginSettler, error) {
	out := new(SettlementWrongOriginSettler)
	if err := settlement.abi.UnpackIntoInterface(out, "WrongOriginSettler", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementWrongUser represents a WrongUser error raised by the Settlement contract.
type SettlementWrongUser struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongUser()
func SettlementWrongUserErrorID() common.Hash {
	return common.HexToHash("0x79e88b3ba8864d3fe9e58d763a59aaa7c09a147918fed0414c7b51bbeb2cb08a")
}

// UnpackWrongUserError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongUser()
func (settlement *Settlement) UnpackWrongUserError(raw []byte) (*SettlementWrongUser, error) {
	out := new(SettlementWrongUser)
	if err := settlement.abi.UnpackIntoInterface(out, "WrongUser", raw); err != nil {
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
