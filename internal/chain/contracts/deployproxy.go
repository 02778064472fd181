package contracts

import (
	"github.com/ethereum/go-ethereum/common"
)

// The deterministic deployment proxy (Arachnid's, the CREATE2 factory that Foundry, Hardhat and
// the OP Stack's preinstalls use): a contract with no owner and no state that deploys the init
// code of any call with CREATE2, taking the first 32 bytes of the calldata as the salt. It lives
// at the same address on every chain that has it, because it was deployed there by one presigned
// transaction without a chain id (pre-EIP-155) from a key nobody holds: the signature was made up
// (r = s = 0x22…22) and the key recovered from it. A contract it deploys lands at
// keccak256(0xff ++ proxy ++ salt ++ keccak256(init code))[12:], on every chain alike.
var (
	// DeploymentProxy is the proxy's address on every chain that has it.
	DeploymentProxy = common.HexToAddress("0x4e59b44847b379578588920ca78fbf26c0b4956c")
	// DeploymentProxyDeployer is the one-time sender of DeploymentProxyTx (recovered from its
	// signature), which must hold DeploymentProxyFunding before the transaction can be mined.
	DeploymentProxyDeployer = common.HexToAddress("0x3fab184622dc19b6109349b94811493bf2a45362")
)

// DeploymentProxyTx is the proxy's presigned deployment, RLP-encoded: a legacy transaction of
// nonce 0, gas price 100 gwei, gas 100,000 and no chain id, which any node that accepts
// unprotected transactions takes, on any chain, as long as DeploymentProxyDeployer has never sent
// a transaction there.
const DeploymentProxyTx = "0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe" +
	"7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0" +
	"3601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3" +
	"1b" +
	"a02222222222222222222222222222222222222222222222222222222222222222" +
	"a02222222222222222222222222222222222222222222222222222222222222222"

// DeploymentProxyGas and DeploymentProxyGasPrice are DeploymentProxyTx's gas limit and gas price:
// its sender must hold their product (DeploymentProxyFunding, 0.01 ether) for it to be mined.
const (
	DeploymentProxyGas      = 100_000
	DeploymentProxyGasPrice = 100_000_000_000
)

// deploymentProxyRuntime is the proxy's deployed code: CALLDATASIZE minus 32 bytes of salt, copied
// to memory, CREATE2 with the call's value, revert when the creation failed, else return the new
// address (20 bytes).
const deploymentProxyRuntime = "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0" +
	"3601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3"

// DeploymentProxyCode is the proxy's deployed code, for a development chain's genesis (as chains
// that preinstall it hold it) and to recognise it.
func DeploymentProxyCode() []byte { return common.FromHex(deploymentProxyRuntime) }
