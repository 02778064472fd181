/*
Copyright 2026 The Transfer Intent Service Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

const (
	// readyTimeout bounds the wait for the controllers to reconcile every sample, cold caches and a
	// busy 2-core CI machine included.
	readyTimeout = 2 * time.Minute
	pollInterval = 500 * time.Millisecond

	group   = "intents.transferintent.io"
	version = "v1alpha1"
)

// readyKinds are the kinds whose samples must all become Ready=True once applied.
var readyKinds = []string{"Chain", "TokenDefinition", "Account", "ApiKey", "Filler"}

// The samples are applied once; each kind is then checked on its own, so that one kind failing
// does not hide the state of the others (ContinueOnFailure).
var _ = Describe("config/samples", Ordered, ContinueOnFailure, func() {
	BeforeAll(func() {
		By("applying config/samples with kubectl, as a user would")
		out, err := kubectl("apply", "--namespace", namespace, "-k", "config/samples")
		Expect(err).NotTo(HaveOccurred(), "kubectl apply -k config/samples:\n%s", out)
	})

	for _, kind := range readyKinds {
		It(fmt.Sprintf("every %s becomes Ready", kind), func() {
			names := sampleNames(kind)
			Expect(names).NotTo(BeEmpty(), "config/samples has no %s", kind)

			Eventually(func() error {
				if err := manager.Running(); err != nil {
					return StopTrying(err.Error())
				}
				return notReady(kind, names)
			}).WithTimeout(readyTimeout).WithPolling(pollInterval).Should(Succeed())
		})
	}
})

var _ = Describe("the manager", Ordered, func() {
	It("reports ready on its health probe address", func() {
		url := "http://" + probeAddr + "/readyz"
		Eventually(func() error {
			if err := manager.Running(); err != nil {
				return StopTrying(err.Error())
			}
			resp, err := http.Get(url) //nolint:noctx // a plain probe, bounded by Eventually
			if err != nil {
				return err
			}
			defer func() { _ = resp.Body.Close() }()
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, body)
			}
			return nil
		}).WithTimeout(readyTimeout).WithPolling(pollInterval).Should(Succeed())
	})
})

// sampleNames renders config/samples as kubectl would apply it and returns the names of the
// objects of one kind, so that adding a sample needs no change here.
func sampleNames(kind string) []string {
	out, err := runKubectl("kustomize", "config/samples")
	Expect(err).NotTo(HaveOccurred(), "kubectl kustomize config/samples:\n%s", out)

	var names []string
	decoder := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(out), 4096)
	for {
		obj := &unstructured.Unstructured{}
		err := decoder.Decode(&obj.Object)
		if errors.Is(err, io.EOF) {
			break
		}
		Expect(err).NotTo(HaveOccurred())
		if obj.Object == nil {
			continue
		}
		if obj.GroupVersionKind() == (schema.GroupVersionKind{Group: group, Version: version, Kind: kind}) {
			names = append(names, obj.GetName())
		}
	}
	sort.Strings(names)
	return names
}

// notReady returns nil when every named object of kind has the condition Ready=True, and otherwise
// an error listing each one that has not, with its condition, so a failure says why.
func notReady(kind string, names []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var pending []string
	for _, name := range names {
		obj := &unstructured.Unstructured{}
		obj.SetGroupVersionKind(schema.GroupVersionKind{Group: group, Version: version, Kind: kind})
		err := k8sClient.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, obj)
		switch {
		case apierrors.IsNotFound(err):
			pending = append(pending, name+": not found")
			continue
		case err != nil:
			return err
		}
		if state := readyCondition(obj); state != "True" {
			pending = append(pending, name+": "+state)
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("%s not Ready yet:\n  %s", kind, strings.Join(pending, "\n  "))
	}
	return nil
}

// readyCondition describes the Ready condition of obj: "True", or its status, reason and message.
func readyCondition(obj *unstructured.Unstructured) string {
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conditions {
		cond, ok := c.(map[string]any)
		if !ok || cond["type"] != "Ready" {
			continue
		}
		if cond["status"] == "True" {
			return "True"
		}
		return fmt.Sprintf("Ready=%v reason=%v: %v", cond["status"], cond["reason"], cond["message"])
	}
	return "no Ready condition"
}
