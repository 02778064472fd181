#!/usr/bin/env bash
# Installs the PostgreSQL server that the archive's tests run (internal/pgtest starts one per test),
# and prints the directory holding initdb, pg_ctl and postgres on stdout. Everything else goes to
# stderr.
#
# A directory, not a binary: Debian keeps the server programs in /usr/lib/postgresql/<major>/bin,
# off PATH, and only `pg_config --bindir` names it.
#
# Idempotent: when the programs are already there ($POSTGRES_BINDIR, or `pg_config --bindir`),
# nothing is installed. Otherwise it installs Debian's `postgresql` package with apt-get (after
# `apt-get update`), as root or through sudo. On a machine without apt-get it fails and says what
# to install. The package's own cluster and service are not needed: the tests start their own.
#
#   make test runs it first; by hand: POSTGRES_BINDIR="$(hack/postgres.sh)" go test ./internal/archive/
set -euo pipefail

log() { echo "postgres: $*" >&2; }
die() { log "error: $*"; exit 1; }

# has_server DIR: DIR holds the three programs internal/pgtest runs.
has_server() {
  [[ -n "$1" && -x "$1/initdb" && -x "$1/pg_ctl" && -x "$1/postgres" ]]
}

if [[ -n "${POSTGRES_BINDIR:-}" ]] && has_server "$POSTGRES_BINDIR"; then
  echo "$POSTGRES_BINDIR"
  exit 0
fi
# pg_config may exist without the server (libpq-dev alone ships it), hence the check of the dir.
bindir="$(pg_config --bindir 2>/dev/null || true)"
if has_server "$bindir"; then
  echo "$bindir"
  exit 0
fi

# shellcheck source=hack/lib/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"
apt_install "the PostgreSQL server (or set POSTGRES_BINDIR)" postgresql

bindir="$(pg_config --bindir 2>/dev/null || true)"
has_server "$bindir" || die "apt-get installed postgresql but \`pg_config --bindir\` ($bindir) holds no initdb, pg_ctl and postgres"
log "installed $("$bindir/postgres" --version)"
echo "$bindir"
