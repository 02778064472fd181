#!/usr/bin/env bash
# Compiles contracts/src/*.sol with the solc-js that contracts/package-lock.json pins (the compiler
# ships inside the npm package, so this runs offline once installed), writes contracts/build/ and
# generates the Go bindings in internal/chain/contracts with go-ethereum's abigen (v2), pinned in
# hack/tools at the go-ethereum version of go.mod. The outputs are committed; `make contracts`
# regenerates them and `make verify` notices when they are stale.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONTRACTS="$ROOT/contracts"
BINDINGS="$ROOT/internal/chain/contracts"

command -v node >/dev/null 2>&1 || { echo "contracts: node is not on PATH (apt-get install nodejs npm)" >&2; exit 1; }

# node_modules is a cache: installed once from the lock file, again only when the lock changes.
stamp="$CONTRACTS/node_modules/.package-lock.sha256"
want="$(sha256sum "$CONTRACTS/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  (cd "$CONTRACTS" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

rm -rf "$CONTRACTS/build"
(cd "$CONTRACTS" && node compile.js)
# OpenZeppelin's ERC-20 errors (ERC-6093's IERC20Errors), which every OpenZeppelin token reverts
# with: an interface, so no bytecode; its ABI is the one the pinned package ships. The revert
# decoder (internal/chain/reverts) names them in a failed intent's failure.
(cd "$CONTRACTS" && node -e 'const a = require("@openzeppelin/contracts/build/contracts/IERC20Errors.json").abi;
  require("fs").writeFileSync("build/IERC20Errors.abi", JSON.stringify(a, null, 2) + "\n")')

mkdir -p "$BINDINGS"
for abi in "$CONTRACTS"/build/*.abi; do
  name="$(basename "$abi" .abi)"
  lower="$(echo "$name" | tr '[:upper:]' '[:lower:]')"
  # The bindings share one package, and abigen v2 names a method's result struct after the method
  # alone: a second contract with eip712Domain() (ERC-5267) gets its own name for it.
  aliases=()
  if [ "$name" != Settlement ] && grep -q '"name": "eip712Domain"' "$abi"; then
    aliases=(--alias "eip712Domain=${lower}Eip712Domain")
  fi
  bin=()
  if [ -f "$CONTRACTS/build/$name.bin" ]; then # an interface (IERC20Errors) has none
    bin=(--bin "$CONTRACTS/build/$name.bin")
  fi
  (cd "$ROOT/hack/tools" && GOWORK=off go tool abigen --v2 --abi "$abi" "${bin[@]}" \
    --pkg contracts --type "$name" "${aliases[@]}" --out "$BINDINGS/$lower.go")
  echo "contracts: $name -> internal/chain/contracts/$lower.go" >&2
done
# The settlement contract's deployed code, which the Chain controller compares a Chain's contract
# with (immutables masked): a look-alike that answers attester() is not the settlement contract.
cp "$CONTRACTS/build/Settlement.runtime.json" "$BINDINGS/settlement.runtime.json"
# Permit2's deployed code likewise: a Chain's Permit2 must be Permit2, and development chains hold it
# at its canonical address from genesis (internal/chain/devchain).
cp "$CONTRACTS/build/Permit2.runtime.json" "$BINDINGS/permit2.runtime.json"
