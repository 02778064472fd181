package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// IntentType is the operation inferred from a transfer request.
// +kubebuilder:validation:Enum=transfer;swap;bridge
type IntentType string

// The intent types, as the API names them.
const (
	IntentTypeTransfer IntentType = "transfer"
	IntentTypeSwap     IntentType = "swap"
	IntentTypeBridge   IntentType = "bridge"
)

// IntentPhase is the lifecycle state of a transfer intent (internal/intent's table is the whole
// lifecycle): a transaction intent is pending -> submitted -> confirmed | failed, or pending ->
// expired; a gasless one is unsigned -> signed -> submitted -> ..., expired at its open deadline,
// or cancelled (cancelling while a filler could still open what it was offered).
// +kubebuilder:validation:Enum=pending;unsigned;signed;submitted;confirmed;failed;expired;cancelling;cancelled
type IntentPhase string

// The lifecycle phases, as the API names them (its status field).
const (
	IntentPhasePending IntentPhase = "pending"
	// IntentPhaseUnsigned: a gasless intent waiting for its user's signature.
	IntentPhaseUnsigned IntentPhase = "unsigned"
	// IntentPhaseSigned: a gasless intent signed and offered to fillers (GET /v2/orders).
	IntentPhaseSigned    IntentPhase = "signed"
	IntentPhaseSubmitted IntentPhase = "submitted"
	IntentPhaseConfirmed IntentPhase = "confirmed"
	IntentPhaseFailed    IntentPhase = "failed"
	IntentPhaseExpired   IntentPhase = "expired"
	// IntentPhaseCancelling: a signed gasless intent its user cancelled; no longer offered, but a
	// filler that read it before can still open it until its open deadline or the hard cancel.
	IntentPhaseCancelling IntentPhase = "cancelling"
	// IntentPhaseCancelled: cancelled for good; nobody can open it any more.
	IntentPhaseCancelled IntentPhase = "cancelled"
)

// FailureCode is why a failed intent failed: a closed set a client can branch on, where the
// Transaction condition's message (the API's failure.message) is a sentence for people. The chain
// watcher decides it where it fails the intent; FailureCodes lists the set.
// +kubebuilder:validation:Enum=reverted;out_of_gas;not_opened;refunded;insufficient_balance;insufficient_allowance;deadline_passed;below_minimum;already_opened;paused;nonce_used;invalid_signature
type FailureCode string

// The failure codes, as the API names them (failure.code).
const (
	// FailureReverted: the intent's transaction was mined, final, and reverted (its receipt's
	// status is 0) without using its whole gas limit: the revert reason is in the message.
	FailureReverted FailureCode = "reverted"
	// FailureOutOfGas: the transaction reverted, final, having used its whole gas limit: it ran
	// out of gas. Sending it again with a higher limit may succeed.
	FailureOutOfGas FailureCode = "out_of_gas"
	// FailureNotOpened: a swap's or bridge's open transaction succeeded, final, but did not open
	// the order (no Opened event of the contract it called): nothing is escrowed.
	FailureNotOpened FailureCode = "not_opened"
	// FailureRefunded: nobody filled the order, and its escrow went back to its user by a refund
	// that is final.
	FailureRefunded FailureCode = "refunded"

	// The reverts whose reason a client can act on, decoded from the revert data
	// (internal/chain/reverts); any other revert stays reverted.

	// FailureInsufficientBalance: the sender held less of the token than the transaction moves
	// (ERC20InsufficientBalance, or an older token's "transfer amount exceeds balance").
	FailureInsufficientBalance FailureCode = "insufficient_balance"
	// FailureInsufficientAllowance: the spender (the settlement contract, or Permit2) was allowed
	// less than it takes (ERC20InsufficientAllowance, Permit2's InsufficientAllowance).
	FailureInsufficientAllowance FailureCode = "insufficient_allowance"
	// FailureDeadlinePassed: the order's deadline, or its open deadline or its Permit2 signature's,
	// had passed when the transaction ran.
	FailureDeadlinePassed FailureCode = "deadline_passed"
	// FailureBelowMinimum: the order would deliver less than its minimum output (BelowMinimum).
	FailureBelowMinimum FailureCode = "below_minimum"
	// FailureAlreadyOpened: the order was opened before, by this transaction's twin or a filler.
	FailureAlreadyOpened FailureCode = "already_opened"
	// FailurePaused: the settlement contract was paused by its guardian; nothing moved.
	FailurePaused FailureCode = "paused"
	// FailureNonceUsed: the order's Permit2 nonce was spent or cancelled before (InvalidNonce).
	FailureNonceUsed FailureCode = "nonce_used"
	// FailureInvalidSignature: Permit2 refused the order's signature (InvalidSignature,
	// InvalidSigner, InvalidSignatureLength, InvalidContractSignature).
	FailureInvalidSignature FailureCode = "invalid_signature"
)

