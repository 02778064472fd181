#!/usr/bin/env bash
# Installs the wallet libraries dapps sign with (npm viem and ethers, pinned by
# test/walletsign/package-lock.json) that internal/chain/settlement's tests sign gasless orders
# with, and prints the directory of test/walletsign on stdout. Everything else goes to stderr.
#
# Idempotent (hack/lib/npm.sh): installed from the lock file once, again only when it changes.
#
#   make test runs it first; by hand: hack/walletsign.sh && go test ./internal/chain/settlement/...
set -euo pipefail

HACK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/npm.sh
source "$HACK/lib/npm.sh"
npm_install walletsign "$HACK/../test/walletsign"
