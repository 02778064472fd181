// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ISignatureTransfer} from "permit2/src/interfaces/ISignatureTransfer.sol";
import {DutchDecayLib} from "./lib/DutchDecayLib.sol";
import {ExclusivityLib} from "./lib/ExclusivityLib.sol";
import {FeeLib} from "./lib/FeeLib.sol";

// ---- ERC-7683 (cross-chain intents) types, as the standard defines them ----

/// @notice ERC-7683's order opened on chain by its user.
struct OnchainCrossChainOrder {
    uint32 fillDeadline;
    bytes32 orderDataType;
    bytes orderData;
}

/// @notice ERC-7683's order signed by its user and opened by a filler (openFor). Through Permit2:
/// nonce is the user's Permit2 nonce, openDeadline the permit's deadline, and the whole order is
/// the permit's witness, so one signature authorises exactly this order's input, once.
struct GaslessCrossChainOrder {
    address originSettler;
    address user;
    uint256 nonce;
    uint256 originChainId;
    uint32 openDeadline;
    uint32 fillDeadline;
    bytes32 orderDataType;
    bytes orderData;
}

/// @notice ERC-7683's token amount on a chain: token and recipient as bytes32 (left-padded addresses);
/// bytes32(0) is the native token, as ERC-7683 specifies.
struct Output {
    bytes32 token;
    uint256 amount;
    bytes32 recipient;
    uint256 chainId;
}

/// @notice ERC-7683's instruction to a filler: where to fill, and what to pass as originData.
struct FillInstruction {
    uint256 destinationChainId;
    bytes32 destinationSettler;
    bytes originData;
}

/// @notice ERC-7683's resolved order, emitted by Open and returned by resolve.
struct ResolvedCrossChainOrder {
    address user;
    uint256 originChainId;
    uint32 openDeadline;
    uint32 fillDeadline;
    bytes32 orderId;
    Output[] maxSpent;
    Output[] minReceived;
    FillInstruction[] fillInstructions;
}

/// @notice The order the Transfer Intent Service builds. Every field is a static word, so
/// abi.encode(order) is twenty-two 32-byte words and orderId = keccak256(abi.encode(order)) is what
/// the service computes and stores.
struct Order {
    // A keyed hash of the service's account: the order belongs to one account's intent.
    bytes32 account;
    // The settlement contract that escrows the order (ERC-7683's originSettler): the order, and so
    // its orderId, belongs to one contract on one chain.
    address originSettler;
    uint256 originChainId;
    // The owner: sends the escrow, receives the refund.
    address user;
    uint256 destinationChainId;
    address recipient;
    // NATIVE for the chain's native token.
    address tokenIn;
    address tokenOut;
    // The whole escrow, in base units of tokenIn: the fee included.
    uint256 amountIn;
    // The Dutch decay of the output (DutchDecayLib): a fill pays at least startAmountOut until
    // decayStart, an amount falling linearly to minAmountOut (the floor) at decayEnd, and at least
    // minAmountOut after it; in base units of tokenOut, times in unix seconds.
    uint256 startAmountOut;
    uint256 minAmountOut;
    uint64 decayStart;
    uint64 decayEnd;
    // The exclusivity (ExclusivityLib): until exclusivityDeadline only exclusiveFiller fills at the
    // decayed amount; others pay it raised by exclusivityOverrideBps, or not at all when that is 0.
    address exclusiveFiller;
    uint64 exclusivityDeadline;
    uint256 exclusivityOverrideBps;
    // The integrator's fee (FeeLib): feeAmount of the escrow goes to feeRecipient when the order is
    // paid out (settle for a bridge, fill for a swap), never on a refund.
    uint256 feeAmount;
    address feeRecipient;
    // Native token of the destination chain the filler delivers to the recipient with the fill
    // ("gas on arrival"), in wei; exact, not decayed.
    uint256 nativeDropAmount;
    // Unix seconds: the last moment to open and to fill.
    uint64 deadline;
    bytes32 nonce;
    // The settlement contract that fills on the destination chain (this contract for a swap).
    address destinationSettler;
}

