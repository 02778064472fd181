#!/usr/bin/env bash
# Builds a Go command at a pinned version into bin/NAME-VERSION once, and prints its path; later
# calls only print the path. For tools whose dependency graph must stay out of both go.mod and the
# tools module hack/tools (helm, kubeconform: see the Makefile).
#
#   hack/gotool.sh helm.sh/helm/v3/cmd/helm v3.22.0   ->  bin/helm-v3.22.0
#
# `go install pkg@version` resolves the tool's own go.mod, as its authors tested it, in module
# mode outside any workspace; nothing here reads or writes this repository's go.mod.
set -euo pipefail

pkg="${1:?usage: $0 PACKAGE VERSION}"
version="${2:?usage: $0 PACKAGE VERSION}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCALBIN="${LOCALBIN:-$ROOT/bin}"
name="${pkg##*/}"
out="$LOCALBIN/$name-$version"

if [ ! -x "$out" ]; then
  mkdir -p "$LOCALBIN"
  tmp="$(mktemp -d "$LOCALBIN/.gotool.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  echo "building $pkg@$version into $out" >&2
  GOWORK=off GOBIN="$tmp" CGO_ENABLED=0 "${GO:-go}" install "$pkg@$version" >&2
  mv "$tmp/$name" "$out"
fi
echo "$out"
