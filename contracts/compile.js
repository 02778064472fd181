// Compiles the contracts hack/contracts.sh turns into Go bindings, each unit with its own pinned
// solc-js (offline: the compilers ship inside the npm packages) and settings, and writes
// build/<Contract>.abi, .bin and .runtime.json. Imports resolve from node_modules, at the versions
// package-lock.json pins.
//
//   - project: every contract under src/, ours, with solc 0.8.30.
//   - permit2: Uniswap's Permit2 from the sources @uniswap/v4-periphery ships (lib/permit2/src, with
//     solmate), with the compiler and settings of its canonical deployment (solc 0.8.17, via-IR,
//     1,000,000 optimizer runs, no metadata hash), so the code we deploy on development chains is
//     the code at 0x000000000022D473030F116dDEE9F6B43aC78BA3 on every public chain.
//   - For Settlement, also build/Settlement.standard-input.json: the compiler's standard JSON input
//     of the deployed contract alone (its source and every file it imports, the same settings),
//     which a block explorer's "Standard JSON input" verification takes, and
//     build/Settlement.compiler.txt, the compiler's version as explorers spell it. It is compiled
//     again here, and must give the same bytecode, byte for byte, or the build fails.
//   - safe: Safe's smart account (@safe-global/safe-contracts 1.4.1: the singleton, its proxy factory
//     and the fallback handler that answers EIP-1271), for tests of contract signers.
"use strict";
const fs = require("fs");
const path = require("path");

const root = __dirname;
const modules = path.join(root, "node_modules");
const permit2Root = path.join(modules, "@uniswap/v4-periphery/lib/permit2");
const safeRoot = path.join(modules, "@safe-global/safe-contracts/contracts");

const outputs = ["abi", "metadata", "evm.bytecode.object", "evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"];

// The contracts deployed on public chains, whose sources are verified on block explorers.
const verified = ["Settlement"];

// Every .sol file under src/ and its libraries' folder src/lib/ (imported as "./lib/X.sol"); only the
// contracts of src/ itself are written out (a library's internal functions are compiled into them).
function projectSources() {
  const sources = {};
  for (const dir of ["src", "src/lib"]) {
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith(".sol")).sort()) {
      sources[`${dir}/${file}`] = { content: fs.readFileSync(path.join(root, dir, file), "utf8") };
    }
  }
  return sources;
}

function fileSource(key, file) {
  return { [key]: { content: fs.readFileSync(file, "utf8") } };
}

const units = [
  {
    name: "project",
    solc: require("solc"),
    sources: projectSources(),
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" },
    // Only our own contracts, each named after its file.
    wanted: (source, name) => source === `src/${name}.sol`,
  },
  {
    name: "permit2",
    solc: require("solc-0.8.17"),
    sources: fileSource("permit2/src/Permit2.sol", path.join(permit2Root, "src/Permit2.sol")),
    settings: {
      viaIR: true,
      optimizer: { enabled: true, runs: 1000000 },
      metadata: { bytecodeHash: "none" },
      remappings: ["solmate/=permit2/lib/solmate/"],
    },
    wanted: (source, name) => name === "Permit2",
  },
  {
    name: "safe",
    solc: require("solc"),
    sources: {
      ...fileSource("safe/Safe.sol", path.join(safeRoot, "Safe.sol")),
      ...fileSource("safe/proxies/SafeProxyFactory.sol", path.join(safeRoot, "proxies/SafeProxyFactory.sol")),
      ...fileSource("safe/handler/CompatibilityFallbackHandler.sol",
        path.join(safeRoot, "handler/CompatibilityFallbackHandler.sol")),
    },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" },
    wanted: (source, name) => ["Safe", "SafeProxyFactory", "CompatibilityFallbackHandler"].includes(name),
  },
];

// Import paths name node_modules packages (@openzeppelin/...) or a unit's own prefix.
const prefixes = [
  ["permit2/", permit2Root + "/"],
  ["safe/", safeRoot + "/"],
  ["", modules + "/"],
];

