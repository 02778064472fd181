// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title ExclusivityLib
/// @notice The one rule of a quote's exclusivity, with UniswapX's meaning: until exclusivityDeadline
/// (inclusive) only exclusiveFiller fills at the decayed amount; anyone else pays that amount raised
/// by overrideBps (rounded up, for the recipient), or may not fill at all when overrideBps is 0.
/// No exclusive filler (the zero address) means anyone fills at the decayed amount.
library ExclusivityLib {
    uint256 private constant BPS = 10_000;

    /// @notice The largest override: another filler pays at most twice the decayed amount.
    uint256 internal constant MAX_OVERRIDE_BPS = BPS;

    /// @notice A filler other than the exclusive one tried to fill before the deadline of an order
    /// that allows no override.
    error NoExclusiveOverride(address exclusiveFiller, uint256 exclusivityDeadline);

    /// @notice An exclusivity the order cannot carry: an override above MAX_OVERRIDE_BPS, or an
    /// exclusivity past the order's deadline (a filler that fades would then hold the order until
    /// it can only be refunded).
    error ExclusivityOutOfBounds();

    /// @notice Refuses an exclusivity out of bounds (at open, and when an order is resolved).
    function check(uint256 overrideBps, uint256 exclusivityDeadline, uint256 deadline) internal pure {
        if (overrideBps > MAX_OVERRIDE_BPS || exclusivityDeadline > deadline) revert ExclusivityOutOfBounds();
    }

    /// @notice The amount `filler` must pay at time `at`, given the decayed amount.
    function required(
        uint256 amount,
        address exclusiveFiller,
        uint256 exclusivityDeadline,
        uint256 overrideBps,
        address filler,
        uint256 at
    ) internal pure returns (uint256) {
        if (exclusiveFiller == address(0) || at > exclusivityDeadline || filler == exclusiveFiller) return amount;
        if (overrideBps == 0) revert NoExclusiveOverride(exclusiveFiller, exclusivityDeadline);
        return raised(amount, overrideBps);
    }

    /// @notice amount raised by overrideBps, rounded up: what a filler without the exclusivity pays.
    function raised(uint256 amount, uint256 overrideBps) internal pure returns (uint256) {
        return Math.mulDiv(amount, BPS + overrideBps, BPS, Math.Rounding.Ceil);
    }
}
