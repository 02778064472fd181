#!/usr/bin/env bash
# Provides the local control plane (kube-apiserver and etcd, and kubectl when the machine has none)
# in $BIN_DIR, once, and prints that directory on stdout (use it as KUBEBUILDER_ASSETS). Everything
# else goes to stderr.
#
# Two routes, tried in this order:
#  1. download, the kubebuilder way: setup-envtest (installed from the Go module proxy into bin/ by
#     hack/gotool.sh) fetches the envtest archive of $KUBE_VERSION listed in the index at
#     $ENVTEST_INDEX_URL (envtest-releases.yaml) and checks its SHA-512. Seconds on a normal network.
#  2. build from Go modules, when the index cannot be fetched within $ENVTEST_INDEX_TIMEOUT seconds
#     or the download fails: the one route that needs nothing but the Go module proxy (this
#     project's development machines reach nothing else), about 20 minutes cold on 2 cores.
# The route taken, and why, is printed on stderr. ENVTEST_INDEX_URL= (empty) skips the download.
#
# Idempotent: binaries that are already there with the right version stamp are not fetched or
# built again, whichever route put them there.
# Safe to run concurrently (two make targets, two terminals): runs are serialised with a lock,
# and each binary is moved into place atomically before its stamp is written, so a reader never
# sees a half-written binary and an interrupted run is simply redone next time.
#
# kubectl: the machine's kubectl is linked if there is one; otherwise the envtest archive's is
# used, or one is built from the same Kubernetes release (about 1 min more), so a fresh clone
# needs nothing but Go.
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-1.37.2}"
# The etcd of the build route; the download route takes the etcd of the envtest archive of
# KUBE_VERSION (the one that Kubernetes release is tested with).
ETCD_VERSION="${ETCD_VERSION:-3.7.0}"
ENVTEST_INDEX_URL="${ENVTEST_INDEX_URL-https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml}"
ENVTEST_INDEX_TIMEOUT="${ENVTEST_INDEX_TIMEOUT:-5}"
# setup-envtest's minor follows controller-runtime's in go.mod, as kubebuilder's scaffold pins it.
SETUP_ENVTEST_VERSION="${SETUP_ENVTEST_VERSION:-v0.25.1}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { echo "control-plane: $*" >&2; }
die() { log "error: $*"; exit 1; }

command -v go >/dev/null 2>&1 || die "go is not on PATH; install Go 1.26 (https://go.dev/dl/)"

# The binaries run on this machine, whatever GOOS/GOARCH the caller exported (a cross build of the
# manager must not produce an etcd that cannot start here). Module mode with no workspace: the build
# happens in a scratch module and must not see a go.work of the caller.
GOOS="$(go env GOHOSTOS)"
GOARCH="$(go env GOHOSTARCH)"
export GOOS GOARCH GOWORK=off CGO_ENABLED=0