// FailureCodes lists every failure code; the CRD's enum above and the OpenAPI document's
// FailureCode are held to it by tests.
var FailureCodes = []FailureCode{FailureReverted, FailureOutOfGas, FailureNotOpened, FailureRefunded,
	FailureInsufficientBalance, FailureInsufficientAllowance, FailureDeadlinePassed, FailureBelowMinimum,
	FailureAlreadyOpened, FailurePaused, FailureNonceUsed, FailureInvalidSignature}

// RevertError is the error a failed intent's transaction reverted with, decoded from its revert
// data by the ABIs the service knows (the settlement contract's, Permit2's, OpenZeppelin's ERC-20
// errors, Error(string) and Panic(uint256)).
type RevertError struct {
	// name is the error's name: ERC20InsufficientBalance, Error for Error(string), Panic for
	// Panic(uint256); empty when the revert data names no error the service knows.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Name string `json:"name,omitempty"`
	// selector is the revert data's first four bytes, 0x hex.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{8}$`
	Selector string `json:"selector,omitempty"`
	// args are the error's arguments by their ABI names, as text: addresses in EIP-55, integers in
	// decimal, bytes in 0x hex.
	// +optional
	// +kubebuilder:validation:MaxProperties=16
	Args map[string]string `json:"args,omitempty"`
}

// Execution is who sends the transaction that opens an intent's order.
// +kubebuilder:validation:Enum=transaction;gasless
type Execution string

// The executions, as the API names them.
const (
	// ExecutionTransaction is the default: the user sends the intent's tx and pays its gas.
	ExecutionTransaction Execution = "transaction"
	// ExecutionGasless is a filler's open: the user signs a Permit2 witness transfer of an ERC-7683 gasless order and
	// a filler opens it with openFor, paying the gas.
	ExecutionGasless Execution = "gasless"
)

// InitialPhase is the phase of a new intent, implied while its status is not written: unsigned
// for a gasless intent, pending otherwise.
func (s *TransferIntentSpec) InitialPhase() IntentPhase {
	if s.Gasless != nil {
		return IntentPhaseUnsigned
	}
	return IntentPhasePending
}

// Phase is the intent's phase: status.phase, or its initial phase while the status is not
// written (a new intent's phase is implied). internal/intentstatus.Phase is the name callers use.
func (ti *TransferIntent) Phase() IntentPhase {
	if ti.Status.Phase == "" {
		return ti.Spec.InitialPhase()
	}
	return ti.Status.Phase
}

// Labels set on every TransferIntent at its create, so that lists filter server-side and in the
// informer cache. Neither changes after the create; the phase is selected with the field
// selector status.phase (PhaseField) instead, since a label would cost a write per transition.
const (
	LabelAccount = "intents.transferintent.io/account"
	LabelType    = "intents.transferintent.io/type"
)

// PhaseField is the selectable field of status.phase: a field selector of the API server
// (kubectl get transferintents --field-selector status.phase=expired), and the name of the
// informer cache's index of the same field, so that one MatchingFields serves both. A new
// intent's phase is empty there: its pending (or unsigned) is implied, never written.
const PhaseField = "status.phase"

