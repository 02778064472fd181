package main

import (
	"flag"
	"io"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

func TestFeeScheduleFlag(t *testing.T) {
	f := feeScheduleFlag(intent.DefaultFeeSchedule())
	if err := f.Set("swap=25+10, bridge=0+0"); err != nil {
		t.Fatal(err)
	}
	if got, want := f.String(), "transfer=0+0,swap=25+10,bridge=0+0"; got != want {
		t.Fatalf("%s, want %s", got, want)
	}
	for _, bad := range []string{"swap=25", "swap=a+b", "lend=1+1", "swap=9000+2000", "swap=-1+0"} {
		g := f
		if err := g.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
		if g != f {
			t.Errorf("%q changed the schedule", bad)
		}
	}
}

// --attestation-trusted-hosts is repeatable and reaches the watcher's options, which the intent
// service reads too (service.newTransfers).
func TestAttestationTrustedHostsFlag(t *testing.T) {
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	var o service.TransferOptions
	bindTransferFlags(fs, &o)
	if err := fs.Parse([]string{
		"--attestation-trusted-hosts=eip155:8453=rpc-a.example,rpc-b.example:8545",
		"--attestation-trusted-hosts", "eip155:1=rpc-c.example",
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := o.Watch.TrustedSources.String(), "eip155:1=rpc-c.example eip155:8453=rpc-a.example,rpc-b.example:8545"; got != want {
		t.Errorf("trusted hosts %q, want %q", got, want)
	}
	fs = flag.NewFlagSet("manager", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	bindTransferFlags(fs, &o)
	if err := fs.Parse([]string{"--attestation-trusted-hosts=rpc-a.example"}); err == nil {
		t.Error("an entry without its chain was accepted")
	}
}

// --chain-view is on by default and turns the chains' views off when false.
func TestChainViewFlag(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		disable bool
	}{{nil, false}, {[]string{"--chain-view"}, false}, {[]string{"--chain-view=false"}, true}} {
		fs := flag.NewFlagSet("manager", flag.ContinueOnError)
		var o service.TransferOptions
		bindTransferFlags(fs, &o)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if o.ChainRPC.DisableView != tt.disable {
			t.Errorf("%q: DisableView %v, want %v", tt.args, o.ChainRPC.DisableView, tt.disable)
		}
	}
}