BIN_DIR="${BIN_DIR:-$ROOT/bin/k8s/${KUBE_VERSION}-${GOOS}-${GOARCH}}"
mkdir -p "$BIN_DIR"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/control-plane.XXXXXX")"
LOCK_DIR=""
cleanup() {
  rm -rf "$WORK"
  rm -f "$BIN_DIR"/.*.partial.$$ 2>/dev/null || true
  if [ -n "$LOCK_DIR" ]; then rm -rf "$LOCK_DIR"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One build at a time per BIN_DIR. flock releases the lock when this process exits, however it exits.
# Without flock (not on every system), fall back to a directory lock that notices a dead holder.
acquire_lock() {
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$BIN_DIR/.lock"
    if ! flock -n 9; then
      log "another build of the control plane is running; waiting for it"
      flock 9
    fi
    return 0
  fi
  local dir="$BIN_DIR/.lock.d" holder waited=0
  until mkdir "$dir" 2>/dev/null; do
    holder="$(cat "$dir/pid" 2>/dev/null || true)"
    if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
      log "removing stale lock of process $holder"
      rm -rf "$dir"
      continue
    fi
    [ "$waited" = 0 ] && log "another build of the control plane is running; waiting for it"
    waited=1
    sleep 2
  done
  echo $$ >"$dir/pid"
  LOCK_DIR="$dir"
}

# A stamp is the version plus the revision of this recipe: bump RECIPE when the way a binary is built
# changes, and every checkout rebuilds once.
RECIPE=3
stamp_ok() { [ -x "$BIN_DIR/$1" ] && [ "$(cat "$BIN_DIR/.$1.version" 2>/dev/null)" = "$2 recipe-$RECIPE" ]; }

# A downloaded binary's stamp names the envtest release it came from: the archive of a Kubernetes
# version holds the etcd that release was tested with, whatever ETCD_VERSION says.
DOWNLOAD_STAMP="envtest-$KUBE_VERSION setup-envtest"
downloaded_ok() { [ -x "$BIN_DIR/$1" ] && [ "$(cat "$BIN_DIR/.$1.version" 2>/dev/null)" = "$DOWNLOAD_STAMP" ]; }

# have_control_plane is true when both servers are there, by either route.
have_control_plane() {
  { stamp_ok etcd "$ETCD_VERSION" && stamp_ok kube-apiserver "$KUBE_VERSION"; } ||
    { downloaded_ok etcd && downloaded_ok kube-apiserver; }
}

# install_binary NAME VERSION BUILT_FILE [STAMP]: atomic rename inside BIN_DIR, then the stamp.
install_binary() {
  local name="$1" version="$2" built="$3" partial="$BIN_DIR/.$1.partial.$$"
  local stamp="${4:-$version recipe-$RECIPE}"
  cp "$built" "$partial"
  chmod 0755 "$partial"
  mv -f "$partial" "$BIN_DIR/$name"
  echo "$stamp" >"$BIN_DIR/.$name.version"
}

# download_control_plane is the kubebuilder route. It returns non-zero, having set FALLBACK_REASON,
# when the route is not available; nothing is installed then. The index is fetched first, with a
# deadline, so that a machine without that network (this project's development VMs reach only the
# Go module proxy) learns it in seconds, before setup-envtest is even built. The archive's download
# has no such deadline: on a slow but working network it may take minutes and still beat the build.
FALLBACK_REASON=""
download_control_plane() {
  local archive="envtest-v$KUBE_VERSION-$GOOS-$GOARCH.tar.gz" out setup_envtest dir name
  if [ -z "$ENVTEST_INDEX_URL" ]; then
    FALLBACK_REASON="ENVTEST_INDEX_URL is empty"
    return 1
  fi
  if ! command -v curl >/dev/null 2>&1; then
    FALLBACK_REASON="no curl to fetch the index $ENVTEST_INDEX_URL"
    return 1
  fi
  if ! out="$(curl -fsSL --connect-timeout "$ENVTEST_INDEX_TIMEOUT" --max-time "$ENVTEST_INDEX_TIMEOUT" \
    -o "$WORK/index.yaml" "$ENVTEST_INDEX_URL" 2>&1)"; then
    FALLBACK_REASON="the index $ENVTEST_INDEX_URL was not fetched within ${ENVTEST_INDEX_TIMEOUT}s: ${out:-curl failed}"
    return 1
  fi
  # setup-envtest matches archive names exactly (envtest-vX.Y.Z-OS-ARCH.tar.gz); asking it for a
  # release the index does not list would only fail later with a less direct message.
  if ! grep -qF "$archive" "$WORK/index.yaml"; then
    FALLBACK_REASON="the index $ENVTEST_INDEX_URL lists no $archive"
    return 1
  fi
  log "route: download with setup-envtest $SETUP_ENVTEST_VERSION from the index $ENVTEST_INDEX_URL"
  if ! setup_envtest="$(LOCALBIN="${LOCALBIN:-$ROOT/bin}" "$ROOT/hack/gotool.sh" \
    sigs.k8s.io/controller-runtime/tools/setup-envtest "$SETUP_ENVTEST_VERSION")"; then
    FALLBACK_REASON="setup-envtest $SETUP_ENVTEST_VERSION could not be installed"
    return 1
  fi
  # Into a store of its own: setup-envtest empties the directory of a version before unpacking,
  # and BIN_DIR holds the lock and may hold another route's binaries until ours are in place.
  # It verifies the archive's SHA-512 against the index (--verify, its default).
  if ! dir="$("$setup_envtest" use "$KUBE_VERSION" --index "$ENVTEST_INDEX_URL" --bin-dir "$WORK/store" \
    --os "$GOOS" --arch "$GOARCH" -p path 2>"$WORK/setup-envtest.log")"; then
    FALLBACK_REASON="setup-envtest failed: $(tail -n 3 "$WORK/setup-envtest.log" | tr '\n' ' ')"
    return 1
  fi
  for name in kube-apiserver etcd; do
    if [ ! -x "$dir/$name" ]; then
      FALLBACK_REASON="the archive $archive has no $name"
      return 1
    fi
  done
  [ -x "$dir/kubectl" ] && [ ! -x "$BIN_DIR/kubectl" ] && install_binary kubectl "" "$dir/kubectl" "$DOWNLOAD_STAMP"
  install_binary etcd "" "$dir/etcd" "$DOWNLOAD_STAMP"
  install_binary kube-apiserver "" "$dir/kube-apiserver" "$DOWNLOAD_STAMP"
  return 0
}

# need_kubectl is true when the machine has no kubectl of its own and none was built yet.
need_kubectl() {
  [ -x "$BIN_DIR/kubectl" ] && return 1
  ! command -v kubectl >/dev/null 2>&1
}

# k8s.io/kubernetes points its staging modules at ./staging; a consumer must replace each one with
# the published module of the matching minor (v0.X.Y for v1.X.Y).
prepare_kube_module() {
  local mod="$WORK/kube" kmod staging_version="v0.${KUBE_VERSION#1.}"
  mkdir -p "$mod"
  cd "$mod"
  go mod init local/kube-build >/dev/null 2>&1
  # go mod download fails with its error in the JSON, on stdout: said here rather than lost.
  kmod="$(go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')" || true
  [ -f "$kmod" ] || die "could not download k8s.io/kubernetes@v$KUBE_VERSION from the Go module proxy ($(go env GOPROXY))"
  go mod edit -require="k8s.io/kubernetes@v$KUBE_VERSION"
  local staging
  staging="$(grep -oE '^\s*k8s\.io/[a-z0-9-]+ => \./staging' "$kmod" | awk '{print $1}' | sort -u)"
  [ -n "$staging" ] || die "no staging replacements found in $kmod; has the layout of k8s.io/kubernetes changed?"
  local m
  for m in $staging; do
    go mod edit -replace="$m=$m@$staging_version"
  done
  align_with_service
}

# align_with_service requires, of every module the service's go.mod requires, its version there.
# A requirement only raises what minimal version selection picks (a module kube-apiserver needs
# newer stays newer), so the build is the one Kubernetes tested wherever the service is not ahead.
# Where both select the same version, and with the same flags (CGO_ENABLED=0, -trimpath, as make
# run's manager is built), the compiled packages of the two builds are one entry of Go's build
# cache: on a fresh machine the manager's build then reuses most of client-go, apimachinery,
# k8s.io/api, gRPC, protobuf and OpenTelemetry from kube-apiserver's, or the other way round.
align_with_service() {
  local service_mod="$ROOT/go.mod" path version edits=()
  [ -f "$service_mod" ] || return 0
  while read -r path version; do
    case "$path" in k8s.io/kubernetes | "") continue ;; esac
    edits+=("-require=$path@$version")
  done < <(awk '/^require \($/ { inside = 1; next } inside && /^\)/ { inside = 0 } inside && $1 !~ /^\/\// { print $1, $2 }' "$service_mod")
  [ "${#edits[@]}" = 0 ] || go mod edit "${edits[@]}"
}

