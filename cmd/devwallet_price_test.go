package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

// devwallet price moves a TestPriceFeed on a local chain: the answer in the feed's decimals, as of
// now or --age ago; a key that does not own the feed is refused by the contract.
func TestDevwalletPriceMovesTheFeed(t *testing.T) {
	c := devchain.Start(t, 31337)
	feed, err := c.DeployPriceFeed(8, "ETH / USD", big.NewInt(3000_00000000))
	if err != nil {
		t.Fatal(err)
	}
	owner := hex.EncodeToString(crypto.FromECDSA(c.Funder))
	read := func() contracts.LatestRoundDataOutput {
		t.Helper()
		binding := contracts.NewTestPriceFeed()
		out, err := c.Backend.Client().CallContract(context.Background(), ethereum.CallMsg{To: &feed, Data: binding.PackLatestRoundData()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		round, err := binding.UnpackLatestRoundData(out)
		if err != nil {
			t.Fatal(err)
		}
		return round
	}
	// Funded before the committing goroutine starts: two goroutines committing blocks at once race
	// in the simulated node.
	wellKnown, err := crypto.HexToECDSA(devchain.WellKnownFunderKey)
	if err != nil {
		t.Fatal(err)
	}
	c.SendValue(t, crypto.PubkeyToAddress(wellKnown.PublicKey), big.NewInt(1e18))
	// The node mines only on Commit: the command waits for its receipt, so commit meanwhile.
	// It is waited for before the chain closes (t.Cleanup runs after the deferred stop): a Commit
	// still running when Close runs is a data race in the simulated node (make test saw it).
	stop := make(chan struct{})
	var committer sync.WaitGroup
	defer func() { close(stop); committer.Wait() }()
	committer.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				c.Backend.Commit()
			}
		}
	})
	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := runDevwallet(append([]string{"price", "--rpc", c.URL, "--feed", feed.Hex()}, args...), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}

	if code, out := run("--price", "1234.5", "--key", owner); code != 0 || !strings.Contains(out, "answers 1234.5") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if round := read(); round.Answer.Cmp(big.NewInt(1234_50000000)) != 0 || time.Since(time.Unix(round.UpdatedAt.Int64(), 0)).Abs() > time.Minute {
		t.Fatalf("round %+v; want 1234.5 in 8 decimals, updated now", round)
	}
	if code, out := run("--price", "99", "--age", "2h", "--key", owner); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if round := read(); round.Answer.Cmp(big.NewInt(99_00000000)) != 0 || time.Since(time.Unix(round.UpdatedAt.Int64(), 0)) < 119*time.Minute {
		t.Fatalf("round %+v; want 99 updated two hours ago", round)
	}
	// The well-known account #0 (the default key, funded above) is not this feed's owner: the
	// contract refuses it.
	if code, out := run("--price", "1"); code != 1 || !strings.Contains(out, "reverted (is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 the feed's owner?)") {
		t.Fatalf("exit %d: %s; want a refusal", code, out)
	}
	if code, _ := run("--price", "1.123456789", "--key", owner); code != 1 {
		t.Errorf("a price with more decimals than the feed's: exit %d, want 1", code)
	}
}
