// Package gitops tests what GitOps tools read of the operator's objects: the Argo CD health check
// shipped in config/argocd, run by gopher-lua, the interpreter Argo CD embeds; and what they
// apply: config/default, as make deploy renders it, stored whole by a real API server
// (deploy_test.go, which needs the control plane of hack/control-plane.sh).
package gitops

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

const configDir = "../../config/argocd"

// health runs the shipped script the way Argo CD does: the object as the global obj, the
// script's return value the health.
func health(t *testing.T, obj runtime.Object) (status, message string) {
	t.Helper()
	script, err := os.ReadFile(filepath.Join(configDir, "health.lua"))
	if err != nil {
		t.Fatal(err)
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	L := lua.NewState()
	defer L.Close()
	L.SetGlobal("obj", toLua(L, content))
	if err := L.DoString(string(script)); err != nil {
		t.Fatalf("health.lua: %v", err)
	}
	hs, ok := L.Get(-1).(*lua.LTable)
	if !ok {
		t.Fatalf("health.lua returned %v, not a table", L.Get(-1))
	}
	return lua.LVAsString(hs.RawGetString("status")), lua.LVAsString(hs.RawGetString("message"))
}

// toLua converts decoded JSON as Argo CD does: objects to tables, arrays to 1-based tables.
func toLua(L *lua.LState, v any) lua.LValue {
	switch v := v.(type) {
	case map[string]any:
		t := L.NewTable()
		for k, e := range v {
			t.RawSetString(k, toLua(L, e))
		}
		return t
	case []any:
		t := L.NewTable()
		for _, e := range v {
			t.Append(toLua(L, e))
		}
		return t
	case string:
		return lua.LString(v)
	case bool:
		return lua.LBool(v)
	case int64:
		return lua.LNumber(v)
	case float64:
		return lua.LNumber(v)
	case nil:
		return lua.LNil
	}
	panic(fmt.Sprintf("toLua: %T", v))
}

func condition(kind string, status metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{Type: kind, Status: status, Reason: reason, Message: message, ObservedGeneration: 1,
		LastTransitionTime: metav1.Unix(1_800_000_000, 0)}
}

func apiKey(generation, observed int64, conds ...metav1.Condition) *v1alpha1.ApiKey {
	key := &v1alpha1.ApiKey{ObjectMeta: metav1.ObjectMeta{Name: "ci", Namespace: "tis", Generation: generation}}
	key.Status.ObservedGeneration = observed
	key.Status.Conditions = conds
	return key
}

func TestArgoCDHealth(t *testing.T) {
	for _, tc := range []struct {
		name        string
		obj         runtime.Object
		wantStatus  string
		wantMessage string
	}{
		{"no status yet", apiKey(1, 0), "Progressing", "Waiting for the operator"},
		{"status of an older generation", apiKey(2, 1, condition("Ready", "True", "Valid", "the key is accepted")),
			"Progressing", "observe generation 2"},
		{"ready", apiKey(1, 1, condition("Ready", "True", "Valid", "the key is accepted")), "Healthy", "the key is accepted"},
		{"stalled on a conflict", &v1alpha1.TokenDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: "usdt", Generation: 1},
			Status: v1alpha1.TokenDefinitionStatus{CommonStatus: v1alpha1.CommonStatus{ObservedGeneration: 1, Conditions: []metav1.Condition{
				condition("Ready", "False", "Conflict", "the older TokenDefinition usdc is served"),
				condition("Stalled", "True", "Conflict", "Conflict: the older TokenDefinition usdc is served"),
			}}},
		}, "Degraded", "Conflict: the older TokenDefinition usdc is served"},
		{"stalled on an invalid spec", &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "bad", Generation: 3},
			Status: v1alpha1.ChainStatus{CommonStatus: v1alpha1.CommonStatus{ObservedGeneration: 3, Conditions: []metav1.Condition{
				condition("Ready", "False", "InvalidSpec", "spec.settlementAddress: bad EIP-55 checksum"),
				condition("Stalled", "True", "InvalidSpec", "InvalidSpec: spec.settlementAddress: bad EIP-55 checksum"),
			}}},
		}, "Degraded", "InvalidSpec: spec.settlementAddress"},
		{"disabled on purpose", apiKey(1, 1,
			condition("Ready", "False", "Disabled", "the key is disabled"),
			condition("Stalled", "True", "Disabled", "Disabled: the key is disabled")), "Suspended", "Disabled: the key is disabled"},
		{"waiting for its Account", apiKey(1, 1,
			condition("Ready", "False", "OwnerMissing", "Account acme does not exist"),
			condition("Reconciling", "True", "OwnerMissing", "OwnerMissing: Account acme does not exist")),
			"Progressing", "OwnerMissing: Account acme does not exist"},
		{"a webhook endpoint disabled on purpose", &v1alpha1.WebhookEndpoint{
			ObjectMeta: metav1.ObjectMeta{Name: "hooks", Generation: 2},
			Status: v1alpha1.WebhookEndpointStatus{CommonStatus: v1alpha1.CommonStatus{ObservedGeneration: 2, Conditions: []metav1.Condition{
				condition("Ready", "False", "Disabled", "the endpoint is disabled: nothing is delivered"),
				condition("Stalled", "True", "Disabled", "Disabled: the endpoint is disabled: nothing is delivered"),
			}}},
		}, "Suspended", "Disabled: the endpoint is disabled"},
		{"a new intent's pending is implied by no status", &v1alpha1.TransferIntent{
			TypeMeta:   metav1.TypeMeta{Kind: "TransferIntent", APIVersion: v1alpha1.GroupVersion.String()},
			ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-02", Generation: 1},
		}, "Progressing", "pending"},
		{"a new gasless intent's unsigned is implied by no status", &v1alpha1.TransferIntent{
			TypeMeta:   metav1.TypeMeta{Kind: "TransferIntent", APIVersion: v1alpha1.GroupVersion.String()},
			ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-03", Generation: 1},
			Spec:       v1alpha1.TransferIntentSpec{Gasless: &v1alpha1.GaslessTerms{Permit2: "0x000000000022D473030F116dDEE9F6B43aC78BA3", Nonce: "1"}},
		}, "Progressing", "The intent is unsigned"},
		{"a terminal intent is served", &v1alpha1.TransferIntent{
			ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-01", Generation: 1},
			Status: v1alpha1.TransferIntentStatus{CommonStatus: v1alpha1.CommonStatus{ObservedGeneration: 1, Conditions: []metav1.Condition{
				condition("Ready", "True", "Terminal", "the intent is expired"),
			}}},
		}, "Healthy", "the intent is expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, message := health(t, tc.obj)
			if status != tc.wantStatus || !strings.Contains(message, tc.wantMessage) {
				t.Errorf("health = %s %q; want %s with %q", status, message, tc.wantStatus, tc.wantMessage)
			}
		})
	}
}

// Every kind of the API group has the health check in the shipped Component.
func TestArgoCDComponentCoversEveryKind(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(configDir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var component struct {
		ConfigMapGenerator []struct {
			Name  string   `json:"name"`
			Files []string `json:"files"`
		} `json:"configMapGenerator"`
	}
	if err := yaml.Unmarshal(raw, &component); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, g := range component.ConfigMapGenerator {
		if g.Name != "argocd-cm" {
			continue
		}
		for _, f := range g.Files {
			key, path, _ := strings.Cut(f, "=")
			files[key] = path
		}
	}
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	known := scheme.AllKnownTypes()
	for gvk := range known {
		// The kinds are those with a List kind; the rest are the options kinds every group has.
		list := gvk
		list.Kind += "List"
		if _, isKind := known[list]; gvk.Group != v1alpha1.GroupVersion.Group || !isKind {
			continue
		}
		key := "resource.customizations.health." + gvk.Group + "_" + gvk.Kind
		if files[key] != "health.lua" {
			t.Errorf("argocd-cm has no health check for %s (want %s=health.lua)", gvk.Kind, key)
		}
	}
}
