#!/usr/bin/env bash
# Prints the manifests of config/default with the manager image set to IMG (the first argument),
# for `make deploy`, `make undeploy` and `make build-installer`.
#
# kubebuilder's scaffold runs `kustomize edit set image`, which rewrites a tracked file on every
# deploy. Here the image is set in a throwaway overlay instead, so deploying never dirties the tree.
set -euo pipefail

IMG="${1:?usage: $0 IMAGE (for example registry.example.com/transfer-intent-service:v0.1.0)}"
KUSTOMIZE="${KUSTOMIZE:-kubectl kustomize}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Split IMG into name and tag or digest. A ':' before the last '/' belongs to a registry port
# (localhost:5000/app), not to a tag.
name="$IMG" tag="" digest=""
if [[ "$IMG" == *@* ]]; then
  name="${IMG%%@*}" digest="${IMG#*@}"
elif [[ "${IMG##*/}" == *:* ]]; then
  name="${IMG%:*}" tag="${IMG##*:}"
fi

# Inside the tree (in the git-ignored .local/), so that the overlay may refer to config/default.
mkdir -p "$ROOT/.local"
overlay="$(mktemp -d "$ROOT/.local/deploy-overlay.XXXXXX")"
trap 'rm -rf "$overlay"' EXIT
{
  echo "apiVersion: kustomize.config.k8s.io/v1beta1"
  echo "kind: Kustomization"
  echo "resources:"
  echo "- ../../config/default"
  echo "images:"
  echo "- name: transfer-intent-service"
  echo "  newName: \"$name\""
  if [ -n "$digest" ]; then echo "  digest: \"$digest\""; fi
  if [ -n "$tag" ]; then echo "  newTag: \"$tag\""; fi
} >"$overlay/kustomization.yaml"

$KUSTOMIZE "$overlay"
