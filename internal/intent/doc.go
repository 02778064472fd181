// Package intent is the pure domain of the Transfer Intent Service: it parses and validates
// transfer requests, infers their type, prices them and builds the transaction a client signs.
// It imports neither net/http nor controller-runtime, so every rule here is a plain table test.
//
// # Request pipeline
//
// The HTTP layer calls three steps, in this order, so that each failure gets the status the
// contract gives it and a key of the wrong environment learns nothing about the domain:
//
//  1. ParseRequest: syntax only, no catalog. Failure: *Problem of KindBadRequest (HTTP 400).
//  2. Parsed.KnownChains(catalog): every known chain the request names. The HTTP layer refuses
//     the request with 403 chain-not-allowed-for-key-environment when one of them belongs to the
//     other environment. Unknown chains are not returned; step 3 refuses them with 422.
//  3. Service.Simulate (or Service.Prepare for creation): domain checks against the catalog and
//     chain data. Failure: *Problem of KindValidationFailed or KindCurrencyError (HTTP 422), or a
//     plain error (HTTP 500, for example a cancelled context).
//
// # Which failure is which
//
// KindBadRequest (400 bad-request) is a request the schema should have refused: a missing field,
// a CAIP-2/CAIP-10 string that does not match the CAIP grammar, an eip155 address that is not
// 0x + 40 hex digits or fails its EIP-55 checksum, a deadline that is not RFC 3339, callData that
// is not 0x-prefixed even-length hex, a malformed asset object.
//
// KindValidationFailed (422 validation-failed) is a well-formed request that names something the
// service cannot act on: a chain namespace other than eip155, an unknown chain, an asset that is
// not on the from-chain (or asset.out not on the to-chain), an unknown token, any amount problem
// (syntax, zero, too many fraction digits, uint256 overflow; the schema types amount as a plain
// string, so its content is judged here, as docs/decisions.md lists these as validation failures),
// a deadline that has passed, and a known balance that does not cover amount and gas
// (the contract lists insufficient funds as 422).
//
// KindCurrencyError (422 CurrencyError) is a bridge with no route: the from-chain or the to-chain
// has no settlement contract, or the to-chain has no token with the asset's symbol.
//
// valid:false (HTTP 200, reasons in SimulationResult.Errors) is a request that is well-formed,
// names known things and could be priced, but would not succeed as submitted for a reason the
// client can fix: a same-chain swap on a chain without a settlement contract (no swap route yet),
// a swap or bridge through a settlement contract not verified on chain (registry.Chain's
// SettlementVerified; no tx is built towards it), callData on an ERC-20 transfer (a token
// transfer cannot carry a call), or a deadline earlier than the estimated settlement time.
//
// Warnings never change validity: balance not verified, no USD price for a token, ERC-20
// allowance needed for the settlement contract, gas price taken from defaults after a chain error.
package intent