// IntentLabels are the labels of an intent of account and of type t, which the intent store sets
// at creation. An account name longer than a label value allows (63 characters) cannot be a label;
// lists by account use the field index on spec.accountRef.name instead.
func IntentLabels(account string, t IntentType) map[string]string {
	labels := map[string]string{LabelType: string(t)}
	if len(validation.IsValidLabelValue(account)) == 0 {
		labels[LabelAccount] = account
	}
	return labels
}

// TransferAsset is the token moved: in alone for a transfer or bridge of one token, in and out for a
// swap. A request's string form is stored as in alone.
type TransferAsset struct {
	// in is the CAIP-10 address of the token sent, on the source chain.
	// +required
	// +kubebuilder:validation:MaxLength=171
	In string `json:"in"`
	// out is the CAIP-10 address of the token received, on the destination chain; absent when the
	// request named a single asset.
	// +optional
	// +kubebuilder:validation:MaxLength=171
	Out string `json:"out,omitempty"`
}

// TransferRequest is the request as the client sent it (normalised: EIP-55 addresses).
type TransferRequest struct {
	// from is the CAIP-10 source account and chain.
	// +required
	// +kubebuilder:validation:MaxLength=171
	From string `json:"from"`
	// to is the CAIP-10 destination account and chain.
	// +required
	// +kubebuilder:validation:MaxLength=171
	To string `json:"to"`
	// asset is the token moved.
	// +required
	Asset TransferAsset `json:"asset"`
	// amount is a decimal string in the token's display units.
	// +required
	// +kubebuilder:validation:MaxLength=100
	Amount string `json:"amount"`
	// deadline is the latest execution time.
	// +optional
	Deadline *metav1.Time `json:"deadline,omitempty"`
	// callData is hex-encoded calldata supplied by the client.
	// +optional
	// +kubebuilder:validation:MaxLength=65536
	CallData string `json:"callData,omitempty"`
	// slippageBps is the tolerance below the quoted output a swap or bridge order accepts.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	SlippageBps *int32 `json:"slippageBps,omitempty"`
	// execution is who opens the order: the user's transaction (transaction, when absent) or a
	// filler with the user's signature (gasless).
	// +optional
	Execution Execution `json:"execution,omitempty"`
	// gasOnArrival is the destination chain's native token the request asked to arrive with a
	// swap's or bridge's output (the order's native drop).
	// +optional
	GasOnArrival *GasOnArrival `json:"gasOnArrival,omitempty"`
	// tradeType is exactOutput when amount is what must arrive (in display units of the output
	// token); absent: exactInput, amount is what the user gives up.
	// +optional
	// +kubebuilder:validation:Enum=exactInput;exactOutput
	TradeType string `json:"tradeType,omitempty"`
	// maxAmountIn is an exact output's bound on its escrow, in display units of the input token.
	// +optional
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	MaxAmountIn string `json:"maxAmountIn,omitempty"`
	// fee is the integrator fee the request set, within its Account's fee policy (absent: the
	// policy's default applies, which the quote's integratorFee shows).
	// +optional
	Fee *RequestFee `json:"fee,omitempty"`
}

// RequestFee is a request's integrator fee.
type RequestFee struct {
	// bps is the fee in basis points of the amount (absent: the policy's default).
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	Bps *int32 `json:"bps,omitempty"`
	// recipient is the 0x address it is paid to (absent: the policy's first for the origin chain).
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Recipient string `json:"recipient,omitempty"`
}

// IntentIntegratorFee is the quote's integrator fee: what the order carries as feeAmount and
// feeRecipient.
type IntentIntegratorFee struct {
	// bps is the fee in basis points of the amount.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	Bps int32 `json:"bps"`
	// amount is the fee in display units of the input token (rounded down).
	// +required
	// +kubebuilder:validation:MaxLength=100
	Amount string `json:"amount"`
	// symbol is the input token's symbol.
	// +required
	// +kubebuilder:validation:MaxLength=32
	Symbol string `json:"symbol"`
	// recipient is the EIP-55 address it is credited to on the origin chain.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Recipient string `json:"recipient"`
}

// GasOnArrival is an amount of the destination chain's native token delivered to the recipient
// with a swap's or bridge's output.
type GasOnArrival struct {
	// amount is in display units of the destination chain's native token, such as "0.002".
	// +required
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	Amount string `json:"amount"`
}

