package signing

import (
	"maps"
	"reflect"
	"testing"
	"time"
)

func TestRotate(t *testing.T) {
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	until := now.Add(RotationGrace).Format(time.RFC3339)
	for _, tc := range []struct {
		name        string
		data        map[string]string
		wantData    map[string]string
		wantChanged bool
		wantUntil   time.Time
	}{
		{"first look: the secret is observed, no rotation",
			map[string]string{"secret": "A"},
			map[string]string{"secret": "A", "observed": "A"}, true, time.Time{}},
		{"nothing new",
			map[string]string{"secret": "A", "observed": "A"},
			map[string]string{"secret": "A", "observed": "A"}, false, time.Time{}},
		{"the secret changed: the old one is previous for a day",
			map[string]string{"secret": "B", "observed": "A"},
			map[string]string{"secret": "B", "observed": "B", "previous": "A", "previousExpiresAt": until}, true, now.Add(RotationGrace)},
		{"a rotation under way is kept",
			map[string]string{"secret": "B", "observed": "B", "previous": "A", "previousExpiresAt": "2027-03-01T12:00:01Z"},
			map[string]string{"secret": "B", "observed": "B", "previous": "A", "previousExpiresAt": "2027-03-01T12:00:01Z"}, false,
			now.Add(time.Second)},
		{"a rotation that is over is forgotten",
			map[string]string{"secret": "B", "observed": "B", "previous": "A", "previousExpiresAt": "2027-03-01T12:00:00Z"},
			map[string]string{"secret": "B", "observed": "B"}, true, time.Time{}},
		{"a second change during a rotation: the latest old value is previous, for a new day",
			map[string]string{"secret": "C", "observed": "B", "previous": "A", "previousExpiresAt": "2027-03-01T18:00:00Z"},
			map[string]string{"secret": "C", "observed": "C", "previous": "B", "previousExpiresAt": until}, true, now.Add(RotationGrace)},
		{"a previous secret with an unreadable expiry signs nothing",
			map[string]string{"secret": "B", "observed": "B", "previous": "A", "previousExpiresAt": "tomorrow"},
			map[string]string{"secret": "B", "observed": "B"}, true, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytesMap(tc.data)
			changed, gotUntil := Rotate(data, DefaultSecretKey, now, RotationGrace)
			if changed != tc.wantChanged || !gotUntil.Equal(tc.wantUntil) {
				t.Errorf("Rotate = %v, %v; want %v, %v", changed, gotUntil, tc.wantChanged, tc.wantUntil)
			}
			if got := stringMap(data); !reflect.DeepEqual(got, tc.wantData) {
				t.Errorf("data = %v, want %v", got, tc.wantData)
			}
		})
	}
}

func TestActiveSecrets(t *testing.T) {
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	data := bytesMap(map[string]string{"hmac": "B", "previous": "A", "previousExpiresAt": "2027-03-02T12:00:00Z"})
	if got := ActiveSecrets(data, "hmac", now); !reflect.DeepEqual(got, []string{"B", "A"}) {
		t.Errorf("during the rotation: %v, want [B A]", got)
	}
	if got := ActiveSecrets(data, "hmac", now.Add(RotationGrace)); !reflect.DeepEqual(got, []string{"B"}) {
		t.Errorf("once it is over: %v, want [B]", got)
	}
}

func bytesMap(m map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

func stringMap(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for k, v := range maps.All(m) {
		out[k] = string(v)
	}
	return out
}
