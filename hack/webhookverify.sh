#!/usr/bin/env bash
# Installs the Standard Webhooks reference library (npm standardwebhooks, pinned by
# test/webhookverify/package-lock.json) that internal/webhook/signing's tests verify the service's
# signatures with, and prints the directory of test/webhookverify on stdout. Everything else goes
# to stderr.
#
# Idempotent (hack/lib/npm.sh): installed from the lock file once, again only when it changes.
#
#   make test runs it first; by hand: hack/webhookverify.sh && go test ./internal/webhook/...
set -euo pipefail

HACK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/npm.sh
source "$HACK/lib/npm.sh"
npm_install webhookverify "$HACK/../test/webhookverify"
