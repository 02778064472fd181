// Package kubeapi tells, from the error of a call to the Kubernetes API, whether the API server
// could not be reached in time (answer 503 and let the client retry) rather than refused the
// request (a 4xx or 500 of its own).
package kubeapi

import (
	"context"
	"errors"
	"net"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// Unreachable reports whether err says the Kubernetes API could not be reached in time: a missed
// deadline, a refused or reset connection, a network timeout, or the API server's own 429, 503,
// 504 or server timeout.
func Unreachable(err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsTooManyRequests(err) ||
		utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) || (errors.As(err, &netErr) && netErr.Timeout())
}
