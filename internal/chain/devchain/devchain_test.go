package devchain

import (
	"bytes"
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// The chain answers real JSON-RPC over HTTP with its chain id, and the TestToken compiled from
// contracts/src mints and reports balances through the generated bindings.
func TestChainServesJSONRPCAndTheTestToken(t *testing.T) {
	c := Start(t, 31337)
	client, err := ethclient.Dial(c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	id, err := client.ChainID(ctx)
	if err != nil || id.Int64() != 31337 {
		t.Fatalf("eth_chainId over HTTP = %v, %v; want 31337", id, err)
	}
	token := c.DeployTestToken(t, "Test USD", "TUSD", 6)
	holder := common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	c.Mint(t, token, holder, big.NewInt(2_500_000))

	binding := contracts.NewTestToken()
	out, err := client.CallContract(ctx, ethereumCall(token, binding.PackBalanceOf(holder)), nil)
	if err != nil {
		t.Fatal(err)
	}
	balance, err := binding.UnpackBalanceOf(out)
	if err != nil || balance.Int64() != 2_500_000 {
		t.Fatalf("balanceOf over HTTP = %v, %v; want 2500000", balance, err)
	}
	out, err = client.CallContract(ctx, ethereumCall(token, binding.PackDecimals()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := binding.UnpackDecimals(out); err != nil || d != 6 {
		t.Fatalf("decimals = %d, %v", d, err)
	}
}

// TestTheDeploymentProxyIsInEveryGenesis: go-ethereum's simulated node preinstalls the
// deterministic deployment proxy (EIP-7997) with the code contracts.DeploymentProxyCode names;
// StartWithoutDeploymentProxy leaves it out.
func TestTheDeploymentProxyIsInEveryGenesis(t *testing.T) {
	if !bytes.Equal(params.DeterministicFactoryCode, contracts.DeploymentProxyCode()) || params.DeterministicFactoryAddress != contracts.DeploymentProxy {
		t.Fatal("go-ethereum's deterministic deployment factory is not contracts.DeploymentProxy")
	}
	for _, tc := range []struct {
		chain *Chain
		want  []byte
	}{
		{Start(t, 1337), contracts.DeploymentProxyCode()},
		{StartWithoutDeploymentProxy(t, 1338), nil},
	} {
		code, err := tc.chain.Backend.Client().CodeAt(context.Background(), contracts.DeploymentProxy, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(code, tc.want) {
			t.Errorf("eip155:%s: the proxy's address holds %x, want %x", tc.chain.ID, code, tc.want)
		}
	}
}
