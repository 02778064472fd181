package intent

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// SendCallsVersion is the version of EIP-5792's wallet_sendCalls request the service answers.
const SendCallsVersion = "2.0.0"

// SendCalls is the OpenAPI WalletSendCalls: the transactions a wallet sends for an intent (the
// approval first when there is one, then the intent's tx), as the one parameter of EIP-5792's
// wallet_sendCalls, so that a wallet that batches asks its user once. AtomicRequired is false:
// the calls are correct one after the other, so a wallet that cannot batch atomically still
// sends them in order.
type SendCalls struct {
	Version        string     `json:"version"`
	ChainID        string     `json:"chainId"`
	From           string     `json:"from"`
	Calls          []SendCall `json:"calls"`
	AtomicRequired bool       `json:"atomicRequired"`
}

// SendCall is one call of a SendCalls: to, data and value as EIP-5792 has them (value a hex
// quantity of wei).
type SendCall struct {
	To    string `json:"to"`
	Data  string `json:"data"`
	Value string `json:"value"`
}

// SendCallsOf builds the wallet_sendCalls request of txs (nil ones skipped), sent by from, in
// order. All of them are on one chain; nil when there is none.
func SendCallsOf(from common.Address, txs ...*Tx) (*SendCalls, error) {
	out := &SendCalls{Version: SendCallsVersion, From: from.Hex()}
	for _, tx := range txs {
		if tx == nil {
			continue
		}
		chainID := hexutil.EncodeUint64(tx.ChainID)
		if out.ChainID != "" && out.ChainID != chainID {
			return nil, fmt.Errorf("calls on chains %s and %s cannot be one wallet_sendCalls request", out.ChainID, chainID)
		}
		out.ChainID = chainID
		value := new(big.Int)
		if tx.Value != "" {
			if _, ok := value.SetString(tx.Value, 10); !ok || value.Sign() < 0 {
				return nil, fmt.Errorf("the value %q of a call is not a decimal amount of wei", tx.Value)
			}
		}
		data := tx.Data
		if data == "" {
			data = "0x"
		}
		out.Calls = append(out.Calls, SendCall{To: common.HexToAddress(tx.To).Hex(), Data: data, Value: hexutil.EncodeBig(value)})
	}
	if len(out.Calls) == 0 {
		return nil, nil
	}
	return out, nil
}
