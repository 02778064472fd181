package registry

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

const (
	usdcA = "eip155:1337:0x5FbDB2315678afecb367f032d93F642f64180aa3"
	usdcB = "eip155:1338:0x5FbDB2315678afecb367f032d93F642f64180aa3"
	ethB  = "eip155:1338:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"
)

func names(fs []Filler) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

func TestFillerDirectoryServing(t *testing.T) {
	d := NewFillerDirectory()
	payouts := map[string]common.Address{"eip155:1338": common.HexToAddress("0x01")}
	d.Upsert(Filler{Name: "any", Secret: "whsec_x", Payouts: payouts, Routes: []FillerRoute{{From: "eip155:1337", To: "eip155:1338"}}})
	d.Upsert(Filler{Name: "usdc-only", Payouts: payouts, Routes: []FillerRoute{
		{From: "eip155:1337", To: "eip155:1338", TokensIn: []string{usdcA}, TokensOut: []string{usdcB}},
		// A second route on the same pair: listed once.
		{From: "eip155:1337", To: "eip155:1338", TokensIn: []string{usdcA}},
	}})
	d.Upsert(Filler{Name: "to-usdc", Payouts: payouts, Routes: []FillerRoute{
		{From: "eip155:1337", To: "eip155:1338", TokensOut: []string{usdcB}},
	}})
	d.Upsert(Filler{Name: "other-way", Payouts: payouts, Routes: []FillerRoute{{From: "eip155:1338", To: "eip155:1337"}}})

	cases := []struct {
		from, to, in, out string
		want              []string
	}{
		{"eip155:1337", "eip155:1338", usdcA, usdcB, []string{"any", "to-usdc", "usdc-only"}},
		// EIP-55 case does not matter.
		{"eip155:1337", "eip155:1338", "eip155:1337:0x5fbdb2315678afecb367f032d93f642f64180aa3", usdcB, []string{"any", "to-usdc", "usdc-only"}},
		{"eip155:1337", "eip155:1338", usdcA, ethB, []string{"any", "usdc-only"}},
		{"eip155:1337", "eip155:1338", "eip155:1337:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", ethB, []string{"any"}},
		{"eip155:1338", "eip155:1337", usdcB, usdcA, []string{"other-way"}},
		{"eip155:1", "eip155:1338", usdcA, usdcB, nil},
	}
	for _, tc := range cases {
		if got := names(d.Serving(tc.from, tc.to, tc.in, tc.out)); !slices.Equal(got, tc.want) {
			t.Errorf("Serving(%s → %s, %s → %s) = %v, want %v", tc.from, tc.to, tc.in, tc.out, got, tc.want)
		}
	}
	d.Delete("any")
	if got := names(d.Serving("eip155:1337", "eip155:1338", usdcA, usdcB)); !slices.Equal(got, []string{"to-usdc", "usdc-only"}) {
		t.Errorf("after deleting any: %v", got)
	}
	if _, ok := d.Get("any"); ok || d.Len() != 3 {
		t.Errorf("a deleted filler is still there (%d)", d.Len())
	}
	f, ok := d.Get("usdc-only")
	if a, has := f.Payout("eip155:1338"); !ok || !has || a != common.HexToAddress("0x01") {
		t.Errorf("Get/Payout: %v %v %v", ok, has, a)
	}
}

func TestFillerNeverPrintsItsSecret(t *testing.T) {
	f := Filler{Name: "a", Secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"}
	for _, s := range []string{fmt.Sprint(f), fmt.Sprintf("%v %+v %#v %s", f, f, f, f)} {
		if strings.Contains(s, "whsec_") {
			t.Errorf("the secret is printed: %s", s)
		}
	}
}

func TestFillerDirectoryConcurrentReads(t *testing.T) {
	d := NewFillerDirectory()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 200 {
				d.Upsert(Filler{Name: fmt.Sprint(i, j%5), Routes: []FillerRoute{{From: "eip155:1", To: "eip155:2"}}})
				if j%3 == 0 {
					d.Delete(fmt.Sprint(i, j%5))
				}
			}
		})
		wg.Go(func() {
			for range 500 {
				_ = d.Serving("eip155:1", "eip155:2", "eip155:1:0x01", "eip155:2:0x02")
			}
		})
	}
	wg.Wait()
}

func TestFillerDirectoryNamesAPayoutAddress(t *testing.T) {
	d := NewFillerDirectory()
	shared, own := common.HexToAddress("0x00000000000000000000000000000000000000aa"), common.HexToAddress("0x00000000000000000000000000000000000000bb")
	d.Upsert(Filler{Name: "zed", Payouts: map[string]common.Address{"eip155:1": shared}})
	d.Upsert(Filler{Name: "amy", Payouts: map[string]common.Address{"eip155:1": shared, "eip155:10": own}})
	if got := d.NameOf("eip155:1", shared); got != "amy" {
		t.Fatalf("shared payout named %q, want the first by name", got)
	}
	if got := d.NameOf("eip155:10", own); got != "amy" {
		t.Fatalf("payout named %q", got)
	}
	if got := d.NameOf("eip155:1", own); got != "" {
		t.Fatalf("a payout on another chain named %q", got)
	}
	d.Delete("amy")
	if got := d.NameOf("eip155:10", own); got != "" {
		t.Fatalf("a deleted filler still named: %q", got)
	}
}

func TestAFadingFillerIsNotAskedUntilItsTime(t *testing.T) {
	until := time.Date(2026, 12, 5, 3, 0, 0, 0, time.UTC)
	f := Filler{NotAskedUntil: until}
	if f.AskedAt(until.Add(-time.Nanosecond)) || !f.AskedAt(until) || !(Filler{}).AskedAt(until) {
		t.Fatal("AskedAt does not end at NotAskedUntil")
	}
}
