package jsonrpc

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

// Logs are read per block hash: a block the node does not have is an error, never "no logs", so
// a lagging node cannot make the watcher step over an order's events.
func TestLogsOfBlocksRefusesABlockTheNodeDoesNotHave(t *testing.T) {
	chain := devchain.Start(t, 31337)
	token := chain.DeployTestToken(t, "Test USD", "TUSD", 6)
	holder := common.HexToAddress("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
	chain.Mint(t, token, holder, big.NewInt(5))
	ctx := context.Background()
	node, err := Dial(ctx, "eip155:31337", chain.URL, Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	head, err := node.HeaderByNumber(ctx, 2) // block 1 deployed the token, block 2 minted
	if err != nil {
		t.Fatal(err)
	}
	transfer := crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

	logs, err := node.LogsOfBlocks(ctx, []common.Hash{head.Hash}, token, []common.Hash{transfer})
	if err != nil || len(logs) != 1 || len(logs[0]) != 1 || logs[0][0].Address != token {
		t.Fatalf("logs of the mint's block = %v, %v; want its one Transfer", logs, err)
	}
	unknown := common.HexToHash("0x01")
	if logs, err := node.LogsOfBlocks(ctx, []common.Hash{head.Hash, unknown}, token, []common.Hash{transfer}); err == nil {
		t.Fatalf("an unknown block answered %v; want an error", logs)
	}
}
