package v1alpha1

// Condition types. Every kind reports Ready; Stalled and Reconciling are present only while they
// are True, with the Ready condition's reason and message, so that kstatus (Flux, `kubectl wait`,
// cli-utils) and Argo CD tell "needs a person" from "still converging".
const (
	// ConditionReady tells whether the object is served; `kubectl get` shows it in the READY column.
	ConditionReady = "Ready"
	// ConditionStalled is True when the spec cannot succeed until a person changes it (an invalid
	// spec, a conflict with an older object); Flux and kstatus report the object as Failed.
	ConditionStalled = "Stalled"
	// ConditionReconciling is True while the object waits for something that may still appear (its
	// Chain, its Account, a Secret, a node that does not answer); Flux and kstatus report the
	// object as in progress.
	ConditionReconciling = "Reconciling"
	// ConditionRPCReachable tells, for a Chain with spec.rpc, whether its node answered the last
	// probe with the Chain's chain id. The chain is served either way: without its node,
	// simulations use the chain's static defaults.
	ConditionRPCReachable = "RPCReachable"
	// ConditionTransaction tells, for a transfer intent whose transaction the chain watcher has
	// seen, where that transaction stands: in a block, final, reverted or gone from the chain.
	// Its message carries the details (hash, block, revert reason).
	ConditionTransaction = "Transaction"
	// ConditionOrderOpened is True, with reason Opened, once a swap's or bridge's open
	// transaction is final on its origin chain. The order is confirmed only when both it and the
	// fill are final: a fill of an order whose opening is then reverted or dropped paid for nothing.
	ConditionOrderOpened = "OrderOpened"
	// ConditionSettlementContract tells, for a Chain with spec.settlementAddress and a reachable
	// node, whether that address holds the settlement contract and whether the contract accepts the
	// service's attester. The chain is served either way; orders to an address without code are
	// refused by the simulation itself.
	ConditionSettlementContract = "SettlementContract"
	// ConditionPermit2 tells, for a Chain whose settlement contract is verified, whether Permit2 is
	// at spec.permit2Address (its canonical address when empty) and whether the settlement contract
	// pulls gasless orders through it. Gasless orders from the chain are offered only when True;
	// transactions are served either way.
	ConditionPermit2 = "Permit2"
	// ConditionRPCAgreement tells, for a Chain on which a bridge fill was checked before its
	// attestation, whether the Chain's endpoints (spec.rpc and spec.witnessRpcs) agreed on the last
	// fill checked. False means at least one endpoint answered something else than the others about
	// a fill: no attestation is signed until they agree again, and one of them is lying or broken.
	ConditionRPCAgreement = "RPCAgreement"
)

// Reasons of the Transaction condition of a TransferIntent.
const (
	// ReasonIncluded: the transaction is in a block that is not yet deep enough to be final.
	ReasonIncluded = "Included"
	// ReasonBroadcast: the client reported the transaction's hash; it is known to the node but not
	// yet in a block.
	ReasonBroadcast = "Broadcast"
	// ReasonConfirmed: the transaction succeeded and its block is at least the chain's
	// confirmation depth deep.
	ReasonConfirmed = "Confirmed"
	// ReasonReverted: the transaction's receipt has status 0; the intent failed.
	ReasonReverted = "Reverted"
	// ReasonDropped: the block that held the transaction left the canonical chain (a reorg), or the
	// node forgot a reported transaction, before confirmation; the intent waits for its
	// transaction again.
	ReasonDropped = "Dropped"
	// ReasonOpened: a swap's or bridge's open transaction is final: the settlement contract holds
	// the escrow and the order waits for a fill.
	ReasonOpened = "Opened"
	// ReasonFilled: a filler filled the order on its destination chain; confirmed once final.
	ReasonFilled = "Filled"
	// ReasonRefundIncluded: the order's refund is in a block that is not final yet; the intent fails
	// once it is (status.refundHash names it meanwhile).
	ReasonRefundIncluded = "RefundIncluded"
	// ReasonRefunded: the escrow went back to its owner after the deadline, final; the intent failed.
	ReasonRefunded = "Refunded"
	// ReasonRefundAllowed: the guardian allowed the order's refund before its deadline and refund
	// delay; the intent's record offers the refund transaction.
	ReasonRefundAllowed = "RefundAllowed"
	// ReasonNotOpened: the open transaction succeeded, but its final receipt carries no
	// Opened(orderId) event from the settlement contract it called: no escrow is held; the intent
	// failed.
	ReasonNotOpened = "NotOpened"
	// ReasonSigned: the user's signature of a gasless order was checked on the origin chain; the
	// order is offered to fillers until its open deadline.
	ReasonSigned = "Signed"
	// ReasonCancelled: the user cancelled the gasless order; it is no longer offered (the message
	// says whether a filler could still open it).
	ReasonCancelled = "Cancelled"
	// ReasonHardCancelled: the user's hard cancel (Permit2's invalidateUnorderedNonces of the
	// order's nonce) is final and the order was not opened: no filler can open it any more, so the
	// cancelling intent ended cancelled before its open deadline.
	ReasonHardCancelled = "HardCancelled"
)

// Reasons of the RPCReachable condition.
const (
	// ReasonReachable: the node answered the last probe with the Chain's chain id.
	ReasonReachable = "Reachable"
	// ReasonUnreachable: the node did not answer the last probe in time; the Chain is Reconciling
	// until it does.
	ReasonUnreachable = "Unreachable"
	// ReasonChainIDMismatch: the node reports another chain id than spec.chainId; its data is
	// refused and the Chain is Stalled until spec.rpc points at the right network.
	ReasonChainIDMismatch = "ChainIDMismatch"
)

