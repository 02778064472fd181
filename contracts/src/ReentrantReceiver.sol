// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title ReentrantReceiver
/// @notice A hostile contract account for the settlement contract's tests only: it can act as an
/// order's user, filler or recipient (exec forwards its calls), and when it receives native token
/// (a refund, a settle payout, a native delivery) its receive() calls a configured target with
/// configured calldata (a re-entry into the settlement contract) and records whether that call
/// succeeded. It must never be deployed to a public network.
contract ReentrantReceiver {
    address public target;
    bytes public payload;
    bool public reentered;
    uint256 public attempts;

    /// @notice Calls target with data and value from this contract, bubbling up a revert.
    function exec(address target_, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory out) = target_.call{value: msg.value}(data);
        if (!ok) {
            assembly {
                revert(add(out, 32), mload(out))
            }
        }
        return out;
    }

    /// @notice Arms the hook: the next native payment received calls target with data once.
    function arm(address target_, bytes calldata data) external {
        target = target_;
        payload = data;
    }

    receive() external payable {
        if (target != address(0)) {
            address t = target;
            target = address(0); // one attempt per arming
            attempts++;
            (bool ok,) = t.call(payload);
            if (ok) {
                reentered = true;
            }
        }
    }
}