// IntentGasOnArrival is the quote's gas on arrival line: what arrives and what it costs.
type IntentGasOnArrival struct {
	// amount is the native token delivered with the fill, in display units of the destination
	// chain's native token: the order's nativeDropAmount.
	// +required
	// +kubebuilder:validation:MaxLength=100
	Amount string `json:"amount"`
	// symbol is the destination chain's native symbol.
	// +required
	// +kubebuilder:validation:MaxLength=16
	Symbol string `json:"symbol"`
	// cost is what it costs, in display units of the input token, rounded up: the quote's
	// amountOut is the output of the amount less the percentage fees and less this cost.
	// +required
	// +kubebuilder:validation:MaxLength=100
	Cost string `json:"cost"`
	// costSymbol is the input token's symbol (a TokenDefinition's symbol: up to 32 characters).
	// +required
	// +kubebuilder:validation:MaxLength=32
	CostSymbol string `json:"costSymbol"`
}

// GaslessTerms are the Permit2 terms of a gasless intent: with the order its tx encodes they make
// the ERC-7683 GaslessCrossChainOrder the user signs.
type GaslessTerms struct {
	// permit2 is the Permit2 contract of the origin chain, the signature's EIP-712 domain.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Permit2 string `json:"permit2"`
	// nonce is the Permit2 nonce, a decimal uint256; the order's nonce is the same number.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9]{1,78}$`
	Nonce string `json:"nonce"`
	// openDeadline is the Permit2 deadline: a filler must open the order before it, and the
	// intent expires then if nobody did.
	// +required
	OpenDeadline metav1.Time `json:"openDeadline"`
}

// TransactionPayload is the transaction that executes the intent, ready for signing.
type TransactionPayload struct {
	// to is the 0x address the transaction is sent to.
	// +required
	To string `json:"to"`
	// data is the 0x hex calldata ("0x" for a plain value transfer).
	// +required
	// +kubebuilder:validation:MaxLength=262144
	Data string `json:"data"`
	// value is the wei sent with the transaction, as a decimal string.
	// +required
	Value string `json:"value"`
	// chainId is the numeric EIP-155 chain id.
	// +required
	ChainID int64 `json:"chainId"`
	// gas is the gas limit to send the transaction with: the chain node's estimate of this exact
	// transaction plus a safety margin. Absent when the node could not estimate it.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Gas int64 `json:"gas,omitempty"`
}

// IntentQuote is a swap's or bridge's quote, in display units of the output token.
type IntentQuote struct {
	// amountOut is the quoted output, less the protocol and solver fees.
	// +required
	// +kubebuilder:validation:MaxLength=100
	AmountOut string `json:"amountOut"`
	// minAmountOut is the least output the order lets a filler deliver (its tx encodes it).
	// +required
	// +kubebuilder:validation:MaxLength=100
	MinAmountOut string `json:"minAmountOut"`
	// slippageBps is the tolerance between amountOut and minAmountOut, in basis points.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	SlippageBps int32 `json:"slippageBps"`
	// gasOnArrival is the native token delivered with the output, and its cost, when the request
	// asked for it.
	// +optional
	GasOnArrival *IntentGasOnArrival `json:"gasOnArrival,omitempty"`
	// integratorFee is the Account's integrator fee the order carries, when it has one.
	// +optional
	IntegratorFee *IntentIntegratorFee `json:"integratorFee,omitempty"`
	// tradeType is exactInput or exactOutput (then amountOut = minAmountOut is the exact amount
	// the recipient receives); absent on intents created before trade types: exactInput.
	// +optional
	// +kubebuilder:validation:Enum=exactInput;exactOutput
	TradeType string `json:"tradeType,omitempty"`
	// amountIn is what the order escrows, in display units of the input token: what the user
	// gives up (for an exact output, the input quoted for it).
	// +optional
	// +kubebuilder:validation:MaxLength=100
	AmountIn string `json:"amountIn,omitempty"`
}

