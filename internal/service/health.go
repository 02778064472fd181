package service

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	intentsv1alpha1 "github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apihealth"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// healthReadTimeout bounds the cache read of /health's chain states.
const healthReadTimeout = time.Second

// dependencies are the outside systems a replica may use besides the Kubernetes API and the
// chains; nil for those not configured.
type dependencies struct {
	redis    *ratelimit.RedisStore
	database *postgres.DB
}

// dependencyHealth returns /health's states of Redis and of the archive (each probed by this
// replica every 2 s, when configured) and of each Chain's node (its RPCReachable condition, from
// the leader's probes). The values are fixed phrases: /health is public, and errors can name
// addresses.
func dependencyHealth(mgr ctrl.Manager, namespace string, outside dependencies) (func(context.Context) map[string]string, error) {
	var redisHealth, archiveHealth *apihealth.Checker
	if shared := outside.redis; shared != nil {
		redisHealth = &apihealth.Checker{
			Subject:     "Redis",
			Consequence: "rate limits and sign-in throttling are counted per replica until it does",
			Log:         mgr.GetLogger().WithName("redishealth"),
			Timeout:     time.Second,
			Probe:       func(ctx context.Context) error { return shared.Client.Ping(ctx).Err() },
		}
		if err := mgr.Add(redisHealth); err != nil {
			return nil, err
		}
	}
	if db := outside.database; db != nil {
		archiveHealth = &apihealth.Checker{
			Subject:     "the archive (PostgreSQL)",
			Consequence: "finished intents stay TransferIntents, and reads of archived intents answer 503, until it does",
			Log:         mgr.GetLogger().WithName("archivehealth"),
			Timeout:     time.Second,
			Probe:       db.Ping,
		}
		if err := mgr.Add(archiveHealth); err != nil {
			return nil, err
		}
	}
	reader := mgr.GetClient()
	return func(ctx context.Context) map[string]string {
		states := map[string]string{}
		if redisHealth != nil {
			states["redis"] = redisHealth.State()
		}
		if archiveHealth != nil {
			states["archive"] = archiveHealth.State()
		}
		ctx, cancel := context.WithTimeout(ctx, healthReadTimeout)
		defer cancel()
		var chains intentsv1alpha1.ChainList
		if err := reader.List(ctx, &chains, client.InNamespace(namespace)); err != nil {
			return states // the cache not synced yet: /health says so under "cache"
		}
		for _, c := range chains.Items {
			if cond := meta.FindStatusCondition(c.Status.Conditions, intentsv1alpha1.ConditionRPCReachable); cond != nil {
				states["chain "+c.Spec.ChainID] = map[bool]string{true: "ok", false: "unreachable"}[cond.Status == metav1.ConditionTrue]
			}
		}
		return states
	}, nil
}
