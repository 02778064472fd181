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

command -v apt-get >/dev/null 2>&1 ||
  die "$CHROMIUM is missing and there is no apt-get here; install Chromium with your package manager and set CHROMIUM_PATH to it"

SUDO=()
if [[ "$(id -u)" != 0 ]]; then
  command -v sudo >/dev/null 2>&1 || die "installing chromium needs root (or sudo): run as root: apt-get update && apt-get install -y chromium"
  SUDO=(sudo)
fi

log "installing Debian's chromium package (apt-get update; apt-get install chromium)"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q >&2
"${SUDO[@]}" apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core >&2

[[ -x "$CHROMIUM" ]] || die "apt-get installed chromium but $CHROMIUM is not there"
log "installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
echo "$CHROMIUM"
