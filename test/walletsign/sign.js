// Signs EIP-712 typed data the way a dapp's wallet libraries do, independently of the service's Go
// code: the typed data is the JSON the service answers, passed on as a dapp would.
//
// Input on stdin, JSON: a list of {"typedData": {domain, types, primaryType, message}, "privateKey": "0x..."}.
// Output on stdout, JSON: a list, for each input, of the 65-byte signatures (0x r || s || v, v 27 or 28)
//   viem:   privateKeyToAccount(key).signTypedData(typedData), the JSON as it is;
//   ethers: new Wallet(key).signTypedData(domain, types, message), types without EIP712Domain,
//           which ethers derives from the domain itself and refuses to be given;
//   rpc:    viem's walletClient.signTypedData for a JSON-RPC account (a browser wallet): viem sends
//           eth_signTypedData_v4 with the typed data serialized as JSON, and the "wallet" here
//           parses that string and signs it with ethers, as a wallet would.
// Exit 1 with the library's error when a library refuses the typed data; exit 2 on bad input.
'use strict';
const { createWalletClient, custom } = require('viem');
const { privateKeyToAccount } = require('viem/accounts');
const { Wallet } = require('ethers');

// withoutDomainType is types minus EIP712Domain, the form ethers takes.
function withoutDomainType(types) {
  const rest = { ...types };
  delete rest.EIP712Domain;
  return rest;
}

function signWithEthers(privateKey, typedData) {
  return new Wallet(privateKey).signTypedData(typedData.domain, withoutDomainType(typedData.types), typedData.message);
}

// signOverRPC is the browser-wallet path: the dapp's viem client asks its provider for
// eth_signTypedData_v4, and the provider (the wallet) signs the JSON string it receives.
function signOverRPC(privateKey, typedData) {
  const wallet = new Wallet(privateKey);
  const provider = {
    async request({ method, params }) {
      if (method !== 'eth_signTypedData_v4') {
        throw new Error('the wallet was asked for ' + method);
      }
      if (params[0].toLowerCase() !== wallet.address.toLowerCase()) {
        throw new Error('the wallet was asked to sign for ' + params[0]);
      }
      return signWithEthers(privateKey, JSON.parse(params[1]));
    },
  };
  const client = createWalletClient({ account: wallet.address, transport: custom(provider) });
  return client.signTypedData(typedData);
}

async function sign({ typedData, privateKey }) {
  return {
    viem: await privateKeyToAccount(privateKey).signTypedData(typedData),
    ethers: await signWithEthers(privateKey, typedData),
    rpc: await signOverRPC(privateKey, typedData),
  };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', async () => {
  let requests;
  try {
    requests = JSON.parse(input);
  } catch (err) {
    console.error('sign.js: stdin is not JSON: ' + err.message);
    process.exit(2);
  }
  if (!Array.isArray(requests)) {
    console.error('sign.js: stdin is not a list of {typedData, privateKey}');
    process.exit(2);
  }
  try {
    console.log(JSON.stringify(await Promise.all(requests.map(sign))));
  } catch (err) {
    console.error('refused: ' + err.message);
    process.exit(1);
  }
});