// IntentAuction is a swap's or bridge's market terms as its order encodes them: the Dutch decay of
// its output and the exclusivity of the filler that won the request for quotes.
type IntentAuction struct {
	// type is exclusive (a filler won the request for quotes) or open (none did: a Dutch auction
	// from the feed price).
	// +required
	// +kubebuilder:validation:Enum=exclusive;open
	Type string `json:"type"`
	// startAmountOut is what a fill owes until decayStartAt, in display units of the output
	// token; it falls linearly to the quote's minAmountOut at decayEndAt.
	// +required
	// +kubebuilder:validation:MaxLength=100
	StartAmountOut string `json:"startAmountOut"`
	// decayStartAt and decayEndAt bound the decay.
	// +required
	DecayStartAt metav1.Time `json:"decayStartAt"`
	// +required
	DecayEndAt metav1.Time `json:"decayEndAt"`
	// exclusiveFiller is the winner's payout address on the destination chain: it alone fills
	// until exclusivityDeadline (inclusive).
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	ExclusiveFiller string `json:"exclusiveFiller,omitempty"`
	// exclusivityDeadline is the last second of the exclusivity.
	// +optional
	ExclusivityDeadline *metav1.Time `json:"exclusivityDeadline,omitempty"`
	// exclusivityOverrideBps is what another filler pays above the decayed amount during the
	// exclusivity; 0: none may fill.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	ExclusivityOverrideBps int32 `json:"exclusivityOverrideBps,omitempty"`
	// winner is the name of the Filler that won the request for quotes.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Winner string `json:"winner,omitempty"`
	// quotes is how many fillers quoted at or above the floor, of fillersAsked.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Quotes int32 `json:"quotes,omitempty"`
	// +optional
	// +kubebuilder:validation:Minimum=0
	FillersAsked int32 `json:"fillersAsked,omitempty"`
}

// TransferIntentSpec is the stored intent. It is written once, when the intent is created, and
// never changed.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable"
type TransferIntentSpec struct {
	// id is the API identifier, int_transfer_<ULID>; the object name is its lowercase form with '-'.
	// +required
	// +kubebuilder:validation:Pattern=`^int_transfer_[0-9A-HJKMNP-TV-Z]{26}$`
	ID string `json:"id"`
	// accountRef names the Account that created the intent.
	// +required
	AccountRef LocalObjectReference `json:"accountRef"`
	// apiKeyRef names the ApiKey that created the intent.
	// +optional
	APIKeyRef *LocalObjectReference `json:"apiKeyRef,omitempty"`
	// environment is the environment of the key that created the intent.
	// +required
	Environment Environment `json:"environment"`
	// type is the inferred operation.
	// +required
	Type IntentType `json:"type"`
	// resolvedPath lists the primitive operations in order.
	// +optional
	// +kubebuilder:validation:MaxItems=4
	ResolvedPath []IntentType `json:"resolvedPath,omitempty"`
	// fromChain and toChain are the CAIP-2 chains of from and to, kept for printing and selection.
	// +required
	FromChain string `json:"fromChain"`
	// +required
	ToChain string `json:"toChain"`
	// orderId is the deterministic on-chain order identifier, 0x and 64 hex digits.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{64}$`
	OrderID string `json:"orderId"`
	// request is the transfer request.
	// +required
	Request TransferRequest `json:"request"`
	// tx is the transaction payload.
	// +optional
	Tx *TransactionPayload `json:"tx,omitempty"`
	// gasless holds the Permit2 terms when the request's execution is gasless.
	// +optional
	Gasless *GaslessTerms `json:"gasless,omitempty"`
	// quote is what a swap's or bridge's order promises, the figures its tx encodes: the
	// simulation's when the intent was created with a simulationId (a firm quote).
	// +optional
	Quote *IntentQuote `json:"quote,omitempty"`
	// auction is a swap's or bridge's market terms, which its order encodes.
	// +optional
	Auction *IntentAuction `json:"auction,omitempty"`
	// expiresAt is when a pending intent expires: its deadline, or creation plus the default TTL.
	// +required
	ExpiresAt metav1.Time `json:"expiresAt"`
	// idempotencyKeyHash is sha256 of the account and the Idempotency-Key header the intent was
	// created with, so that retries return this intent.
	// +optional
	// +kubebuilder:validation:Pattern=`^sha256:[0-9a-f]{64}$`
	IdempotencyKeyHash string `json:"idempotencyKeyHash,omitempty"`
	// requestHash is sha256 of the canonical request, to tell a retry from a different request
	// under the same Idempotency-Key.
	// +optional
	// +kubebuilder:validation:Pattern=`^sha256:[0-9a-f]{64}$`
	RequestHash string `json:"requestHash,omitempty"`
}

