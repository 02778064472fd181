package transferrecord

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The refund the record offers, sent as it is (its to, data, value and gas limit) by an account
// that is not the user, refunds the whole escrow to the user on the real contract: here an ERC-20
// bridge whose user holds none of the token any more (the costliest payout, a zero balance made
// non-zero), after the guardian allowed it.
func TestTheRecordsRefundRefundsTheEscrowOnChain(t *testing.T) {
	dev := devchain.Start(t, 1337)
	contract, err := dev.DeploySettlement(common.Address{0xa7}, settlement.MinRefundDelay)
	if err != nil {
		t.Fatal(err)
	}
	token := dev.DeployTestToken(t, "Test USD", "TUSD", 6)
	userKey, _ := crypto.GenerateKey()
	strangerKey, _ := crypto.GenerateKey()
	user, stranger := crypto.PubkeyToAddress(userKey.PublicKey), crypto.PubkeyToAddress(strangerKey.PublicKey)
	for _, a := range []common.Address{user, stranger} {
		dev.SendValue(t, a, big.NewInt(1e18))
	}
	amount := big.NewInt(25_000_000)
	dev.Mint(t, token, user, amount)
	erc20 := contracts.NewTestToken()
	dev.Transact(t, userKey, token, erc20.PackApprove(contract, amount))

	order := settlement.Order{
		OriginSettler: contract, OriginChainId: big.NewInt(1337), User: user, DestinationChainId: big.NewInt(1338), Recipient: user,
		TokenIn: token, TokenOut: common.Address{0x70}, AmountIn: amount, MinAmountOut: big.NewInt(24_000_000),
		Deadline: uint64(time.Now().Add(time.Hour).Unix()), Nonce: [32]byte{1}, DestinationSettler: common.Address{0x5e},
	}
	open, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	dev.Transact(t, userKey, contract, open)
	id, _ := settlement.ID(order)
	dev.Transact(t, dev.Funder, contract, contracts.NewSettlement().PackAllowRefund(id))

	ti := &v1alpha1.TransferIntent{
		Spec: v1alpha1.TransferIntentSpec{
			Type: v1alpha1.IntentTypeBridge, FromChain: "eip155:1337", ToChain: "eip155:1338", OrderID: id.Hex(),
			Tx: &v1alpha1.TransactionPayload{To: contract.Hex(), Data: hexutil.Encode(open), Value: "0", ChainID: 1337},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, Hash: common.Hash{1}.Hex(), RefundAllowed: true},
	}
	terms := &registry.RefundTerms{Contract: contract.Hex(), Delay: time.Hour}
	rec := Of(ti, func(string) (registry.Chain, bool) { return registry.Chain{Refund: terms}, true }, time.Now())
	if rec.Refund == nil || rec.Refund.Transaction == nil {
		t.Fatalf("refund %+v; want one available", rec.Refund)
	}
	p := rec.Refund.Transaction
	node := dev.Backend.Client()
	to := common.HexToAddress(p.To)
	tx, err := types.SignNewTx(strangerKey, types.LatestSignerForChainID(big.NewInt(p.ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(p.ChainID), Nonce: 0, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
		Gas: uint64(p.Gas), To: &to, Value: new(big.Int), Data: hexutil.MustDecode(p.Data), //nolint:gosec // a gas limit
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := node.SendTransaction(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	receipt := dev.Mine(t, tx)
	balance, err := bind.Call(erc20.Instance(node, token), nil, erc20.PackBalanceOf(user), erc20.UnpackBalanceOf)
	if err != nil || balance.Cmp(amount) != 0 {
		t.Errorf("the user holds %v (%v) after the refund; want the whole escrow, %v", balance, err, amount)
	}
	if receipt.GasUsed*3 > RefundGas*2 {
		t.Errorf("the refund used %d gas: RefundGas %d leaves less than half again as margin", receipt.GasUsed, RefundGas)
	}
	t.Logf("refund(order) of an ERC-20 to a zero balance used %d gas of the record's %d", receipt.GasUsed, p.Gas)
}
