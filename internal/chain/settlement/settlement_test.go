package settlement_test

import (
	"bytes"
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

func sampleOrder() settlement.Order {
	return settlement.Order{
		Account:       crypto.Keccak256Hash([]byte("acme")),
		OriginSettler: common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"),
		OriginChainId: big.NewInt(1337), User: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
		DestinationChainId: big.NewInt(31338), Recipient: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
		TokenIn: settlement.Native, TokenOut: common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3"),
		AmountIn: big.NewInt(1e18), MinAmountOut: big.NewInt(3_000_000_000), Deadline: 1_900_000_000,
		Nonce: [32]byte{1, 2, 3}, DestinationSettler: common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"),
	}
}

// The Go encoding is the contract's: the type hash, the order id, open's calldata and the EIP-712
// digest all agree with what the deployed contract computes.
func TestGoAndContractAgree(t *testing.T) {
	chain := devchain.Start(t, 1337)
	attester, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	binding := contracts.NewSettlement()
	addr, tx, err := bind.DeployContract(chain.Transactor(chain.Funder), common.FromHex(contracts.SettlementMetaData.Bin),
		chain.Backend.Client(), binding.PackConstructor(crypto.PubkeyToAddress(attester.PublicKey),
			crypto.PubkeyToAddress(chain.Funder.PublicKey), settlement.MinRefundDelay, contracts.CanonicalPermit2))
	if err != nil {
		t.Fatal(err)
	}
	chain.Mine(t, tx)
	instance := binding.Instance(chain.Backend.Client(), addr)
	opts := &bind.CallOpts{Context: context.Background()}

	onChainType, err := bind.Call(instance, opts, binding.PackORDERDATATYPE(), binding.UnpackORDERDATATYPE)
	if err != nil {
		t.Fatal(err)
	}
	if common.Hash(onChainType) != settlement.OrderDataType {
		t.Fatalf("ORDER_DATA_TYPE: contract %x, Go %x", onChainType, settlement.OrderDataType)
	}
	minDelay, err := bind.Call(instance, opts, binding.PackMINREFUNDDELAY(), binding.UnpackMINREFUNDDELAY)
	if err != nil || minDelay != settlement.MinRefundDelay {
		t.Fatalf("MIN_REFUND_DELAY: contract %d (%v), Go %d", minDelay, err, settlement.MinRefundDelay)
	}

	order := sampleOrder()
	order.OriginSettler = addr
	id, err := settlement.ID(order)
	if err != nil {
		t.Fatal(err)
	}
	open, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	resolveCall := append(binding.GetABI().Methods["resolve"].ID, open[4:]...)
	resolved, err := bind.Call(instance, opts, resolveCall, binding.UnpackResolve)
	if err != nil {
		t.Fatal(err)
	}
	if common.Hash(resolved.OrderId) != id {
		t.Fatalf("orderId: contract %x, Go %s", resolved.OrderId, id)
	}
	back, err := settlement.OrderOfOpenData(open)
	if err != nil || back.AmountIn.Cmp(order.AmountIn) != 0 || back.Nonce != order.Nonce || back.OriginSettler != order.OriginSettler ||
		back.DestinationSettler != order.DestinationSettler {
		t.Fatalf("OrderOfOpenData = %+v, %v; want %+v", back, err, order)
	}

	domain := settlement.Domain{ChainID: chain.ID, Contract: addr}
	filler := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")
	goDigest, err := settlement.FillDigest(domain, id, filler, big.NewInt(42))
	if err != nil {
		t.Fatal(err)
	}
	onChainDigest, err := bind.Call(instance, opts, binding.PackFillDigest(id, filler, big.NewInt(42)), binding.UnpackFillDigest)
	if err != nil {
		t.Fatal(err)
	}
	if common.Hash(onChainDigest) != goDigest {
		t.Fatalf("fill digest: contract %x, Go %s", onChainDigest, goDigest)
	}

	a := settlement.NewAttester(attester)
	att, err := a.Attest(context.Background(), domain, id, filler, big.NewInt(42))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := crypto.SigToPub(goDigest[:], append(bytes.Clone(att.Signature[:64]), att.Signature[64]-27))
	if err != nil || crypto.PubkeyToAddress(*pub) != a.Address() {
		t.Fatalf("the attestation does not recover to the attester: %v", err)
	}
}

func TestDecodeRefusesOtherLengths(t *testing.T) {
	enc, err := settlement.Encode(sampleOrder())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := settlement.Decode(append(enc, 0)); err == nil {
		t.Fatal("an order with a trailing byte decoded")
	}
	if _, err := settlement.Decode(enc[:len(enc)-32]); err == nil {
		t.Fatal("a short order decoded")
	}
	if _, err := settlement.OrderOfOpenData([]byte{1, 2, 3, 4, 5}); err == nil {
		t.Fatal("a call of another function decoded as open")
	}
}

func TestOpenDataRefusesDeadlinesBeyondUint32(t *testing.T) {
	o := sampleOrder()
	o.Deadline = 1 << 32
	if _, err := settlement.OpenData(o); err == nil {
		t.Fatal("a deadline beyond ERC-7683's uint32 was encoded")
	}
}

// The attester's String never shows the key, and the key file's content is never quoted.
func TestAttesterNeverPrintsItsKey(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	hexKey := common.Bytes2Hex(crypto.FromECDSA(key))
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte("0x"+hexKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := settlement.LoadAttester(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Address() != crypto.PubkeyToAddress(key.PublicKey) || strings.Contains(a.String(), hexKey) {
		t.Fatalf("LoadAttester: address %s, String %q", a.Address(), a.String())
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte(hexKey[:60]+"zz"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := settlement.LoadAttester(bad); err == nil || strings.Contains(err.Error(), hexKey[:60]) {
		t.Fatalf("a bad key file: %v", err)
	}
}
