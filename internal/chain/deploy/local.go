package deploy

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// The well-known development accounts of make run's settlement contracts (internal/chain/devchain
// holds their PUBLIC keys; a test checks that these are their addresses): account #0, the chains'
// funder, is the guardian, and account #3 the attester.
var (
	localGuardian = common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
	localAttester = common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")
)

// LocalArgs are the constructor arguments of make run's settlement contracts: the development
// attester and guardian, the contract's least refund delay (an hour) and the canonical Permit2.
func LocalArgs() Args {
	return Args{Attester: localAttester, Guardian: localGuardian, RefundDelay: settlement.MinRefundDelay, Permit2: contracts.CanonicalPermit2}
}

// LocalAddress is where make run's settlement contract lives on each local chain, and what
// config/samples name (settlementAddress): Address(LocalArgs()). It moves with every change of
// contracts/src/Settlement.sol; `make samples-address` writes it into the samples again.
func LocalAddress() common.Address { return Address(LocalArgs()) }
