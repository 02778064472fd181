package registry

import (
	"errors"
	"math/big"
	"reflect"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func testChain(id string, created time.Time) Chain {
	return Chain{
		ID: id, NumericID: big.NewInt(1), Environment: EnvironmentTest,
		DisplayName: id, NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12,
		DefaultGasPriceWei: big.NewInt(1e9), NativeTokenPriceUSD: "3000", CreatedAt: created,
	}
}

func TestChainTableConflict(t *testing.T) {
	older, newer := testChain("eip155:1", t0), testChain("eip155:1", t0.Add(time.Second))
	newer.DisplayName = "newer"
	tests := []struct {
		name          string
		firstName     string
		first         Chain
		secondName    string
		second        Chain
		wantConflict  string // returned by the second Upsert
		wantServed    string
		afterDeleting string // object deleted afterwards
		wantAfter     string // served after the deletion ("" = none)
	}{
		{"older first", "a-old", older, "b-new", newer, "a-old", "a-old", "a-old", "b-new"},
		{"newer first", "b-new", newer, "a-old", older, "", "a-old", "a-old", "b-new"},
		{"same age: smaller name wins", "z", testChain("eip155:1", t0), "a", testChain("eip155:1", t0), "", "a", "a", "z"},
		{"delete the newer keeps the older", "a-old", older, "b-new", newer, "a-old", "a-old", "b-new", "a-old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var table ChainTable
			if got := table.Upsert(tt.firstName, tt.first); got != "" {
				t.Fatalf("first Upsert conflict = %q", got)
			}
			if got := table.Upsert(tt.secondName, tt.second); got != tt.wantConflict {
				t.Errorf("second Upsert conflict = %q, want %q", got, tt.wantConflict)
			}
			if c, _ := table.Get("eip155:1"); c.Name != tt.wantServed {
				t.Errorf("served %q, want %q", c.Name, tt.wantServed)
			}
			table.Delete(tt.afterDeleting)
			c, ok := table.Get("eip155:1")
			if !ok || c.Name != tt.wantAfter {
				t.Errorf("after deleting %s: served %q (%v), want %q", tt.afterDeleting, c.Name, ok, tt.wantAfter)
			}
			if n := len(table.List()); n != 1 {
				t.Errorf("List has %d chains, want 1", n)
			}
		})
	}
}

