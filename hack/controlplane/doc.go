// Package controlplane holds the tests of hack/control-plane.sh, the script that provides the local
// control plane (kube-apiserver and etcd) of envtest, make test and make run: its download route
// through setup-envtest, and its fallback to the build from Go modules.
package controlplane
