package apiserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

func TestTransferDomainFailures(t *testing.T) {
	h := newTransferHarness(t)
	cases := []struct {
		name  string
		body  transferBody
		want  problem.Type
		field string
	}{
		{"unknown token", usdcTransfer().with("asset", caip10(sepolia, bobAddr)), problem.ValidationFailed, "asset"},
		{"unknown chain", usdcTransfer().with("to", "eip155:999999:"+eip55(bobAddr)), problem.ValidationFailed, "to"},
		{"unsupported namespace", usdcTransfer().with("to", "cosmos:cosmoshub-4:cosmos1abc"), problem.ValidationFailed, "to"},
		{"asset on another chain", usdcTransfer().with("asset", caip10(baseSepolia, usdcBaseSepolia)), problem.ValidationFailed, "asset"},
		{"too many decimals", usdcTransfer().with("amount", "1.0000001"), problem.ValidationFailed, "amount"},
		{"zero amount", usdcTransfer().with("amount", "0"), problem.ValidationFailed, "amount"},
		{"deadline passed", usdcTransfer().with("deadline", "2020-01-01T00:00:00Z"), problem.ValidationFailed, "deadline"},
		{"bridge without a route", usdcTransfer().with("to", caip10(arbSepolia, bobAddr)), problem.CurrencyError, ""},
	}
	for _, path := range []string{simulatePath, transfersPath} {
		for _, tc := range cases {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				resp, body := h.post(t, path, testKeyA, tc.body.String())
				p := assertProblem(t, resp, body, tc.want, path)
				if tc.field != "" && p.Details["field"] != tc.field {
					t.Fatalf("details %v, want field %s", p.Details, tc.field)
				}
			})
		}
	}
}

func TestTransferServiceFailure(t *testing.T) {
	h := newTransferHarness(t, func(c *transferConfig) {
		c.transfers = func(*intent.Service) TransferService { return failingTransfers{errors.New("chain node unreachable")} }
	})
	for _, path := range []string{simulatePath, transfersPath} {
		resp, body := h.post(t, path, testKeyA, usdcTransfer().String())
		p := assertProblem(t, resp, body, problem.TransferServiceFailure, path)
		if strings.Contains(p.Detail, "unreachable") {
			t.Fatalf("detail leaks the internal error: %q", p.Detail)
		}
	}

	// A store that cannot write is the transfer service failing too.
	h = newTransferHarness(t, func(c *transferConfig) {
		c.funcs = &interceptor.Funcs{Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
			return errors.New("etcdserver: request timed out")
		}}
	})
	resp, body := h.post(t, transfersPath, testKeyA, usdcTransfer().String())
	assertProblem(t, resp, body, problem.TransferServiceFailure, transfersPath)
	resp, body = h.post(t, transfersPath, testKeyA, usdcTransfer().String(), IdempotencyKeyHeader, "k1")
	assertProblem(t, resp, body, problem.TransferServiceFailure, transfersPath)
}
