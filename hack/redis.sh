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

# shellcheck source=hack/lib/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"
apt_install "redis-server (or set REDIS_SERVER)" redis-server

command -v redis-server >/dev/null 2>&1 || die "apt-get installed redis-server but it is not on PATH"
log "installed $(redis-server --version)"
command -v redis-server
