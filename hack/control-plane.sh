#!/usr/bin/env bash
# Builds the local control plane (kube-apiserver and etcd) from Go modules into $BIN_DIR, once.
# This machine has no internet but the Go module proxy, so envtest's usual download of prebuilt
# binaries cannot work; building from source is the one route that needs nothing but Go.
# Idempotent: a binary that is already there with the right version stamp is not built again.
# kubectl is not built: the machine ships one, and tests only need kube-apiserver and etcd.
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-1.36.3}"
ETCD_VERSION="${ETCD_VERSION:-3.6.16}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN_DIR="${BIN_DIR:-$ROOT/bin/k8s/${KUBE_VERSION}-linux-amd64}"
mkdir -p "$BIN_DIR"

log() { echo "control-plane: $*" >&2; }

stamp_ok() { [ -x "$BIN_DIR/$1" ] && [ "$(cat "$BIN_DIR/.$1.version" 2>/dev/null)" = "$2" ]; }

build_etcd() {
  stamp_ok etcd "$ETCD_VERSION" && return 0
  log "building etcd v$ETCD_VERSION (about 30 s)"
  local work; work="$(mktemp -d)"; trap 'rm -rf "$work"' RETURN
  (
    cd "$work"
    go mod init local/etcd-build >/dev/null 2>&1
    go mod edit -require="go.etcd.io/etcd/server/v3@v$ETCD_VERSION"
    cat > tools.go <<'GO'
//go:build tools

package tools

import _ "go.etcd.io/etcd/server/v3"
GO
    go mod tidy >/dev/null 2>&1 || go get "go.etcd.io/etcd/server/v3@v$ETCD_VERSION"
    CGO_ENABLED=0 go build -trimpath -o "$BIN_DIR/etcd" go.etcd.io/etcd/server/v3
  )
  echo "$ETCD_VERSION" > "$BIN_DIR/.etcd.version"
}

build_kube_apiserver() {
  stamp_ok kube-apiserver "$KUBE_VERSION" && return 0
  log "building kube-apiserver v$KUBE_VERSION (about 4 min cold)"
  local work; work="$(mktemp -d)"; trap 'rm -rf "$work"' RETURN
  (
    cd "$work"
    go mod init local/kube-apiserver-build >/dev/null 2>&1
    # k8s.io/kubernetes points its staging modules at ./staging; a consumer must replace each one
    # with the published module of the matching minor (v0.X.Y for v1.X.Y).
    local kmod
    kmod="$(go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
    local staging_version="v0.${KUBE_VERSION#1.}"
    go mod edit -require="k8s.io/kubernetes@v$KUBE_VERSION"
    grep -oE '^\s*k8s\.io/[a-z0-9-]+ => \./staging' "$kmod" | awk '{print $1}' | sort -u | while read -r m; do
      go mod edit -replace="$m=$m@$staging_version"
    done
    cat > tools.go <<'GO'
//go:build tools

package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
GO
    go mod tidy >/dev/null
    CGO_ENABLED=0 go build -trimpath -o "$BIN_DIR/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
  )
  echo "$KUBE_VERSION" > "$BIN_DIR/.kube-apiserver.version"
}

link_kubectl() {
  [ -x "$BIN_DIR/kubectl" ] && return 0
  local k; k="$(command -v kubectl || true)"
  if [ -n "$k" ]; then ln -sf "$k" "$BIN_DIR/kubectl"; fi
}

build_etcd
build_kube_apiserver
link_kubectl
echo "$BIN_DIR"
