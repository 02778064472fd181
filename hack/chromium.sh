#!/usr/bin/env bash
# Installs the Chromium browser that the browser test (test/browser) drives with chromedp, and
# prints its path on stdout. Everything else goes to stderr.
#
# Idempotent: when the browser is already there (/usr/bin/chromium, or $CHROMIUM_PATH), nothing is
# installed. Otherwise it installs Debian's `chromium` package with apt-get (after `apt-get update`),
# as root or through sudo. On a machine without apt-get it fails and says what to install.
#
#   make test runs it first; by hand: hack/chromium.sh && go test ./test/browser/
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

log() { echo "chromium: $*" >&2; }
die() { log "error: $*"; exit 1; }

if [[ -x "$CHROMIUM" ]]; then
  echo "$CHROMIUM"
  exit 0
fi

# shellcheck source=hack/lib/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"
apt_install "Chromium (or set CHROMIUM_PATH)" chromium fonts-dejavu-core

[[ -x "$CHROMIUM" ]] || die "apt-get installed chromium but $CHROMIUM is not there"
log "installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
echo "$CHROMIUM"