/// @title Settlement
/// @notice Escrows swap and bridge orders of the Transfer Intent Service and settles them.
///
/// - Origin chain: the user opens an order (open), which escrows amountIn of tokenIn here.
/// - Destination chain: a filler fills it (fill), paying the recipient at least the decayed amount of
///   tokenOut at that block (DutchDecayLib: startAmountOut falling to minAmountOut), subject to the
///   order's exclusivity (ExclusivityLib), and its native drop. A fill is recorded once per orderId.
/// - Payout (settle, or a swap's fill): the escrow less the integrator fee to the filler, the fee
///   to its recipient (FeeLib); a refund returns the whole escrow.
/// - Same-chain swap: fill also releases the escrow to the filler in the same transaction; settle
///   refuses swaps, so the attester key cannot release a swap's escrow.
/// - Bridge: the escrow is released to the filler (settle) on an EIP-712 attestation of the fill,
///   signed by the service's attester once the fill is final on the destination chain.
/// - After deadline + refundDelay an order that was not settled is refunded to its user (refund);
///   earlier if the guardian allowed it.
/// - The guardian (GUARDIAN_ROLE) can pause open, fill and settle, and allow early refunds. It can
///   never move an escrow anywhere but back to the order's user; refund is never paused.
///
/// open and fill follow ERC-7683's IOriginSettler.open and IDestinationSettler.fill, so an ERC-7683
/// filler can fill these orders; the trust model is in docs/settlement.md.
contract Settlement is ReentrancyGuard, EIP712, AccessControl, Pausable {
    using SafeERC20 for IERC20;

    /// @notice The pseudo-address that stands for the chain's native token in Order (ERC-7683's
    /// Output uses bytes32(0) instead; resolve translates).
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    /// @notice ERC-7683 orderDataType of Order: the EIP-712 type hash of its type string.
    bytes32 public constant ORDER_DATA_TYPE = keccak256(
        "Order(bytes32 account,address originSettler,uint256 originChainId,address user,uint256 destinationChainId,"
        "address recipient,address tokenIn,address tokenOut,uint256 amountIn,uint256 startAmountOut,"
        "uint256 minAmountOut,uint64 decayStart,uint64 decayEnd,address exclusiveFiller,uint64 exclusivityDeadline,"
        "uint256 exclusivityOverrideBps,uint256 feeAmount,address feeRecipient,uint256 nativeDropAmount,"
        "uint64 deadline,bytes32 nonce,address destinationSettler)"
    );

    /// @notice The EIP-712 type hash of the witness the user signs for openFor: ERC-7683's
    /// GaslessCrossChainOrder with orderData as the Order struct (so a wallet shows its fields).
    bytes32 public constant GASLESS_ORDER_TYPEHASH = keccak256(
        "GaslessCrossChainOrder(address originSettler,address user,uint256 nonce,uint256 originChainId,"
        "uint32 openDeadline,uint32 fillDeadline,bytes32 orderDataType,Order orderData)"
        "Order(bytes32 account,address originSettler,uint256 originChainId,address user,uint256 destinationChainId,"
        "address recipient,address tokenIn,address tokenOut,uint256 amountIn,uint256 startAmountOut,"
        "uint256 minAmountOut,uint64 decayStart,uint64 decayEnd,address exclusiveFiller,uint64 exclusivityDeadline,"
        "uint256 exclusivityOverrideBps,uint256 feeAmount,address feeRecipient,uint256 nativeDropAmount,"
        "uint64 deadline,bytes32 nonce,address destinationSettler)"
    );

    /// @notice The witness type string passed to Permit2's permitWitnessTransferFrom. Permit2
    /// appends it to "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256
    /// nonce,uint256 deadline,", so it names the witness field, then every referenced type in
    /// EIP-712 order: GaslessCrossChainOrder (the type above), Order, TokenPermissions.
    string public constant WITNESS_TYPE_STRING = "GaslessCrossChainOrder witness)"
        "GaslessCrossChainOrder(address originSettler,address user,uint256 nonce,uint256 originChainId,"
        "uint32 openDeadline,uint32 fillDeadline,bytes32 orderDataType,Order orderData)"
        "Order(bytes32 account,address originSettler,uint256 originChainId,address user,uint256 destinationChainId,"
        "address recipient,address tokenIn,address tokenOut,uint256 amountIn,uint256 startAmountOut,"
        "uint256 minAmountOut,uint64 decayStart,uint64 decayEnd,address exclusiveFiller,uint64 exclusivityDeadline,"
        "uint256 exclusivityOverrideBps,uint256 feeAmount,address feeRecipient,uint256 nativeDropAmount,"
        "uint64 deadline,bytes32 nonce,address destinationSettler)"
        "TokenPermissions(address token,uint256 amount)";

    /// @notice The EIP-712 type the attester signs: "filler filled orderId with amountOut".
    bytes32 public constant FILL_TYPEHASH = keccak256("Fill(bytes32 orderId,address filler,uint256 amountOut)");

    /// @notice The role that may pause and allow early refunds (granted to the constructor's
    /// guardian, who also administers the roles).
    bytes32 public constant GUARDIAN_ROLE = keccak256("GUARDIAN_ROLE");

    /// @notice The least refundDelay a deployment accepts: a fill made just before the deadline
    /// must have the time to become final on its destination chain, be attested and settled
    /// before its user can take the escrow back (docs/settlement.md).
    uint64 public constant MIN_REFUND_DELAY = 1 hours;

    /// @notice The length of abi.encode(Order): twenty-two static words.
    uint256 private constant ORDER_LENGTH = 22 * 32;

    enum Status {
        None,
        Opened,
        Settled,
        Refunded
    }

    /// @notice A fill recorded on this (destination) chain.
    struct FillRecord {
        address filler;
        uint256 amountOut;
    }

    /// @notice The only key whose attestations release bridge escrows. Immutable: a new attester
    /// is a new deployment, so no admin or guardian key can redirect escrows.
    address public immutable attester;

    /// @notice Seconds after an order's deadline before it can be refunded, so a fill made just
    /// before the deadline can still be attested and settled. At least MIN_REFUND_DELAY.
    uint64 public immutable refundDelay;

    /// @notice Uniswap's Permit2, which pulls a gasless order's input on its user's signature.
    /// Immutable: the service checks it is Permit2's code before it offers gasless orders.
    ISignatureTransfer public immutable permit2;

    /// @notice Origin-side status of each orderId.
    mapping(bytes32 orderId => Status) public orders;

    /// @notice Destination-side fills.
    mapping(bytes32 orderId => FillRecord) public fills;

    /// @notice Orders the guardian allowed to be refunded before deadline + refundDelay.
    mapping(bytes32 orderId => bool) public refundAllowed;

    /// @notice Whether the guardian allowed every order to be refunded early.
    bool public allRefundsAllowed;

    /// @notice ERC-7683's event for an opened order.
    event Open(bytes32 indexed orderId, ResolvedCrossChainOrder resolvedOrder);

    /// @notice The order itself, for fillers and the service that do not decode ERC-7683.
    event Opened(bytes32 indexed orderId, address indexed user, Order order);

    /// @notice A fill on this chain: the recipient received amountOut; filler is repaid.
    event Filled(bytes32 indexed orderId, address indexed filler, address indexed recipient, uint256 amountOut);

    /// @notice The escrow of orderId went to filler (amountIn less the fee, paid in FeePaid).
    event Settled(bytes32 indexed orderId, address indexed filler, uint256 amountIn);

    /// @notice The integrator fee of orderId went to recipient, in tokenIn, with the payout.
    event FeePaid(bytes32 indexed orderId, address indexed recipient, address token, uint256 amount);

    /// @notice The escrow of orderId went back to user.
    event Refunded(bytes32 indexed orderId, address indexed user, uint256 amountIn);

    /// @notice The guardian allowed orderId to be refunded now.
    event RefundAllowed(bytes32 indexed orderId);

    /// @notice The guardian allowed (or stopped allowing) every order to be refunded now.
    event AllRefundsAllowed(bool allowed);

    error WrongOrderDataType();
    error MalformedOrder();
    error WrongChain();
    error WrongOriginSettler();
    error WrongDestination();
    error SwapSettlesByFill();
    error NotOrderOwner();
    error DeadlineMismatch();
    error DeadlinePassed();
    error InvalidAmount();
    error WrongValue();
    error AlreadyOpened(bytes32 orderId);
    error NotOpened(bytes32 orderId);
    error AlreadyFilled(bytes32 orderId);
    error OrderIdMismatch();
    error BelowMinimum(uint256 amountOut, uint256 minAmountOut);
    error DecayInverted();
    error InvalidAttestation();
    error RefundTooEarly(uint256 refundableAt);
    error TransferShort(uint256 received, uint256 expected);
    error ZeroAddress();
    error RefundDelayTooShort(uint64 refundDelay, uint64 minimum);
    error GuardianIsAttester();
    error WrongUser();
    error NonceMismatch();
    error OpenDeadlinePassed();
    error OpenDeadlineAfterFill();
    error NativeNotGasless();
    error FillerDataNotAccepted();

    /// @param attester_ the key whose EIP-712 attestations release bridge escrows (immutable).
    /// @param guardian_ the guardian: holds GUARDIAN_ROLE and DEFAULT_ADMIN_ROLE; must differ from
    /// the attester.
    /// @param refundDelay_ seconds after a deadline before anyone may refund; at least
    /// MIN_REFUND_DELAY.
    /// @param permit2_ Permit2 (0x000000000022D473030F116dDEE9F6B43aC78BA3 on public chains).
    constructor(address attester_, address guardian_, uint64 refundDelay_, address permit2_)
        EIP712("TransferIntentSettlement", "1")
    {
        if (attester_ == address(0) || guardian_ == address(0) || permit2_ == address(0)) revert ZeroAddress();
        if (guardian_ == attester_) revert GuardianIsAttester();
        if (refundDelay_ < MIN_REFUND_DELAY) revert RefundDelayTooShort(refundDelay_, MIN_REFUND_DELAY);
        attester = attester_;
        refundDelay = refundDelay_;
        permit2 = ISignatureTransfer(permit2_);
        _grantRole(DEFAULT_ADMIN_ROLE, guardian_);
        _grantRole(GUARDIAN_ROLE, guardian_);
    }

    // ---- guardian ----

    /// @notice Stops open, fill and settle (not refund) until unpause.
    function pause() external onlyRole(GUARDIAN_ROLE) {
        _pause();
    }

    /// @notice Resumes open, fill and settle.
    function unpause() external onlyRole(GUARDIAN_ROLE) {
        _unpause();
    }

    /// @notice Lets orderId be refunded (to its user, by anyone) before deadline + refundDelay.
    function allowRefund(bytes32 orderId) external onlyRole(GUARDIAN_ROLE) {
        refundAllowed[orderId] = true;
        emit RefundAllowed(orderId);
    }

    /// @notice Lets every order be refunded (to its user, by anyone) before deadline + refundDelay,
    /// or stops allowing it.
    function allowAllRefunds(bool allowed) external onlyRole(GUARDIAN_ROLE) {
        allRefundsAllowed = allowed;
        emit AllRefundsAllowed(allowed);
    }

    // ---- origin chain ----

    /// @notice ERC-7683 IOriginSettler.open: escrows the order's amountIn from its user (the
    /// sender), once per orderId, before its deadline.
    function open(OnchainCrossChainOrder calldata crossChainOrder) external payable nonReentrant whenNotPaused {
        if (crossChainOrder.orderDataType != ORDER_DATA_TYPE) revert WrongOrderDataType();
        Order memory order = _decode(crossChainOrder.orderData);
        _checkOrigin(order);
        if (order.user != msg.sender) revert NotOrderOwner();
        if (crossChainOrder.fillDeadline != order.deadline) revert DeadlineMismatch();
        bytes32 orderId = _record(order);

        _pullExact(order.tokenIn, msg.sender, order.amountIn);

        _emitOpen(orderId, order);
    }

    /// @notice ERC-7683 IOriginSettler.openFor, called by a filler (who pays the gas): escrows the
    /// order's amountIn from its user through Permit2, on the user's signature of the whole order
    /// (the permit's witness). The order, its orderId and its events are those of open, so fill,
    /// settle and refund treat both alike. originFillerData must be empty: nothing a filler adds
    /// may change what the user signed.
    function openFor(GaslessCrossChainOrder calldata order, bytes calldata signature, bytes calldata originFillerData)
        external
        nonReentrant
        whenNotPaused
    {
        if (originFillerData.length != 0) revert FillerDataNotAccepted();
        Order memory inner = _checkGasless(order);
        bytes32 orderId = _record(inner);

        uint256 before = IERC20(inner.tokenIn).balanceOf(address(this));
        permit2.permitWitnessTransferFrom(
            ISignatureTransfer.PermitTransferFrom({
                permitted: ISignatureTransfer.TokenPermissions({token: inner.tokenIn, amount: inner.amountIn}),
                nonce: order.nonce,
                deadline: order.openDeadline
            }),
            ISignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: inner.amountIn}),
            inner.user,
            _gaslessHash(order, inner),
            WITNESS_TYPE_STRING,
            signature
        );
        uint256 received = IERC20(inner.tokenIn).balanceOf(address(this)) - before;
        if (received != inner.amountIn) revert TransferShort(received, inner.amountIn);

        _emitOpen(orderId, inner);
    }

    /// @notice ERC-7683 IOriginSettler.resolveFor: the gasless order as ERC-7683 fillers read it
    /// (the same resolution as open's), after the checks openFor makes before the signature.
    function resolveFor(GaslessCrossChainOrder calldata order, bytes calldata originFillerData)
        external
        view
        returns (ResolvedCrossChainOrder memory)
    {
        if (originFillerData.length != 0) revert FillerDataNotAccepted();
        Order memory inner = _checkGasless(order);
        return _resolve(inner, keccak256(abi.encode(inner)));
    }

    /// @notice The EIP-712 struct hash of a gasless order: the witness its user signs through
    /// Permit2 (for off-chain signers and tests).
    function gaslessOrderHash(GaslessCrossChainOrder calldata order) external pure returns (bytes32) {
        return _gaslessHash(order, _decode(order.orderData));
    }

    /// @notice ERC-7683 IOriginSettler.resolve: the order as ERC-7683 fillers read it.
    function resolve(OnchainCrossChainOrder calldata crossChainOrder)
        external
        pure
        returns (ResolvedCrossChainOrder memory)
    {
        if (crossChainOrder.orderDataType != ORDER_DATA_TYPE) revert WrongOrderDataType();
        Order memory order = _decode(crossChainOrder.orderData);
        return _resolve(order, keccak256(abi.encode(order)));
    }

    /// @notice Releases a bridge order's escrow to the filler that the attester saw fill it on the
    /// destination chain. Anyone may submit the attestation: the escrow only goes to `filler`.
    /// A same-chain swap is refused: its escrow is released by its fill alone.
    function settle(Order calldata order, address filler, uint256 amountOut, bytes calldata signature)
        external
        nonReentrant
        whenNotPaused
    {
        bytes32 orderId = keccak256(abi.encode(order));
        if (order.destinationChainId == block.chainid) revert SwapSettlesByFill();
        if (orders[orderId] != Status.Opened) revert NotOpened(orderId);
        if (amountOut < order.minAmountOut) revert BelowMinimum(amountOut, order.minAmountOut);
        if (filler == address(0)) revert ZeroAddress();
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(FILL_TYPEHASH, orderId, filler, amountOut)));
        // tryRecover answers address(0) for any malformed or malleable signature, and the attester
        // is never address(0).
        (address signer,,) = ECDSA.tryRecover(digest, signature);
        if (signer != attester) revert InvalidAttestation();

        orders[orderId] = Status.Settled;
        _payOut(orderId, order, filler);
    }

    /// @notice Returns the escrow of an order that was not settled to its user, once the deadline
    /// and the refund delay have passed (or earlier if the guardian allowed it). Anyone may call
    /// it, even while paused: the escrow only goes to the user.
    function refund(Order calldata order) external nonReentrant {
        bytes32 orderId = keccak256(abi.encode(order));
        if (orders[orderId] != Status.Opened) revert NotOpened(orderId);
        uint256 refundableAt = uint256(order.deadline) + refundDelay;
        if (block.timestamp <= refundableAt && !allRefundsAllowed && !refundAllowed[orderId]) {
            revert RefundTooEarly(refundableAt);
        }

        orders[orderId] = Status.Refunded;
        _push(order.tokenIn, order.user, order.amountIn);
        emit Refunded(orderId, order.user, order.amountIn);
    }

    /// @notice The EIP-712 digest the attester signs for a fill (for off-chain signers and tests).
    function fillDigest(bytes32 orderId, address filler, uint256 amountOut) external view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(FILL_TYPEHASH, orderId, filler, amountOut)));
    }

    // ---- destination chain ----

    /// @notice ERC-7683 IDestinationSettler.fill. originData is abi.encode(Order); fillerData is
    /// abi.encode(uint256 amountOut, address repayTo) (repayTo zero means the sender). The sender
    /// pays amountOut of tokenOut to the recipient, at least the order's decayed amount at this
    /// block (DutchDecayLib) as the exclusivity asks of the sender (ExclusivityLib), and the order's
    /// native drop, once per orderId, before the deadline. On the origin chain (a swap) the order must
    /// be open, and its escrow (less the fee) goes to repayTo in the same transaction.
    function fill(bytes32 orderId, bytes calldata originData, bytes calldata fillerData)
        external
        payable
        nonReentrant
        whenNotPaused
    {
        Order memory order = _decode(originData);
        if (keccak256(abi.encode(order)) != orderId) revert OrderIdMismatch();
        if (order.destinationChainId != block.chainid || order.destinationSettler != address(this)) {
            revert WrongDestination();
        }
        if (block.timestamp > order.deadline) revert DeadlinePassed();
        if (fillerData.length != 64) revert MalformedOrder();
        (uint256 amountOut, address repayTo) = abi.decode(fillerData, (uint256, address));
        if (repayTo == address(0)) repayTo = msg.sender;
        uint256 owed = _owed(order);
        if (amountOut < owed) revert BelowMinimum(amountOut, owed);
        if (fills[orderId].filler != address(0)) revert AlreadyFilled(orderId);
        bool sameChain = order.originChainId == block.chainid;
        if (sameChain) {
            if (orders[orderId] != Status.Opened) revert NotOpened(orderId);
            orders[orderId] = Status.Settled;
        }
        fills[orderId] = FillRecord(repayTo, amountOut);

        _deliver(order.tokenOut, order.recipient, amountOut, order.nativeDropAmount);
        emit Filled(orderId, repayTo, order.recipient, amountOut);
        if (sameChain) _payOut(orderId, order, repayTo);
    }

    /// @notice The least amountOut the sender of a fill of order would have to pay in this block:
    /// the decayed amount, raised by the exclusivity override for any filler but the exclusive one.
    /// For fillers and the service; fill computes exactly this.
    function amountOwed(Order calldata order, address filler) external view returns (uint256) {
        return _owedBy(order, filler);
    }

    // ---- internals ----

    /// @dev An order opens on its origin chain, at its origin settler only.
    function _checkOrigin(Order memory order) private view {
        if (order.originChainId != block.chainid) revert WrongChain();
        if (order.originSettler != address(this)) revert WrongOriginSettler();
    }

    /// @dev What the sender of a fill owes the recipient now (DutchDecayLib, then ExclusivityLib).
    function _owed(Order memory order) private view returns (uint256) {
        return _owedBy(order, msg.sender);
    }

    function _owedBy(Order memory order, address filler) private view returns (uint256) {
        uint256 decayed = DutchDecayLib.decay(
            order.startAmountOut, order.minAmountOut, order.decayStart, order.decayEnd, block.timestamp
        );
        return ExclusivityLib.required(
            decayed, order.exclusiveFiller, order.exclusivityDeadline, order.exclusivityOverrideBps, filler, block.timestamp
        );
    }

    /// @dev Pays out an order's escrow: the fee to its recipient (FeeLib), the rest to the filler.
    function _payOut(bytes32 orderId, Order memory order, address filler) private {
        uint256 share = FeeLib.fillerShare(order.amountIn, order.feeAmount);
        _push(order.tokenIn, filler, share);
        emit Settled(orderId, filler, share);
        if (order.feeAmount != 0) {
            _push(order.tokenIn, order.feeRecipient, order.feeAmount);
            emit FeePaid(orderId, order.feeRecipient, order.tokenIn, order.feeAmount);
        }
    }

    /// @dev The checks every open makes of its order (after _checkOrigin), then marks it opened,
    /// once per orderId.
    function _record(Order memory order) private returns (bytes32 orderId) {
        orderId = keccak256(abi.encode(order));
        if (block.timestamp > order.deadline) revert DeadlinePassed();
        if (order.amountIn == 0 || order.minAmountOut == 0) revert InvalidAmount();
        if (order.startAmountOut < order.minAmountOut || order.decayEnd < order.decayStart) revert DecayInverted();
        FeeLib.check(order.amountIn, order.feeAmount, order.feeRecipient);
        if (order.recipient == address(0) || order.destinationSettler == address(0)) revert ZeroAddress();
        if (order.destinationChainId == block.chainid && order.destinationSettler != address(this)) {
            revert WrongDestination();
        }
        if (orders[orderId] != Status.None) revert AlreadyOpened(orderId);
        orders[orderId] = Status.Opened;
    }

    function _emitOpen(bytes32 orderId, Order memory order) private {
        emit Opened(orderId, order.user, order);
        emit Open(orderId, _resolve(order, orderId));
    }

    /// @dev The gasless order's own fields must agree with the Order it carries: one user, one
    /// chain, one settler, one deadline, and the Permit2 nonce as the order's nonce (so each
    /// signature opens one orderId). Permit2 checks the signature, the nonce and openDeadline.
    function _checkGasless(GaslessCrossChainOrder calldata order) private view returns (Order memory inner) {
        if (order.orderDataType != ORDER_DATA_TYPE) revert WrongOrderDataType();
        inner = _decode(order.orderData);
        _checkOrigin(inner);
        if (order.originSettler != address(this)) revert WrongOriginSettler();
        if (order.originChainId != block.chainid) revert WrongChain();
        if (order.user != inner.user) revert WrongUser();
        if (bytes32(order.nonce) != inner.nonce) revert NonceMismatch();
        if (order.fillDeadline != inner.deadline) revert DeadlineMismatch();
        if (order.openDeadline > order.fillDeadline) revert OpenDeadlineAfterFill();
        if (block.timestamp > order.openDeadline) revert OpenDeadlinePassed();
        if (inner.tokenIn == NATIVE) revert NativeNotGasless();
    }

    /// @dev EIP-712 hashStruct(GaslessCrossChainOrder), inner being its decoded orderData. Order's
    /// fields are all static words, so hashStruct(Order) is keccak256(abi.encode(ORDER_DATA_TYPE,
    /// inner)).
    function _gaslessHash(GaslessCrossChainOrder calldata order, Order memory inner) private pure returns (bytes32) {
        return keccak256(
            abi.encode(
                GASLESS_ORDER_TYPEHASH,
                order.originSettler,
                order.user,
                order.nonce,
                order.originChainId,
                order.openDeadline,
                order.fillDeadline,
                order.orderDataType,
                keccak256(abi.encode(ORDER_DATA_TYPE, inner))
            )
        );
    }

    /// @dev Decodes exactly twenty-two words: abi.decode ignores trailing bytes, which would let one
    /// order travel under several encodings.
    function _decode(bytes calldata data) private pure returns (Order memory) {
        if (data.length != ORDER_LENGTH) revert MalformedOrder();
        return abi.decode(data, (Order));
    }

    function _resolve(Order memory order, bytes32 orderId) private pure returns (ResolvedCrossChainOrder memory r) {
        r.user = order.user;
        r.originChainId = order.originChainId;
        r.openDeadline = uint32(order.deadline);
        r.fillDeadline = uint32(order.deadline);
        r.orderId = orderId;
        // What the filler sends: the output, capped by the decay's start amount, and the native drop.
        bool drop = order.nativeDropAmount != 0;
        r.maxSpent = new Output[](drop ? 2 : 1);
        r.maxSpent[0] =
            Output(_token(order.tokenOut), order.startAmountOut, _word(order.recipient), order.destinationChainId);
        if (drop) {
            r.maxSpent[1] =
                Output(bytes32(0), order.nativeDropAmount, _word(order.recipient), order.destinationChainId);
        }
        // What the filler receives: the escrow less the integrator's fee.
        r.minReceived = new Output[](1);
        r.minReceived[0] = Output(
            _token(order.tokenIn),
            FeeLib.fillerShare(order.amountIn, order.feeAmount),
            bytes32(0),
            order.originChainId
        );
        r.fillInstructions = new FillInstruction[](1);
        r.fillInstructions[0] =
            FillInstruction(order.destinationChainId, _word(order.destinationSettler), abi.encode(order));
    }

    function _word(address a) private pure returns (bytes32) {
        return bytes32(uint256(uint160(a)));
    }

    /// @dev ERC-7683's token word: bytes32(0) for the native token.
    function _token(address token) private pure returns (bytes32) {
        return token == NATIVE ? bytes32(0) : _word(token);
    }

    /// @dev Takes exactly amount of token from `from` into escrow: msg.value for the native token;
    /// for an ERC-20 the balance must grow by amount (a fee-on-transfer token is refused, since the
    /// escrow could not pay out what the order says).
    function _pullExact(address token, address from, uint256 amount) private {
        if (token == NATIVE) {
            if (msg.value != amount) revert WrongValue();
            return;
        }
        if (msg.value != 0) revert WrongValue();
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(from, address(this), amount);
        uint256 received = IERC20(token).balanceOf(address(this)) - before;
        if (received != amount) revert TransferShort(received, amount);
    }

    /// @dev Pays amount of token and nativeDrop of the native token from the filler (the sender) to
    /// the recipient, who must receive all of it; msg.value is exactly the native part.
    function _deliver(address token, address recipient, uint256 amount, uint256 nativeDrop) private {
        uint256 nativeOut = nativeDrop;
        if (token == NATIVE) {
            nativeOut += amount;
        } else {
            uint256 before = IERC20(token).balanceOf(recipient);
            IERC20(token).safeTransferFrom(msg.sender, recipient, amount);
            uint256 received = IERC20(token).balanceOf(recipient) - before;
            if (received < amount) revert TransferShort(received, amount);
        }
        if (msg.value != nativeOut) revert WrongValue();
        // No call at all without native value: a recipient contract that refuses ether still
        // receives its ERC-20 output.
        if (nativeOut != 0) Address.sendValue(payable(recipient), nativeOut);
    }

    /// @dev Pays amount of token out of escrow.
    function _push(address token, address to, uint256 amount) private {
        if (token == NATIVE) {
            Address.sendValue(payable(to), amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }
}