// TransferIntentStatus is the lifecycle of the intent. A submitted intent goes back to pending
// only when its transaction left the chain before confirmation (a reorg, or a reported
// transaction the node dropped): see docs/decisions.md.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.phase) || oldSelf.phase == self.phase || (oldSelf.phase == 'pending' && self.phase in ['submitted', 'expired']) || (oldSelf.phase == 'unsigned' && self.phase in ['signed', 'submitted', 'expired', 'cancelled']) || (oldSelf.phase == 'signed' && self.phase in ['submitted', 'expired', 'cancelling']) || (oldSelf.phase == 'cancelling' && self.phase in ['submitted', 'cancelled']) || (oldSelf.phase == 'submitted' && self.phase in ['confirmed', 'failed', 'pending', 'signed', 'cancelling'])",message="illegal lifecycle transition: pending -> submitted|expired, unsigned -> signed|submitted|expired|cancelled, signed -> submitted|expired|cancelling, cancelling -> submitted|cancelled, submitted -> confirmed|failed|pending|signed|cancelling"
// +kubebuilder:validation:XValidation:rule="!has(self.phase) || !(self.phase in ['signed', 'cancelling']) || has(self.signature)",message="a signed or cancelling intent has its user's signature"
// +kubebuilder:validation:XValidation:rule="!has(self.phase) || !(self.phase in ['submitted', 'confirmed', 'failed']) || has(self.hash)",message="a submitted, confirmed or failed intent has its transaction hash"
// +kubebuilder:validation:XValidation:rule="!has(self.blockNumber) || has(self.blockHash)",message="blockNumber and blockHash are set together"
// +kubebuilder:validation:XValidation:rule="!has(self.failureCode) || (has(self.phase) && self.phase == 'failed')",message="only a failed intent has a failureCode"
type TransferIntentStatus struct {
	CommonStatus `json:",inline"`
	// phase is the lifecycle status served as `status` by the API.
	// +optional
	Phase IntentPhase `json:"phase,omitempty"`
	// hash is the transaction hash once submitted.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	Hash string `json:"hash,omitempty"`
	// blockNumber is the block that holds the transaction, once the watcher saw it in one.
	// +optional
	// +kubebuilder:validation:Minimum=0
	BlockNumber int64 `json:"blockNumber,omitempty"`
	// blockHash is the hash of that block: a reorg that replaces the block is told by it.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{64}$`
	BlockHash string `json:"blockHash,omitempty"`
	// fill is a swap's or bridge's fill on its destination chain, once the watcher saw it.
	// +optional
	Fill *FillStatus `json:"fill,omitempty"`
	// signature is the user's signature of a gasless intent's Permit2 typed data (65 bytes of
	// ECDSA, or what the contract account's EIP-1271 isValidSignature takes: at most 65 bytes for
	// each of 32 owners), once accepted. It
	// only authorises the order as signed: it is offered to fillers.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x([0-9a-f]{2})+$`
	// +kubebuilder:validation:MaxLength=4162
	Signature string `json:"signature,omitempty"`

	// cancelledAt is when the user cancelled the gasless order (soft cancel). A cancelled order
	// never returns to the book: a reorg that takes a late Open away brings it back to
	// cancelling, not to signed.
	// +optional
	CancelledAt *metav1.Time `json:"cancelledAt,omitempty"`
	// cancelReason is the reason the user gave with the cancel, if any: at most 200 characters,
	// no control characters.
	// +optional
	// +kubebuilder:validation:MaxLength=200
	CancelReason string `json:"cancelReason,omitempty"`
	// refundHash is the transaction that returned a swap's or bridge's escrow to its owner. The
	// intent fails once it is final; until then it stays submitted, and the hash is cleared if the
	// refund leaves the chain.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	RefundHash string `json:"refundHash,omitempty"`
	// refundAllowed is true once the chain watcher saw the guardian's RefundAllowed(orderId) on
	// the order's origin contract: its user may take the escrow back before deadline +
	// refundDelay.
	// +optional
	RefundAllowed bool `json:"refundAllowed,omitempty"`
	// failureCode is why a failed intent failed (its Transaction condition says it in words). Set
	// with the failed phase, and only then.
	// +optional
	FailureCode FailureCode `json:"failureCode,omitempty"`
	// failureError is the error the failed intent's transaction reverted with, when the node
	// gave its revert data. Set with the failed phase, and only then.
	// +optional
	FailureError *RevertError `json:"failureError,omitempty"`
	// updatedAt is when phase last changed.
	// +optional
	UpdatedAt *metav1.Time `json:"updatedAt,omitempty"`
}

