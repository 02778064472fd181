#!/usr/bin/env bash
# A throwaway OCI registry on loopback for make release-local and its test: the CNCF Distribution
# registry, built from Go modules by hack/gotool.sh (no container engine), storing in DIR.
#
#   hack/registry.sh start [DIR]   start it on a free port of 127.0.0.1 and print its address
#   hack/registry.sh stop [DIR]    stop it and delete what it stored
#
# DIR (default .local/registry) holds the storage, the log, the pid and the address. The port is
# chosen by the kernel (127.0.0.1:0), and read back from the registry's "listening on" log line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REGISTRY_VERSION="${REGISTRY_VERSION:-v3.1.2}"
cmd="${1:?usage: $0 start|stop [DIR]}"
dir="${2:-$ROOT/.local/registry}"

start() {
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
    cat "$dir/address"
    return
  fi
  local registry
  registry="$(hack_gotool github.com/distribution/distribution/v3/cmd/registry "$REGISTRY_VERSION")"
  mkdir -p "$dir/storage"
  rm -f "$dir/address"
  cat > "$dir/config.yml" <<CONFIG
version: 0.1
log:
  level: info
  formatter: text
storage:
  filesystem:
    rootdirectory: $dir/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:0
CONFIG
  # Created here: the background job's own redirection may come after the first read below.
  : > "$dir/registry.log"
  # OTEL_TRACES_EXPORTER=none: the registry otherwise tries to export its traces to localhost:4318.
  OTEL_TRACES_EXPORTER=none nohup "$registry" serve "$dir/config.yml" >>"$dir/registry.log" 2>&1 &
  echo $! > "$dir/pid"
  # It binds within a second; 30 s allows for a loaded machine.
  local address="" deadline=$((SECONDS + 30))
  while [ -z "$address" ]; do
    if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      echo "registry exited; its log ($dir/registry.log):" >&2; cat "$dir/registry.log" >&2; exit 1
    fi
    if [ $SECONDS -ge $deadline ]; then
      echo "registry did not listen within 30 s; its log ($dir/registry.log):" >&2; cat "$dir/registry.log" >&2; stop; exit 1
    fi
    address="$(sed -n 's/.*listening on \(127\.0\.0\.1:[0-9]*\).*/\1/p' "$dir/registry.log" | head -n1)"
    [ -n "$address" ] || sleep 0.1
  done
  echo "$address" > "$dir/address"
  echo "$address"
}

stop() {
  if [ -f "$dir/pid" ]; then
    local pid
    pid="$(cat "$dir/pid")"
    if kill "$pid" 2>/dev/null; then
      # Wait (at most 10 s) for it to exit before its storage is deleted.
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
  fi
  rm -rf "$dir"
}

hack_gotool() { LOCALBIN="${LOCALBIN:-$ROOT/bin}" "$ROOT/hack/gotool.sh" "$@"; }

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop [DIR]" >&2; exit 2 ;;
esac
