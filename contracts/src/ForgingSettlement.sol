// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title ForgingSettlement
/// @notice A hostile look-alike of the settlement contract for the service's tests only: it
/// answers attester() and refundDelay() with whatever it was deployed with (so it passes a check
/// that only compares those), and emits the settlement contract's Filled event for any order without
/// delivering anything. A watcher that took Filled from whatever contract a Chain names would
/// attest these forged fills. It must never be deployed to a public network.
contract ForgingSettlement {
    address public immutable attester;
    uint64 public immutable refundDelay;

    /// @notice The settlement contract's event, with the same signature and indexing.
    event Filled(bytes32 indexed orderId, address indexed filler, address indexed recipient, uint256 amountOut);

    constructor(address attester_, uint64 refundDelay_) {
        attester = attester_;
        refundDelay = refundDelay_;
    }

    /// @notice Emits a Filled event for the order; nothing is paid to anyone.
    function forgeFill(bytes32 orderId, address filler, address recipient, uint256 amountOut) external {
        emit Filled(orderId, filler, recipient, amountOut);
    }
}
