// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title FeeLib
/// @notice The one rule of an order's integrator fee: feeAmount of the input, taken out of the
/// escrow when the order is paid out (to feeRecipient), never at open and never on a refund. The
/// fee is less than the whole input, and a fee has a recipient.
library FeeLib {
    /// @notice The fee is not less than the input it is taken from.
    error FeeTooHigh(uint256 feeAmount, uint256 amountIn);
    /// @notice A fee with no one to pay it to.
    error NoFeeRecipient();

    /// @notice Refuses a fee the order cannot pay (at open, before anything moves).
    function check(uint256 amountIn, uint256 feeAmount, address feeRecipient) internal pure {
        if (feeAmount >= amountIn) revert FeeTooHigh(feeAmount, amountIn);
        if (feeAmount != 0 && feeRecipient == address(0)) revert NoFeeRecipient();
    }

    /// @notice What the filler is paid out of an escrow of amountIn: the rest goes to the fee.
    function fillerShare(uint256 amountIn, uint256 feeAmount) internal pure returns (uint256) {
        return amountIn - feeAmount;
    }
}
