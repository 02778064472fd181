// Compiles every contract under src/ with the solc-js pinned in package.json (offline: the
// compiler ships inside the npm package) and writes build/<Contract>.abi and build/<Contract>.bin,
// which hack/contracts.sh turns into Go bindings. Imports resolve from node_modules, so
// @openzeppelin/contracts comes from the version package-lock.json pins.
"use strict";
const fs = require("fs");
const path = require("path");
const solc = require("solc");

const root = __dirname;
const sources = {};
for (const file of fs.readdirSync(path.join(root, "src")).filter((f) => f.endsWith(".sol")).sort()) {
  sources[`src/${file}`] = { content: fs.readFileSync(path.join(root, "src", file), "utf8") };
}
const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: {
      "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] },
    },
  },
};
function findImports(importPath) {
  const candidate = path.join(root, "node_modules", importPath);
  if (fs.existsSync(candidate)) {
    return { contents: fs.readFileSync(candidate, "utf8") };
  }
  return { error: `not found: ${importPath}` };
}
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors || []).filter((e) => e.severity === "error");
for (const e of output.errors || []) {
  process.stderr.write(e.formattedMessage + "\n");
}
if (errors.length > 0) {
  process.exit(1);
}
const build = path.join(root, "build");
fs.mkdirSync(build, { recursive: true });
for (const [source, contracts] of Object.entries(output.contracts)) {
  for (const [name, contract] of Object.entries(contracts)) {
    if (source !== `src/${name}.sol`) {
      continue; // only our own contracts, each named after its file
    }
    fs.writeFileSync(path.join(build, `${name}.abi`), JSON.stringify(contract.abi, null, 2) + "\n");
    fs.writeFileSync(path.join(build, `${name}.bin`), contract.evm.bytecode.object + "\n");
    // The code a deployment holds, and where its immutables sit in it (the constructor writes them,
    // so they differ per deployment): what the Chain controller compares a Chain's contract with.
    const immutables = Object.values(contract.evm.deployedBytecode.immutableReferences || {}).flat();
    fs.writeFileSync(path.join(build, `${name}.runtime.json`),
      JSON.stringify({ code: contract.evm.deployedBytecode.object, immutables }, null, 2) + "\n");
    process.stderr.write(`compiled ${name} with solc ${solc.version()}\n`);
  }
}
