# Sourced by the hack/ scripts that install the npm packages of a test directory
# (hack/webhookverify.sh, hack/walletsign.sh).
#
# npm_install NAME DIR installs DIR's node_modules from its package-lock.json with npm ci, once and
# again only when the lock changes (node_modules is a cache; npm's own cache makes a reinstall work
# offline), and prints DIR on stdout; everything else goes to stderr. Needs node and npm on PATH.
npm_install() {
  local name="$1" dir
  dir="$(cd "$2" && pwd)"
  command -v node >/dev/null 2>&1 || { echo "$name: node is not on PATH (apt-get install nodejs npm)" >&2; exit 1; }
  command -v npm >/dev/null 2>&1 || { echo "$name: npm is not on PATH (apt-get install npm)" >&2; exit 1; }
  local stamp="$dir/node_modules/.package-lock.sha256" want
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >&2
    echo "$want" > "$stamp"
  fi
  echo "$dir"
}
