#!/usr/bin/env bash
# Installs the wallet libraries dapps sign with (npm viem and ethers, pinned by
# test/walletsign/package-lock.json) that internal/chain/settlement's tests sign gasless orders
# with, and prints the directory of test/walletsign on stdout. Everything else goes to stderr.
#
# Idempotent: node_modules is a cache, installed from the lock file once and again only when the
# lock changes (npm's own cache makes a reinstall work offline). Needs node and npm on PATH.
#
#   make test runs it first; by hand: hack/walletsign.sh && go test ./internal/chain/settlement/...
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../test/walletsign" && pwd)"

command -v node >/dev/null 2>&1 || { echo "walletsign: node is not on PATH (apt-get install nodejs npm)" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || { echo "walletsign: npm is not on PATH (apt-get install npm)" >&2; exit 1; }

stamp="$DIR/node_modules/.package-lock.sha256"
want="$(sha256sum "$DIR/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  (cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error) >&2
  echo "$want" > "$stamp"
fi
echo "$DIR"
