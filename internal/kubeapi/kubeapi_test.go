package kubeapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestUnreachable(t *testing.T) {
	gr := schema.GroupResource{Group: "intents.transferintent.io", Resource: "apikeys"}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"deadline", fmt.Errorf("creating: %w", context.DeadlineExceeded), true},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: "x"}}, false},
		{"connection refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{"connection reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		{"503", apierrors.NewServiceUnavailable("etcd leader changed"), true},
		{"killed mid-answer", fmt.Errorf("get: %w", io.ErrUnexpectedEOF), true},
		{"EOF", fmt.Errorf("get: %w", io.EOF), true},
		{"host unreachable", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.EHOSTUNREACH}, true},
		{"cancelled", context.Canceled, true},
		{"429", apierrors.NewTooManyRequests("slow down", 1), true},
		{"504", apierrors.NewTimeoutError("took too long", 1), true},
		{"conflict", apierrors.NewConflict(gr, "k", errors.New("changed")), false},
		{"forbidden", apierrors.NewForbidden(gr, "k", errors.New("rbac")), false},
		{"invalid", apierrors.NewBadRequest("bad"), false},
		{"internal", apierrors.NewInternalError(errors.New("boom")), false},
	} {
		if got := Unreachable(tc.err); got != tc.want {
			t.Errorf("%s: Unreachable = %v, want %v", tc.name, got, tc.want)
		}
	}
}
