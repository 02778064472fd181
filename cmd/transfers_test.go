package main

import (
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/intent"
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
