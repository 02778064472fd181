package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr/funcr"

	"github.com/transferintent/transfer-intent-service/internal/filler"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

const fillerUsage = `Usage: manager filler [flags] --chain ID,RPC_URL,SETTLEMENT [--chain ...]

Runs the reference filler: it watches the settlement contracts of the given chains for Opened
events, fills each order it can pay from its own inventory (the key's tokens on the order's
destination chain) and, for a bridge, claims the escrow on the origin chain with the service's
attestation (GET /v2/orders/{orderId}/attestation). With --orders-key (a filler key of the API) it
also opens the signed gasless orders of GET /v2/orders with openFor, paying their gas, and then
fills them the same way. It prices every order at its minimum plus --premium-bps and fills once
what the order owes (its Dutch decay and exclusivity) comes down to that price. With --quote-listen
it also serves the quote endpoint of its Filler resource: the service's signed requests for quotes
are answered with the same price, so a winning quote is a fill it will make. It is a demo for local
chains, not a production solver: it takes no risk into account, and skips for good an order it
cannot pay from its inventory.

  manager filler --key-file filler.key --api-key "$TIS_API_KEY" \
    --chain 1337,http://127.0.0.1:8545,0x73bcf92d8Eb03ee6451590039bF51e23a47e77Ba \
    --chain 1338,http://127.0.0.1:8546,0x73bcf92d8Eb03ee6451590039bF51e23a47e77Ba
`

// fillerSettings is what the filler subcommand's flags set.
type fillerSettings struct {
	api, apiKey, keyFile string
	ordersKey            string
	chains               []fillerChain
	interval             time.Duration
	premiumBps           uint
	// maxNativeDrop is the most native token it pays as an order's gas on arrival, in ether.
	maxNativeDrop string
	// quoteListen and quoteSecretFile serve the filler's quote endpoint (the service's requests
	// for quotes): the address to listen on, and the file holding its Filler's signing secret.
	quoteListen, quoteSecretFile string
}

// fillerChain is one --chain flag.
type fillerChain struct {
	id         uint64
	rpc        string
	settlement common.Address
}

// chainFlags collects repeated --chain flags.
type chainFlags struct{ chains *[]fillerChain }

func (c chainFlags) String() string { return "" }

func (c chainFlags) Set(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) != 3 {
		return errors.New("want ID,RPC_URL,SETTLEMENT")
	}
	id, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil || id == 0 {
		return fmt.Errorf("chain id %q is not a positive integer", parts[0])
	}
	if !strings.HasPrefix(parts[1], "http://") && !strings.HasPrefix(parts[1], "https://") {
		return fmt.Errorf("RPC URL %q is not http(s)", parts[1])
	}
	if !common.IsHexAddress(parts[2]) {
		return fmt.Errorf("settlement address %q is not an address", parts[2])
	}
	*c.chains = append(*c.chains, fillerChain{id: id, rpc: parts[1], settlement: common.HexToAddress(parts[2])})
	return nil
}