// FillStatus is where and by whom an order was filled.
type FillStatus struct {
	// chainID is the CAIP-2 chain of the fill.
	// +required
	// +kubebuilder:validation:MaxLength=64
	ChainID string `json:"chainID"`
	// hash is the fill transaction.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	Hash string `json:"hash"`
	// blockNumber and blockHash are the block that holds it.
	// +required
	// +kubebuilder:validation:Minimum=0
	BlockNumber int64 `json:"blockNumber"`
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{64}$`
	BlockHash string `json:"blockHash"`
	// filler is the address the escrow is released to.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Filler string `json:"filler"`
	// amountOut is what the recipient received, in base units of the output token.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9]{1,78}$`
	AmountOut string `json:"amountOut"`
	// fillerName is the Filler whose payout address on the fill's chain filler is, when one is.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	FillerName string `json:"fillerName,omitempty"`
	// attestation is the attester's EIP-712 signature of the fill (bridges), once it is final.
	// It is not a secret: it only releases the escrow to filler.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{130}$`
	Attestation string `json:"attestation,omitempty"`
}

// The Status column and the status.phase field selector read status.phase, which no write but
// the status's own sets: a new intent's status is not written (its pending, or unsigned for a
// gasless one, is implied), so the column prints nothing for it until its first transition. A
// phase label would cost the API server a metadata write per transition (docs/decisions.md,
// "An intent costs the API server three writes"). The status's own CEL rule checks the moves
// between written phases; the object's rule below checks the first written phase, since a
// transition rule on the status does not run while the intent has none.

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ti;intent,categories=tis
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.spec.id`
// +kubebuilder:printcolumn:name="Type",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="Status",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Block",type=integer,JSONPath=`.status.blockNumber`
// +kubebuilder:printcolumn:name="Hash",type=string,JSONPath=`.status.hash`,priority=1
// +kubebuilder:printcolumn:name="Fill",type=string,JSONPath=`.status.fill.hash`,priority=1
// +kubebuilder:printcolumn:name="From-Chain",type=string,JSONPath=`.spec.fromChain`
// +kubebuilder:printcolumn:name="To-Chain",type=string,JSONPath=`.spec.toChain`
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountRef.name`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:selectablefield:JSONPath=`.status.phase`
// +kubebuilder:validation:XValidation:rule="(has(oldSelf.status) && has(oldSelf.status.phase)) || !has(self.status) || !has(self.status.phase) || self.status.phase in (has(self.spec.gasless) ? ['unsigned', 'signed', 'submitted', 'expired', 'cancelled'] : ['pending', 'submitted', 'expired'])",message="illegal lifecycle transition: a new intent is pending and moves to submitted or expired; a new gasless intent is unsigned and moves to signed, submitted, expired or cancelled"

// TransferIntent is a stored transfer, swap or bridge intent.
type TransferIntent struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec TransferIntentSpec `json:"spec"`
	// +optional
	Status TransferIntentStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// TransferIntentList is a list of TransferIntent.
type TransferIntentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []TransferIntent `json:"items"`
}

func init() {
	SchemeBuilder.Register(&TransferIntent{}, &TransferIntentList{})
}
