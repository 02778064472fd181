#!/usr/bin/env bash
# Installs wrk, the external load generator of `make bench-binary`, and prints its path on stdout.
# Everything else goes to stderr.
#
# Idempotent: when wrk is already there ($WRK, or wrk on PATH), nothing is installed. Otherwise it
# installs Debian's `wrk` package with apt-get (after `apt-get update`), as root or through sudo.
set -euo pipefail

log() { echo "wrk: $*" >&2; }
die() { log "error: $*"; exit 1; }

if [[ -n "${WRK:-}" && -x "${WRK}" ]]; then
  echo "$WRK"
  exit 0
fi
if command -v wrk >/dev/null 2>&1; then
  command -v wrk
  exit 0
fi

# shellcheck source=hack/lib/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"
apt_install "wrk (or set WRK)" wrk

command -v wrk >/dev/null 2>&1 || die "apt-get installed wrk but it is not on PATH"
command -v wrk
