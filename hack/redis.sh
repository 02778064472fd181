#!/usr/bin/env bash
# Installs redis-server, which the shared rate-limit tests and the multi-replica harness run, and
# prints its path on stdout. Everything else goes to stderr.
#
# Idempotent: when the server is already there ($REDIS_SERVER, or redis-server on PATH), nothing is
# installed. Otherwise it installs Debian's `redis-server` package with apt-get (after
# `apt-get update`), as root or through sudo. On a machine without apt-get it fails and says what
# to install. The package's own service is not needed: the tests start their own servers.
#
#   make test runs it first; by hand: hack/redis.sh && go test ./internal/ratelimit/
set -euo pipefail

log() { echo "redis: $*" >&2; }
die() { log "error: $*"; exit 1; }

if [[ -n "${REDIS_SERVER:-}" && -x "${REDIS_SERVER}" ]]; then
  echo "$REDIS_SERVER"
  exit 0
fi
if command -v redis-server >/dev/null 2>&1; then
  command -v redis-server
  exit 0
fi

command -v apt-get >/dev/null 2>&1 ||
  die "redis-server is missing and there is no apt-get here; install Redis 7 and set REDIS_SERVER to its redis-server"

SUDO=()
if [[ "$(id -u)" != 0 ]]; then
  command -v sudo >/dev/null 2>&1 || die "installing redis-server needs root (or sudo): run as root: apt-get update && apt-get install -y redis-server"
  SUDO=(sudo)
fi

log "installing Debian's redis-server package (apt-get update; apt-get install redis-server)"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q >&2
"${SUDO[@]}" apt-get install -y -q --no-install-recommends redis-server >&2

command -v redis-server >/dev/null 2>&1 || die "apt-get installed redis-server but it is not on PATH"
log "installed $(redis-server --version)"
command -v redis-server
