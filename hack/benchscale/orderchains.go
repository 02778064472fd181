package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
)

// orderChains are the samples' two local chains, run in this process for as long as the swap and
// bridge templates take to create. The service offers swaps and bridges only through settlement
// contracts it verified on a chain's node, and the sample testnets have none: the templates go
// through the local chains, as make run's do. Afterwards their Chains lose their rpc, so that the
// managers measured later follow no node, as over the sample testnets.
type orderChains struct {
	c      client.Client
	chains []*v1alpha1.Chain
	nodes  []*devchain.Chain
}

// startOrderChains starts a node for each sample Chain with an rpc (the local chains), deploys
// there, with the samples' well-known deployer, the demo USDC and make run's settlement contract
// (so they land at the samples' addresses), funds userA, and creates the Chain (its rpc
// pointing at the node) and its sample TokenDefinitions in namespace.
func startOrderChains(ctx context.Context, c client.Client, namespace, samples string) (_ *orderChains, err error) {
	o := &orderChains{c: c}
	defer func() {
		if err != nil {
			err = errors.Join(err, o.stop(ctx))
		}
	}()
	deployer, err := crypto.HexToECDSA(devchain.WellKnownFunderKey)
	if err != nil {
		return nil, err
	}
	local := map[string]bool{}
	for _, doc := range documents(filepath.Join(samples, "intents_v1alpha1_chain.yaml")) {
		var ch v1alpha1.Chain
		if err := yaml.UnmarshalStrict(doc, &ch); err != nil {
			return nil, fmt.Errorf("sample chain: %w", err)
		}
		if ch.Spec.RPC == nil {
			continue
		}
		id, ok := new(big.Int).SetString(ch.Spec.ChainID[len("eip155:"):], 10)
		if !ok {
			return nil, fmt.Errorf("sample chain %s: chain id %s", ch.Name, ch.Spec.ChainID)
		}
		addr, err := freeport.Addr()
		if err != nil {
			return nil, err
		}
		node, err := devchain.New(id.Int64(), deployer, addr)
		if err != nil {
			return nil, fmt.Errorf("local chain %s: %w", ch.Spec.ChainID, err)
		}
		o.nodes = append(o.nodes, node)
		if err := setUpOrderChain(node, ch.Spec.SettlementAddress); err != nil {
			return nil, fmt.Errorf("local chain %s: %w", ch.Spec.ChainID, err)
		}
		ch.Namespace = namespace
		ch.Spec.RPC = &v1alpha1.ChainRPC{URL: node.URL}
		if err := c.Create(ctx, &ch); err != nil {
			return nil, fmt.Errorf("creating chain %s: %w", ch.Name, err)
		}
		o.chains = append(o.chains, &ch)
		local[ch.Spec.ChainID] = true
	}
	for _, doc := range documents(filepath.Join(samples, "intents_v1alpha1_tokendefinition.yaml")) {
		var td v1alpha1.TokenDefinition
		if err := yaml.UnmarshalStrict(doc, &td); err != nil {
			return nil, fmt.Errorf("sample token definition: %w", err)
		}
		if !local[td.Spec.ChainID] {
			continue
		}
		td.Namespace = namespace
		if err := c.Create(ctx, &td); err != nil {
			return nil, fmt.Errorf("creating token definition %s: %w", td.Name, err)
		}
	}
	if len(o.chains) < 2 {
		return nil, fmt.Errorf("%s has %d Chains with an rpc; the swap and bridge templates need two", samples, len(o.chains))
	}
	return o, nil
}

// setUpOrderChain deploys the demo USDC and the settlement contract and gives userA what the
// templates spend (the service checks balances on a chain with a node).
func setUpOrderChain(node *devchain.Chain, settlementAddress string) error {
	usdc, err := node.Deploy("Local USD Coin", "USDC", 6)
	if err != nil {
		return err
	}
	if usdc != common.HexToAddress(localUSDC) {
		return fmt.Errorf("USDC landed at %s, not at %s where the samples expect it", usdc.Hex(), localUSDC)
	}
	// As make run: CREATE2 with the local arguments (the well-known attester), at the samples'
	// settlementAddress.
	if _, err := node.DeployLocalSettlement(); err != nil {
		return err
	}
	if deploy.LocalAddress() != common.HexToAddress(settlementAddress) {
		return fmt.Errorf("the samples name the settlement contract %s, not %s (make samples-address)", settlementAddress, deploy.LocalAddress().Hex())
	}
	user := common.HexToAddress(userA)
	return errors.Join(node.MintTo(usdc, user, big.NewInt(1_000_000_000)), node.Fund(user, big.NewInt(5e18)))
}

// stop takes the rpc (and the price feed, which is read through it) out of the Chains (their rows
// then offer no swaps or bridges: nothing can check their contracts any more) and stops the nodes.
func (o *orderChains) stop(ctx context.Context) error {
	var errs []error
	for _, ch := range o.chains {
		patch := client.MergeFrom(ch.DeepCopy())
		ch.Spec.RPC, ch.Spec.PriceFeed = nil, nil
		errs = append(errs, o.c.Patch(ctx, ch, patch))
	}
	for _, node := range o.nodes {
		errs = append(errs, node.Close())
	}
	return errors.Join(errs...)
}

// waitOffered waits until the manager offers the swap and bridge templates: it does once its
// Chain controller has verified both settlement contracts on their nodes.
func waitOffered(ctx context.Context, m *managerProcess, key string) error {
	deadline := time.Now().Add(time.Minute)
	for _, typ := range []v1alpha1.IntentType{v1alpha1.IntentTypeSwap, v1alpha1.IntentTypeBridge} {
		for {
			status, data, err := do(ctx, http.MethodPost, m.api+"/v2/transfers/simulate", key, []byte(templateRequests[typ]), nil)
			if err == nil && status == http.StatusOK && bytes.Contains(data, []byte(`"valid":true`)) {
				break
			}
			if err := m.alive(); err != nil {
				return err
			}
			if time.Now().After(deadline) && err != nil {
				return fmt.Errorf("the %s template is not offered: %w", typ, err)
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("the %s template is not offered: %d %s", typ, status, data)
			}
			sleep(ctx, 100*time.Millisecond)
		}
	}
	return nil
}