function findImports(importPath) {
  for (const [prefix, dir] of prefixes) {
    if (importPath.startsWith(prefix)) {
      const candidate = path.join(dir, importPath.slice(prefix.length));
      if (fs.existsSync(candidate)) {
        return { contents: fs.readFileSync(candidate, "utf8") };
      }
    }
  }
  return { error: `not found: ${importPath}` };
}

function compile(unit) {
  const input = {
    language: "Solidity",
    sources: unit.sources,
    settings: { ...unit.settings, outputSelection: { "*": { "*": outputs } } },
  };
  return compileInput(unit, input);
}

function compileInput(unit, input) {
  const output = JSON.parse(unit.solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors || []).filter((e) => e.severity === "error");
  for (const e of errors) {
    process.stderr.write(e.formattedMessage + "\n");
  }
  if (errors.length > 0) {
    process.exit(1);
  }
  return output;
}

// COMPILE_UNITS (comma-separated unit names) compiles only those: hack/mutate recompiles the
// project unit per mutant, and Permit2's via-IR build takes minutes.
const only = (process.env.COMPILE_UNITS || "").split(",").filter(Boolean);

const build = path.join(root, "build");
fs.mkdirSync(build, { recursive: true });
for (const unit of units.filter((u) => only.length === 0 || only.includes(u.name))) {
  const output = compile(unit);
  for (const [source, contracts] of Object.entries(output.contracts)) {
    for (const [name, contract] of Object.entries(contracts)) {
      if (!unit.wanted(source, name)) {
        continue;
      }
      fs.writeFileSync(path.join(build, `${name}.abi`), JSON.stringify(contract.abi, null, 2) + "\n");
      fs.writeFileSync(path.join(build, `${name}.bin`), contract.evm.bytecode.object + "\n");
      // The code a deployment holds, and where its immutables sit in it (the constructor writes
      // them, so they differ per deployment): what the Chain controller compares a Chain's
      // contracts with.
      const immutables = Object.values(contract.evm.deployedBytecode.immutableReferences || {}).flat();
      fs.writeFileSync(path.join(build, `${name}.runtime.json`),
        JSON.stringify({ code: contract.evm.deployedBytecode.object, immutables }, null, 2) + "\n");
      process.stderr.write(`compiled ${name} (${unit.name}) with solc ${unit.solc.version()}\n`);
      // STANDARD_INPUT=none skips it (hack/mutate compiles a mutant, which nobody verifies).
      if (verified.includes(name) && process.env.STANDARD_INPUT !== "none") {
        writeStandardInput(unit, source, name, contract);
      }
    }
  }
}

// writeStandardInput writes the standard JSON input of one contract: the sources its metadata lists
// (itself and its imports, under the names the metadata hash covers) and the unit's settings. An
// explorer compiles it and compares the result, metadata hash included, with the chain's code;
// so does this function, with the compiler that built the contract.
function writeStandardInput(unit, source, name, contract) {
  const metadata = JSON.parse(contract.metadata);
  const sources = {};
  for (const key of Object.keys(metadata.sources).sort()) {
    const own = unit.sources[key];
    const found = own ? { contents: own.content } : findImports(key);
    if (found.error) {
      process.stderr.write(`standard input of ${name}: ${found.error}\n`);
      process.exit(1);
    }
    sources[key] = { content: found.contents };
  }
  const input = {
    language: "Solidity",
    sources,
    settings: { ...unit.settings, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "metadata"] } } },
  };
  const again = compileInput(unit, input).contracts[source][name];
  if (again.evm.bytecode.object !== contract.evm.bytecode.object) {
    process.stderr.write(`standard input of ${name}: compiled alone it gives other bytecode than the build\n`);
    process.exit(1);
  }
  fs.writeFileSync(path.join(build, `${name}.standard-input.json`), JSON.stringify(input, null, 2) + "\n");
  // Explorers name a compiler "v" + its long version without the build platform.
  const version = "v" + unit.solc.version().replace(/\.Emscripten\..*$/, "");
  fs.writeFileSync(path.join(build, `${name}.compiler.txt`), `${version}\n${source}:${name}\n`);
}
