package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

const devwalletPriceUsage = `Usage: manager devwallet price --feed ADDRESS --price USD [flags]

Sets the answer of a TestPriceFeed (contracts/src/TestPriceFeed.sol) on a local chain, as of now
or --age ago, and prints it: the simulation then prices with it (or, with an --age beyond the
feed's maxAgeSeconds, warns "price stale" and falls back to the typed price).

Without --key it signs with the well-known development account #0, which deploys make run's
feeds, and only on a local chain (chain id 1337, 1338 or 31337).

  manager devwallet price --feed 0x0165878A594ca255338adfa4d48449f69242Eb8F --price 3412.5
  manager devwallet price --feed 0x0165878A594ca255338adfa4d48449f69242Eb8F --price 3412.5 --age 48h --rpc http://127.0.0.1:8546
`

// runDevwalletPrice is `devwallet price`; it returns the process exit code.
func runDevwalletPrice(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("devwallet price", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, devwalletPriceUsage); fs.PrintDefaults() }
	feed := fs.String("feed", "", "Address of the TestPriceFeed.")
	price := fs.String("price", "", "The USD price to set, a decimal such as 1234.5.")
	rpcURL := fs.String("rpc", "http://127.0.0.1:8545", "JSON-RPC URL of the feed's chain (make run: 8545 for 1337, 8546 for 1338).")
	age := fs.Duration("age", 0, "How long ago the answer was updated (0: now); beyond the feed's maxAgeSeconds the price is stale.")
	keyHex := fs.String("key", "", "Hex private key of the feed's owner (default: the public development account #0, local chains only).")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 || !common.IsHexAddress(*feed) || *price == "" || *age < 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var updatedAt time.Time
	if *age > 0 {
		updatedAt = time.Now().Add(-*age)
	}
	line, err := setFeedPrice(ctx, *rpcURL, *keyHex, common.HexToAddress(*feed), *price, updatedAt)
	if err != nil {
		fmt.Fprintf(stderr, "devwallet: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, line)
	return 0
}

// setFeedPrice sends setAnswer(price in the feed's decimals, updatedAt) to the feed and waits for
// it to be mined; the zero updatedAt means the block's time.
func setFeedPrice(ctx context.Context, rpcURL, keyHex string, feed common.Address, price string, updatedAt time.Time) (string, error) {
	rpcClient, err := jsonrpc.Dial(ctx, "local", rpcURL, jsonrpc.Options{Caller: "devwallet"})
	if err != nil {
		return "", err
	}
	node := ethclient.NewClient(rpcClient.Raw())
	defer node.Close()
	chainID, err := node.ChainID(ctx)
	if err != nil {
		return "", fmt.Errorf("asking the node for its chain id: %w", err)
	}
	if keyHex == "" {
		if !localChainIDs[chainID.Int64()] {
			return "", fmt.Errorf("the public development key signs only on local chains (1337, 1338, 31337), not %v; pass --key", chainID)
		}
		keyHex = devchain.WellKnownFunderKey
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(keyHex, "0x"))
	if err != nil {
		return "", fmt.Errorf("--key: %w", err)
	}
	binding := contracts.NewTestPriceFeed()
	decimals, err := bind.Call(binding.Instance(node, feed), &bind.CallOpts{Context: ctx}, binding.PackDecimals(), binding.UnpackDecimals)
	if err != nil {
		return "", fmt.Errorf("reading the decimals of %s (is it a TestPriceFeed?): %w", feed.Hex(), err)
	}
	answer, err := intent.ParseAmount(price, int32(decimals))
	if err != nil {
		return "", fmt.Errorf("--price %q for a feed of %d decimals: %w", price, decimals, err)
	}
	at := new(big.Int)
	if !updatedAt.IsZero() {
		at.SetInt64(updatedAt.Unix())
	}
	tx, err := signAndSend(ctx, node, key, chainID, feed.Hex(), hexutil.Encode(binding.PackSetAnswer(answer, at)), "0", devchain.FeedGas)
	if err != nil {
		return "", err
	}
	receipt, err := bind.WaitMined(ctx, node, tx.Hash())
	if err != nil {
		return "", fmt.Errorf("waiting for %s: %w", tx.Hash().Hex(), err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return "", fmt.Errorf("setAnswer %s reverted (is %s the feed's owner?)", tx.Hash().Hex(), crypto.PubkeyToAddress(key.PublicKey).Hex())
	}
	when := "now"
	if !updatedAt.IsZero() {
		when = updatedAt.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("feed %s answers %s (updatedAt %s) in %s", feed.Hex(), intent.FormatAmount(answer, int32(decimals)), when, tx.Hash().Hex()), nil
}
