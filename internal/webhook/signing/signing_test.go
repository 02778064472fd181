package signing

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Two secrets with key bytes 0x00..0x1f and 0x20..0x3f.
const (
	secretA = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	secretB = "whsec_ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="
)

// The known answers were computed outside Go, from the specification's text (HMAC-SHA256 keyed with
// the base64-decoded part after whsec_, over "<id>.<timestamp>.<body>", base64 of the MAC):
//
//	printf '%s' 'evt_01KQ0000000000000000000000.1800000000.{"type":"transfer.created"}' |
//	  openssl dgst -sha256 -mac HMAC -macopt hexkey:000102...1f -binary | base64
const (
	vectorID        = "evt_01KQ0000000000000000000000"
	vectorTimestamp = 1800000000
	vectorBody      = `{"type":"transfer.created"}`
	vectorSigA      = "v1,zhSJ8ZXSdjTpaacmT8iAY3piXk8XfEWlCuwPdIWMuwE="
	vectorSigB      = "v1,eXFk+LgST80tIJIW0+XTmT28aTcZG80csmV12RFw+40="
)

func TestSignKnownAnswer(t *testing.T) {
	h, err := Sign(vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorBody), secretA)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{HeaderID: vectorID, HeaderTimestamp: "1800000000", HeaderSignature: vectorSigA}
	for name, value := range want {
		if got := h.Get(name); got != value {
			t.Errorf("%s = %q, want %q", name, got, value)
		}
	}
}

func TestSignDuringRotationCarriesBothSignatures(t *testing.T) {
	h, err := Sign(vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorBody), secretA, secretB)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.Get(HeaderSignature), vectorSigA+" "+vectorSigB; got != want {
		t.Fatalf("webhook-signature = %q, want %q", got, want)
	}
	now := time.Unix(vectorTimestamp, 0)
	// A receiver that has either secret accepts the delivery.
	for _, secret := range []string{secretA, secretB} {
		if err := Verify(h, []byte(vectorBody), now, DefaultTolerance, secret); err != nil {
			t.Errorf("a receiver with one of the two secrets refused it: %v", err)
		}
	}
	other, _ := NewSecret(nil)
	if err := Verify(h, []byte(vectorBody), now, DefaultTolerance, other); !errors.Is(err, ErrNoMatchingSignature) {
		t.Errorf("a receiver with another secret: %v, want ErrNoMatchingSignature", err)
	}
}

func TestVerifyRefusesTamperingAndStaleness(t *testing.T) {
	at := time.Unix(vectorTimestamp, 0)
	h, err := Sign(vectorID, at, []byte(vectorBody), secretA)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		header http.Header
		body   string
		now    time.Time
		want   error
	}{
		{"intact", h, vectorBody, at, nil},
		{"body changed", h, `{"type":"transfer.confirmed"}`, at, ErrNoMatchingSignature},
		{"id changed", with(h, HeaderID, "evt_01KQ0000000000000000000001"), vectorBody, at, ErrNoMatchingSignature},
		{"timestamp changed within tolerance", with(h, HeaderTimestamp, "1800000001"), vectorBody, at, ErrNoMatchingSignature},
		{"signature missing", with(h, HeaderSignature, ""), vectorBody, at, ErrMissingHeader},
		{"timestamp not a number", with(h, HeaderTimestamp, "soon"), vectorBody, at, ErrBadTimestamp},
		{"at the edge of the tolerance", h, vectorBody, at.Add(DefaultTolerance), nil},
		{"a second too old", h, vectorBody, at.Add(DefaultTolerance + time.Second), ErrTimestampTooOld},
		{"a second too far in the future", h, vectorBody, at.Add(-DefaultTolerance - time.Second), ErrTimestampTooNew},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(tc.header, []byte(tc.body), tc.now, DefaultTolerance, secretA)
			if !errors.Is(err, tc.want) {
				t.Errorf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

func with(h http.Header, name, value string) http.Header {
	c := h.Clone()
	c.Set(name, value)
	return c
}

func TestSecrets(t *testing.T) {
	s, err := NewSecret(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, SecretPrefix) {
		t.Fatalf("%q lacks the whsec_ prefix", s)
	}
	key, err := ParseSecret(s)
	if err != nil || len(key) != SecretBytes {
		t.Fatalf("ParseSecret(NewSecret()) = %d bytes, %v", len(key), err)
	}
	if again, _ := NewSecret(nil); again == s {
		t.Fatal("two new secrets are equal")
	}
	fixed, err := NewSecret(bytes.NewReader(make([]byte, SecretBytes)))
	if err != nil || fixed != "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" {
		t.Fatalf("NewSecret(zeros) = %q, %v", fixed, err)
	}
	for _, bad := range []string{
		"", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", "whsec_", "whsec_not base64!",
		"whsec_AAECAwQFBgcICQoLDA0ODxAREhMU", // 23 bytes: shorter than the specification allows
	} {
		if _, err := ParseSecret(bad); !errors.Is(err, ErrMalformedSecret) {
			t.Errorf("ParseSecret(%q) = %v, want ErrMalformedSecret", bad, err)
		}
		if _, err := Sign(vectorID, time.Now(), nil, bad); err == nil || (len(bad) > len(SecretPrefix) && strings.Contains(err.Error(), bad)) {
			t.Errorf("Sign with %q: %v (an error that does not quote the secret expected)", bad, err)
		}
	}
	if _, err := Sign(vectorID, time.Now(), nil); err == nil {
		t.Error("Sign with no secret succeeded")
	}
}

func TestEventJSON(t *testing.T) {
	at := time.Date(2027, 1, 2, 3, 4, 5, 600_000_000, time.FixedZone("CET", 3600))
	ev := Event{
		ID: NewEventID(at), Type: EventTransferConfirmed, CreatedAt: at, Environment: "test", Sequence: 3,
		Data: json.RawMessage(`{"id":"int_transfer_01KQ","status":"confirmed"}`),
	}
	if !strings.HasPrefix(ev.ID, "evt_") || len(ev.ID) != len("evt_")+26 {
		t.Fatalf("event id %q is not evt_<ULID>", ev.ID)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"` + ev.ID + `","type":"transfer.confirmed","createdAt":"2027-01-02T02:04:05.6Z","environment":"test",` +
		`"sequence":3,"data":{"id":"int_transfer_01KQ","status":"confirmed"}}`
	if string(b) != want {
		t.Fatalf("event JSON\n got %s\nwant %s", b, want)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil || back.ID != ev.ID || !back.CreatedAt.Equal(at) || string(back.Data) != string(ev.Data) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
}

func TestEventIDsSortInOrderOfCreation(t *testing.T) {
	at := time.Now()
	prev := NewEventID(at)
	for range 1000 {
		next := NewEventID(at)
		if next <= prev {
			t.Fatalf("%s after %s", next, prev)
		}
		prev = next
	}
}