// runFiller is the filler subcommand; it returns the process exit code. It runs until SIGINT or
// SIGTERM.
func runFiller(args []string, stderr io.Writer) int {
	var s fillerSettings
	fs := flag.NewFlagSet("filler", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fillerUsage); fs.PrintDefaults() }
	fs.StringVar(&s.api, "api", "http://127.0.0.1:8080", "Base URL of the Transfer Intent Service API (for attestations).")
	fs.StringVar(&s.apiKey, "api-key", os.Getenv("TIS_API_KEY"), "An API key of the orders' environment (default $TIS_API_KEY).")
	fs.StringVar(&s.ordersKey, "orders-key", os.Getenv("TIS_FILLER_KEY"), "A filler key of the API (an ApiKey of role filler), to open the signed gasless orders of GET /v2/orders (default $TIS_FILLER_KEY; empty: none).")
	fs.StringVar(&s.keyFile, "key-file", "", "File holding the filler's hex private key; it pays gas and delivers the tokens.")
	fs.Var(chainFlags{&s.chains}, "chain", "A chain to fill on: ID,RPC_URL,SETTLEMENT (repeat for each chain).")
	fs.DurationVar(&s.interval, "interval", time.Second, "How often to look for new orders and attestations.")
	fs.UintVar(&s.premiumBps, "premium-bps", 0, "Price each order this many basis points above its minimum (its quotes, and the most it pays).")
	fs.StringVar(&s.maxNativeDrop, "max-native-drop", "0.01", "The most native token (in ether, 18 decimals) to pay as an order's gas on arrival; orders asking more are neither quoted nor filled.")
	fs.StringVar(&s.quoteListen, "quote-listen", "", "Serve the quote endpoint of the filler's Filler resource on this address (e.g. 127.0.0.1:9101); empty: none.")
	fs.StringVar(&s.quoteSecretFile, "quote-secret-file", "", "File holding the signing secret (whsec_…) of the filler's Filler resource; required with --quote-listen.")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 || len(s.chains) == 0 || s.keyFile == "" || s.apiKey == "" || s.interval <= 0 ||
		(s.quoteListen == "") != (s.quoteSecretFile == "") {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	f, err := newFiller(ctx, s, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "filler: %v\n", err)
		return 1
	}
	if s.quoteListen != "" {
		if err := serveQuotes(ctx, f, s); err != nil {
			fmt.Fprintf(stderr, "filler: %v\n", err)
			return 1
		}
	}
	f.Log.Info("filling", "filler", crypto.PubkeyToAddress(f.Key.PublicKey).Hex(), "chains", len(f.Chains))
	f.Run(ctx, s.interval)
	return 0
}

// serveQuotes serves the filler's quote endpoint on s.quoteListen until ctx ends.
func serveQuotes(ctx context.Context, f *filler.Filler, s fillerSettings) error {
	secret, err := os.ReadFile(s.quoteSecretFile) //nolint:gosec // the operator names the file
	if err != nil {
		return fmt.Errorf("the quote endpoint's secret: %w", err)
	}
	// A secret that is not one would answer every request 401: refuse to start instead.
	if _, err := signing.ParseSecret(strings.TrimSpace(string(secret))); err != nil {
		return fmt.Errorf("the quote endpoint's secret in %s: %w", s.quoteSecretFile, err)
	}
	ln, err := net.Listen("tcp", s.quoteListen)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           &filler.QuoteEndpoint{Filler: f, Secrets: []string{strings.TrimSpace(string(secret))}},
		ReadHeaderTimeout: 2 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second,
	}
	go func() { _ = srv.Serve(ln) }()
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	f.Log.Info("serving quotes", "address", ln.Addr().String())
	return nil
}

// newFiller loads the key and connects to every chain, checking each node's chain id.
func newFiller(ctx context.Context, s fillerSettings, stderr io.Writer) (*filler.Filler, error) {
	key, err := loadFillerKey(s.keyFile)
	if err != nil {
		return nil, err
	}
	maxDrop, err := intent.ParseAmount(s.maxNativeDrop, 18)
	if err != nil {
		return nil, fmt.Errorf("--max-native-drop %q: %w", s.maxNativeDrop, err)
	}
	f := &filler.Filler{
		Key: key, Chains: map[uint64]*filler.Chain{}, Quote: filler.Premium(s.premiumBps),
		API: strings.TrimSuffix(s.api, "/"), APIKey: s.apiKey, OrdersKey: s.ordersKey, MaxNativeDrop: maxDrop,
		Log: funcr.New(func(prefix, args string) { fmt.Fprintln(stderr, prefix, args) }, funcr.Options{}).WithName("filler"),
	}
	dialCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, c := range s.chains {
		if _, dup := f.Chains[c.id]; dup {
			return nil, fmt.Errorf("chain %d given twice", c.id)
		}
		chain, err := filler.Dial(dialCtx, c.id, c.rpc, c.settlement)
		if err != nil {
			return nil, fmt.Errorf("chain %d: %w", c.id, err)
		}
		f.Chains[c.id] = chain
	}
	return f, nil
}

// loadFillerKey reads a hex private key (with or without 0x, surrounding space ignored).
func loadFillerKey(path string) (*ecdsa.PrivateKey, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the operator names the file
	if err != nil {
		return nil, err
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(string(b)), "0x"))
	if err != nil {
		// The error would quote nothing of the key, but say no more than needed.
		return nil, fmt.Errorf("%s does not hold a hex secp256k1 private key", path)
	}
	return key, nil
}
