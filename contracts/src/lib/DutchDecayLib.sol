// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title DutchDecayLib
/// @notice The one rule of an order's price over time: the output a fill must pay starts at
/// startAmount, holds until decayStart, falls linearly to endAmount (the floor) at decayEnd and stays
/// there. The fall is rounded down, so the amount is rounded up: in the recipient's favour.
/// A window of zero length (decayStart == decayEnd) is a step: startAmount before it, endAmount
/// from it on. The caller has checked startAmount >= endAmount and decayEnd >= decayStart.
library DutchDecayLib {
    /// @notice The output required at time `at`.
    function decay(uint256 startAmount, uint256 endAmount, uint256 decayStart, uint256 decayEnd, uint256 at)
        internal
        pure
        returns (uint256)
    {
        if (at >= decayEnd) return endAmount;
        // Before decayStart nothing has elapsed; saturating, so that no comparison of ours sits at a
        // boundary where both sides give the same amount.
        uint256 elapsed = Math.saturatingSub(at, decayStart);
        if (elapsed == 0) return startAmount;
        return startAmount - Math.mulDiv(startAmount - endAmount, elapsed, decayEnd - decayStart);
    }
}
