// Verifies one signed delivery with the Standard Webhooks reference library, independently of the
// service's Go code. Input on stdin, JSON: {"secret": "whsec_...", "headers": {...}, "body": "..."}.
// Exit 0 and prints "verified" when the library accepts it; exit 1 with the library's error when
// it refuses it; exit 2 on bad input.
'use strict';
const { Webhook } = require('standardwebhooks');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  let req;
  try {
    req = JSON.parse(input);
  } catch (err) {
    console.error('verify.js: stdin is not JSON: ' + err.message);
    process.exit(2);
  }
  try {
    new Webhook(req.secret).verify(req.body, req.headers);
  } catch (err) {
    console.error('refused: ' + err.message);
    process.exit(1);
  }
  console.log('verified');
});
