/*
Copyright 2026 The Transfer Intent Service Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/ethdb/pebble"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
)

// A local chain keeps its blocks and state in a go-ethereum database on disk: go-ethereum's
// simulated node (the one internal/chain/devchain runs, in memory, for tests) given a data
// directory. Two things make that durable enough for make run:
//
//   - The "hash" state scheme in archive mode (no pruning): the state of every block is written to
//     the database with the block, so a localcluster that is killed outright loses at most the
//     last blocks, not the state since the last flush (the default "path" scheme keeps recent
//     state in memory until a clean stop). It costs about 6 KB of disk a block, most of it the
//     system contracts' storage that every block writes: some 20 MB an hour at a block a second.
//   - The head is put back by hand: simulated.NewBackend always rewinds the chain to its genesis
//     (it is made for tests that start from nothing), which keeps the blocks but makes genesis
//     the head and puts the rewound transactions back in the pool. openDevChain reads the head
//     from the database before that, then drops the pool and makes the head canonical again
//     (Backend.Fork), in well under a second for a few thousand blocks.
const (
	// gethInstance is the directory of the node's databases inside a chain's data directory.
	gethInstance = "geth"
	// chainCacheMB bounds each of go-ethereum's caches of a local chain. The defaults (hundreds of
	// megabytes to gigabytes, and a write-ahead log preallocated to match) are sized for mainnet.
	chainCacheMB = 16
)

// chainDataDir is the data directory of the local chain id under dir.
func chainDataDir(dir string, id int64) string {
	return filepath.Join(dir, fmt.Sprintf("eip155-%d", id))
}

// openDevChain runs the local chain id, with its data in dataDir, serving JSON-RPC on httpAddr. Its
// genesis funds the well-known development account #0, which deploys and funds what the samples
// expect. It continues the chain kept in dataDir, if any: head is the number of its head block,
// 0 for a chain that has only its genesis.
func openDevChain(id int64, dataDir, httpAddr string) (chain *devchain.Chain, head uint64, err error) {
	host, portText, err := net.SplitHostPort(httpAddr)
	if err != nil {
		return nil, 0, err
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, 0, fmt.Errorf("port of %s: %w", httpAddr, err)
	}
	funder, err := crypto.HexToECDSA(devchain.WellKnownFunderKey)
	if err != nil {
		return nil, 0, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, 0, fmt.Errorf("creating %s: %w", dataDir, err)
	}
	saved, err := savedHead(filepath.Join(dataDir, gethInstance, "chaindata"))
	if err != nil {
		return nil, 0, err
	}
	backend, err := newPersistentBackend(id, funder, dataDir, host, port)
	if err != nil {
		return nil, 0, fmt.Errorf("opening the chain kept in %s: %w; %s", dataDir, err, resetHint)
	}
	chain = &devchain.Chain{Backend: backend, URL: "http://" + httpAddr, ID: big.NewInt(id), Funder: funder}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	current, err := backend.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		_ = chain.Close()
		return nil, 0, err
	}
	if saved != (common.Hash{}) && saved != current.Hash() {
		// The blocks the rewind to genesis took off the chain are back in the pool: drop them
		// (Fork refuses to move the head over pending transactions), then restore the head.
		backend.Rollback()
		if err := backend.Fork(saved); err != nil {
			_ = chain.Close()
			return nil, 0, fmt.Errorf("restoring the head block %s of the chain kept in %s: %w; %s", saved.Hex(), dataDir, err, resetHint)
		}
		if current, err = backend.Client().HeaderByNumber(ctx, nil); err != nil {
			_ = chain.Close()
			return nil, 0, err
		}
	}
	return chain, current.Number.Uint64(), nil
}

// newPersistentBackend starts go-ethereum's simulated node for chain id with its databases in
// dataDir. NewBackend panics where it would return an error (a database it cannot open, a genesis
// that differs from the one kept, as a go-ethereum upgrade could make): that becomes an error.
func newPersistentBackend(id int64, funder *ecdsa.PrivateKey, dataDir, host string, port int) (backend *simulated.Backend, err error) {
	config := *params.AllDevChainProtocolChanges
	config.ChainID = big.NewInt(id)
	alloc := devchain.GenesisAlloc(crypto.PubkeyToAddress(funder.PublicKey))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	backend = simulated.NewBackend(alloc, func(nodeConf *node.Config, ethConf *ethconfig.Config) {
		ethConf.Genesis.Config = &config
		ethConf.StateScheme = rawdb.HashScheme
		ethConf.NoPruning = true
		ethConf.DatabaseCache = chainCacheMB
		ethConf.TrieCleanCache = chainCacheMB
		ethConf.TrieDirtyCache = chainCacheMB
		ethConf.SnapshotCache = chainCacheMB
		nodeConf.DataDir = dataDir
		nodeConf.Name = gethInstance
		nodeConf.IPCPath = "" // JSON-RPC over HTTP only; no socket in the data directory
		nodeConf.HTTPHost = host
		nodeConf.HTTPPort = port
		nodeConf.HTTPModules = []string{"eth", "net", "web3"}
	})
	return backend, nil
}

// savedHead is the head block recorded in a chain database, or the zero hash when there is no
// database yet. It must be read before the node opens the database (see above).
func savedHead(chaindata string) (common.Hash, error) {
	if _, err := os.Stat(chaindata); errors.Is(err, os.ErrNotExist) {
		return common.Hash{}, nil
	}
	db, err := pebble.New(chaindata, chainCacheMB, 16, "", true)
	if err != nil {
		return common.Hash{}, fmt.Errorf("reading the head block from %s: %w", chaindata, err)
	}
	defer func() { _ = db.Close() }()
	return rawdb.ReadHeadBlockHash(db), nil
}
