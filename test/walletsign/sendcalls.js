// Sends the service's EIP-5792 wallet_sendCalls request (a simulation's or a record's `calls`)
// the way a dapp does with viem, to a wallet that executes it on a dev chain, independently of
// the service's Go code:
//   - the dapp: viem's walletClient.sendCalls({account, chain, calls, forceAtomic, version}),
//     each field taken from the service's object; viem builds the wallet_sendCalls request;
//   - the wallet: receives that request, checks it is the service's object (the same calls, in
//     order, on the same chain, from the same account), and sends each call as a transaction
//     signed by the account's key (viem's local account), waiting for its receipt before the next.
//
// Input on stdin, JSON: {"rpcUrl": "http://...", "privateKey": "0x...", "calls": <WalletSendCalls>}.
// Output on stdout, JSON: {"request": <what viem sent the wallet>, "receipts": [{"hash", "status"}]}.
// Exit 1 when the object is not a well-formed wallet_sendCalls request or viem refuses it; exit 2
// on bad input.
'use strict';
const { createPublicClient, createWalletClient, custom, defineChain, hexToBigInt, hexToNumber, http, isAddress, isHex, getAddress } =
  require('viem');
const { privateKeyToAccount } = require('viem/accounts');

// The members EIP-5792 gives the request and each call; the service sends exactly these
// (capabilities and id are optional and it has none).
const requestKeys = ['atomicRequired', 'calls', 'chainId', 'from', 'version'];
const callKeys = ['data', 'to', 'value'];

function fail(msg) {
  process.stderr.write(msg + '\n');
  process.exit(1);
}

// checkShape holds the service's object to the EIP-5792 request shape viem's WalletSendCallsParameters
// types describe: version '2.0.0', chainId a hex quantity, from an address, calls of {to, data,
// value} with hex data and a hex value, atomicRequired a boolean.
function checkShape(r) {
  if (JSON.stringify(Object.keys(r).sort()) !== JSON.stringify(requestKeys)) fail('request members ' + Object.keys(r));
  if (r.version !== '2.0.0') fail('version ' + r.version);
  if (!isHex(r.chainId, { strict: true }) || hexToNumber(r.chainId) <= 0) fail('chainId ' + r.chainId);
  if (!isAddress(r.from)) fail('from ' + r.from);
  if (typeof r.atomicRequired !== 'boolean') fail('atomicRequired ' + r.atomicRequired);
  if (!Array.isArray(r.calls) || r.calls.length === 0) fail('no calls');
  for (const c of r.calls) {
    if (JSON.stringify(Object.keys(c).sort()) !== JSON.stringify(callKeys)) fail('call members ' + Object.keys(c));
    if (!isAddress(c.to) || !isHex(c.data, { strict: true }) || !isHex(c.value, { strict: true })) fail('call ' + JSON.stringify(c));
  }
}

async function main() {
  let input;
  try {
    input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  } catch (err) {
    process.stderr.write('bad input: ' + err.message + '\n');
    process.exit(2);
  }
  const svc = input.calls;
  checkShape(svc);
  const chain = defineChain({
    id: hexToNumber(svc.chainId), name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [input.rpcUrl] } },
  });
  const account = privateKeyToAccount(input.privateKey);
  const node = createPublicClient({ chain, transport: http(input.rpcUrl) });
  const signer = createWalletClient({ account, chain, transport: http(input.rpcUrl) });

  let request;
  const receipts = [];
  // The wallet: a JSON-RPC provider that answers wallet_sendCalls by sending the calls in order.
  const wallet = custom({
    async request({ method, params }) {
      if (method !== 'wallet_sendCalls') throw new Error('the wallet takes wallet_sendCalls only, not ' + method);
      request = params[0];
      if (request.chainId !== svc.chainId || getAddress(request.from) !== getAddress(svc.from) ||
          request.atomicRequired !== svc.atomicRequired || request.version !== svc.version ||
          request.calls.length !== svc.calls.length) {
        throw new Error('viem sent ' + JSON.stringify(request) + ' for ' + JSON.stringify(svc));
      }
      for (const [i, call] of request.calls.entries()) {
        const want = svc.calls[i];
        // viem leaves a zero value out; the service writes it as 0x0.
        if (getAddress(call.to) !== getAddress(want.to) || call.data !== want.data || (call.value ?? '0x0') !== want.value) {
          throw new Error('call ' + i + ': viem sent ' + JSON.stringify(call) + ' for ' + JSON.stringify(want));
        }
        const hash = await signer.sendTransaction({ to: call.to, data: call.data, value: call.value ? hexToBigInt(call.value) : 0n });
        const receipt = await node.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        receipts.push({ hash, status: receipt.status });
        if (receipt.status !== 'success') break;
      }
      return { id: '0x' + '01'.repeat(32) };
    },
  });
  // The dapp: viem's sendCalls with the service's fields as they are.
  const dapp = createWalletClient({ chain, transport: wallet });
  await dapp.sendCalls({
    account: svc.from, chain, version: svc.version, forceAtomic: svc.atomicRequired,
    calls: svc.calls.map((c) => ({ to: c.to, data: c.data, value: hexToBigInt(c.value) })),
  });
  process.stdout.write(JSON.stringify({ request, receipts }) + '\n');
}

main().catch((err) => fail(err.stack || String(err)));
