package intent

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestAssetUnmarshalJSON(t *testing.T) {
	in, out := acct("eip155:1", usdcMainnet), acct("eip155:1", wethMainnet)
	tests := []struct {
		name    string
		json    string
		want    Asset
		wantErr bool
	}{
		{name: "string", json: `"` + in + `"`, want: Asset{ID: in}},
		{name: "object", json: `{"in":"` + in + `","out":"` + out + `"}`, want: Asset{Pair: &AssetPair{In: in, Out: out}}},
		{name: "object with spaces", json: ` { "out" : "b" , "in" : "a" } `, want: Asset{Pair: &AssetPair{In: "a", Out: "b"}}},
		{name: "null leaves it absent", json: `null`, want: Asset{}},
		{name: "missing out", json: `{"in":"a"}`, wantErr: true},
		{name: "missing in", json: `{"out":"a"}`, wantErr: true},
		{name: "empty object", json: `{}`, wantErr: true},
		{name: "unknown field", json: `{"in":"a","out":"b","via":"c"}`, wantErr: true},
		{name: "case-variant field", json: `{"In":"a","out":"b"}`, wantErr: true},
		{name: "number in", json: `{"in":1,"out":"b"}`, wantErr: true},
		{name: "null in", json: `{"in":null,"out":"b"}`, wantErr: true},
		{name: "number", json: `1`, wantErr: true},
		{name: "bool", json: `true`, wantErr: true},
		{name: "array", json: `["a","b"]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Asset
			err := json.Unmarshal([]byte(tt.json), &got)
			if tt.wantErr {
				if p := asProblem(t, err); p.Kind != KindBadRequest || p.Field != "asset" {
					t.Errorf("problem = %+v, want bad-request on asset", p)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal(%s): %v", tt.json, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Unmarshal(%s) = %+v, want %+v", tt.json, got, tt.want)
			}
		})
	}
}

// The HTTP layer decodes the whole body; the asset problem must survive that with its kind.
func TestRequestDecodeKeepsAssetProblem(t *testing.T) {
	var r Request
	err := json.Unmarshal([]byte(`{"from":"x","asset":{"in":"a","out":"b","extra":1}}`), &r)
	if p := asProblem(t, err); p.Kind != KindBadRequest || p.Field != "asset" {
		t.Errorf("problem = %+v", p)
	}
}

func TestAssetMarshalKeepsForm(t *testing.T) {
	for _, a := range []Asset{{ID: "eip155:1:x"}, {Pair: &AssetPair{In: "a", Out: "b"}}} {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Asset
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, a) {
			t.Errorf("round trip of %+v via %s = %+v, %v", a, b, back, err)
		}
	}
}

// FuzzAssetJSON: never panics; anything accepted survives Marshal -> Unmarshal unchanged, and a
// refusal is always a bad-request problem the HTTP layer can map.
func FuzzAssetJSON(f *testing.F) {
	for _, seed := range []string{`"eip155:1:0xabc"`, `{"in":"a","out":"b"}`, `{"in":"a"}`, `null`, `1`, `{"in":"a","out":"b","x":0}`, `"\u0000"`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var a Asset
		if err := a.UnmarshalJSON(data); err != nil {
			var p *Problem
			if !errors.As(err, &p) || p.Kind != KindBadRequest {
				t.Fatalf("UnmarshalJSON(%q) error %v is not a bad-request problem", data, err)
			}
			return
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", a, err)
		}
		var back Asset
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, a) {
			t.Fatalf("round trip %q -> %s -> %+v, %v; want %+v", data, b, back, err, a)
		}
	})
}

func validRequest() Request {
	return Request{
		From:   acct("eip155:1", alice),
		To:     acct("eip155:1", bob),
		Asset:  single("eip155:1", usdcMainnet),
		Amount: "1.5",
	}
}

func TestParseRequestBadRequests(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Request)
		field  string
	}{
		{"missing from", func(r *Request) { r.From = "" }, "from"},
		{"bad CAIP from", func(r *Request) { r.From = "eip155:" + alice }, "from"},
		{"checksum to", func(r *Request) { r.To = "eip155:1:0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }, "to"},
		{"missing asset", func(r *Request) { r.Asset = Asset{} }, "asset"},
		{"bad asset", func(r *Request) { r.Asset = Asset{ID: "USDC"} }, "asset"},
		{"bad asset.in", func(r *Request) { r.Asset = Asset{Pair: &AssetPair{In: "x", Out: acct("eip155:1", wethMainnet)}} }, "asset.in"},
		{"empty asset.out", func(r *Request) { r.Asset = Asset{Pair: &AssetPair{In: acct("eip155:1", usdcMainnet)}} }, "asset.out"},
		{"missing amount", func(r *Request) { r.Amount = "" }, "amount"},
		{"deadline not RFC 3339", func(r *Request) { r.Deadline = "2030-01-02" }, "deadline"},
		{"deadline without offset", func(r *Request) { r.Deadline = "2030-01-02T03:04:05" }, "deadline"},
		{"callData without 0x", func(r *Request) { r.CallData = "cafe" }, "callData"},
		{"callData odd length", func(r *Request) { r.CallData = "0xcaf" }, "callData"},
		{"callData not hex", func(r *Request) { r.CallData = "0xzz" }, "callData"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRequest()
			tt.mutate(&r)
			_, err := ParseRequest(r)
			if p := asProblem(t, err); p.Kind != KindBadRequest || p.Field != tt.field {
				t.Errorf("problem = %+v, want bad-request on %s", p, tt.field)
			}
		})
	}
}

// Amount content and unsupported namespaces are the domain's to judge (422), not the parser's.
func TestParseRequestLeavesDomainChecks(t *testing.T) {
	r := validRequest()
	r.Amount = "-1e6"
	r.To = "cosmos:cosmoshub-4:cosmos1abc"
	if _, err := ParseRequest(r); err != nil {
		t.Fatalf("ParseRequest refused %+v: %v", r, err)
	}
}

func TestParseRequestNormalises(t *testing.T) {
	r := Request{
		From:     "eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		To:       "eip155:8453:0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359",
		Asset:    Asset{Pair: &AssetPair{In: "eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", Out: acct("eip155:8453", usdcBase)}},
		Amount:   "1.5",
		Deadline: "2030-01-02T05:04:05+02:00",
		CallData: "0xCAFE",
	}
	p := mustParse(t, r)
	want := Request{
		From:     acct("eip155:1", alice),
		To:       acct("eip155:8453", bob),
		Asset:    pair("eip155:1", usdcMainnet, "eip155:8453", usdcBase),
		Amount:   "1.5",
		Deadline: "2030-01-02T03:04:05Z",
		CallData: "0xcafe",
	}
	if got := p.Request(); !reflect.DeepEqual(got, want) {
		t.Errorf("Request() = %+v\nwant %+v", got, want)
	}
	if !p.Deadline.Equal(fixedNow) {
		t.Errorf("Deadline = %v, want %v", p.Deadline, fixedNow)
	}
	if again := mustParse(t, p.Request()); !reflect.DeepEqual(again, p) {
		t.Errorf("parsing the normalised request gave %+v, want %+v", again, p)
	}
}

func TestParseRequestEmptyCallData(t *testing.T) {
	r := validRequest()
	r.CallData = "0x"
	if p := mustParse(t, r); p.CallData != nil {
		t.Errorf("CallData = %x, want none", p.CallData)
	}
}

func TestKnownChains(t *testing.T) {
	r := Request{
		From:   acct("eip155:1", alice),
		To:     acct("eip155:999999", bob), // unknown: left to the domain's 422
		Asset:  pair("eip155:1", usdcMainnet, "eip155:8453", usdcBase),
		Amount: "1",
	}
	p := mustParse(t, r)
	ids := p.ChainIDs()
	wantIDs := []string{"eip155:1", "eip155:999999", "eip155:8453"}
	if len(ids) != len(wantIDs) {
		t.Fatalf("ChainIDs = %v, want %v", ids, wantIDs)
	}
	for i := range ids {
		if ids[i].String() != wantIDs[i] {
			t.Errorf("ChainIDs[%d] = %s, want %s", i, ids[i], wantIDs[i])
		}
	}
	chains := p.KnownChains(testCatalog())
	if len(chains) != 2 || chains[0].ID != "eip155:1" || chains[1].ID != "eip155:8453" {
		t.Errorf("KnownChains = %v, want eip155:1 then eip155:8453", chains)
	}
	if chains[1].NumericID.Int64() != 8453 {
		t.Errorf("NumericID = %v, the 403 needs the numeric id", chains[1].NumericID)
	}
}
