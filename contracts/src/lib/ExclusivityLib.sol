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

    /// @notice A filler other than the exclusive one tried to fill before the deadline of an order
    /// that allows no override.
    error NoExclusiveOverride(address exclusiveFiller, uint256 exclusivityDeadline);

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
        return Math.mulDiv(amount, BPS + overrideBps, BPS, Math.Rounding.Ceil);
    }
}