func TestChainTableListVersionAndListeners(t *testing.T) {
	table := NewChainTable()
	var got [][]string
	table.OnChange(func(ids []string) { got = append(got, ids) })

	for i, id := range []string{"eip155:8453", "eip155:10", "eip155:1"} {
		table.Upsert("c"+id[7:], testChain(id, t0.Add(time.Duration(i)*time.Second)))
	}
	var ids []string
	for _, c := range table.List() {
		ids = append(ids, c.ID)
	}
	if want := []string{"eip155:1", "eip155:10", "eip155:8453"}; !slices.Equal(ids, want) {
		t.Errorf("List ids = %v, want %v", ids, want)
	}
	if v := table.Version(); v != 3 {
		t.Errorf("Version = %d, want 3", v)
	}

	// Publishing the same row again changes nothing: no version, no notification.
	table.Upsert("c1", testChain("eip155:1", t0.Add(2*time.Second)))
	if v := table.Version(); v != 3 {
		t.Errorf("Version after a no-op = %d, want 3", v)
	}
	// A losing duplicate changes no served row either.
	table.Upsert("dup", testChain("eip155:1", t0.Add(time.Hour)))
	// An edit does.
	edited := testChain("eip155:10", t0.Add(time.Second))
	edited.DefaultGasPriceWei = big.NewInt(2e9)
	table.Upsert("c10", edited)
	table.Delete("c8453")
	table.Delete("unknown")

	want := [][]string{{"eip155:8453"}, {"eip155:10"}, {"eip155:1"}, {"eip155:10"}, {"eip155:8453"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("notifications = %v, want %v", got, want)
	}
	if _, ok := table.Get("eip155:8453"); ok {
		t.Error("deleted chain still served")
	}
	if c, _ := table.Get("eip155:10"); c.DefaultGasPriceWei.Int64() != 2e9 {
		t.Errorf("edit not served: %v", c.DefaultGasPriceWei)
	}
}

func TestChainTableZeroValue(t *testing.T) {
	var table ChainTable
	if _, ok := table.Get("eip155:1"); ok || len(table.List()) != 0 || table.Version() != 0 {
		t.Error("zero table is not empty")
	}
	table.Delete("x")
}

func TestChainTableConcurrentReaders(t *testing.T) {
	table := NewChainTable()
	table.Upsert("stable", testChain("eip155:1", t0))
	readDuringWrites(t, 500, func() error {
		if c, ok := table.Get("eip155:1"); !ok || c.Name != "stable" {
			return errors.New("stable chain missing during writes")
		}
		list := table.List()
		if !slices.IsSortedFunc(list, func(a, b Chain) int { return CompareChainIDs(a.ID, b.ID) }) {
			return errors.New("List not sorted")
		}
		return nil
	}, func(i int) {
		id := "eip155:" + string(rune('2'+i%5))
		table.Upsert("w"+id, testChain(id, t0))
		if i%3 == 0 {
			table.Delete("w" + id)
		}
	})
}

// A Chain whose settlement contract becomes verified changes nothing else in its row: the table
// must still publish it, or swaps and bridges would stay refused until some other field changed.
func TestChainTablePublishesSettlementVerification(t *testing.T) {
	table := NewChainTable()
	var notified [][]string
	table.OnChange(func(ids []string) { notified = append(notified, ids) })
	row := testChain("eip155:1", t0)
	row.SettlementAddress = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
	table.Upsert("c1", row)
	row.SettlementVerified = true
	table.Upsert("c1", row)
	if c, _ := table.Get("eip155:1"); !c.SettlementVerified {
		t.Error("the verified row is not served")
	}
	if v := table.Version(); v != 2 {
		t.Errorf("Version = %d, want 2", v)
	}
	if want := [][]string{{"eip155:1"}, {"eip155:1"}}; !slices.EqualFunc(notified, want, slices.Equal) {
		t.Errorf("notifications = %v, want %v", notified, want)
	}
}

// TestChainEqualComparesEveryField changes each field of a Chain in turn: chainEqual must see it,
// or an edit of that field alone (a new explorerUrl, say) would never be published.
func TestChainEqualComparesEveryField(t *testing.T) {
	base := Chain{ID: "eip155:1", NumericID: big.NewInt(1), DefaultGasPriceWei: big.NewInt(1), WitnessURLs: []string{"https://a"}}
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		changed := base
		changed.WitnessURLs = slices.Clone(base.WitnessURLs)
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch v := f.Addr().Interface().(type) {
		case **big.Int:
			*v = big.NewInt(2)
		case *[]string:
			*v = append(*v, "https://b")
		case *time.Time:
			*v = time.Unix(1, 0)
		case **PriceFeed:
			*v = &PriceFeed{Address: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", Decimals: 8, MaxAge: time.Hour}
		case **RefundTerms:
			*v = &RefundTerms{Contract: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", Delay: time.Hour}
		default:
			switch f.Kind() {
			case reflect.String:
				f.SetString(f.String() + "x")
			case reflect.Bool:
				f.SetBool(!f.Bool())
			case reflect.Int32, reflect.Int64:
				f.SetInt(f.Int() + 1)
			case reflect.Uint64:
				f.SetUint(f.Uint() + 1)
			default:
				t.Fatalf("field %s of kind %s: teach this test to change it", typ.Field(i).Name, f.Kind())
			}
		}
		if chainEqual(base, changed) {
			t.Errorf("chainEqual ignores %s", typ.Field(i).Name)
		}
	}
}