// Reasons of the SettlementContract condition.
const (
	// ReasonContractVerified: the address holds a contract that answers attester(), and that
	// attester is the service's (or the service has none, and bridges are refused).
	ReasonContractVerified = "ContractVerified"
	// ReasonNoContractCode: no code at spec.settlementAddress: nothing is deployed there.
	ReasonNoContractCode = "NoContractCode"
	// ReasonNotSettlementContract: the code at spec.settlementAddress is not this release's
	// settlement contract (compared byte for byte outside its immutables): a look-alike that
	// answers attester() is refused.
	ReasonNotSettlementContract = "NotSettlementContract"
	// ReasonAttesterMismatch: the contract accepts another attester than the service's key: the
	// service's attestations of bridge fills on it cannot be claimed.
	ReasonAttesterMismatch = "AttesterMismatch"
	// ReasonRefundDelayTooShort: the contract lets a user refund sooner after the deadline than a
	// fill made just before it can be final on the slowest destination chain and attested: a filler
	// could pay and lose the escrow. Bridges from this chain are refused.
	ReasonRefundDelayTooShort = "RefundDelayTooShort"
	// ReasonUntrustedRPC: the manager lists trusted RPC hosts for this chain
	// (--attestation-trusted-hosts) and spec.rpc is not on the list: its word cannot vouch for the
	// contract users pay into, so the contract is not used.
	ReasonUntrustedRPC = "UntrustedRPC"
)

// Reasons of the Permit2 condition.
const (
	// ReasonPermit2Verified: the address holds Permit2's code (compared byte for byte outside its
	// immutables), and the settlement contract's permit2() is that address.
	ReasonPermit2Verified = "Permit2Verified"
	// ReasonNoPermit2Code: no code at the Permit2 address: Permit2 is not deployed on this chain.
	ReasonNoPermit2Code = "NoPermit2Code"
	// ReasonNotPermit2: the code at the Permit2 address is not Permit2's.
	ReasonNotPermit2 = "NotPermit2"
	// ReasonPermit2Mismatch: the settlement contract pulls through another address than the
	// Chain's Permit2.
	ReasonPermit2Mismatch = "Permit2Mismatch"
)

// Reasons of the RPCAgreement condition.
const (
	// ReasonSourcesAgree: at least two distinct endpoints gave the same answer about the last fill
	// checked, and none answered otherwise.
	ReasonSourcesAgree = "SourcesAgree"
	// ReasonSourcesDisagree: the endpoints answered differently about a fill (its log, its receipt's
	// status or its block's hash); the fill is not attested.
	ReasonSourcesDisagree = "SourcesDisagree"
)

// Reasons of the Ready condition. Each is what a person reading `kubectl describe` should learn.
const (
	// ReasonValid: the spec is valid and the object is served (Ready=True).
	ReasonValid = "Valid"
	// ReasonInvalidSpec: the spec breaks a rule the API server could not check (for example an
	// EIP-55 checksum); the message names the field. The object is not served until it is fixed.
	ReasonInvalidSpec = "InvalidSpec"
	// ReasonUnknownChain: the object names a chain for which no Ready Chain exists in the namespace.
	ReasonUnknownChain = "UnknownChain"
	// ReasonConflict: another, older object already defines the same thing (for a token: the same
	// chain and address, or the same chain and symbol). The older one is served; this one is not.
	ReasonConflict = "Conflict"
	// ReasonExpired: an API key past its expiresAt; it is refused.
	ReasonExpired = "Expired"
	// ReasonDisabled: the object is disabled by its spec; an API key or account that is disabled is refused.
	ReasonDisabled = "Disabled"
	// ReasonDeliveriesFailing: a WebhookEndpoint whose deliveries failed for three days; the
	// deliverer stopped them until the spec changes.
	ReasonDeliveriesFailing = "DeliveriesFailing"
	// ReasonEndpointLimitExceeded: the WebhookEndpoint's Account has more endpoints than the
	// service's limit per account and this is one of the newest; nothing is delivered to it until
	// an older one is deleted.
	ReasonEndpointLimitExceeded = "EndpointLimitExceeded"
	// ReasonOwnerMissing: the API key's Account does not exist (or is being deleted); the key is refused.
	ReasonOwnerMissing = "OwnerMissing"
	// ReasonOwnerDisabled: the API key's Account is disabled; the key is refused.
	ReasonOwnerDisabled = "OwnerDisabled"
	// ReasonKeyLimitExceeded: the API key's Account holds more keys than spec.maxApiKeys (default
	// 25) allows, and this key is among the newest past the bound; it is refused until older keys
	// are deleted or the bound is raised.
	ReasonKeyLimitExceeded = "KeyLimitExceeded"
	// ReasonSecretMissing: the Secret holding the account's password hash is missing or lacks the key;
	// browser sign-in is impossible until it exists. API keys of the account keep working.
	ReasonSecretMissing = "SecretMissing"
	// ReasonAccountNotFiller: the Filler's Account owns no enabled ApiKey with role filler; the
	// filler is not asked for quotes until it does.
	ReasonAccountNotFiller = "AccountNotFiller"
	// ReasonFading: the Filler won orders and did not fill them (fades) past the threshold in the
	// window; it is not asked for quotes until the time in the message.
	ReasonFading = "Fading"
	// ReasonActive: a transfer intent in a non-terminal lifecycle state (pending or submitted).
	ReasonActive = "Active"
	// ReasonTerminal: a transfer intent that reached a terminal state (confirmed, failed or expired);
	// it will be deleted after the retention period.
	ReasonTerminal = "Terminal"
)