# Stamp the release into the binaries, so that `--version` and kubectl's version-skew check see the
# real version instead of v0.0.0-master.
kube_ldflags() {
  local minor="${KUBE_VERSION#1.}"
  minor="${minor%%.*}"
  local v
  for v in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    printf -- '-X %s.gitVersion=v%s -X %s.gitMajor=1 -X %s.gitMinor=%s -X %s.gitTreeState=clean ' \
      "$v" "$KUBE_VERSION" "$v" "$v" "$minor" "$v"
  done
}

# build_control_plane builds what is missing of etcd, kube-apiserver and kubectl in one module
# and one go build, so that the packages they share (gRPC, protobuf, OpenTelemetry, etcd's client)
# are compiled once and the go command schedules all their packages over every core.
build_control_plane() {
  local pkgs=() names=() versions=()
  if ! stamp_ok etcd "$ETCD_VERSION"; then
    pkgs+=("go.etcd.io/etcd/server/v3") names+=(etcd) versions+=("$ETCD_VERSION")
    log "building etcd v$ETCD_VERSION"
  fi
  if ! stamp_ok kube-apiserver "$KUBE_VERSION"; then
    pkgs+=("k8s.io/kubernetes/cmd/kube-apiserver") names+=(kube-apiserver) versions+=("$KUBE_VERSION")
    log "building kube-apiserver v$KUBE_VERSION (about 4 min cold)"
  fi
  if need_kubectl; then
    pkgs+=("k8s.io/kubernetes/cmd/kubectl") names+=(kubectl) versions+=("$KUBE_VERSION")
    log "no kubectl on PATH: building kubectl v$KUBE_VERSION (about 1 min more)"
  fi
  [ "${#pkgs[@]}" = 0 ] && return 0
  (
    prepare_kube_module
    # The packages, not only the modules: go get then records what their imports need (go.sum).
    local get=("k8s.io/kubernetes/cmd/kube-apiserver@v$KUBE_VERSION" "go.etcd.io/etcd/server/v3@v$ETCD_VERSION")
    need_kubectl && get+=("k8s.io/kubernetes/cmd/kubectl@v$KUBE_VERSION")
    go get "${get[@]}" 2>"$WORK/get.log" || { cat "$WORK/get.log" >&2; exit 1; }
    # An etcd older than the one Kubernetes requires would have made go get step Kubernetes down.
    [ "$(go list -m -f '{{.Version}}' k8s.io/kubernetes)" = "v$KUBE_VERSION" ] ||
      die "ETCD_VERSION=$ETCD_VERSION is older than the etcd k8s.io/kubernetes@v$KUBE_VERSION requires; use that one ($(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3))"
    [ "$(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)" = "v$ETCD_VERSION" ] ||
      die "k8s.io/kubernetes@v$KUBE_VERSION requires a newer etcd than ETCD_VERSION=$ETCD_VERSION: $(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)"
    # -s -w: no symbol table or DWARF (nobody debugs the control plane), a quicker link. The -X
    # flags stamp Kubernetes' version; etcd has none of those symbols, and the linker skips them.
    mkdir -p "$WORK/out"
    go build -trimpath -ldflags "-s -w $(kube_ldflags)" -o "$WORK/out/" "${pkgs[@]}"
  )
  local i built
  for i in "${!pkgs[@]}"; do
    built="$WORK/out/$(basename "${pkgs[$i]}")"
    [ "${names[$i]}" = etcd ] && built="$WORK/out/server" # go.etcd.io/etcd/server/v3
    install_binary "${names[$i]}" "${versions[$i]}" "$built"
  done
}

# envtest looks for kubectl next to the other binaries; a dangling link (kubectl removed or moved)
# is replaced.
link_kubectl() {
  [ -x "$BIN_DIR/kubectl" ] && return 0
  local k
  k="$(command -v kubectl || true)"
  [ -n "$k" ] && ln -sfn "$k" "$BIN_DIR/kubectl"
  return 0
}

acquire_lock
link_kubectl
if ! have_control_plane; then
  if ! download_control_plane; then
    log "route: build from Go modules, because $FALLBACK_REASON"
    build_control_plane
  fi
fi
echo "$BIN_DIR"
