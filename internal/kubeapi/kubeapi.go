// Package kubeapi tells, from the error of a call to the Kubernetes API, whether the API server
// could not be reached in time (answer 503 and let the client retry) rather than refused the
// request (a 4xx or 500 of its own).
package kubeapi

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// Unreachable reports whether err says the Kubernetes API could not be reached in time: a missed
// deadline or a cancelled request, a refused, reset or lost connection (an API server killed in
// the middle of an answer), an unreachable host or network, a network timeout, or the API
// server's own 429, 503, 504 or server timeout.
func Unreachable(err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsTooManyRequests(err) ||
		utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) ||
		(errors.As(err, &netErr) && netErr.Timeout())
}
