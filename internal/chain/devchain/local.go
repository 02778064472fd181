package devchain

import (
	"context"
	"fmt"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
)

// DeployLocalSettlement deploys make run's settlement contract on c as `manager settlement deploy`
// does (internal/chain/deploy: CREATE2 through the deterministic deployment proxy), from the
// Funder, with deploy.LocalArgs(), so that it lands at deploy.LocalAddress(), the address
// config/samples name. It reports whether it sent a transaction (false: the chain held it
// already). Blocks are made while it waits.
func (c *Chain) DeployLocalSettlement() (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stop := c.MineEvery(20 * time.Millisecond)
	defer stop()
	res, err := deploy.Deploy(ctx, c.Backend.Client(), deploy.Request{
		ChainID: c.ID, Args: deploy.LocalArgs(), Key: c.Funder, Poll: 20 * time.Millisecond,
	})
	if err != nil {
		return false, fmt.Errorf("deploying the settlement contract: %w", err)
	}
	if res.Address != deploy.LocalAddress() {
		return false, fmt.Errorf("the settlement contract landed at %s, not at %s where the samples expect it", res.Address.Hex(), deploy.LocalAddress().Hex())
	}
	return !res.AlreadyDeployed, nil
}
